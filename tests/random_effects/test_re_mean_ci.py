"""Estimator mean-ci: t and hierarchical-bootstrap intervals (Kalibera & Jones §6.2, §7.2)."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from scipy import stats

from .kj_data import TABLE_V_NEW, TABLE_V_OLD


def test_table_v_old_system_t_interval():
    # §6.2: 10.5 ± 4.3 sqrt(5.8/3) ≐ 10.5 ± 6.0; exact half-width 5.989039 (spec §9.2)
    r = pr.get("mean-ci").estimate(TABLE_V_OLD)
    assert isinstance(r, pr.Estimate)
    assert r.estimate == pytest.approx(10.5)
    assert (r.ci_low, r.ci_high) == (pytest.approx(4.51096, abs=1e-5), pytest.approx(16.48904, abs=1e-5))
    assert r.confidence == 0.95
    assert r.details["dof"] == 2 and r.details["n_top"] == 3
    assert r.details["t_quantile"] == pytest.approx(4.302653, abs=1e-6)
    assert r.details["S2_top"] == pytest.approx(5.8125)
    json.dumps(r.to_dict())


def test_table_v_new_system_t_interval():
    # spec §9.2 [note]: new system 6.5 ± 5.30612
    r = pr.get("mean-ci").estimate(TABLE_V_NEW)
    assert r.estimate == pytest.approx(6.5)
    assert r.details["half_width"] == pytest.approx(5.30612, abs=1e-5)


def test_flat_data_is_the_one_sample_t_interval():
    x = np.array([10.2, 9.7, 10.9, 10.1, 9.5, 10.4])
    r = pr.get("mean-ci", confidence=0.9).estimate(x)
    low, high = stats.t.interval(0.9, x.size - 1, loc=x.mean(), scale=stats.sem(x))
    assert (r.ci_low, r.ci_high) == (pytest.approx(low), pytest.approx(high))


def test_the_t_interval_is_recomputed_at_another_level_as_scipys():
    """``confidence_interval(level)``, as scipy's ``TtestResult.confidence_interval(confidence_level=)``."""
    x = np.array([10.2, 9.7, 10.9, 10.1, 9.5, 10.4])
    r = pr.get("mean-ci").estimate(x)
    scipy_ci = stats.ttest_1samp(x, 0).confidence_interval(confidence_level=0.99)
    assert r.confidence_interval(0.99) == (pytest.approx(scipy_ci.low), pytest.approx(scipy_ci.high))
    assert r.confidence_interval(0.99) == pytest.approx(pr.get("mean-ci", confidence=0.99).estimate(x)
                                                        .confidence_interval())
    assert r.confidence_interval() == r.confidence_interval(0.95) == (r.ci_low, r.ci_high)
    boot = pr.get("mean-ci", method="bootstrap", n_bootstrap=200, random_state=1).estimate(x)
    with pytest.raises(pr.ConfigError, match="computed at 0.95 and cannot be recomputed at 0.99"):
        boot.confidence_interval(0.99)  # its replicates are not kept
    with pytest.raises(pr.ConfigError, match="strictly between 0 and 1"):
        r.confidence_interval(95)


def test_the_t_interval_uses_top_level_means_only():
    rng = np.random.default_rng(3)
    y = rng.normal(10, 1, (4, 5, 6))
    r = pr.get("mean-ci").estimate(y)
    top = y.mean(axis=(1, 2))
    low, high = stats.t.interval(0.95, 3, loc=top.mean(), scale=stats.sem(top))
    assert (r.ci_low, r.ci_high) == (pytest.approx(low), pytest.approx(high))


def test_bootstrap_is_reproducible_and_uses_the_shared_resampler():
    est = pr.get("mean-ci", method="bootstrap", n_bootstrap=2000, random_state=11)
    a, b = est.estimate(TABLE_V_OLD), est.estimate(TABLE_V_OLD)
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high)
    reps = pr.resampling.bootstrap_means(TABLE_V_OLD, 2000, 11)
    assert (a.ci_low, a.ci_high) == pr.resampling.percentile_interval(reps, 0.95)
    assert a.ci_low < 10.5 < a.ci_high
    assert a.details["n_bootstrap"] == 2000 and a.details["resampling"] == "all"
    c = pr.get("mean-ci", method="bootstrap", n_bootstrap=2000, random_state=12).estimate(TABLE_V_OLD)
    assert (c.ci_low, c.ci_high) != (a.ci_low, a.ci_high)


def test_bootstrap_agrees_with_t_when_the_top_level_dominates():
    """Many top units, little lower-level noise: both intervals ≈ mean ± 1.96 sqrt(S²_top/n_top)."""
    rng = np.random.default_rng(5)
    y = rng.normal(0, 1.0, (200, 1, 1)) + rng.normal(0, 0.05, (200, 3, 4)) + 50
    t = pr.get("mean-ci").estimate(y)
    boot = pr.get("mean-ci", method="bootstrap", n_bootstrap=4000, random_state=1).estimate(y)
    t_width, b_width = t.ci_high - t.ci_low, boot.ci_high - boot.ci_low
    assert b_width == pytest.approx(t_width, rel=0.08)


def test_resampling_variant_parameter():
    r = pr.get("mean-ci", method="bootstrap", resampling="RNN", n_bootstrap=500, random_state=0)
    assert r.estimate(TABLE_V_OLD).details["resampling"] == "RNN"
    with pytest.raises(pr.ConfigError):
        pr.get("mean-ci", resampling="sideways")
    with pytest.raises(pr.ConfigError):
        pr.get("mean-ci", method="z")
    with pytest.raises(pr.ConfigError):
        pr.get("mean-ci", confidence=95)


def test_one_top_level_unit_is_an_error():
    with pytest.raises(pr.DataError, match="at least 2 top-level units"):
        pr.get("mean-ci").estimate([[1.0, 2.0, 3.0]])


def test_zero_variance_is_reported():
    r = pr.get("mean-ci").estimate(np.full((3, 4), 2.0))
    assert r.ci_low == r.ci_high == 2.0
    assert r.warnings


def test_warmup():
    y = np.array(TABLE_V_OLD, dtype=float)
    warm = np.concatenate([np.full((3, 2, 1), 99.0), y], axis=2)
    r = pr.get("mean-ci", warmup=1).estimate(warm)
    assert r.estimate == pytest.approx(10.5)
    assert r.details["warmup"] == 1


@pytest.mark.slow
def test_t_interval_covers_the_true_mean_at_its_nominal_rate():
    """Hierarchical normal model (as §8.4), 3 and 10 builds: coverage ≈ 95% (Monte-Carlo ± 3 SE)."""
    rng = np.random.default_rng(20260522)
    sims = 2000
    est = pr.get("mean-ci")
    for n_top in (3, 10):
        shape = (sims, n_top, 5, 8)
        y = (100 + rng.normal(0, 2.0, (sims, n_top, 1, 1)) + rng.normal(0, 3.0, (sims, n_top, 5, 1))
             + rng.normal(0, 1.5, shape))
        covered = np.array([(r.ci_low <= 100 <= r.ci_high) for r in map(est.estimate, y)])
        se = np.sqrt(0.95 * 0.05 / sims)
        assert abs(covered.mean() - 0.95) < 3 * se + 0.002, (n_top, covered.mean())


def test_bootstrap_percentiles_are_the_papers_order_statistics():
    """§6.2: with 1000 replicates the 95% interval is the 25th and 975th sorted replicate means."""
    r = pr.get("mean-ci", method="bootstrap", n_bootstrap=1000, random_state=3).estimate(TABLE_V_OLD)
    reps = np.sort(pr.resampling.bootstrap_means(TABLE_V_OLD, 1000, 3))
    assert (r.ci_low, r.ci_high) == (reps[24], reps[974])


def test_describe_reads_as_a_sentence_with_the_unit():
    # Was the bare Estimate line "0.00768064 (95% CI 0.00691014 to 0.00845114)" in reports.
    sample = pr.Sample([[10.0, 10.2], [11.0, 11.4], [9.0, 9.2]], levels=("invocation", "iteration"), unit="ms")
    res = pr.get("mean-ci").estimate(sample)
    assert isinstance(res, pr.Estimate)
    text = res.describe()
    q = pr.display.quantity
    assert text.startswith(f"mean {q(res.estimate, 'ms')}, 95% CI {q(res.ci_low, 'ms')} to {q(res.ci_high, 'ms')}")
    assert text.startswith("mean 10.13 ms, 95% CI 7.524 ms to 12.74 ms")  # human units, 4 significant digits
    assert text.endswith("t interval, 3 invocations")
    assert "bootstrap, 3 invocations" in pr.get("mean-ci", method="bootstrap", random_state=1).estimate(sample).describe()
