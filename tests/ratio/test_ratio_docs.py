"""The examples of docs/methods/ratio.md run: the Python block, and the command line on its files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "methods" / "ratio.md"


def test_python_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "'ci_low': 0.1098343759525" in out and "'ci_high': 1.72530157440" in out  # Table V
    assert "speedup 1.0" in out and "mean time" in out
    assert (tmp_path / "old.csv").exists() and (tmp_path / "new.csv").exists()


def test_cli_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)[0],
                 str(DOC), "exec"), {})
    capsys.readouterr()
    import perfrigor as pr

    if "kalibera-jones" not in pr.get_registry().presets:  # pragma: no cover - plugins missing
        pytest.skip("the kalibera-jones preset is not installed")
    from perfrigor.cli import main

    commands = [line[len("$ perfrigor "):] for line in DOC.read_text(encoding="utf-8").splitlines()
                if line.startswith("$ perfrigor compare")]
    shown = [line for line in re.findall(r"```text\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
             if "fieller:" in line]
    assert len(commands) == 2 and len(shown) == 2
    for command, lines in zip(commands, shown, strict=True):
        assert main(command.split()) == 0
        out = capsys.readouterr().out
        assert "fieller" in out and "bootstrap-ratio" in out and "ratio new/old" in out
        for line in lines.strip().splitlines():  # the output the page shows is the program's
            assert line.strip() in [o.strip() for o in out.splitlines()], line
    assert "cannot tell whether by more than the ±2% threshold" in out
