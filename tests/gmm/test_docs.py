"""The example of docs/methods/gmm.md runs, and its CLI lines use real components and parameters."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import perfrigor as pr

DOC = Path(__file__).resolve().parents[2] / "docs" / "methods" / "gmm.md"


def test_python_example_runs(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "Gaussian mixture, " in out and "3 modes at" in out  # the bundled data have several modes
    assert "KSfit: KS distance" in out
    assert "a candidate run is faster than a baseline run with probability" in out


def test_cli_lines_name_real_parameters():
    text = DOC.read_text(encoding="utf-8")
    lines = [ln.split("#")[0] for ln in text.splitlines() if ln.startswith("perfrigor ")]
    assert lines
    for line in lines:
        words = shlex.split(line)
        for i, w in enumerate(words):
            if w == "--param":
                step, _, rest = words[i + 1].partition(".")
                key = rest.split("=")[0]
                assert key in pr.get_registry().component_class(step).param_names()
            if w == "--pipeline":
                assert pr.pipeline(words[i + 1]) is not None


def test_toml_example_builds():
    text = DOC.read_text(encoding="utf-8")
    (toml,) = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    import tomllib

    pipe = pr.Pipeline.from_config(tomllib.loads(toml))
    assert [s.component.name for s in pipe.steps] == ["gmm", "gmm-fit", "prob-faster"]
