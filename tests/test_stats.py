"""Rank tests of perfrigor.stats against R 4.2.2 (wilcox.test, ks.test) and brute force.

The data sets below are literal; to recompute an expected value in R, define the same vector
(e.g. ``A_X <- c(...)`` with the values below) and run the R command written beside it.
"""

import itertools

import numpy as np
import perfrigor as pr
import pytest

# Data sets (generated once with numpy, seed 20261122; rounded to create ties in B, D, F).
A_X = [9.885, 11.549, 10.969, 10.223, 8.581, 8.087, 11.187, 10.825, 8.005]
A_Y = [9.625, 6.612, 9.997, 9.703, 9.966, 8.557, 9.69]
B_X = [15.0, 17.0, 18.0, 19.0, 12.0, 13.0, 13.0, 10.0, 16.0, 14.0, 10.0, 10.0]
B_Y = [11.0, 14.0, 8.0, 14.0, 9.0, 12.0, 8.0, 11.0, 11.0, 13.0, 10.0, 16.0, 10.0, 10.0, 14.0]
C_X = [6.976978, 4.794463, 2.934893, 2.731603, 2.768228, 1.670488, 6.409951, 5.758903, 2.729463, 10.468855, 3.789873, 3.188282, 1.8014, 3.214149, 1.440467, 1.175549, 2.39662, 3.485086, 7.132341, 2.73743, 3.105834, 1.575647, 2.245515, 6.298172, 3.985511, 2.14366, 3.524687, 7.419842, 3.379849, 1.608444, 2.240672, 0.780797, 1.686436, 4.816138, 3.40285, 4.46847, 2.609073, 3.448818, 10.836295, 1.787136, 3.199102, 4.428405, 1.056493, 2.242128, 3.323064, 2.566835, 3.665296, 3.263614, 2.028836, 2.266151, 4.811725, 1.637562, 4.474129, 1.725506, 5.380382, 6.644596, 1.483519, 5.667692, 2.369955, 2.688411]
C_Y = [5.71957, 4.417518, 2.839373, 4.626128, 3.18993, 7.109376, 4.338831, 3.335639, 2.413769, 3.652353, 2.627396, 2.864284, 2.950174, 2.998454, 5.252363, 0.676219, 1.226591, 1.821887, 3.939623, 1.824079, 6.246364, 3.207055, 3.176538, 3.156114, 4.359234, 1.657204, 3.133023, 3.610803, 5.694189, 2.187604, 1.350705, 7.595039, 2.231885, 2.891095, 4.633966, 5.299218, 2.755762, 1.717753, 0.834523, 1.27556, 3.80447, 5.975773, 4.139309, 1.436978, 1.736344, 2.671064, 2.296017, 5.055374, 4.324736, 3.036776, 5.228703, 4.194058, 1.961377, 2.587481, 3.245811]
D_X = [103.0, 100.0, 99.0, 96.0, 99.0, 99.0, 94.0, 88.0, 102.0, 102.0, 100.0, 105.0, 101.0, 104.0, 99.0, 103.0, 99.0, 103.0, 99.0, 103.0, 108.0, 103.0, 95.0, 99.0, 104.0, 101.0, 96.0, 100.0, 96.0, 100.0, 101.0, 100.0, 94.0, 99.0, 100.0, 100.0, 94.0, 98.0, 99.0, 103.0, 101.0, 103.0, 95.0, 105.0, 98.0, 97.0, 98.0, 105.0, 100.0, 97.0, 99.0, 104.0, 101.0, 92.0, 99.0, 103.0, 101.0, 104.0, 98.0, 101.0, 99.0, 99.0, 99.0, 103.0, 102.0, 96.0, 101.0, 99.0, 104.0, 103.0, 101.0, 100.0, 96.0, 103.0, 100.0, 100.0, 101.0, 100.0, 95.0, 101.0, 98.0, 103.0, 102.0, 102.0, 106.0, 100.0, 99.0, 101.0, 101.0, 101.0, 99.0, 95.0, 101.0, 101.0, 96.0, 103.0, 104.0, 98.0, 100.0, 100.0, 97.0, 98.0, 105.0, 99.0, 104.0, 99.0, 95.0, 100.0, 98.0, 99.0, 98.0, 103.0, 101.0, 98.0, 101.0, 99.0, 100.0, 102.0, 103.0, 98.0]
D_Y = [99.0, 96.0, 103.0, 93.0, 98.0, 102.0, 100.0, 96.0, 97.0, 98.0, 102.0, 98.0, 92.0, 100.0, 103.0, 99.0, 102.0, 97.0, 98.0, 101.0, 106.0, 101.0, 100.0, 98.0, 95.0, 100.0, 97.0, 101.0, 100.0, 93.0, 98.0, 103.0, 98.0, 100.0, 98.0, 100.0, 102.0, 103.0, 96.0, 98.0, 99.0, 97.0, 98.0, 100.0, 99.0, 98.0, 97.0, 98.0, 97.0, 100.0, 100.0, 102.0, 103.0, 97.0, 99.0, 103.0, 95.0, 95.0, 98.0, 94.0, 101.0, 99.0, 96.0, 102.0, 100.0, 97.0, 99.0, 95.0, 104.0, 90.0, 99.0, 99.0, 101.0, 97.0, 99.0, 98.0, 99.0, 101.0, 104.0, 101.0, 100.0, 95.0, 104.0, 96.0, 101.0, 99.0, 94.0, 98.0, 97.0, 99.0, 101.0, 100.0, 97.0, 101.0, 98.0, 100.0, 101.0, 92.0, 99.0, 98.0]
E_X = [1.19587, 1.28993, 0.96201, 1.54374, 0.74456, 0.97058, 0.62735, 1.09619, 1.09849, 0.74365, 1.18163, 0.87497, 1.10593, 1.83289, 1.0581, 0.42972, 1.07542, 0.78569, 0.85667, 1.19477, 1.23174, 1.17658, 0.96318, 1.16762, 0.57705, 1.01769, 1.16458, 0.98937, 2.24039, 1.19342, 1.00751, 1.22627, 0.49054, 1.10805, 1.1523, 1.13391, 1.32058, 0.77582, 1.57988, 1.06005, 1.36757, 0.89127, 1.11309, 0.92655, 1.01206, 0.56763, 0.49718, 0.98775, 0.64884]
E_Y = [1.41405, 1.41158, 1.39082, 1.19419, 1.10857, 0.62683, 1.61953, 0.65235, 0.9209, 1.02573, 0.99954, 1.01179, 1.02696, 0.90407, 1.55528, 1.37859, 1.47468, 0.87564, 0.7217, 1.26063, 0.81858, 1.54319, 0.84348, 1.21904, 2.07657, 0.91473, 0.67165, 0.75387, 0.90595, 1.08919, 1.09207, 1.51072, 0.89131, 1.51958, 0.89684, 0.66676, 1.86631, 1.12256, 1.49804, 1.80676, 1.77617, 1.40714, 0.81417, 1.35607, 1.64763, 1.08404, 1.29899, 0.76881, 0.92243]
F_X = [0.0, 1.0, 4.0, 5.0, 2.0, 4.0, 2.0, 1.0, 4.0, 1.0, 2.0, 4.0, 1.0, 1.0, 2.0, 5.0, 1.0, 1.0, 4.0, 2.0]
F_Y = [3.0, 0.0, 2.0, 5.0, 5.0, 1.0, 4.0, 2.0, 2.0, 4.0, 1.0, 2.0, 5.0, 0.0, 5.0, 1.0, 2.0, 2.0, 2.0, 2.0]
G_X = [3.808, 3.927, 3.76, 4.951, 4.877, 5.418, 5.12, 6.266, 5.786, 4.526, 3.787, 7.035, 6.202, 5.363, 5.86]
G_Y = [3.735, 2.886, 4.24, 5.791, 5.887, 3.6, 5.095, 4.702, 5.856, 2.41, 5.198, 3.855, 4.658, 2.69, 5.067]

# (function, x, y, keyword arguments, R statistic, R p-value)  # R command
R_CASES = [
    ('wilcoxon_rank_sum', A_X, A_Y, {'alternative': 'two-sided'}, 44, 0.210489510489511),  # wilcox.test(A_X, A_Y, alternative="two.sided")
    ('ks_two_sample', A_X, A_Y, {'alternative': 'two-sided'}, 0.555555555555556, 0.126748251748256),  # ks.test(A_X, A_Y, alternative="two.sided")
    ('wilcoxon_rank_sum', A_X, A_Y, {'alternative': 'greater'}, 44, 0.105244755244755),  # wilcox.test(A_X, A_Y, alternative="greater")
    ('ks_two_sample', A_X, A_Y, {'alternative': 'greater'}, 0.0793650793650794, 0.888461538461539),  # ks.test(A_X, A_Y, alternative="greater")
    ('wilcoxon_rank_sum', A_X, A_Y, {'alternative': 'less'}, 44, 0.913111888111888),  # wilcox.test(A_X, A_Y, alternative="less")
    ('ks_two_sample', A_X, A_Y, {'alternative': 'less'}, 0.555555555555556, 0.0633741258741302),  # ks.test(A_X, A_Y, alternative="less")
    ('wilcoxon_rank_sum', B_X, B_Y, {'alternative': 'two-sided'}, 130, 0.051884547802968),  # wilcox.test(B_X, B_Y, alternative="two.sided")
    ('ks_two_sample', B_X, B_Y, {'alternative': 'two-sided'}, 0.35, 0.221681145614371),  # ks.test(B_X, B_Y, alternative="two.sided")
    ('wilcoxon_rank_sum', B_X, B_Y, {'alternative': 'greater'}, 130, 0.025942273901484),  # wilcox.test(B_X, B_Y, alternative="greater")
    ('ks_two_sample', B_X, B_Y, {'alternative': 'greater'}, -4.16333634234434e-17, 1),  # ks.test(B_X, B_Y, alternative="greater")
    ('wilcoxon_rank_sum', B_X, B_Y, {'alternative': 'less'}, 130, 0.976886129245621),  # wilcox.test(B_X, B_Y, alternative="less")
    ('ks_two_sample', B_X, B_Y, {'alternative': 'less'}, 0.35, 0.0988779822202785),  # ks.test(B_X, B_Y, alternative="less")
    ('wilcoxon_rank_sum', C_X, C_Y, {'alternative': 'two-sided'}, 1632, 0.921947230157177),  # wilcox.test(C_X, C_Y, alternative="two.sided")
    ('ks_two_sample', C_X, C_Y, {'alternative': 'two-sided'}, 0.104545454545455, 0.870392190217465),  # ks.test(C_X, C_Y, alternative="two.sided")
    ('wilcoxon_rank_sum', C_X, C_Y, {'alternative': 'greater'}, 1632, 0.54124871546265),  # wilcox.test(C_X, C_Y, alternative="greater")
    ('ks_two_sample', C_X, C_Y, {'alternative': 'greater'}, 0.104545454545455, 0.490452496061181),  # ks.test(C_X, C_Y, alternative="greater")
    ('wilcoxon_rank_sum', C_X, C_Y, {'alternative': 'less'}, 1632, 0.460973615078588),  # wilcox.test(C_X, C_Y, alternative="less")
    ('ks_two_sample', C_X, C_Y, {'alternative': 'less'}, 0.0969696969696969, 0.539589321703969),  # ks.test(C_X, C_Y, alternative="less")
    ('wilcoxon_rank_sum', D_X, D_Y, {'alternative': 'two-sided'}, 7445.5, 0.00197740428726331),  # wilcox.test(D_X, D_Y, alternative="two.sided")
    ('ks_two_sample', D_X, D_Y, {'alternative': 'two-sided'}, 0.2, 0.0254639577811151),  # ks.test(D_X, D_Y, alternative="two.sided")
    ('wilcoxon_rank_sum', D_X, D_Y, {'alternative': 'greater'}, 7445.5, 0.000988702143631656),  # wilcox.test(D_X, D_Y, alternative="greater")
    ('ks_two_sample', D_X, D_Y, {'alternative': 'greater'}, 0.00833333333333333, 0.992452866147926),  # ks.test(D_X, D_Y, alternative="greater")
    ('wilcoxon_rank_sum', D_X, D_Y, {'alternative': 'less'}, 7445.5, 0.999018408106988),  # wilcox.test(D_X, D_Y, alternative="less")
    ('ks_two_sample', D_X, D_Y, {'alternative': 'less'}, 0.2, 0.0127320051682499),  # ks.test(D_X, D_Y, alternative="less")
    ('wilcoxon_rank_sum', E_X, E_Y, {'alternative': 'two-sided'}, 993, 0.141870720212246),  # wilcox.test(E_X, E_Y, alternative="two.sided")
    ('ks_two_sample', E_X, E_Y, {'alternative': 'two-sided'}, 0.26530612244898, 0.063212109221509),  # ks.test(E_X, E_Y, alternative="two.sided")
    ('wilcoxon_rank_sum', E_X, E_Y, {'alternative': 'greater'}, 993, 0.930028605283774),  # wilcox.test(E_X, E_Y, alternative="greater")
    ('ks_two_sample', E_X, E_Y, {'alternative': 'greater'}, 0.26530612244898, 0.0316066315148079),  # ks.test(E_X, E_Y, alternative="greater")
    ('wilcoxon_rank_sum', E_X, E_Y, {'alternative': 'less'}, 993, 0.0709353601061229),  # wilcox.test(E_X, E_Y, alternative="less")
    ('ks_two_sample', E_X, E_Y, {'alternative': 'less'}, 0.0816326530612245, 0.723558439340908),  # ks.test(E_X, E_Y, alternative="less")
    ('wilcoxon_rank_sum', A_X, A_Y, {'alternative': 'greater', 'mu': 0.5}, 38, 0.268006993006993),  # wilcox.test(A_X, A_Y, alternative="greater", mu=0.5)
    ('wilcoxon_rank_sum', A_X, A_Y, {'alternative': 'two-sided', 'correct': False, 'exact': False}, 44, 0.18578872162136),  # wilcox.test(A_X, A_Y, correct=FALSE, exact=FALSE)
    ('wilcoxon_rank_sum', C_X, C_Y, {'alternative': 'greater', 'mu': 0.5}, 1314, 0.970220102454136),  # wilcox.test(C_X, C_Y, alternative="greater", mu=0.5)
    ('wilcoxon_rank_sum', C_X, C_Y, {'alternative': 'two-sided', 'correct': False, 'exact': False}, 1632, 0.919724586121242),  # wilcox.test(C_X, C_Y, correct=FALSE, exact=FALSE)
    ('wilcoxon_signed_rank', F_X, F_Y, {'alternative': 'two-sided'}, 78, 0.758358876137118),  # wilcox.test(F_X, F_Y, paired=TRUE, alternative="two.sided")
    ('wilcoxon_signed_rank', F_X, F_Y, {'alternative': 'greater'}, 78, 0.637425119012924),  # wilcox.test(F_X, F_Y, paired=TRUE, alternative="greater")
    ('wilcoxon_signed_rank', F_X, F_Y, {'alternative': 'less'}, 78, 0.379179438068559),  # wilcox.test(F_X, F_Y, paired=TRUE, alternative="less")
    ('wilcoxon_signed_rank', G_X, G_Y, {'alternative': 'two-sided'}, 92, 0.072998046875),  # wilcox.test(G_X, G_Y, paired=TRUE, alternative="two.sided")
    ('wilcoxon_signed_rank', G_X, G_Y, {'alternative': 'greater'}, 92, 0.0364990234375),  # wilcox.test(G_X, G_Y, paired=TRUE, alternative="greater")
    ('wilcoxon_signed_rank', G_X, G_Y, {'alternative': 'less'}, 92, 0.9681396484375),  # wilcox.test(G_X, G_Y, paired=TRUE, alternative="less")
    ('wilcoxon_signed_rank', E_X, E_Y, {'alternative': 'two-sided'}, 423, 0.0596727060850206),  # wilcox.test(E_X, E_Y, paired=TRUE, alternative="two.sided")
    ('wilcoxon_signed_rank', E_X, E_Y, {'alternative': 'greater'}, 423, 0.970847264202936),  # wilcox.test(E_X, E_Y, paired=TRUE, alternative="greater")
    ('wilcoxon_signed_rank', E_X, E_Y, {'alternative': 'less'}, 423, 0.0298363530425103),  # wilcox.test(E_X, E_Y, paired=TRUE, alternative="less")
    ('wilcoxon_signed_rank', G_X, None, {'alternative': 'greater', 'mu': 4.6}, 89, 0.053497314453125),  # wilcox.test(G_X, alternative="greater", mu=4.6)
    ('wilcoxon_signed_rank', C_X, None, {'alternative': 'two-sided', 'mu': 3.5}, 794, 0.375039512384606),  # wilcox.test(C_X, mu=3.5)
    ('wilcoxon_signed_rank', G_X, G_Y, {'correct': False, 'exact': False}, 92, 0.0691439738975189),  # wilcox.test(G_X, G_Y, paired=TRUE, correct=FALSE, exact=FALSE)
    ('ks_two_sample', D_X, D_Y, {'exact': True}, 0.2, 0.00873676526598388),  # ks.test(D_X, D_Y, exact=TRUE)
    ('ks_two_sample', B_X, B_Y, {'exact': False}, 0.35, 0.387651105343026),  # ks.test(B_X, B_Y, exact=FALSE)
]


@pytest.mark.parametrize(("func", "x", "y", "kwargs", "r_statistic", "r_pvalue"), R_CASES)
def test_against_r(func, x, y, kwargs, r_statistic, r_pvalue):
    res = getattr(pr.stats, func)(x, y, **kwargs)
    assert res.statistic == pytest.approx(r_statistic, rel=1e-9, abs=1e-9)
    tol = 1e-4 if func == "ks_two_sample" else 1e-6
    assert res.pvalue == pytest.approx(r_pvalue, rel=tol)


def test_tie_warning_and_method_as_r():
    res = pr.stats.wilcoxon_rank_sum(B_X, B_Y)
    assert not res.exact and "cannot compute exact p-value with ties" in res.warnings
    assert res.method == "Wilcoxon rank sum test with continuity correction"
    assert pr.stats.wilcoxon_rank_sum(A_X, A_Y).method == "Wilcoxon rank sum exact test"
    assert pr.stats.ks_two_sample(D_X, D_Y).warnings == ("p-value will be approximate in the presence of ties",)


def test_signed_rank_reports_dropped_zeros():
    res = pr.stats.wilcoxon_signed_rank(F_X, F_Y)
    assert any("zero difference" in w for w in res.warnings)
    assert "cannot compute exact p-value with zeroes" in res.warnings
    with pytest.raises(pr.DataError):
        pr.stats.wilcoxon_signed_rank([1, 2], [1, 2])


def test_all_tied_is_reported_not_guessed():
    res = pr.stats.wilcoxon_rank_sum([3, 3, 3], [3, 3])
    assert np.isnan(res.pvalue) and res.warnings


def test_bad_alternative_is_config_error():
    with pytest.raises(pr.ConfigError):
        pr.stats.wilcoxon_rank_sum(A_X, A_Y, alternative="bigger")


# ------------------------------------------------------------- brute-force enumeration

@pytest.mark.parametrize(("m", "n"), [(1, 1), (2, 3), (4, 4), (3, 6), (5, 2), (7, 4), (6, 6)])
def test_rank_sum_distribution_by_enumeration(m, n):
    counts = np.zeros(m * n + 1)
    for subset in itertools.combinations(range(1, m + n + 1), m):
        counts[sum(subset) - m * (m + 1) // 2] += 1
    np.testing.assert_allclose(pr.stats.rank_sum_distribution(m, n), counts / counts.sum(), rtol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_signed_rank_distribution_by_enumeration(n):
    counts = np.zeros(n * (n + 1) // 2 + 1)
    for signs in itertools.product((0, 1), repeat=n):
        counts[sum(r * s for r, s in zip(range(1, n + 1), signs, strict=True))] += 1
    np.testing.assert_allclose(pr.stats.signed_rank_distribution(n), counts / 2 ** n, rtol=1e-12)


def test_r_distribution_values():
    # R: pwilcox(10, 5, 7) = 0.1338384; psignrank(10, 9) = 0.08203125
    assert pr.stats.pwilcox(10, 5, 7) == pytest.approx(0.13383838383838384, rel=1e-12)
    assert pr.stats.psignrank(10, 9) == pytest.approx(0.08203125, rel=1e-12)
    # R: sprintf("%.15g", pwilcox(2000, 60, 70, lower.tail=FALSE)) = 0.678377768955804
    assert pr.stats.pwilcox(2000, 60, 70, lower_tail=False) == pytest.approx(0.678377768955804, rel=1e-9)
    # far tail keeps its relative precision: R: sprintf("%.15g", pwilcox(5, 60, 70)) = 2.9284669690845e-37
    assert pr.stats.pwilcox(5, 60, 70) == pytest.approx(2.9284669690845e-37, rel=1e-9)
    # R: sprintf("%.15g", pwilcox(20000, 150, 300)) = 0.0272712221625255
    assert pr.stats.pwilcox(20000, 150, 300) == pytest.approx(0.0272712221625255, rel=1e-9)
    with pytest.raises(pr.ConfigError):
        pr.stats.rank_sum_distribution(400, 400)


@pytest.mark.parametrize("two_sided", [True, False])
def test_psmirnov_with_ties_by_enumeration(two_sided):
    x = np.array([1.0, 2, 2, 3, 5])
    y = np.array([2.0, 3, 3, 4])
    pooled = np.concatenate([x, y])
    m, n = x.size, y.size
    grid = np.unique(pooled)

    def stat(xs, ys):
        d = (xs[:, None] <= grid).mean(0) - (ys[:, None] <= grid).mean(0)
        return np.abs(d).max() if two_sided else d.max()

    observed = stat(x, y)
    hits = total = 0
    for idx in itertools.combinations(range(m + n), m):
        mask = np.zeros(m + n, bool)
        mask[list(idx)] = True
        hits += stat(pooled[mask], pooled[~mask]) >= observed - 1e-12
        total += 1
    p = pr.stats.psmirnov(observed, m, n, z=pooled, two_sided=two_sided, lower_tail=False)
    assert p == pytest.approx(hits / total, rel=1e-12)


# ------------------------------------------------ ranks and Mann-Kendall's S without scipy.stats

def _series(rng, n, kind):
    if kind == "continuous":
        return rng.normal(size=n)
    if kind == "few values":
        return rng.integers(0, 5, size=n).astype(float)
    return np.round(rng.lognormal(size=n), 1)  # rounded: ties of every size


@pytest.mark.parametrize("kind", ["continuous", "few values", "rounded"])
def test_rank_average_is_scipys_rankdata_bit_for_bit(kind):
    from scipy import stats as sps
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 7, 100, 1000):
        z = _series(rng, n, kind)
        assert np.array_equal(pr.stats.rank_average(z), sps.rankdata(z))
    assert pr.stats.rank_average([]).size == 0
    assert np.isnan(pr.stats.rank_average([1.0, np.nan, 2.0])).all()  # scipy's default: NaN propagates


@pytest.mark.parametrize("kind", ["continuous", "few values", "rounded"])
def test_kendall_s_counts_every_pair(kind):
    rng = np.random.default_rng(12)
    for n in (0, 1, 2, 3, 5, 8, 9, 100, 1000, 1025):
        z = _series(rng, n, kind)
        i, j = np.triu_indices(n, 1)
        assert pr.stats.kendall_s(z) == int(np.sign(z[j] - z[i]).sum())
    assert pr.stats.kendall_s(np.ones(50)) == 0
    assert pr.stats.kendall_s(np.arange(50.0)) == 50 * 49 // 2
    assert pr.stats.kendall_s(-np.arange(50.0)) == -50 * 49 // 2


def test_kendall_s_is_scipys_tau_b_scaled_on_a_long_series():
    from scipy import stats as sps
    z = np.round(np.random.default_rng(13).lognormal(size=20_000), 2)
    n = z.size
    _, counts = np.unique(z, return_counts=True)
    n0, n2 = n * (n - 1) / 2, float((counts * (counts - 1) / 2).sum())
    tau_b = sps.kendalltau(np.arange(n), z).statistic
    assert pr.stats.kendall_s(z) == round(tau_b * np.sqrt(n0 * (n0 - n2)))


def test_shares_pvalue_is_fisher_for_two_categories_and_chi_square_beyond():
    """The modes' shares test the mode rules and the verdict's gaps share: scipy's Fisher (2 x 2) and chi-square,
    empty categories left out, None with fewer than two."""
    from scipy import stats as sps

    two = np.array([[9, 1], [5, 5]])
    assert pr.stats.shares_pvalue(two) == pytest.approx(sps.fisher_exact(two).pvalue, rel=1e-12)
    with_empty = np.array([[9, 0, 1], [5, 0, 5]])
    assert pr.stats.shares_pvalue(with_empty) == pr.stats.shares_pvalue(two)
    three = np.array([[6, 3, 1], [2, 3, 5]])
    assert pr.stats.shares_pvalue(three) == pytest.approx(sps.chi2_contingency(three).pvalue, rel=1e-12)
    assert pr.stats.shares_pvalue(np.array([[10, 0], [10, 0]])) is None
