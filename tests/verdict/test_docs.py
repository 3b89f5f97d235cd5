"""docs/methods/verdict.md and independence.md: their examples run, and the calibration table is the script's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from perfrigor import simulate

DOCS = Path(__file__).resolve().parents[2] / "docs" / "methods"


@pytest.mark.parametrize("page", ["verdict.md", "independence.md"])
def test_python_blocks_run(page, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), flags=re.S)
    assert blocks
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, page, "exec"), namespace)
    out = capsys.readouterr().out
    assert ("faster" in out) if page == "verdict.md" else ("True" in out and "\n5\n" in out)


def test_the_calibration_table_covers_every_model_and_holds_the_bounds():
    text = (DOCS / "verdict.md").read_text(encoding="utf-8")
    table = text.split("<!-- calibration table")[1].split("<!-- end of calibration table")[0]
    rows = [r.split("|")[1:-1] for r in table.splitlines() if r.startswith("| ") and "---" not in r][1:]
    assert {r[0].strip() for r in rows} == set(simulate.names())
    verdicts = [r for r in rows if r[2].strip() == "**verdict**"]
    assert len(verdicts) == sum(len(m.sizes) for m in simulate.MODELS.values())
    for model, size, _, alarm, power in verdicts:
        rate, se = (float(x.strip().rstrip("%")) / 100 for x in alarm.split("±"))
        assert rate <= 0.05 + 2 * se + 1e-9, (model, size, alarm)
        if model.strip() == "iid-normal" and size.strip() == "30":
            assert float(power.split("±")[0].strip().rstrip("%")) >= 90.0


def test_the_suite_calibration_table_holds_the_gate_bound():
    text = (DOCS / "verdict.md").read_text(encoding="utf-8")
    table = text.split("<!-- suite calibration table")[1].split("<!-- end of suite calibration table")[0]
    rows = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]]
            for r in table.splitlines() if r.startswith("| ") and "---" not in r}
    assert {"none", "holm", "benjamini-hochberg"} <= set(rows)
    for control in ("holm", "benjamini-hochberg"):
        rate, se = (float(x.strip().rstrip("%")) / 100 for x in rows[control][0].split("±"))
        assert rate <= 0.05 + 2 * se + 1e-9, (control, rows[control])
        assert float(rows[control][2].split("±")[0].strip().rstrip("%")) >= 50.0  # finds most of the 10
    assert float(rows["none"][0].split("±")[0].strip().rstrip("%")) > 50.0  # why the suite is judged together
