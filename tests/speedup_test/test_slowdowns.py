"""Slowdowns are seen: the one-sided Speedup-Test says a slower candidate looks slower (never "collect more
runs"), and every preset's report calls pyperf's mult_list 1.3-1.4x slowdowns slower in its first lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest

PYPERF = Path(__file__).resolve().parents[1] / "fixtures" / "pyperf"
SLOWED = ("[1,2]*1000", "[1,2,3]*1000")


@pytest.mark.parametrize("statistic", ["mean", "median"])
def test_a_slower_candidate_looks_slower_and_no_more_runs_are_advised(statistic):
    rng = np.random.default_rng(11)
    old, new = rng.normal(10, 0.1, 40), rng.normal(13, 0.1, 40)
    res = pr.get("speedup-test", statistic=statistic).compare(old, new)
    assert res.significant is False and res.estimate < 1
    assert res.verdict.startswith("the candidate looks slower") and "collect more" not in res.verdict
    assert pr.conclusion(res, "speedup", one_sided=True) == "not faster"
    # a speedup that does not reach the level keeps the original advice
    same = pr.get("speedup-test", statistic=statistic).compare(old, old * 0.999 + rng.normal(0, 0.1, 40))
    if same.estimate >= 1 and not same.significant:
        assert "NOT significant" in same.verdict


def test_cannot_conclude_on_a_slowdown_gives_no_advice_to_run_more():
    rng = np.random.default_rng(12)
    old = np.concatenate([rng.normal(10, 0.05, 9), [20.0]])  # one wild run: not normal, 10 runs
    res = pr.get("speedup-test", statistic="mean").compare(old, rng.normal(13, 0.05, 10))
    assert res.verdict.startswith("the candidate looks slower") and "cannot conclude here" in res.verdict
    assert "collect more" not in res.verdict


@pytest.mark.parametrize("preset", ["default", "speedup-test", "kalibera-jones", "gmm", "hpt"])
def test_pyperf_mult_list_slowdowns_are_slower_in_the_first_lines(preset):
    report = pr.pipeline(preset).run(str(PYPERF / "mult_list_py36.json"), str(PYPERF / "mult_list_py37.json"))
    for bench in SLOWED:
        assert report.verdicts[bench].outcome == "slower"
    head = report.render("text").splitlines()[:12]
    for bench in SLOWED:
        assert any(line.strip().startswith(bench) and " slower " in line for line in head), head
    assert "collect more runs" not in report.render("text")
