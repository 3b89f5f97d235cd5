"""The decision procedures (spec §4.1 mean, §5.3 median): branches, three outcomes, direction, errors."""

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.speedup_test.procedure import max_confidence


def st(**params):
    return pr.get("speedup-test", **params)


def test_small_non_normal_cannot_conclude_with_the_reason():
    rng = np.random.default_rng(3)
    base = np.concatenate([rng.normal(10, 0.1, 12), [14.0, 15.0]])  # skewed: Shapiro-Wilk rejects
    cand = rng.normal(8, 0.1, 14)
    res = st().compare(base, cand)
    assert res.significant is None and res.pvalue is None
    assert res.details["status"] == "cannot conclude" and res.details["branch"] == "small"
    assert "not normal" in res.warnings[0] and "more than 30 runs" in res.warnings[0]
    assert "cannot conclude" in res.verdict


def test_large_non_normal_proceeds_with_a_warning():
    rng = np.random.default_rng(4)
    base = rng.lognormal(0, 0.8, 40) + 10
    cand = rng.lognormal(0, 0.8, 40) + 8
    res = st().compare(base, cand)
    assert res.details["branch"] == "large" and res.significant is True
    assert any("may not be preserved" in w for w in res.warnings)


def test_f_test_chooses_student_or_welch():
    rng = np.random.default_rng(5)
    same = st().compare(rng.normal(10, 1, 20), rng.normal(9, 1, 20))
    assert same.details["test"] == "student-t" and same.pvalue == same.details["pvalues"]["student_t"]
    diff = st().compare(rng.normal(10, 0.2, 20), rng.normal(9, 3, 20))
    assert diff.details["pvalues"]["fisher_f"] <= 0.05 and diff.details["test"] == "welch-t"


def test_median_small_shift_rejected_cannot_conclude_or_warn():
    base = np.r_[np.linspace(10, 10.2, 10), np.linspace(12, 14, 10)]  # spread differs: not a location shift
    cand = np.linspace(7.9, 8.1, 20)
    strict = st(statistic="median").compare(base, cand)
    assert strict.details["pvalues"]["kolmogorov_smirnov"] <= 0.05
    assert strict.significant is None and "location-shift" in strict.warnings[0]
    lenient = st(statistic="median", small_shift="warn").compare(base, cand)
    assert lenient.significant is True and any("may not be preserved" in w for w in lenient.warnings)


def test_not_significant_and_direction():
    rng = np.random.default_rng(6)
    x = rng.normal(10, 1, 35)
    slower = st(statistic="median").compare(x, x * 1.2)
    assert slower.significant is False and slower.estimate < 1
    # throughput: higher is better; a candidate with 1.3x higher throughput is faster
    tp = pr.Sample(x, lower_is_better=False)
    faster = st().compare(tp, pr.Sample(x * 1.3, lower_is_better=False))
    assert faster.significant is True and faster.estimate == pytest.approx(1.3)


def test_confidence_changes_the_auxiliary_tests_too():
    # pitfall 6 of the spec (§12): the same alpha drives the F test, so the level can switch Student/Welch
    rng = np.random.default_rng(2)
    x, y = rng.normal(10, 1, 15), rng.normal(9, 1.5, 15)
    at_95, at_80 = st(confidence=0.95).compare(x, y), st(confidence=0.8).compare(x, y)
    assert 0.05 < at_95.details["pvalues"]["fisher_f"] <= 0.2
    assert at_95.details["test"] == "student-t" and at_80.details["test"] == "welch-t"
    assert at_80.pvalue == at_80.details["pvalues"]["welch_t"]


def test_max_confidence_bisection():
    # significant exactly when alpha >= 0.237: the tool reports 1 - ceil(100 * alpha)/100 = 0.76
    assert max_confidence(lambda a: a >= 0.237) == 0.76
    assert max_confidence(lambda a: True) == 0.99
    assert max_confidence(lambda a: False) is None


def test_accelerated_proportion_runs_the_test_itself_and_reads_earlier_steps():
    rng = np.random.default_rng(8)
    base = {f"b{i}": rng.normal(10, 0.3, 35) for i in range(6)}
    cand = {b: v / (1.2 if i < 4 else 1.0) for i, (b, v) in enumerate(base.items())}
    direct = pr.get("accelerated-proportion", statistic="median").compare(base, cand)
    assert direct.details["accelerated"] == 4 and direct.details["total"] == 6
    report = pr.pipeline("speedup-test").run(pr.Suite.from_pairs(base, cand))
    from_step = report.suite_results["proportion-median"]
    assert from_step.details["source"] == "step median"
    assert (from_step.ci_low, from_step.ci_high) == (direct.ci_low, direct.ci_high)
    alone = pr.Pipeline(["accelerated-proportion"]).run(pr.Suite.from_pairs(base, cand))
    assert alone.suite_results["accelerated-proportion"].details["source"] == "computed"


def test_a_summary_value_with_an_entry_per_benchmark_stays_out_of_the_text():
    # golang/perf bent, 67 benchmarks: speedup-test's summary wrote its weights and benchmark list as
    # one line of 6,000 characters, and the suite verdict its reasons again; the JSON report keeps them
    from perfrigor.renderers._format import key_numbers

    names = [f"github.com/some/package.Benchmark{i}-12" for i in range(67)]
    summary = pr.SuiteSummary(title="overall", values={
        "overall_speedup": 1.01, "by_statistic": {"min": {"speedup": 1.0}, "median": {"speedup": 1.01}},
        "weights": {n: {"median": 1} for n in names}, "benchmarks": names, "few": names[:2]})
    assert [k for k, _ in key_numbers(summary)] == ["overall_speedup", "by_statistic", "few"]
    rng = np.random.default_rng(0)
    suite = pr.Suite({n: {"old": pr.Sample(rng.normal(10, 0.1, 12)), "new": pr.Sample(rng.normal(9.9, 0.1, 12))}
                      for n in names}, systems=("old", "new"))
    text = pr.pipeline("speedup-test").run(suite).render("text")
    rows = [line.split()[0] for line in text.splitlines() if line.startswith("  ") and line.split()]
    assert "overall_speedup" in rows and "by_statistic" in rows
    assert not {"weights", "benchmarks", "reasons"} & set(rows)


def test_one_run_per_benchmark_is_a_report_not_an_error_naming_an_internal_key():
    # benchstat's zero.txt under --metric a-bytes: the speedup-test steps cannot run on one value a side,
    # and the proportion steps stopped the whole run (exit 2) "has no results for PairKey(baseline=...)"
    suite = pr.Suite.from_pairs({"a": [1.0], "b": [2.0]}, {"a": [1.0], "b": [2.0]})
    report = pr.pipeline("speedup-test").run(suite)
    why = {e.step: e.message for e in report.errors}
    assert "has no result for 'baseline -> candidate' on any of the 2 benchmark(s)" in why["proportion-median"]
    assert "PairKey" not in report.render("text")


def test_bad_inputs():
    with pytest.raises(pr.DataError, match="not positive"):
        st().compare([1.0, 2.0, -1.0], [1.0, 2.0, 3.0])
    with pytest.raises(pr.ConfigError):
        st(statistic="min")
    with pytest.raises(pr.DataError):
        pr.get("accelerated-proportion").interval(5, 3)
    constant = st().compare([10.0] * 5, [9.0] * 5)
    assert constant.significant is None and "zero variance" in constant.warnings[0]


@pytest.mark.slow
@pytest.mark.parametrize(("statistic", "n"), [("mean", 10), ("mean", 35), ("median", 12), ("median", 35)])
def test_false_positive_rate_under_h0_stays_near_alpha(statistic, n):
    """Same distribution for both versions: the procedure declares a speedup about 5% of the time or less."""
    rng = np.random.default_rng(2026)
    reps = 1500
    data = rng.normal(10, 1, size=(reps, 2, n))
    comp = st(statistic=statistic)
    hits = sum(bool(comp.compare(a, b).significant) for a, b in data)
    rate = hits / reps
    # binomial sd at 5% and 1500 replicates: 0.56%; the checks make the procedure slightly conservative
    assert 0.025 <= rate <= 0.07, rate
