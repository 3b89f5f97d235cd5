"""The Python example of docs/methods/random-effects.md runs (and the CLI usage it shows is documented)."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "methods" / "random-effects.md"


def test_python_example_runs(capsys):
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "no python example in the doc"
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "(84, 1)" in out and "plan:" in out


def test_cli_usage_is_shown():
    assert "perfrigor plan DATA --costs 10,200" in DOC.read_text(encoding="utf-8")
