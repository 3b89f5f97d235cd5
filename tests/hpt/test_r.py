"""HPT's levels against R's wilcox.test where the conventions coincide (no ties, no zeros).

Each expected value is printed by the R 4.2 command beside it (R is not needed to run the tests).
Level 1 is a one-sided rank-sum test each way; level 2's p-value for "the candidate is better",
P0(T <= R_B), equals R's P(V >= R_A) (V = R_A) when no d is zero and no |d| is tied.
"""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.hpt import HPT

A = [1.12, 0.98, 1.31, 1.05, 1.22, 1.17, 0.95]
B = [0.91, 1.02, 0.88, 0.97, 1.01, 0.93, 0.99]
A2 = [3.1, 2.9, 3.4, 3.0]
B2 = [2.8, 3.05, 2.7, 2.95, 2.85, 2.75]
# set.seed(1); a3 <- round(rnorm(15, 10.3, 0.5), 4); b3 <- round(rnorm(15, 10, 0.5), 4)
A3 = [9.9868, 10.3918, 9.8822, 11.0976, 10.4648, 9.8898, 10.5437, 10.6692, 10.5879, 10.1473, 11.0559, 10.4949,
      9.9894, 9.1927, 10.8625]
B3 = [9.9775, 9.9919, 10.4719, 10.4106, 10.297, 10.4595, 10.3911, 10.0373, 9.0053, 10.3099, 9.9719, 9.9221,
      9.2646, 9.7609, 10.209]


def one_benchmark(a, b):
    """HPT details of a one-benchmark suite of higher-is-better scores (candidate a, baseline b)."""
    res = HPT(normalize="none").compare({"x": pr.Sample(b, lower_is_better=False)},
                                                   {"x": pr.Sample(a, lower_is_better=False)})
    return res.details["benchmarks"]["x"]


@pytest.mark.parametrize(("a", "b", "greater", "less"), [
    # wilcox.test(a, b, alternative="greater", exact=TRUE)$p.value; ... alternative="less" ...
    (A, B, 0.0131118881118881, 0.991258741258741),
    # unequal sizes: wilcox.test(a2, b2, alternative="greater"|"less", exact=TRUE)$p.value
    (A2, B2, 0.0333333333333333, 0.980952380952381),
    # m = 15 >= 12, the paper's normal formula = R without corrections:
    # wilcox.test(a3, b3, alternative="greater"|"less", exact=FALSE, correct=FALSE)$p.value
    (A3, B3, 0.0295632139221708, 0.970436786077829),
])
def test_level1_pvalues_agree_with_r(a, b, greater, less):
    bench = one_benchmark(a, b)
    assert bench["pvalue_candidate_better"] == pytest.approx(greater, rel=1e-12)
    assert bench["pvalue_baseline_better"] == pytest.approx(less, rel=1e-12)
    assert bench["level1_method"] == ("normal" if len(a) >= 12 else "exact")


def test_level1_agrees_with_shared_wilcoxon():
    # the same numbers through perfrigor.stats (R's wilcox.test, written once for all plugins)
    for a, b in [(A, B), (A2, B2)]:
        r = pr.stats.wilcoxon_rank_sum(a, b, alternative="greater")
        assert one_benchmark(a, b)["pvalue_candidate_better"] == pytest.approx(r.pvalue, rel=1e-12)


def suite_with_differences(d: list[float], jitter: float) -> tuple[dict, dict]:
    """Five runs per benchmark, candidate median = 1 + d, every benchmark completely separated."""
    offsets = np.array([0.0, 1.0, 2.0, -1.0, -2.0]) * jitter
    base = {f"b{i:02d}": pr.Sample(1.0 + offsets, lower_is_better=False) for i in range(len(d))}
    cand = {f"b{i:02d}": pr.Sample(1.0 + x + offsets, lower_is_better=False) for i, x in enumerate(d)}
    return base, cand


def test_level2_exact_agrees_with_r():
    d = [0.31, -0.12, 0.45, 0.08, 0.27, -0.05, 0.52, 0.19, 0.36, -0.22]
    base, cand = suite_with_differences(d, 0.01)
    res = HPT(normalize="none").compare(base, cand)
    assert [v["d"] for v in res.details["benchmarks"].values()] == pytest.approx(d, abs=1e-12)
    # wilcox.test(c(0.31, -0.12, 0.45, 0.08, 0.27, -0.05, 0.52, 0.19, 0.36, -0.22),
    #             alternative="greater", exact=TRUE)$p.value
    assert res.pvalue == pytest.approx(0.0322265625, rel=1e-12)
    assert res.details["level2_method"] == "exact"


def test_level2_normal_agrees_with_r():
    # d30 <- round(seq(-0.3, 1.2, length.out=30) + c(0.013, -0.007), 4)
    d30 = [-0.287, -0.2553, -0.1836, -0.1518, -0.0801, -0.0484, 0.0233, 0.0551, 0.1268, 0.1585, 0.2302, 0.262,
           0.3337, 0.3654, 0.4371, 0.4689, 0.5406, 0.5723, 0.644, 0.6758, 0.7475, 0.7792, 0.8509, 0.8827, 0.9544,
           0.9861, 1.0578, 1.0896, 1.1613, 1.193]
    base, cand = suite_with_differences(d30, 0.002)
    res = HPT(normalize="none").compare(base, cand)
    assert res.details["wins"]["tie"] == 0
    # wilcox.test(d30, alternative="greater", exact=FALSE, correct=FALSE)$p.value
    assert res.pvalue == pytest.approx(4.45936371222985e-05, rel=1e-9)
    assert res.details["level2_method"] == "normal"
