"""Self-describing results (issue 15): a report is read by what its steps recorded, not by the plugins loaded now."""

from __future__ import annotations

import pickle

import numpy as np
import perfrigor as pr


def _prob_faster_report() -> pr.Report:
    rng = np.random.default_rng(4)
    suite = pr.Suite({f"b{i}": {"old": rng.normal(10, 0.1, 20), "new": rng.normal(10.5, 0.1, 20)} for i in range(3)},
                     systems=("old", "new"))
    return pr.Pipeline(["prob-faster", "speedup-test"]).run(suite)


def test_steps_record_estimate_kind_and_sidedness():
    report = _prob_faster_report()
    steps = {s.id: s for s in report.steps}
    assert steps["prob-faster"].estimate_kind == "probability" and not steps["prob-faster"].one_sided
    assert steps["speedup-test"].estimate_kind == "speedup" and steps["speedup-test"].one_sided
    doc = report.to_dict()["steps"]
    assert doc[0]["estimate_kind"] == "probability" and doc[1]["one_sided"] is True


def test_a_prob_faster_report_reads_the_same_after_the_plugins_are_gone():
    report = _prob_faster_report()
    before, regressions = report.render("text"), report.regressions()
    assert "P(a candidate run is faster) above 1/2 on 0, below on 3" in before
    pr.registry.reload(allow=["core"])
    try:
        assert "prob-faster" not in pr.components()
        again = pickle.loads(pickle.dumps(report))
        text = again.render("text")
        assert "P(a candidate run is faster) above 1/2 on 0, below on 3" in text
        assert "speedup above 1" not in text
        assert again.conclusion("speedup-test", again.result("speedup-test", "b0")) == "not faster"
        assert again.regressions() == regressions
    finally:
        pr.registry.reload()
