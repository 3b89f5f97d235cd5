"""pr.stats.hodges_lehmann: the interval that inverts the rank-sum test, against R's wilcox.test."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import stats

X = [10.1, 9.8, 10.5, 11.2, 9.85, 10.7, 10.3]
Y = [9.1, 9.5, 8.7, 9.95, 9.3, 9.0]
# R 4.2.2: r <- wilcox.test(x, y, conf.int = TRUE); c(r$p.value, r$conf.int, r$estimate)
#   0.004662004662  0.5  1.7  1.1     (exact: no ties, both samples < 50)
# r <- wilcox.test(x, y, conf.int = TRUE, conf.level = 0.9): conf.int 0.55 1.6


def test_exact_case_equals_r():
    r = stats.hodges_lehmann(X, Y)
    assert r.exact and r.pvalue == pytest.approx(0.004662004662, rel=1e-9)
    assert (r.ci_low, r.ci_high) == pytest.approx((0.5, 1.7)) and r.estimate == pytest.approx(1.1)
    r90 = stats.hodges_lehmann(X, Y, confidence=0.9)
    assert (r90.ci_low, r90.ci_high) == pytest.approx((0.55, 1.6))


# R: set.seed(11); a <- round(rnorm(70, 10, 1), 4); b <- round(rnorm(80, 9.6, 1), 4)
# r <- wilcox.test(a, b, conf.int = TRUE): W 3106.5, p 0.249018660105, conf.int -0.114031576159 0.523300569646
# (normal approximation: samples >= 50; R finds the limits by uniroot with tol 1e-4, perfrigor takes the
# order statistics of the pairwise differences they bracket)
A = [9.409, 10.0266, 8.4834, 8.6373, 11.1785, 9.0658, 11.3236, 10.6249, 9.9543, 8.9959, 9.1716, 9.6516, 8.4617,
     9.7444, 8.8501, 10.0123, 9.777, 10.8878, 9.4078, 9.3443, 9.3175, 9.9841, 9.5574, 10.3526, 10.0732, 10.0072,
     9.8124, 9.2343, 9.7789, 9.0164, 8.8957, 9.0618, 10.6786, 8.4225, 9.1301, 10.4847, 9.8139, 11.5456, 9.3886,
     9.6522, 8.3635, 10.0204, 10.8917, 9.1273, 10.8901, 9.6561, 7.8132, 10.8801, 10.7239, 10.2199, 10.7899, 9.77,
     9.1815, 10.4997, 10.1592, 10.5426, 9.8434, 10.4388, 11.4879, 10.0602, 9.151, 12.3397, 9.8788, 8.0498, 10.5387,
     11.6935, 9.209, 8.9247, 9.3921, 10.7544]
B = [10.0535, 9.4766, 8.8369, 9.8283, 10.7195, 9.7566, 8.9112, 10.0529, 8.5325, 10.0016, 9.5352, 9.9155, 8.9943,
     8.6924, 11.8616, 8.9968, 8.3021, 10.1065, 8.7467, 8.094, 10.8023, 8.5721, 10.5383, 9.0568, 10.1131, 9.2474,
     10.9265, 8.4598, 11.0131, 8.9978, 9.1583, 9.8436, 10.1968, 9.48, 7.5303, 10.1856, 10.0894, 8.5934, 10.8697,
     10.7239, 10.4425, 11.2206, 10.0477, 7.3011, 9.5208, 9.0769, 9.1824, 9.9049, 9.5686, 9.7051, 12.0625, 8.96,
     10.8114, 10.3112, 9.3974, 11.0112, 10.8888, 10.1855, 10.879, 8.7261, 9.4614, 8.4048, 9.9294, 8.5176, 9.0827,
     9.5218, 9.2507, 7.3417, 9.3135, 9.8806, 8.0439, 10.1442, 8.0615, 9.3075, 9.4888, 9.8586, 9.989, 11.6155,
     9.2763, 9.9787]


def test_normal_approximation_agrees_with_r():
    r = stats.hodges_lehmann(A, B)
    assert not r.exact and r.pvalue == pytest.approx(0.249018660105, rel=1e-9)
    assert r.ci_low == pytest.approx(-0.114031576159, abs=2e-3) and r.ci_high == pytest.approx(0.523300569646, abs=2e-3)


def test_ties_use_the_tie_corrected_normal_approximation():
    # R: wilcox.test(c(1.83,0.50,1.62,2.48,1.68,1.88,1.55,3.06,1.30),
    #                c(0.878,0.647,0.598,2.05,1.06,1.29,1.06,3.14,1.29))$p.value = 0.132919458185
    x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    r = stats.hodges_lehmann(x, y)
    assert not r.exact and r.pvalue == pytest.approx(0.132919458185, rel=1e-9)


def test_unattainable_level_gives_no_interval():
    # R: wilcox.test(1:3, 4:6, conf.int = TRUE): p 0.1, "Requested conf.level not achievable"
    r = stats.hodges_lehmann([1, 2, 3], [4, 5, 6])
    assert r.pvalue == pytest.approx(0.1) and r.ci_low is None and r.ci_high is None
    assert r.min_pvalue == pytest.approx(0.1)


def test_large_samples_count_instead_of_sorting(monkeypatch):
    rng = np.random.default_rng(4)
    x, y = rng.normal(10, 1, 700), rng.normal(9.8, 1, 600)
    sorted_way = stats.hodges_lehmann(x, y)
    monkeypatch.setattr(stats, "_MAX_SORTED_PAIRS", 10)
    counted = stats.hodges_lehmann(x, y)
    assert counted.estimate == pytest.approx(sorted_way.estimate, abs=1e-12)
    assert (counted.ci_low, counted.ci_high) == pytest.approx((sorted_way.ci_low, sorted_way.ci_high), abs=1e-12)


def test_serial_dependence_widens_the_interval_and_weakens_the_test():
    rng = np.random.default_rng(5)
    x, y = rng.normal(10, 1, 40), rng.normal(9.5, 1, 40)
    plain = stats.hodges_lehmann(x, y)
    wide = stats.hodges_lehmann(x, y, inflation=(3.0, 3.0))
    assert wide.ci_low < plain.ci_low and wide.ci_high > plain.ci_high
    assert wide.pvalue > plain.pvalue and wide.df == pytest.approx(40 / 3 + 40 / 3 - 2)
    assert wide.estimate == plain.estimate and not wide.exact


def test_all_values_tied_is_no_evidence():
    r = stats.hodges_lehmann([5.0] * 6, [5.0] * 6)
    assert r.pvalue == 1.0 and r.estimate == 0.0 and (r.ci_low, r.ci_high) == (0.0, 0.0)


def test_bad_confidence_is_a_config_error():
    with pytest.raises(pr.ConfigError, match="confidence"):
        stats.hodges_lehmann(X, Y, confidence=95)
