"""The statistics primitives the verdict added to pr.stats: the studentised rank shift, the long-run variance
factors, the false-coverage-rate level; each checked against its definition, a reference or a simulation."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from scipy import stats as sps


def test_the_studentised_rank_interval_and_its_p_value_are_duals():
    rng = np.random.default_rng(1)
    for i in range(300):
        x = rng.normal(0.0, 1.0 + 2 * (i % 3), 5 + i % 11)
        y = rng.normal(rng.normal(0, 1), 1.0, 6 + i % 23)
        for level in (0.8, 0.95, 0.99):
            res = pr.stats.studentized_rank_shift(x, y, level)
            excludes = res.ci_low is not None and (res.ci_low > 0 or res.ci_high < 0)
            assert excludes == (res.pvalue < 1 - level), (i, level, res)


def test_the_estimate_is_hodges_lehmanns_and_the_variance_brunner_munzels():
    rng = np.random.default_rng(2)
    x, y = rng.normal(0, 1, 25), rng.normal(0.5, 2, 40)
    res = pr.stats.studentized_rank_shift(x, y)
    assert res.estimate == pytest.approx(np.median(np.subtract.outer(x, y)), abs=1e-12)
    # at the Hodges-Lehmann shift the placements' variance is Brunner & Munzel's (scipy's statistic: the same
    # variance at shift 0 on samples aligned by the shift) less the unbiased correction p(1 - p)/(mn)
    aligned = sps.brunnermunzel(x - res.estimate, y)
    assert abs(aligned.statistic) < 0.3  # aligned: no shift left


@pytest.mark.slow
@pytest.mark.parametrize(("spread", "m", "n"), [((1.0, 1.0), 10, 10), ((3.0, 1.0), 10, 60), ((1.0, 3.0), 10, 60)])
def test_the_studentised_rank_test_keeps_its_level_where_the_wilcoxon_test_does_not(spread, m, n):
    # issue 22: 10 runs at 3% against 60 at 1%: Wilcoxon's interval says "changed" ~15% of the time
    rng = np.random.default_rng(3)
    reps = 800
    ours = wilcoxon = 0
    for _ in range(reps):
        x, y = rng.normal(0, spread[0], m), rng.normal(0, spread[1], n)
        ours += pr.stats.studentized_rank_shift(x, y).pvalue < 0.05
        wilcoxon += sps.mannwhitneyu(x, y).pvalue < 0.05
    bound = 0.05 + 2 * np.sqrt(0.05 * 0.95 / reps)
    assert ours / reps <= bound, ours / reps
    if spread[0] > spread[1]:
        assert wilcoxon / reps > 0.10  # the case the plain rank interval gets wrong


def test_the_studentised_rank_shift_needs_no_pairs():
    # O((m + n) log): 2 x 10^5 runs a side would be 4 x 10^10 pairs (320 GB)
    rng = np.random.default_rng(4)
    x, y = rng.normal(0, 1, 200_000), rng.normal(0.02, 1, 200_000)
    res = pr.stats.studentized_rank_shift(x, y)
    assert res.estimate == pytest.approx(x.mean() - y.mean(), abs=0.002)  # normal: the shift is the means'
    assert res.ci_low < res.estimate < res.ci_high < 0 and res.pvalue < 1e-3


def test_inflation_widens_and_lowers_the_degrees_of_freedom():
    rng = np.random.default_rng(5)
    x, y = rng.normal(0, 1, 30), rng.normal(0.3, 1, 30)
    plain = pr.stats.studentized_rank_shift(x, y)
    wide = pr.stats.studentized_rank_shift(x, y, inflation=(3.0, 3.0))
    unsure = pr.stats.studentized_rank_shift(x, y, inflation=(3.0, 3.0), inflation_precision=0.5)
    assert wide.ci_high - wide.ci_low > plain.ci_high - plain.ci_low and wide.df < plain.df
    assert unsure.df < wide.df and unsure.pvalue > wide.pvalue > plain.pvalue
    yuen = pr.stats.yuen_shift(x, y, trim=0.1, inflation=(3.0, 3.0))
    assert pr.stats.yuen_shift(x, y, trim=0.1, inflation=(3.0, 3.0), inflation_precision=0.5).df < yuen.df


def test_long_run_factor_of_known_autocorrelations():
    n = 200
    k = np.arange(1, n // 3 + 1)
    phi = 0.5
    # the expected sample autocorrelations of an AR(1) around its mean (Bartlett): (1 - k/n)(rho_k - tau/n)/(1 - tau/n)
    tau = (1 + phi) / (1 - phi)
    r = (1 - k / n) * (phi ** k - tau / n) / (1 - tau / n)
    assert pr.stats.long_run_factor(r, n) == pytest.approx(tau, rel=0.05)
    assert pr.stats.long_run_factor(-(1 - k / n) / n, n) == pytest.approx(1.0, abs=0.02)  # independent runs


def test_autoregressive_long_run_factor():
    for phi in (0.2, 0.5, 0.8):
        assert pr.stats.autoregressive_long_run_factor(phi, phi * phi, 100, unbiased=True) == pytest.approx(
            (1 + phi) / (1 - phi), rel=1e-9)
    # a period of 7 runs: rho_k = cos(2 pi k / 7) averages out over the run
    assert pr.stats.autoregressive_long_run_factor(np.cos(2 * np.pi / 7) * 0.9, np.cos(4 * np.pi / 7) * 0.9, 60,
                                                   unbiased=True) == 1.0
    # below 20 runs only the lag-1 autoregression: (r + 1/n)/(1 - 4/n) = 0.5 from r = 0.2 at 10 runs
    assert pr.stats.autoregressive_long_run_factor(0.2, -0.9, 10) == pytest.approx(3.0)
    assert pr.stats.unbiased_autocorrelation(0.2, 10) == pytest.approx(0.5)


def test_false_coverage_confidence():
    # R: p.adjust(c(0.001, 0.2, 0.03, 0.5), "BH") = 0.004 0.2667 0.06 0.5: one found of 4: 1 - 1 * 0.05 / 4
    assert pr.stats.false_coverage_confidence([0.001, 0.2, 0.03, 0.5]) == (pytest.approx(0.9875), 1)
    assert pr.stats.false_coverage_confidence([0.001, 0.002, 0.01, 0.5]) == (pytest.approx(1 - 3 * 0.05 / 4), 3)
    assert pr.stats.false_coverage_confidence([0.4, 0.9]) == (pytest.approx(1 - 0.05 / 2), 0)  # none: 1 - q/m
