"""The Speedup-Test building blocks against R 4.2.2 (shapiro.test, var.test, t.test, wilcox.test, ks.test).

Data generated once with numpy (seed 314); S3 is rounded to integers (ties). To recompute a value in R,
define the vectors below (``S1_X <- c(...)``) and run the command beside it.
"""

import numpy as np
import perfrigor as pr
import pytest

S1_X = [9.6261, 9.6662, 10.0224, 10.5976, 10.018, 10.2088, 10.0794, 10.091, 9.9107, 9.9626, 8.8994, 9.685]
S1_Y = [9.6399, 10.0126, 9.8535, 9.2775, 9.5115, 9.9705, 9.3759, 9.18, 8.8386, 8.8298]
S2_X = [2.1921, 4.4239, 3.6309, 2.2135, 5.1471, 3.5881, 1.5166, 2.0066, 3.5157, 5.3116, 3.2791, 3.0865, 2.5433, 2.3784, 2.2641, 2.665, 2.4995, 2.9564, 2.6389, 4.6934, 2.8859, 4.4088, 2.7294, 2.2717, 2.1827, 1.7863, 6.7337, 5.1352, 3.3629, 2.5367, 3.0819, 3.4944, 4.5479, 1.9156, 2.0849]
S2_Y = [1.7434, 2.2629, 3.5206, 1.1548, 2.3938, 0.8505, 1.8465, 2.5605, 1.8344, 2.1036, 7.7627, 3.7727, 4.106, 1.6295, 1.8734, 2.121, 1.076, 2.7093, 5.2941, 2.1526, 2.8537, 1.2399, 3.9823, 3.7046, 1.65, 3.0061, 2.2482, 2.8676, 2.1439, 4.7392, 2.1077, 2.1344, 1.8197, 2.4054, 1.7316, 2.787, 1.5967, 3.0291, 2.3731, 2.5774]
S3_X = [48.0, 50.0, 50.0, 49.0, 52.0, 51.0, 50.0, 52.0, 48.0, 52.0, 50.0, 49.0, 50.0, 52.0, 47.0, 53.0, 50.0, 46.0, 50.0, 46.0, 48.0, 46.0, 44.0, 47.0, 48.0]
S3_Y = [51.0, 48.0, 46.0, 50.0, 49.0, 49.0, 46.0, 46.0, 50.0, 50.0, 50.0, 49.0, 52.0, 49.0, 50.0, 51.0, 51.0, 49.0, 48.0, 48.0, 49.0, 47.0, 49.0, 49.0, 48.0, 51.0, 48.0, 47.0]

# (component, x, y, parameters, R statistic, R p-value)  # R command
R_CASES = [
    ('shapiro-wilk', S1_X, None, {}, 0.90513617128569, 0.184749763600185),  # shapiro.test(S1_X)
    ('shapiro-wilk', S1_Y, None, {}, 0.935991832697096, 0.509333796170113),  # shapiro.test(S1_Y)
    ('fisher-f', S1_X, S1_Y, {'alternative': 'two-sided'}, 0.918899106104303, 0.879663816883692),  # var.test(S1_X, S1_Y, alternative="two.sided")
    ('student-t', S1_X, S1_Y, {'alternative': 'two-sided'}, 2.49657340854283, 0.021389436721409),  # t.test(S1_X, S1_Y, alternative="two.sided", var.equal=TRUE)
    ('welch-t', S1_X, S1_Y, {'alternative': 'two-sided'}, 2.48651974532411, 0.0223865764248295),  # t.test(S1_X, S1_Y, alternative="two.sided")
    ('wilcoxon-mann-whitney', S1_X, S1_Y, {'alternative': 'two-sided'}, 98, 0.0111529337535529),  # wilcox.test(S1_X, S1_Y, alternative="two.sided")
    ('kolmogorov-smirnov', S1_X, S1_Y, {'alternative': 'two-sided'}, 0.533333333333333, 0.0617463032323653),  # ks.test(S1_X, S1_Y, alternative="two.sided")
    ('fisher-f', S1_X, S1_Y, {'alternative': 'greater'}, 0.918899106104303, 0.560168091558154),  # var.test(S1_X, S1_Y, alternative="greater")
    ('student-t', S1_X, S1_Y, {'alternative': 'greater'}, 2.49657340854283, 0.0106947183607045),  # t.test(S1_X, S1_Y, alternative="greater", var.equal=TRUE)
    ('welch-t', S1_X, S1_Y, {'alternative': 'greater'}, 2.48651974532411, 0.0111932882124148),  # t.test(S1_X, S1_Y, alternative="greater")
    ('wilcoxon-mann-whitney', S1_X, S1_Y, {'alternative': 'greater'}, 98, 0.00557646687677647),  # wilcox.test(S1_X, S1_Y, alternative="greater")
    ('kolmogorov-smirnov', S1_X, S1_Y, {'alternative': 'greater'}, -1.11022302462516e-16, 1),  # ks.test(S1_X, S1_Y, alternative="greater")
    ('fisher-f', S1_X, S1_Y, {'alternative': 'less'}, 0.918899106104303, 0.439831908441846),  # var.test(S1_X, S1_Y, alternative="less")
    ('student-t', S1_X, S1_Y, {'alternative': 'less'}, 2.49657340854283, 0.989305281639296),  # t.test(S1_X, S1_Y, alternative="less", var.equal=TRUE)
    ('welch-t', S1_X, S1_Y, {'alternative': 'less'}, 2.48651974532411, 0.988806711787585),  # t.test(S1_X, S1_Y, alternative="less")
    ('wilcoxon-mann-whitney', S1_X, S1_Y, {'alternative': 'less'}, 98, 0.99552150635742),  # wilcox.test(S1_X, S1_Y, alternative="less")
    ('kolmogorov-smirnov', S1_X, S1_Y, {'alternative': 'less'}, 0.533333333333333, 0.0308731516161794),  # ks.test(S1_X, S1_Y, alternative="less")
    ('kolmogorov-smirnov', S1_X, S1_Y, {'center': 'median'}, 0.233333333333333, 0.86308892346044),  # ks.test(S1_X - median(S1_X), S1_Y - median(S1_Y))
    ('shapiro-wilk', S2_X, None, {}, 0.909386568608198, 0.0071386919769792),  # shapiro.test(S2_X)
    ('shapiro-wilk', S2_Y, None, {}, 0.837228374304982, 4.47159014899931e-05),  # shapiro.test(S2_Y)
    ('fisher-f', S2_X, S2_Y, {'alternative': 'two-sided'}, 0.873983289021531, 0.693009564218538),  # var.test(S2_X, S2_Y, alternative="two.sided")
    ('student-t', S2_X, S2_Y, {'alternative': 'two-sided'}, 2.07221020545489, 0.0417783539707064),  # t.test(S2_X, S2_Y, alternative="two.sided", var.equal=TRUE)
    ('welch-t', S2_X, S2_Y, {'alternative': 'two-sided'}, 2.08164814707486, 0.0408977156545473),  # t.test(S2_X, S2_Y, alternative="two.sided")
    ('wilcoxon-mann-whitney', S2_X, S2_Y, {'alternative': 'two-sided'}, 944, 0.00915313247278982),  # wilcox.test(S2_X, S2_Y, alternative="two.sided")
    ('kolmogorov-smirnov', S2_X, S2_Y, {'alternative': 'two-sided'}, 0.332142857142857, 0.0246294674412912),  # ks.test(S2_X, S2_Y, alternative="two.sided")
    ('fisher-f', S2_X, S2_Y, {'alternative': 'greater'}, 0.873983289021531, 0.653495217890731),  # var.test(S2_X, S2_Y, alternative="greater")
    ('student-t', S2_X, S2_Y, {'alternative': 'greater'}, 2.07221020545489, 0.0208891769853532),  # t.test(S2_X, S2_Y, alternative="greater", var.equal=TRUE)
    ('welch-t', S2_X, S2_Y, {'alternative': 'greater'}, 2.08164814707486, 0.0204488578272736),  # t.test(S2_X, S2_Y, alternative="greater")
    ('wilcoxon-mann-whitney', S2_X, S2_Y, {'alternative': 'greater'}, 944, 0.00457656623639491),  # wilcox.test(S2_X, S2_Y, alternative="greater")
    ('kolmogorov-smirnov', S2_X, S2_Y, {'alternative': 'greater'}, 0.0249999999999999, 0.964239342119741),  # ks.test(S2_X, S2_Y, alternative="greater")
    ('fisher-f', S2_X, S2_Y, {'alternative': 'less'}, 0.873983289021531, 0.346504782109269),  # var.test(S2_X, S2_Y, alternative="less")
    ('student-t', S2_X, S2_Y, {'alternative': 'less'}, 2.07221020545489, 0.979110823014647),  # t.test(S2_X, S2_Y, alternative="less", var.equal=TRUE)
    ('welch-t', S2_X, S2_Y, {'alternative': 'less'}, 2.08164814707486, 0.979551142172726),  # t.test(S2_X, S2_Y, alternative="less")
    ('wilcoxon-mann-whitney', S2_X, S2_Y, {'alternative': 'less'}, 944, 0.995568562389796),  # wilcox.test(S2_X, S2_Y, alternative="less")
    ('kolmogorov-smirnov', S2_X, S2_Y, {'alternative': 'less'}, 0.332142857142857, 0.0123147396142906),  # ks.test(S2_X, S2_Y, alternative="less")
    ('kolmogorov-smirnov', S2_X, S2_Y, {'center': 'median'}, 0.160714285714286, 0.653888773005697),  # ks.test(S2_X - median(S2_X), S2_Y - median(S2_Y))
    ('shapiro-wilk', S3_X, None, {}, 0.955879539979685, 0.338531446440386),  # shapiro.test(S3_X)
    ('shapiro-wilk', S3_Y, None, {}, 0.947504709207821, 0.171414951962381),  # shapiro.test(S3_Y)
    ('fisher-f', S3_X, S3_Y, {'alternative': 'two-sided'}, 2.03944785276074, 0.0749922689877616),  # var.test(S3_X, S3_Y, alternative="two.sided")
    ('student-t', S3_X, S3_Y, {'alternative': 'two-sided'}, 0.354425378340217, 0.724481441611744),  # t.test(S3_X, S3_Y, alternative="two.sided", var.equal=TRUE)
    ('welch-t', S3_X, S3_Y, {'alternative': 'two-sided'}, 0.347495084047158, 0.729938860654209),  # t.test(S3_X, S3_Y, alternative="two.sided")
    ('wilcoxon-mann-whitney', S3_X, S3_Y, {'alternative': 'two-sided'}, 377, 0.632271690322226),  # wilcox.test(S3_X, S3_Y, alternative="two.sided")
    ('kolmogorov-smirnov', S3_X, S3_Y, {'alternative': 'two-sided'}, 0.164285714285714, 0.537985204987758),  # ks.test(S3_X, S3_Y, alternative="two.sided")
    ('fisher-f', S3_X, S3_Y, {'alternative': 'greater'}, 2.03944785276074, 0.0374961344938808),  # var.test(S3_X, S3_Y, alternative="greater")
    ('student-t', S3_X, S3_Y, {'alternative': 'greater'}, 0.354425378340217, 0.362240720805872),  # t.test(S3_X, S3_Y, alternative="greater", var.equal=TRUE)
    ('welch-t', S3_X, S3_Y, {'alternative': 'greater'}, 0.347495084047158, 0.364969430327104),  # t.test(S3_X, S3_Y, alternative="greater")
    ('wilcoxon-mann-whitney', S3_X, S3_Y, {'alternative': 'greater'}, 377, 0.316135845161113),  # wilcox.test(S3_X, S3_Y, alternative="greater")
    ('kolmogorov-smirnov', S3_X, S3_Y, {'alternative': 'greater'}, 0.0614285714285714, 0.728875409461638),  # ks.test(S3_X, S3_Y, alternative="greater")
    ('fisher-f', S3_X, S3_Y, {'alternative': 'less'}, 2.03944785276074, 0.962503865506119),  # var.test(S3_X, S3_Y, alternative="less")
    ('student-t', S3_X, S3_Y, {'alternative': 'less'}, 0.354425378340217, 0.637759279194128),  # t.test(S3_X, S3_Y, alternative="less", var.equal=TRUE)
    ('welch-t', S3_X, S3_Y, {'alternative': 'less'}, 0.347495084047158, 0.635030569672896),  # t.test(S3_X, S3_Y, alternative="less")
    ('wilcoxon-mann-whitney', S3_X, S3_Y, {'alternative': 'less'}, 377, 0.690260785864542),  # wilcox.test(S3_X, S3_Y, alternative="less")
    ('kolmogorov-smirnov', S3_X, S3_Y, {'alternative': 'less'}, 0.164285714285714, 0.264656977957365),  # ks.test(S3_X, S3_Y, alternative="less")
    ('kolmogorov-smirnov', S3_X, S3_Y, {'center': 'median'}, 0.221428571428571, 0.234640599196275),  # ks.test(S3_X - median(S3_X), S3_Y - median(S3_Y))
]


@pytest.mark.parametrize(("name", "x", "y", "params", "r_statistic", "r_pvalue"), R_CASES)
def test_matches_r(name, x, y, params, r_statistic, r_pvalue):
    test = pr.get(name, **params)
    res = test.test(x) if y is None else test.test(x, y)
    assert res.statistic == pytest.approx(r_statistic, rel=1e-6, abs=1e-12)
    assert res.pvalue == pytest.approx(r_pvalue, rel=1e-4 if name == "kolmogorov-smirnov" else 1e-6)
    assert res.reject == (res.pvalue <= 0.05)


@pytest.mark.parametrize("name", ["student-t", "welch-t", "wilcoxon-mann-whitney"])
def test_higher_is_better_flips_the_one_sided_alternative(name):
    # On throughputs a faster candidate has LARGER values: the default still asks "candidate faster?".
    base = pr.Sample(S1_Y, lower_is_better=False)
    cand = pr.Sample(S1_X, lower_is_better=False)
    res = pr.get(name).test(base, cand)
    same_as_r_less = pr.get(name, alternative="less").test(S1_Y, S1_X)
    assert res.alternative == "less"
    assert res.pvalue == pytest.approx(same_as_r_less.pvalue, rel=1e-12)


def test_defaults_are_the_speedup_test_alternatives():
    assert pr.get("student-t").alternative == "greater"
    assert pr.get("welch-t").alternative == "greater"
    assert pr.get("wilcoxon-mann-whitney").alternative == "greater"
    assert pr.get("fisher-f").alternative == "two-sided"
    assert pr.get("kolmogorov-smirnov").alternative == "two-sided"
    assert pr.get_registry().component_class("shapiro-wilk").n_samples == 1


def test_ties_reported_and_r_method_used():
    res = pr.get("wilcoxon-mann-whitney").test(S3_X, S3_Y)
    assert "cannot compute exact p-value with ties" in res.warnings
    assert res.details["exact"] is False


def test_bad_inputs_name_the_problem():
    with pytest.raises(pr.DataError, match="zero variance"):
        pr.get("shapiro-wilk").test([1.0, 1.0, 1.0, 1.0])
    with pytest.raises(pr.DataError, match="at least 3"):
        pr.get("shapiro-wilk").test([1.0, 2.0])
    with pytest.raises(pr.DataError, match="zero variance"):
        pr.get("fisher-f").test([1.0, 2.0, 3.0], [2.0, 2.0, 2.0])
    with pytest.raises(pr.DataError):
        pr.get("welch-t").test([1.0, np.nan, 3.0], [2.0, 2.5, 2.0])
    with pytest.raises(pr.ConfigError):
        pr.get("shapiro-wilk").test(S1_X, S1_Y)
    with pytest.raises(pr.ConfigError):
        pr.get("student-t", alternative="faster")


def _deterministic(n):
    # the same numbers in R: i <- 1:n; u <- ((i*7919) %% 4001)/4001; v <- ((i*104729) %% 4003)/4003;
    # w <- ((i*1299709) %% 4007)/4007; s <- u + v + w; c <- u*u*u
    i = np.arange(1, n + 1)
    u, v, w = (i * 7919 % 4001) / 4001, (i * 104729 % 4003) / 4003, (i * 1299709 % 4007) / 4007
    return u + v + w, u * u * u


# n, then W and p of shapiro.test(s), W and p of shapiro.test(c), printed with sprintf("%.15g")
SHAPIRO_R = [
    (4, 0.73395123819992, 0.0270078126077729, 0.99254818779713, 0.970137686764295),
    (7, 0.839233468542547, 0.0977358108740299, 0.976642353709127, 0.941711301545542),
    (11, 0.831009870480197, 0.0240697778088422, 0.964660889053827, 0.828142133885557),
    (12, 0.828816411210458, 0.0203012438730297, 0.96235533412456, 0.816854058005606),
    (60, 0.936539426017519, 0.00380398072645061, 0.876797571587753, 2.07516319486532e-05),
    (2000, 0.997423714571972, 0.00224715475239878, 0.827252682802357, 4.60326529505964e-42),
    (4000, 0.997246553301477, 1.20195420089061e-06, 0.824146931003158, 8.46428276227686e-55),
    (5000, 0.997308384665862, 9.27057027572508e-08, 0.824800756146063, 4.09866410793222e-59),
]


@pytest.mark.parametrize(("n", "w_s", "p_s", "w_c", "p_c"), SHAPIRO_R)
def test_shapiro_wilk_matches_r_for_all_sizes(n, w_s, p_s, w_c, p_c):
    s, c = _deterministic(n)
    for values, w, p in ((s, w_s, p_s), (c, w_c, p_c)):
        res = pr.get("shapiro-wilk").test(values)
        assert res.statistic == pytest.approx(w, rel=1e-12)
        assert res.pvalue == pytest.approx(p, rel=1e-8)
    with pytest.raises(pr.DataError, match="3 to 5000"):
        pr.get("shapiro-wilk").test(np.r_[s, s][:5001] if n == 5000 else np.zeros(5001) + np.arange(5001))
