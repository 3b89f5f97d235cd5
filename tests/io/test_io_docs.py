"""The examples in docs/input-formats.md and docs/reports.md run."""

from __future__ import annotations

import re
from pathlib import Path

import perfrigor as pr
import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def blocks(name: str, lang: str) -> list[str]:
    text = (DOCS / name).read_text()
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


@pytest.fixture(autouse=True)
def core_only():
    pr.registry.reload(allow=["core"])
    yield
    try:
        pr.registry.reload()
    except pr.ConfigError:
        pr.registry._registry = None


def test_every_json_example_of_input_formats_reads(tmp_path):
    examples = blocks("input-formats.md", "json")
    assert len(examples) >= 7
    for i, text in enumerate(examples):
        p = tmp_path / f"example{i}.json"
        p.write_text(text)
        data = pr.read(p)
        assert isinstance(data, pr.Sample | pr.Suite)


def test_renderer_example_of_reports_md_runs():
    (code,) = [b for b in blocks("reports.md", "python") if "CsvRenderer" in b]
    namespace: dict = {}
    exec(code, namespace)
    import sys
    import types

    plugin = types.ModuleType("csv_renderer_plugin")
    plugin.perfrigor_renderers = namespace["perfrigor_renderers"]
    sys.modules[plugin.__name__] = plugin
    pr.registry.reload(allow=["core"], extra_plugins=[plugin])
    report = pr.Pipeline([_Ratio()]).run([2.0, 2.1, 2.2], [1.0, 1.1, 1.2])
    assert report.render("csv").splitlines()[1].startswith("benchmark,_ratio,")


import attrs  # noqa: E402


@attrs.define(repr=False)
class _Ratio(pr.Comparator):
    """Ratio of means, for the renderer example."""

    name = "_ratio"

    def compare(self, baseline, candidate):
        b, c = pr.as_sample(baseline), pr.as_sample(candidate)
        s = float(b.values.mean() / c.values.mean())
        return pr.Comparison(estimate=s, ci_low=None, ci_high=None, confidence=None, pvalue=None,
                             significant=None, verdict=f"{s:.3f}", details={})


def test_every_reader_option_is_documented_in_its_readers_section():
    text = (DOCS / "input-formats.md").read_text()
    sections = dict(re.findall(r"^## .*?\(`([\w-]+)`\)(.*?)(?=^## |\Z)", text, flags=re.S | re.M))
    sections["tidy-json"] = sections["tidy-csv"] = next(v for k, v in re.findall(
        r"^## (.*?)\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M) if "Tidy tables" in k)
    for reader in pr.readers.BUILTIN_READERS:
        section = sections[reader.name]
        for option in reader.options:
            assert f"`{option}=" in section, (reader.name, option)
        if not reader.options:
            assert "No options" in section, reader.name
