"""The example of docs/methods/speedup-test.md runs and prints what the page says."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "methods" / "speedup-test.md"


def test_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "speedup of the mean 1.957 is significant at 95% confidence" in out
    assert "highest significant level: 0.98" in out  # the tool manual's .out: 0.98
    assert "[0.403, 0.718]" in out and "\n266\n" in out  # P§4 Example 1
    assert "kolmogorov_smirnov" in out and "wilcoxon_mann_whitney" in out


def test_cli_commands_are_the_documented_ones():
    text = DOC.read_text(encoding="utf-8")
    assert "$ perfrigor compare old.txt new.txt --pipeline speedup-test" in text
    assert "$ perfrigor run --pipeline speedup-test bench.cfg --format speedup-test-out" in text
