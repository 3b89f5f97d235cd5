"""The Python examples of the user guide and the plugin guide run (each page's blocks in order, one namespace)."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(page: str) -> list[str]:
    return BLOCK.findall((DOCS / page).read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", ["user-guide.md", "plugin-guide.md"])
def test_python_blocks_run(page, monkeypatch, tmp_path, capsys):
    monkeypatch.syspath_prepend(str(DOCS / "examples" / "perfrigor-median-ratio" / "src"))
    monkeypatch.chdir(tmp_path)
    code = blocks(page)
    assert code, f"{page} has no python blocks"
    # a real module, so that classes defined in the page pickle (the conformance battery checks it)
    module = types.ModuleType("perfrigor_docs_page")
    monkeypatch.setitem(sys.modules, module.__name__, module)
    namespace = module.__dict__
    for i, block in enumerate(code, 1):
        try:
            exec(compile(block, f"{page} block {i}", "exec"), namespace)
        except Exception as exc:
            raise AssertionError(f"{page}, python block {i} fails: {type(exc).__name__}: {exc}\n{block}") from exc
    sys.modules.pop("perfrigor_median_ratio", None)
    import perfrigor as pr

    pr.registry.reload()


def test_configuration_examples_build():
    import json
    import tomllib

    import perfrigor as pr

    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    (toml_doc,) = re.findall(r"^```toml\n(.*?)^```", text, re.S | re.M)
    (json_doc,) = re.findall(r"^```json\n(.*?)^```", text, re.S | re.M)
    p = pr.Pipeline.from_config(tomllib.loads(toml_doc))
    assert p.name == "nightly" and p.baseline == "release" and p.input_options["format"] == "tidy-csv"
    assert [s.id for s in p.steps][-2:] == ["fieller", "bootstrap-99"]
    q = pr.Pipeline.from_config(json.loads(json_doc))
    assert [s.id for s in q.steps] == [s.id for s in p.steps]
    from perfrigor.config import parse_config

    assert parse_config(tomllib.loads(toml_doc)).output == {"format": "markdown", "fail_on_regression": "warn",
                                                            "github": True}
