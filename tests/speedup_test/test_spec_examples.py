"""Worked examples of the Speedup-Test paper and spec (shared/spec/speedup-test.md §10), with sources."""

import numpy as np
import perfrigor as pr
import pytest


def proportion(**params):
    return pr.get("accelerated-proportion", **params)


# (a, b, confidence, R prop.test interval)  # source; R command
PROP_TEST = [
    (17, 30, 0.90, 0.4027156985, 0.7184048679),  # V-1, P§4 Example 1; R: prop.test(17, 30, conf.level=0.9)
    (17, 30, 0.50, 0.4884442379, 0.6423572146),  # V-2, P§4 (alpha 50%); R: prop.test(17, 30, conf.level=0.5)
    (31, 45, 0.95, 0.5319899936, 0.813746623),  # V-5, P§6.2 [0.532; 0.814]; R: prop.test(31, 45)
    (41, 54, 0.95, 0.6205771873, 0.8608344907),  # V-6, P§6.3 [0.621; 0.861]; R: prop.test(41, 54)
    (34, 34, 0.90, 0.9010716867, 1.0),  # V-4, P§6.1 [0.901; 1]; R: prop.test(34, 34, conf.level=0.9)
    (3, 4, 0.95, 0.2194265201, 0.9868088382),  # manual example [0.219; 0.987]; R: prop.test(3, 4)
    (4, 4, 0.95, 0.3957730345, 1.0),  # manual example [0.396; 1]; R: prop.test(4, 4)
]


@pytest.mark.parametrize(("a", "b", "level", "low", "high"), PROP_TEST)
def test_wilson_cc_is_r_prop_test(a, b, level, low, high):
    res = proportion(confidence=level).interval(a, b)
    assert res.estimate == pytest.approx(a / b)
    assert res.ci_low == pytest.approx(low, rel=1e-8)
    assert res.ci_high == pytest.approx(high, rel=1e-8)


def test_v1_wald_is_the_printed_formula_not_the_printed_numbers():
    # spec V-1: Wald at 90% gives [0.417853, 0.715480] (not what the paper printed)
    res = proportion(confidence=0.9, method="wald").interval(17, 30)
    assert (res.ci_low, res.ci_high) == pytest.approx((0.417853, 0.715480), abs=1e-6)
    # R: binom.test(17, 30, conf.level=0.9)$conf.int = 0.4016289474 0.7213304262
    cp = proportion(confidence=0.9, method="clopper-pearson").interval(17, 30)
    assert (cp.ci_low, cp.ci_high) == pytest.approx((0.4016289474, 0.7213304262), rel=1e-8)


def test_v1_validity_condition_holds_and_v4_warns():
    ok = proportion(confidence=0.9).interval(17, 30)  # 17 - 17^2/30 = 7.37 > 5 (spec V-1)
    assert ok.details["validity"] == pytest.approx(7.3667, abs=1e-4) and ok.details["valid"]
    assert not any("validity" in w for w in ok.warnings)
    bad = proportion(confidence=0.9).interval(34, 34)  # V-4: 34 - 34 = 0 <= 5: warning (P§6.1)
    assert not bad.details["valid"] and any("a(1-a/b) > 5" in w for w in bad.warnings)
    assert bad.details["needed_benchmarks"] is None  # C = 1: P§6.1 prints no "minimal needed number"


@pytest.mark.parametrize(("c", "precision", "level", "needed"), [
    (17 / 30, 0.05, 0.95, 378),  # V-3, P§4 Example 2: 377.3 -> 378
    (31 / 45, 0.05, 0.95, 330),  # V-5, P§6.2: 329.32 -> 330
    (41 / 54, 0.05, 0.95, 281),  # V-6, P§6.3: 280.86 -> 281
    (3 / 4, 0.05, 0.95, 289),  # the tool's manual example report: 289
])
def test_needed_benchmarks(c, precision, level, needed):
    assert proportion(confidence=level).needed_benchmarks(c, precision) == needed


def test_v8_identities_and_overall_speedup():
    # spmean = (sum X / sum Y)(m/n); S of equal-weight means = sum of means ratio; G = 1 - 1/S (spec V-8, §1.2)
    rng = np.random.default_rng(1)
    base = {f"b{i}": rng.normal(10 + i, 0.3, 8 + i) for i in range(4)}
    cand = {b: v[: len(v) - 1] / 1.2 for b, v in base.items()}
    suite = pr.Suite.from_pairs(base, cand)
    report = pr.Pipeline([{"component": "speedup-test", "weight": "equal"}]).run(suite)
    summary = report.suite_results["speedup-test"].values
    s = summary["by_statistic"]["mean"]["speedup"]
    assert s == pytest.approx(sum(v.mean() for v in base.values()) / sum(v.mean() for v in cand.values()))
    assert summary["by_statistic"]["mean"]["gain"] == pytest.approx(1 - 1 / s)
    x, y = base["b0"], cand["b0"]
    res = report.result("speedup-test", "b0")
    assert res.details["spmean"] == pytest.approx(x.sum() / y.sum() * y.size / x.size)
    assert res.details["spmin"] == pytest.approx(x.min() / y.min())


def test_custom_and_fraction_weights():
    base = {"a": [10.0, 10.2, 9.9, 10.1], "b": [1.0, 1.1, 0.9, 1.05]}
    cand = {"a": [5.0, 5.1, 4.9, 5.05], "b": [1.0, 1.1, 0.95, 1.0]}
    info = {"a": pr.BenchmarkInfo(weight=1.0), "b": pr.BenchmarkInfo(weight=10.0)}
    suite = pr.Suite.from_pairs(base, cand, info=info)
    custom = pr.Pipeline(["speedup-test"]).run(suite).suite_results["speedup-test"].values
    xa, xb = np.mean(base["a"]), np.mean(base["b"])
    ya, yb = np.mean(cand["a"]), np.mean(cand["b"])
    assert custom["overall_speedup"] == pytest.approx((xa + 10 * xb) / (ya + 10 * yb))
    frac = pr.Pipeline([{"component": "speedup-test", "weight": "fraction"}]).run(suite)
    values = frac.suite_results["speedup-test"].values
    assert values["overall_speedup"] == pytest.approx((xa * xa + xb * xb) / (xa * ya + xb * yb))
    assert values["weights"]["a"]["mean"] == pytest.approx(xa)
