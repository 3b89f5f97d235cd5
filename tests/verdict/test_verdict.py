"""The verdict step: which path answers, the outcome, the reasons, the suite verdict, the report API."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import examples, simulate
from perfrigor.simulate import ar1


def verdict(x, y, **params):
    return pr.get("verdict", **params).compare(x, y)


def test_independent_runs_faster_via_the_rank_interval():
    rng = np.random.default_rng(1)
    v = verdict(rng.normal(10, 0.1, 40), rng.normal(9.5, 0.1, 40))
    assert v.outcome == "faster" and v.method == "speedup-test"
    assert v.speedup == pytest.approx(10 / 9.5, rel=0.01) and v.ci_low < v.speedup < v.ci_high
    assert v.reasons[0].startswith("typical run 1.05") and "x faster" in v.reasons[0]
    assert v.details["statistic"] == "median" and v.details["flags"] == []
    assert v.details["change"] == pytest.approx(1 / v.speedup - 1)


def test_a_tight_interval_around_no_change_is_the_same():
    rng = np.random.default_rng(2)
    v = verdict(rng.normal(10, 0.05, 60), rng.normal(10, 0.05, 60))
    assert v.outcome == "same" and v.reasons[0].startswith("within ±1%")
    # the same data against a threshold of 0: no band, so not "same"
    assert verdict(rng.normal(10, 0.05, 60), rng.normal(10, 0.05, 60), threshold=0).outcome == "unclear"


def test_a_wide_interval_is_unclear_and_says_how_many_runs_would_tell():
    rng = np.random.default_rng(3)
    v = verdict(rng.normal(10, 0.3, 20), rng.normal(10, 0.3, 20))
    assert v.outcome == "unclear" and "too uncertain to tell" in v.reasons[0]


def test_higher_is_better_metrics():
    rng = np.random.default_rng(4)
    x = rng.normal(1000, 5, 30)
    v = verdict(pr.Sample(x, lower_is_better=False, unit="ops/s"),
                pr.Sample(x * 1.1, lower_is_better=False, unit="ops/s"))
    assert v.outcome == "faster" and v.speedup == pytest.approx(1.1, rel=1e-9)
    assert v.details["change"] == pytest.approx(0.1)


def test_hierarchical_samples_use_kalibera_and_jones_at_the_top_level():
    old, new = simulate.model("hierarchical").pair(10, 1.2, random_state=5)
    v = verdict(old, new)
    assert v.method == "fieller" and "hierarchical" in v.details["flags"]
    assert v.outcome == "faster" and v.details["statistic"] == "mean of 10 invocations"
    fieller = pr.get("fieller").compare(old, new)
    assert (v.speedup, v.ci_low, v.ci_high) == (fieller.estimate, fieller.ci_low, fieller.ci_high)


def test_dependent_runs_widen_the_interval():
    rng = np.random.default_rng(6)
    x, y = 10 + 0.1 * ar1(rng, 100, 0.7), 10 + 0.1 * ar1(rng, 100, 0.7)
    v = verdict(x, y)
    assert v.method == "independence" and "dependence" in v.details["flags"]
    assert any("serially dependent" in r for r in v.reasons)
    plain = pr.stats.hodges_lehmann(np.log(x), np.log(y))
    assert v.ci_high / v.ci_low > np.exp(plain.ci_high - plain.ci_low)


def test_modes_whose_shares_moved_are_unclear():
    rng = np.random.default_rng(7)

    def session(share, n=100):
        return np.where(rng.random(n) < share, 13.0, 10.0) * (1 + 0.01 * rng.standard_normal(n))

    v = verdict(session(0.1), session(0.5))
    assert v.outcome == "unclear" and v.method == "mode-comparison"
    assert {"multimodal", "shares"} <= set(v.details["flags"])
    assert "their shares did" in v.reasons[0]


def test_a_shift_within_the_modes_is_found():
    rng = np.random.default_rng(8)

    def session(share, n=100):
        return np.where(rng.random(n) < share, 13.0, 10.0) * (1 + 0.01 * rng.standard_normal(n))

    v = verdict(session(0.3), session(0.3) / 1.05)
    assert v.outcome == "faster" and v.method == "mode-comparison"
    assert v.speedup == pytest.approx(1.05, rel=0.01) and v.details["statistic"].startswith("mode at")


def test_three_runs_are_compared_on_means_of_logs():
    # a rank test cannot reach 95% with 3 runs per side (smallest p-value 0.1): Welch on log values can
    v = verdict([10.0, 10.2, 10.1], [5.0, 5.1, 5.2])
    assert v.outcome == "faster" and "tiny" in v.details["flags"] and v.details["statistic"] == "geometric mean"
    assert any("too few for a rank test" in r for r in v.reasons)
    same = verdict([10.0, 10.5, 9.6], [10.2, 9.7, 10.4])
    assert same.outcome == "unclear"


def test_a_coarse_timer_widens_the_interval():
    v = verdict([10.0, 11.0, 10.0, 10.0, 11.0, 10.0, 10.0, 11.0], [10.0, 10.0, 11.0, 10.0, 10.0, 11.0, 10.0, 10.0])
    assert "resolution" in v.details["flags"] and v.outcome == "unclear"
    assert any("grid of 10.00%" in r for r in v.reasons)


def test_statistic_mean_uses_fiellers_interval():
    rng = np.random.default_rng(9)
    v = verdict(rng.normal(10, 0.1, 40), rng.normal(9.5, 0.1, 40), statistic="mean")
    assert v.method == "fieller" and v.details["statistic"] == "mean" and v.outcome == "faster"


def test_bad_samples_answer_unclear_rather_than_raise():
    v = verdict([1.0], [1.0, 2.0])
    assert v.outcome == "unclear" and "at least 2 runs per system" in v.reasons[0] and v.details["flags"] == ["tiny"]
    assert v.speedup == pytest.approx(1 / 1.5) and v.ci_low is None
    with pytest.raises(pr.DataError):  # NaN is an input error, as for every component
        verdict([1.0, float("nan")], [1.0, 2.0])


def test_invalid_parameters():
    with pytest.raises(pr.ConfigError, match="threshold"):
        pr.get("verdict", threshold=1.5)
    with pytest.raises(pr.ConfigError, match="statistic"):
        pr.get("verdict", statistic="mode")


# ------------------------------------------------------------------ in pipelines


def test_every_preset_gives_one_verdict_per_benchmark():
    rng = np.random.default_rng(10)
    x, y = rng.normal(10, 0.5, 40), rng.normal(9.5, 0.5, 40)
    for name in ("default", "speedup-test", "kalibera-jones", "gmm", "hpt"):
        steps = pr.pipeline(name).steps
        assert steps[-1].component.name == "verdict", name
    report = pr.pipeline("default").run(x, y)
    v = report.verdicts["benchmark"]
    d = json.loads(json.dumps(report.to_dict()))["verdicts"]["benchmark"]
    assert {"outcome", "speedup", "ci_low", "ci_high", "confidence", "method", "reasons"} <= set(d)
    assert d["outcome"] == v.outcome and d["reasons"] == list(v.reasons)
    assert report.suite_verdict is None  # one benchmark


def test_the_verdict_alone_in_a_custom_pipeline():
    rng = np.random.default_rng(11)
    report = pr.Pipeline(["verdict"]).run(rng.normal(10, 0.1, 30), rng.normal(9.5, 0.1, 30))
    assert report.verdicts["benchmark"].outcome == "faster"
    assert pr.Pipeline(["gmm"]).run([1.0, 1.2, 1.1, 1.3], [1.0, 1.1, 1.2, 1.4]).verdicts == {}


def test_the_demo_verdict_names_the_steps_that_disagree():
    folder = examples.path("two-versions")
    report = pr.pipeline("default").run(str(folder / "baseline.txt"), str(folder / "candidate.txt"))
    v = report.verdicts["benchmark"]
    assert v.outcome == "faster" and v.speedup == pytest.approx(1.06, abs=0.01)
    assert any(r.startswith("fieller, bootstrap-ratio say no change") for r in v.reasons)


def test_suite_verdict_counts_geometric_mean_and_hpt():
    report = pr.pipeline("default").run(str(examples.path("suite") / "suite.csv"))
    sv = report.suite_verdict
    assert sum(sv.counts.values()) == 14 == len(report.verdicts)
    assert all(sv.counts[o] == len(sv.benchmarks[o]) for o in pr.OUTCOMES)
    assert sv.ci_low < sv.speedup < sv.ci_high
    assert any(r.startswith("HPT (hpt):") for r in sv.reasons)
    assert report.to_dict()["suite_verdict"]["counts"] == dict(sv.counts)
    # sieve: 10 dependent runs per side leave the widened rank interval short of 95%; the reason says why
    sieve = report.verdicts["sieve"]
    assert sieve.ci_low is None and sieve.reasons[0] == "no 95% interval: too few independent runs (serially dependent)"
    assert "between 1.143x and 1.369x faster at 95%" in " ".join(sv.reasons)  # an interval reads in order


def test_a_benchmark_with_one_run_is_unclear_inside_a_suite():
    rng = np.random.default_rng(12)
    suite = pr.Suite({"ok": {"a": rng.normal(10, 0.1, 20), "b": rng.normal(9, 0.1, 20)},
                      "lonely": {"a": [10.0], "b": rng.normal(9, 0.1, 20)}})
    report = pr.pipeline("default").run(suite)
    assert report.verdicts["ok"].outcome == "faster"
    lonely = report.verdicts["lonely"]
    assert lonely.outcome == "unclear" and "the baseline has 1 measurement" in lonely.reasons[0]


def test_a_single_comparison_needs_two_runs_per_side():
    with pytest.raises(pr.DataError, match="at least 2 per system"):
        pr.pipeline("default").run([10.0], [9.0, 9.1, 9.2])


def test_nonpositive_values_are_refused_before_the_work():
    with pytest.raises(pr.DataError, match=r"measurement 2: value -1.0 is not positive"):
        pr.pipeline("default").run([10.0, -1.0, 10.2], [9.0, 9.1, 9.2])


def test_threshold_from_a_config():
    config = {"pipeline": {"name": "tight"}, "steps": [{"component": "verdict", "threshold": 0.05}]}
    rng = np.random.default_rng(13)
    report = pr.Pipeline.from_config(config).run(rng.normal(10, 0.1, 30), rng.normal(9.8, 0.1, 30))
    v = report.verdicts["benchmark"]
    assert v.threshold == 0.05 and v.outcome == "same" and "within ±5%" in v.reasons[0]


def test_warm_up_runs_are_left_out_and_said_so():
    rng = np.random.default_rng(14)
    old, new = rng.normal(10, 0.05, 40), rng.normal(9.5, 0.05, 40)
    new[:6] *= 2.0
    v = verdict(old, new)
    assert v.outcome == "faster" and v.speedup == pytest.approx(10 / 9.5, rel=0.01)
    assert v.details["flags"][0] == "warmup" and "the first 6 runs (+100%) look like warm-up" in v.reasons[1]


def test_yuen_keeps_a_large_change_visible_when_runs_are_dependent():
    # 10 repetitions in one process with a level shift (benchstat's crc-old.txt, 4kB/align=0) against a
    # 5.7x faster candidate: the rank test cannot reach 95% on a few effective runs, trimmed means can
    old = [1698, 1667, 1694, 1654, 1704, 1876, 1790, 1812, 1828, 1677]
    new = [302, 294, 298, 296, 301, 299, 299, 289, 296, 298]
    v = verdict(old, new)
    assert v.outcome == "faster" and v.speedup == pytest.approx(5.8, rel=0.02)


def test_the_verdict_reads_fiellers_typed_result_and_names_any_other():
    # the verdict reads fieller's means and decision as pr.RatioComparison attributes; a "fieller" step
    # whose result is some other Comparison is named in the reason, not looked up in details
    old, new = simulate.model("hierarchical").pair(10, 1.2, random_state=5)
    samples, pair = {"a": old, "b": new}, pr.pair_key("a", "b")
    real = pr.get("fieller").compare(old, new)
    v = pr.get("verdict").judge(samples, "a", "b", pr.Previous({"f": {pair: real}}, {"f": "fieller"}))
    assert v.method == "f" and (v.details["baseline"], v.details["candidate"]) == (real.baseline_mean,
                                                                                    real.candidate_mean)
    plain = pr.Comparison(estimate=real.estimate, ci_low=real.ci_low, ci_high=real.ci_high, confidence=0.95,
                          pvalue=real.pvalue, significant=real.significant, verdict=real.verdict,
                          details=real.details)
    v = pr.get("verdict").judge(samples, "a", "b", pr.Previous({"f": {pair: plain}}, {"f": "fieller"}))
    assert v.outcome == "unclear" and "not a ratio of means (perfrigor.RatioComparison)" in v.reasons[0]
