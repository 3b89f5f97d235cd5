"""perfrigor.hierarchy: level means and the Kalibera & Jones variance estimators.

Reference numbers: the paper's Tables III-V (Kalibera & Jones, "Quantifying performance
changes with effect size confidence intervals", §6), libkalibera's unit tests
(python/tests/test_data.py), and lme4 REML fits (R command beside the numbers).
"""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest

h = pr.hierarchy

# Table III: 3 binaries x 2 executions x 2 measurements (spec §9.1 reconstruction)
TABLE_III = [[[9, 5], [8, 3]], [[10, 6], [7, 11]], [[1, 12], [2, 4]]]
# Table V, old and new systems (3 binaries x 2 executions x 2 measurements)
TABLE_V_OLD = [[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]]
TABLE_V_NEW = [[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]]
# libkalibera test_data.py, reps [2, 2, 3]
LIBKALIBERA = [[[3, 4, 3], [1.2, 3.1, 3]], [[0.2, 1, 1.5], [1, 2, 3]]]

# Balanced 5 builds x 3 invocations x 4 iterations, simulated once (numpy seed 2026,
# components sd 2, 1.5, 1) and rounded to 2 decimals; the lme4 reference values below.
LME4_DATA = [
    [[97.5, 98.63, 97.74, 97.83], [98.59, 99.77, 97.23, 99.29], [97.64, 99.04, 97.7, 100.22]],
    [[100.91, 101.22, 99.19, 100.76], [99.62, 99.68, 100.65, 101.02], [101.77, 100.93, 100.74, 103.01]],
    [[97.57, 97.7, 99.16, 96.16], [98.67, 99.26, 97.73, 96.94], [95.42, 97.07, 95.64, 96.06]],
    [[102.74, 103.32, 104.32, 102.48], [100.89, 100.87, 100.9, 100.44], [101.27, 103.48, 101.59, 102.44]],
    [[100.88, 102.27, 100.36, 101.4], [103.34, 100.5, 102.2, 101.54], [99.06, 98.56, 100.5, 99.04]],
]


def test_table_iii_level_means_and_variances():
    np.testing.assert_allclose(h.level_means(TABLE_III, 2), [[7.0, 5.5], [8.0, 9.0], [6.5, 3.0]])
    np.testing.assert_allclose(h.level_means(TABLE_III, 3), [6.25, 8.5, 4.75])
    np.testing.assert_allclose(h.top_means(TABLE_III), [6.25, 8.5, 4.75])
    np.testing.assert_allclose(h.level_means(TABLE_III, 1), TABLE_III)
    assert h.grand_mean(TABLE_III) == 6.5
    assert h.counts(TABLE_III) == (2, 2, 3)
    # paper: S3² ≐ 3.6 (VMM), S2² ≐ 2.6 (MVM), S1² ≐ 16.5 (MMV); exact values in the spec §9.1
    np.testing.assert_allclose(h.level_variances(TABLE_III), [16.5, 2.5833333333, 3.5625])
    # paper: T1² ≐ 16.5, T2² ≐ -5.7, T3² ≐ 2.3
    np.testing.assert_allclose(h.variance_components(TABLE_III), [16.5, -5.6666666667, 2.2708333333])


def test_table_iv_removing_the_execution_level():
    pooled = h.merge_level(TABLE_III, 2)
    np.testing.assert_array_equal(pooled, [[9, 5, 8, 3], [10, 6, 7, 11], [1, 12, 2, 4]])
    # paper Table IV: binary variances 7.6, 5.7, 24.9; S2² ≐ 3.6, S1² ≐ 12.7, T2² ≐ 0.4
    np.testing.assert_allclose(pooled.var(axis=1, ddof=1), [7.5833333, 5.6666667, 24.9166667])
    np.testing.assert_allclose(h.level_variances(pooled), [12.7222222, 3.5625])
    np.testing.assert_allclose(h.variance_components(pooled), [12.7222222, 0.3819444], rtol=1e-6)


def test_drop_nonpositive_levels_follows_the_papers_example():
    pruned = h.drop_nonpositive_levels(pr.Sample(TABLE_III))
    assert pruned.kept == (1, 3)
    assert [d["name"] for d in pruned.dropped] == ["invocation"]
    assert pruned.dropped[0]["T2"] == pytest.approx(-5.6666667)
    assert pruned.values.shape == (3, 4)
    assert pruned.statistics.names == ("iteration", "build")
    np.testing.assert_allclose(pruned.statistics.T2, [12.7222222, 0.3819444], rtol=1e-6)


def test_dropping_the_top_level_makes_the_level_below_the_top():
    y = np.array([[[1.0, 2.0], [5.0, 6.0]], [[5.0, 6.0], [1.0, 2.0]]])  # identical builds
    assert h.variance_components(y)[-1] < 0
    pruned = h.drop_nonpositive_levels(y)
    assert pruned.kept == (1, 2) and pruned.values.shape == (4, 2)


def test_merge_level_rejects_the_lowest_level_and_bad_levels():
    with pytest.raises(pr.ConfigError):
        h.merge_level(TABLE_III, 1)
    with pytest.raises(pr.ConfigError):
        h.level_means(TABLE_III, 4)
    with pytest.raises(pr.ConfigError):
        h.level_means(TABLE_III, 0)


def test_table_v_variances():
    # spec §9.2: old S1², S2², S3² = 9.16667, 6.91667, 5.8125; new = 10.66667, 7.08333, 4.5625
    np.testing.assert_allclose(h.level_variances(TABLE_V_OLD), [9.1666667, 6.9166667, 5.8125])
    np.testing.assert_allclose(h.level_variances(TABLE_V_NEW), [10.6666667, 7.0833333, 4.5625])
    # the variance of the mean: S3²/n3 (§6.2: 10.5 ± 4.3 sqrt(5.8/3))
    assert h.variance_of_mean(TABLE_V_OLD) == pytest.approx(5.8125 / 3)


def test_libkalibera_cross_check():
    # libkalibera python/tests/test_data.py: Ti2 = [0.7266667, 0.262777778, 0.7747]
    np.testing.assert_allclose(h.variance_components(LIBKALIBERA), [0.7266667, 0.262777778, 0.7747],
                               atol=5e-5)


def test_flat_data_has_one_level_with_the_sample_variance():
    x = [3.0, 5.0, 4.0, 8.0]
    stats = h.level_statistics(x)
    assert stats.counts == (4,)
    assert stats.S2 == stats.T2 == (pytest.approx(np.var(x, ddof=1)),)
    assert stats.variance_of_mean == pytest.approx(np.var(x, ddof=1) / 4)


def test_level_statistics_bundle_and_names():
    s = pr.Sample(TABLE_III, levels=("binary", "execution", "measurement"))
    stats = h.level_statistics(s)
    assert stats.names == ("measurement", "execution", "binary")
    assert stats.nonpositive_levels() == [2]
    assert stats.grand_mean == 6.5
    assert stats.variance_of_mean == pytest.approx(3.5625 / 3)
    assert h.level_names(TABLE_III) == ["level 1", "level 2", "level 3"]


@pytest.mark.parametrize("level_counts", [(1, 3, 4), (3, 1, 4), (3, 4, 1)])
def test_a_level_with_one_unit_is_reported(level_counts):
    y = np.arange(np.prod(level_counts), dtype=float).reshape(level_counts)
    with pytest.raises(pr.DataError, match="unit per parent"):
        h.level_variances(pr.Sample(y))


def test_unbalanced_data_is_rejected_naming_the_unit():
    with pytest.raises(pr.DataError, match=r"unbalanced.*build 2, invocation"):
        h.level_variances([[[1, 2], [3, 4]], [[1, 2, 3], [3, 4]]])
    with pytest.raises(pr.DataError, match="not a finite number"):
        h.level_variances([[1.0, np.nan], [2.0, 3.0]])


def test_drop_warmup():
    y = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(h.drop_warmup(y, 1), y[..., 1:])
    np.testing.assert_array_equal(h.drop_warmup(y, 0), y)
    with pytest.raises(pr.DataError, match="at least one must remain"):
        h.drop_warmup(y, 4)
    with pytest.raises(pr.ConfigError):
        h.drop_warmup(y, -1)


def test_predicted_variance_of_the_mean_is_eq_10():
    s, n = [4.0, 3.0, 2.0], [5, 4, 3]
    assert h.predicted_variance_of_mean(s, n) == pytest.approx(2 / 3 + 3 / 12 + 4 / 60)
    with pytest.raises(pr.ConfigError):
        h.predicted_variance_of_mean([1.0, 2.0], [3])


@pytest.mark.slow
def test_variance_components_are_unbiased_by_simulation():
    """E(S_i²) = σ_i² + E(S_{i-1}²)/n_{i-1} (§7.6), so T_i² is unbiased (data drawn vectorised)."""
    rng = np.random.default_rng(7)
    sigma2 = np.array([1.0, 0.5, 2.0])  # lowest level first
    reps, shape = 1500, (4, 3, 5)
    y = (rng.normal(0, np.sqrt(sigma2[2]), (reps, shape[0], 1, 1))
         + rng.normal(0, np.sqrt(sigma2[1]), (reps, *shape[:2], 1))
         + rng.normal(0, np.sqrt(sigma2[0]), (reps, *shape)))
    t2 = np.array([h.variance_components(y[r]) for r in range(reps)])
    se = t2.std(axis=0, ddof=1) / np.sqrt(reps)
    assert np.all(np.abs(t2.mean(axis=0) - sigma2) < 4 * se)


def test_agrees_with_lme4_reml():
    """Where every component is positive, T_i² equals lme4's REML estimates (balanced data).

    R 4.2, lme4 (data written as build,invocation,iteration,y CSV from LME4_DATA):
      m <- lmer(y ~ 1 + (1|build) + (1|build:invocation), data=d, REML=TRUE)
      as.data.frame(VarCorr(m))  # build:invocation 0.835913627344, build 3.472956525149,
                                 # Residual 0.861484827511; fixef 99.8741666667
      m2 <- lmer(y ~ 1 + (1|build), data=d, REML=TRUE)   # invocation level ignored (pooled)
      as.data.frame(VarCorr(m2)) # build 3.70097905990, Residual 1.46942832856
    """
    t2 = h.variance_components(LME4_DATA)
    np.testing.assert_allclose(t2, [0.861484827511, 0.835913627344, 3.472956525149], rtol=1e-4)
    assert h.grand_mean(LME4_DATA) == pytest.approx(99.8741666667)
    pooled = h.merge_level(LME4_DATA, 2)
    np.testing.assert_allclose(h.variance_components(pooled), [1.46942832856, 3.70097905990], rtol=1e-4)
