"""Fieller's interval for the ratio of means (Kalibera & Jones 2013, §6.2, §7.3.2, eq. 12)."""

from __future__ import annotations

import math

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.ratio import Fieller, fieller_df, fieller_limits
from scipy import special

# Table V: 3 binaries x 2 executions x 2 measurements for the old and the new system.
OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]

# R: fieller <- function(o, n, q) { O <- mean(o); N <- mean(n); vo <- var(o)/length(o); vn <- var(n)/length(n)
#      a <- O^2 - q^2*vo; b <- O*N; c <- N^2 - q^2*vn; d <- b^2 - a*c; c((b - sqrt(d))/a, (b + sqrt(d))/a) }
#    o <- c(7.75, 12.25, 11.5); n <- c(8.75, 6.25, 4.5)       # the binary means of Table V
#    print(fieller(o, n, qt(0.975, 2)), digits=15)  -> 0.109834375952524 1.725301574407281
#    print(fieller(o, n, qnorm(0.975)), digits=15)  -> 0.369620973574241 0.958107387264854
#    print(fieller(o, n, qt(0.95, 2)), digits=15)   -> 0.261472920305034 1.194833670556199
TABLE_V_T = (0.109834375952524, 1.725301574407281)
TABLE_V_Z = (0.369620973574241, 0.958107387264854)
TABLE_V_T90 = (0.261472920305034, 1.194833670556199)


def test_table_v_example_exactly():
    # §6.2: "(68.3 ∓ 60.2)/74.5 ... 0.1 and 1.7", exact (0.10983, 1.72530); θ = new/old.
    r = Fieller().compare(OLD, NEW)
    ratio = r.details["ratio"]
    assert ratio["estimate"] == pytest.approx(6.5 / 10.5, rel=1e-12)
    assert (ratio["ci_low"], ratio["ci_high"]) == pytest.approx(TABLE_V_T, rel=1e-12)
    assert (round(ratio["ci_low"], 5), round(ratio["ci_high"], 5)) == (0.10983, 1.72530)
    # times: the speedup is old/new, its interval the reciprocal one
    assert r.estimate == pytest.approx(10.5 / 6.5)
    assert (r.ci_low, r.ci_high) == pytest.approx((1 / TABLE_V_T[1], 1 / TABLE_V_T[0]), rel=1e-12)
    assert r.details["df"] == 2 and r.details["quantile"] == pytest.approx(4.302652729749462)
    assert r.details["fieller"]["a"] == pytest.approx(74.38141, abs=1e-5)  # spec §9.2: a = 74.38141
    assert r.significant is False and r.confidence == 0.95
    assert "no significant change: mean time between 89% lower and 73% higher" in r.verdict  # not a ±


def test_table_v_with_normal_quantile_and_other_confidence():
    z = Fieller(distribution="normal").compare(OLD, NEW).details["ratio"]
    assert (z["ci_low"], z["ci_high"]) == pytest.approx(TABLE_V_Z, rel=1e-12)
    t90 = Fieller(confidence=0.90).compare(OLD, NEW).details["ratio"]
    assert (t90["ci_low"], t90["ci_high"]) == pytest.approx(TABLE_V_T90, rel=1e-12)


def test_papers_rounded_inputs():
    # §6.2 computes with O = 10.5, N = 6.5, S² = 5.8 and 4.6, t² = 18.5: spec §9.2 gives (0.10808, 1.72454).
    lim = fieller_limits(6.5, 10.5, 4.6 / 3, 5.8 / 3, math.sqrt(18.5))
    assert (lim.low, lim.high) == pytest.approx((0.10808, 1.72454), abs=5e-6)
    assert lim.kind == "bounded"


def test_flat_samples_and_the_test_fieller_inverts():
    # R: x <- c(10.2, 9.8, 10.5, 10.1, 9.9, 10.4); y <- c(9.1, 9.6, 9.3, 9.8, 9.0, 9.4)
    #    print(fieller(x, y, qt(0.975, 5)), digits=15)  -> 0.882896830798067 0.964232715821000
    #    print(2*pt(-abs(mean(y)-mean(x))/sqrt(var(x)/6+var(y)/6), 5), digits=15) -> 0.00526999350024633
    x = [10.2, 9.8, 10.5, 10.1, 9.9, 10.4]
    y = [9.1, 9.6, 9.3, 9.8, 9.0, 9.4]
    r = Fieller().compare(x, y)
    assert (r.details["ratio"]["ci_low"], r.details["ratio"]["ci_high"]) == pytest.approx(
        (0.882896830798067, 0.964232715821000), rel=1e-12)
    assert r.pvalue == pytest.approx(0.00526999350024633, rel=1e-9)
    assert r.significant is True and r.details["decision"] == "beyond"
    assert r.verdict.startswith("candidate faster")


def test_limits_solve_fiellers_equation():
    # At each limit L: (N - L O)² = t² (v_N + L² v_O), the definition of Fieller's set.
    n, o, vn, vo, t = 9.0, 10.0, 0.3, 0.5, 2.5
    lim = fieller_limits(n, o, vn, vo, t)
    for limit in (lim.low, lim.high):
        assert (n - limit * o) ** 2 == pytest.approx(t * t * (vn + limit**2 * vo), rel=1e-12)


def test_unequal_top_level_counts_use_satterthwaite_df():
    rng = np.random.default_rng(3)
    old, new = rng.normal(10, 1, (8, 4)), rng.normal(9, 2, (5, 4))
    r = Fieller().compare(old, new)
    vo, vn = old.mean(axis=1).var(ddof=1) / 8, new.mean(axis=1).var(ddof=1) / 5
    theta = new.mean() / old.mean()
    df = (vn + theta**2 * vo) ** 2 / (vn**2 / 4 + theta**4 * vo**2 / 7)
    assert r.details["df"] == pytest.approx(df) and 4 <= df <= 11
    assert fieller_df(6, 6, 1.0, 2.0, 0.9) == 5  # the paper's n_top - 1 when the counts agree
    assert any("Satterthwaite" in w for w in r.warnings)
    t = special.stdtrit(df, 0.975)
    low = r.details["ratio"]["ci_low"]
    assert (new.mean() - low * old.mean()) ** 2 == pytest.approx(t * t * (vn + low**2 * vo), rel=1e-9)


def test_unbounded_when_the_baseline_mean_is_not_significant():
    # Spec §13.6: O = 1, S² = 1, m = 2, t² = 12.706²: a = 1 - 161.4/2 < 0.
    s = math.sqrt(0.5)
    old = [1 - s, 1 + s]  # mean 1, variance 1
    r = Fieller().compare(old, [1.5, 1.6])
    assert r.ci_low is None and r.ci_high is None and r.significant is None
    assert r.details["ratio"]["ci_low"] is None and r.details["decision"] == "undefined"
    assert r.details["fieller"]["a"] == pytest.approx(1 - 12.706204736174694**2 / 2)
    assert any("Fieller's condition fails" in w and "not significantly different from 0" in w for w in r.warnings)
    assert r.details["fieller"]["kind"] == "exclusive"  # the new mean is precise: set outside an interval
    assert "cannot bound" in r.verdict
    assert Fieller().compare(old, [0.5, 2.5]).details["fieller"]["kind"] == "whole line"
    pr.to_jsonable(r.to_dict())  # JSON-ready with Nones


def test_candidate_mean_near_zero_leaves_the_speedup_unbounded_above():
    old = [10.0, 10.1, 9.9, 10.05]
    new = [0.01, 0.02, 4.0, 0.015]  # mean 1.01, not significantly above 0 on 4 values
    r = Fieller().compare(old, new)
    ratio = r.details["ratio"]
    assert ratio["ci_low"] < 0 < ratio["ci_high"] < 1
    assert r.ci_low == pytest.approx(1 / ratio["ci_high"]) and r.ci_high is None
    assert r.significant is True  # the ratio's interval still lies below 1
    assert any("no upper limit" in w for w in r.warnings)


def test_zero_variance_is_reported():
    same = Fieller().compare([2.0, 2.0, 2.0], [2.0, 2.0, 2.0])
    assert (same.ci_low, same.ci_high, same.estimate) == (1.0, 1.0, 1.0)
    assert same.significant is False and len(same.warnings) == 2
    assert all("zero variance" in w for w in same.warnings)
    faster = Fieller().compare([[2.0, 2.0]] * 3, [[1.0, 1.0]] * 3)
    assert faster.estimate == 2.0 and faster.significant is True


def test_direction_for_throughput():
    rng = np.random.default_rng(0)
    base = rng.normal(100, 2, (6, 5))
    old = pr.Sample(base, lower_is_better=False)
    new = pr.Sample(base * 1.1, lower_is_better=False)
    r = Fieller().compare(old, new)
    ratio = r.details["ratio"]
    assert r.estimate == pytest.approx(1.1) == pytest.approx(ratio["estimate"])
    assert (r.ci_low, r.ci_high) == (ratio["ci_low"], ratio["ci_high"])
    assert r.verdict.startswith("candidate faster") and "higher" in r.verdict
    times = Fieller().compare(base, base / 1.3)
    assert times.estimate == pytest.approx(1.3) and times.significant


def test_one_top_level_unit_is_dropped_with_a_warning():
    rng = np.random.default_rng(1)
    old, new = rng.normal(10, 1, (1, 6, 4)), rng.normal(9, 1, (1, 6, 4))
    r = Fieller().compare(old, new)
    direct = Fieller().compare(old[0], new[0])
    assert r.details["ratio"] == direct.details["ratio"]
    assert r.details["top_level"] == {"baseline": "invocation", "candidate": "invocation"}
    assert any("one build only" in w for w in r.warnings)
    with pytest.raises(pr.DataError, match="at least 2"):
        Fieller().compare([5.0], [4.0, 4.1])


def test_bad_input():
    with pytest.raises(pr.DataError, match="not positive"):
        Fieller().compare([1.0, -2.0, 3.0], [1.0, 2.0, 3.0])
    with pytest.raises(pr.DataError, match="not a finite number"):
        Fieller().compare([1.0, np.nan, 3.0], [1.0, 2.0, 3.0])
    same = Fieller().compare(pr.Sample([1.0, 2.0, 3.0], unit="s"), pr.Sample([1000.0, 2000.0, 3000.0], unit="ms"))
    assert same.estimate == pytest.approx(1.0)  # the same times in two units: converted, not refused
    with pytest.raises(pr.DataError, match="measure different things"):
        Fieller().compare(pr.Sample([1.0, 2.0], unit="s"), pr.Sample([1.0, 2.0], unit="B/op"))
    with pytest.raises(pr.DataError, match="direction"):
        Fieller().compare(pr.Sample([1.0, 2.0]), pr.Sample([1.0, 2.0], lower_is_better=False))
    with pytest.raises(ValueError, match="threshold"):
        Fieller(threshold=1.5)
    with pytest.raises(ValueError, match="distribution"):
        Fieller(distribution="z")


def test_interval_properties_on_random_data():
    # Holds for any data: the estimate lies inside; a higher confidence gives a wider interval;
    # the interval scales with the data (Fieller is scale-invariant in each system).
    rng = np.random.default_rng(12)
    for _ in range(200):
        m = int(rng.integers(2, 12))
        old = rng.gamma(5, 1, (m, 3)) + 1
        new = rng.gamma(5, 1, (m, 3)) * rng.uniform(0.5, 2) + 1
        r95, r80 = Fieller().compare(old, new), Fieller(confidence=0.8).compare(old, new)
        if r95.ci_low is None:
            continue
        a, b = r95.details["ratio"], r80.details["ratio"]
        assert a["ci_low"] <= b["ci_low"] <= b["estimate"] <= b["ci_high"] <= a["ci_high"]
        scaled = Fieller().compare(old * 3, new * 6).details["ratio"]
        assert scaled["ci_low"] == pytest.approx(2 * a["ci_low"]) and scaled["ci_high"] == pytest.approx(
            2 * a["ci_high"])
        # significance at h = 0 agrees with the p-value of the test the interval inverts
        assert r95.significant == (r95.pvalue < 0.05)
