"""A practical threshold means what docs/methods/ratio.md says: below it, no regression is claimed."""

from __future__ import annotations

import perfrigor as pr
from perfrigor import cli, simulate


def _slightly_slower():
    """Hierarchical runs 2% slower whose Fieller interval excludes no change but reaches inside ±2%."""
    old, new = simulate.model("hierarchical").pair(10, 1 / 1.02, random_state=10)
    plain = pr.get("fieller").compare(old, new)
    assert plain.significant and plain.ci_high < 1 and plain.ci_high > 1 / 1.02
    return old, new


def _flat_slightly_slower():
    """The same, flat: the verdict reports Fieller's answer when its statistic is the mean."""
    old, new = simulate.model("iid-normal").pair(40, 1 / 1.02, random_state=1)
    plain = pr.get("fieller").compare(old, new)
    assert plain.significant and plain.ci_high < 1 and plain.ci_high > 1 / 1.02
    return old, new


def test_slower_but_cannot_tell_whether_beyond_the_threshold_is_not_a_regression():
    old, new = _slightly_slower()
    res = pr.get("fieller", threshold=0.02).compare(old, new)
    assert res.verdict.startswith("candidate slower, but cannot tell whether by more than the ±2% threshold")
    assert res.significant is False and res.ci_high < 1
    assert pr.conclusion(res) == "no change"  # not "slower": the interval alone does not overrule the method
    # without the threshold the same interval is a slowdown
    assert pr.conclusion(pr.get("fieller").compare(old, new)) == "slower"


def test_the_verdict_honours_the_threshold_of_the_step_it_reads():
    old, new = _flat_slightly_slower()
    means = {"component": "verdict", "statistic": "mean"}
    plain = pr.Pipeline(["fieller", means]).run(old, new)
    assert plain.verdicts["benchmark"].outcome == "slower" and cli.regressions(plain)
    tight = pr.Pipeline([{"component": "fieller", "threshold": 0.02}, means]).run(old, new)
    v = tight.verdicts["benchmark"]
    assert v.outcome == "unclear" and v.reasons[0].startswith("candidate slower, but cannot tell whether by more")
    assert cli.regressions(tight) == [] and tight.regressions() == []


def test_without_a_verdict_an_inconclusive_threshold_decision_is_no_regression():
    old, new = _slightly_slower()
    report = pr.Pipeline([{"component": "fieller", "threshold": 0.02}]).run(old, new)
    assert report.regressions() == []
    assert pr.Pipeline(["fieller"]).run(old, new).regressions()
