"""The independence estimator: trend, lag-1 autocorrelation, effective sample size, warm-up."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
import scipy.stats as sps
from perfrigor.simulate import ar1
from perfrigor.stats import autocorrelation
from perfrigor_plugins.independence.serial import (
    lag1_pvalue,
    level_step,
    mann_kendall,
)


def test_independent_runs_are_not_flagged():
    res = pr.get("independence").estimate(np.random.default_rng(1).normal(10, 0.1, 60))
    assert not res.dependent and not res.trending and res.runs.checked
    assert "not significant" in res.describe()


def test_autocorrelated_runs_count_as_fewer():
    x = 10 + 0.1 * ar1(np.random.default_rng(2), 100, 0.6)
    res = pr.get("independence").estimate(x)
    assert res.dependent and res.runs.lag1 > 0.3 and isinstance(res, pr.DependenceCheck)
    assert 1.5 < res.tau < 10 and res.n_eff == pytest.approx(100 / res.tau) == pytest.approx(res.n_effective)
    assert len(res.autocorrelation) == 20 and res.fitted == 1
    assert "count as about" in res.describe() and res.warnings


def test_a_drift_is_a_trend_with_its_size():
    rng = np.random.default_rng(3)
    x = 10 * (1 + 0.03 * np.linspace(0, 1, 50)) + rng.normal(0, 0.02, 50)
    res = pr.get("independence").estimate(x)
    assert res.trending and res.runs.drift == pytest.approx(0.03, abs=0.005)
    assert "drifts +3.1%" in res.describe()  # Sen's slope x 49 runs / median


def test_warmup_and_per_unit_checks_of_a_hierarchical_sample():
    rng = np.random.default_rng(4)
    v = rng.normal(10, 0.1, (8, 20))
    v[:, :3] *= 1.1
    res = pr.get("independence").estimate(pr.Sample(v))
    assert res.warmup == 3 and res.warmup_change == pytest.approx(0.1, abs=0.01)
    assert res.per_unit == {"unit": "invocation", "units": 8, "checked": 8,
                            "flagged": res.per_unit["flagged"]}
    assert res.top is not None and not res.top.checked  # 8 invocation means: too few to check
    assert "warm-up: the first 3 iteration(s)" in res.describe()


def test_short_and_constant_series():
    short = pr.get("independence").estimate([1.0, 1.1, 0.9])
    assert not short.runs.checked and not short.dependent and short.tau == 1.0
    assert "too few to check" in short.describe()
    flat = pr.get("independence").estimate([2.0] * 20)
    assert flat.runs.checked and not flat.dependent and not flat.trending


def test_one_iteration_per_unit_is_a_data_error():
    with pytest.raises(pr.DataError, match="one iteration per invocation"):
        pr.get("independence").estimate(pr.Sample(np.ones((5, 1)) + np.arange(5)[:, None]))


def test_mann_kendall_matches_kendalls_statistic_without_ties():
    rng = np.random.default_rng(5)
    z = rng.normal(size=(4, 30))
    tau, p, slope = mann_kendall(z)
    for row, t in zip(z, tau, strict=True):
        assert t == pytest.approx(sps.kendalltau(np.arange(30), row).statistic, abs=1e-12)  # tau-a = tau-b
    assert np.all((0 <= p) & (p <= 1)) and slope.shape == (4,)


def test_lag1_test_has_its_nominal_level_under_independence():
    # the lag-1 test at 10% on independent series: null mean -1/n around the mean (Anderson's moments)
    z = sps.rankdata(np.random.default_rng(6).normal(size=(20000, 30)), axis=-1)
    r1 = autocorrelation(z, 1)[:, 0]
    p = np.array([lag1_pvalue(r, 30, 1) for r in r1])
    assert 0.07 < np.mean(p < 0.1) < 0.11


@pytest.mark.slow
@pytest.mark.parametrize("n", [10, 20, 30])
def test_the_dependence_and_trend_flags_fire_rarely_on_clean_series(n):
    # issue 22: on iid normal, t3 and log-normal runs the "dependent" flag fires at most 10% of the time;
    # issue 29: so do "trending" and a step of the level (they need significance and a relevant size)
    rng = np.random.default_rng(40 + n)
    draws = {"normal": lambda: rng.normal(1.0, 0.01, n), "t3": lambda: 1.0 + 0.01 * rng.standard_t(3, n),
             "log-normal": lambda: np.exp(0.1 * rng.standard_normal(n))}
    est = pr.get("independence")
    for name, draw in draws.items():
        checks = [est.estimate(draw()) for _ in range(400)]
        assert np.mean([c.dependent for c in checks]) <= 0.10, (name, n)
        assert np.mean([c.trending for c in checks]) <= 0.10, (name, n)
        assert np.mean([bool(c.steps) for c in checks]) <= 0.05, (name, n)


def test_a_drift_below_the_relevance_is_reported_not_flagged():
    # issue 29: at 3,000 runs a +0.5% drift is significant (p ~ 1e-200) but irrelevant
    rng = np.random.default_rng(11)
    x = 10 * (1 + 0.005 * np.linspace(0, 1, 3000)) + rng.normal(0, 0.02, 3000)
    res = pr.get("independence").estimate(x)
    assert res.runs.trend_pvalue < 1e-10 and not res.trending and not res.dependent and not res.warnings
    assert "below the 1% that matters" in res.describe()
    assert pr.get("independence", relevance=0.004).estimate(x).trending  # a lower relevance flags it


def test_a_step_of_the_level_is_named_with_its_run():
    rng = np.random.default_rng(12)
    x = rng.normal(10, 0.1, 40)
    x[17:] *= 1.03
    res = pr.get("independence").estimate(x)
    (step,) = res.steps
    assert abs(step.run - 17) <= 1 and step.change == pytest.approx(0.03, abs=0.01)
    assert not res.trending and any(f"at run {step.run + 1}" in w for w in res.warnings)
    at, change, p = level_step(x)
    assert at == step.run and p < 1e-4


def test_runs_in_groups_are_dependence_not_a_step():
    # an undeclared hierarchy: 4 invocations of 10 runs; the level moves more than once
    rng = np.random.default_rng(13)
    x = (1 + 0.03 * rng.standard_normal((4, 1)) + 0.01 * rng.standard_normal((4, 10))).reshape(-1)
    check = pr.get("independence").estimate(x).runs
    assert not check.steps and check.tau > 2.0


def test_long_run_factor_of_an_ar1_series():
    rng = np.random.default_rng(7)
    taus = [pr.get("independence").estimate(ar1(rng, 200, 0.5)).tau for _ in range(200)]
    # (1 + phi) / (1 - phi) = 3 for the values; ranks are a little less correlated
    assert 2.2 < np.median(taus) < 3.6


def test_the_autoregressive_factor_lets_a_periodic_disturbance_average_out():
    t = np.arange(60)
    periodic = np.sin(2 * np.pi * t / 7)
    r = autocorrelation(sps.rankdata(periodic)[None, :], 2)[0]
    assert r[0] > 0.4  # strongly autocorrelated ...
    assert pr.stats.autoregressive_long_run_factor(r[0], r[1], 60) == pytest.approx(1.0)  # ... yet it averages out
    assert pr.stats.autoregressive_long_run_factor(0.5, 0.25, 60) > 2.5  # an AR(1): (1 + 0.5) / (1 - 0.5) and more


def test_a_warm_up_at_the_start_of_a_flat_series_is_left_out_of_the_checks():
    rng = np.random.default_rng(8)
    x = rng.normal(10, 0.05, 40)
    x[:5] *= 1.8  # a busy machine at the start
    res = pr.get("independence").estimate(x)
    assert res.warmup == 5 and res.warmup_change == pytest.approx(0.8, abs=0.05)
    assert res.runs.n == 35 and not res.dependent
    short = x[:15]  # too few runs to tell a warm-up from noise
    assert pr.get("independence").estimate(short).warmup == 0


def test_a_slow_mode_that_comes_first_is_no_warm_up():
    """Runs in two modes 30% apart, the first in the slow one: the second half comes back as far out, so the first
    run is one of the series' levels and is kept (cutting it left 19 runs, too few for the mode rules)."""
    rng = np.random.default_rng(3)
    x = rng.normal(1.0, 0.01, 20)
    x[[0, 6, 13, 17]] *= 1.3
    assert pr.get("independence").estimate(x).warmup == 0
    x[[13, 17]] /= 1.3  # no slow run in the second half: the first run stands out as a warm-up
    assert pr.get("independence").estimate(x).warmup >= 1


def test_long_series_give_the_same_mann_kendall_test_without_all_pairs(monkeypatch):
    import perfrigor_plugins.independence.serial as serial

    z = np.round(np.random.default_rng(9).normal(size=(2, 400)) + np.linspace(0, 0.3, 400), 1)  # with ties
    tau, p, _ = mann_kendall(z)
    monkeypatch.setattr(serial, "PAIRWISE_MAX", 100)  # the O(n log n) path, as for series over 1000 runs
    tau_long, p_long, slope_long = mann_kendall(z)
    assert np.allclose(tau, tau_long, rtol=0, atol=1e-12) and np.allclose(p, p_long, rtol=0, atol=1e-12)
    assert slope_long.shape == (2,)
