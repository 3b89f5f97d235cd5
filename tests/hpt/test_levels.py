"""HPT's two tests: exact null distributions against brute-force enumeration, the critical
values of spec §5, the normal formulas, tie handling, and the toolkit's level-1 bug (absent)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from perfrigor_plugins.hpt import HPT, levels
from scipy import stats as sps

# --------------------------------------------------------------- brute-force null distributions


def brute_rank_sum_sf(m_c: int, m_b: int) -> list[Fraction]:
    """P0(U >= u), u = 0..m_c*m_b, by enumerating every placement of the candidate's ranks."""
    n = m_c + m_b
    us = [sum(ranks) - m_c * (m_c + 1) // 2 for ranks in itertools.combinations(range(1, n + 1), m_c)]
    total = len(us)
    return [Fraction(sum(u >= k for u in us), total) for k in range(m_c * m_b + 1)]


def brute_signed_rank_cdf(n: int) -> list[Fraction]:
    """P0(T <= t), t = 0..n(n+1)/2, by enumerating the 2^n sign vectors."""
    sums = [sum(r for r, s in zip(range(1, n + 1), signs, strict=True) if s)
            for signs in itertools.product([0, 1], repeat=n)]
    return [Fraction(sum(x <= t for x in sums), 2 ** n) for t in range(n * (n + 1) // 2 + 1)]


@pytest.mark.parametrize(("m_c", "m_b"), [(1, 1), (2, 2), (3, 3), (4, 3), (3, 5), (5, 5), (6, 6)])
def test_level1_exact_pvalues_match_enumeration(m_c, m_b):
    sf = brute_rank_sum_sf(m_c, m_b)
    u = np.arange(m_c * m_b + 1, dtype=float)
    p_c, p_b = levels.level1_pvalues(u, m_c, m_b, "p-value")
    np.testing.assert_allclose(p_c, [float(f) for f in sf], rtol=1e-12)
    # the baseline's test is the same test with the roles exchanged: U_b = m_c m_b - U
    np.testing.assert_allclose(p_b, [float(sf[m_c * m_b - k]) for k in range(m_c * m_b + 1)], rtol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 5, 8, 12])
def test_level2_exact_pvalues_match_enumeration(n):
    cdf = brute_signed_rank_cdf(n)
    t = np.arange(n * (n + 1) // 2 + 1, dtype=float)
    np.testing.assert_allclose(levels.level2_pvalue(t, n, "p-value"), [float(f) for f in cdf], rtol=1e-12)


def test_half_integer_statistics_by_rule():
    # spec §3.5 / §9.9: n = 14, R_B = 25.5: floor counting gives P0(T <= 25) = 742/16384, the
    # critical-value rule (R_B <= T_crit = 25 fails) P0(T <= 26) = 852/16384
    assert levels.level2_pvalue(np.array(25.5), 14, "p-value") == 742 / 16384
    assert levels.level2_pvalue(np.array(25.5), 14, "critical-value") == 852 / 16384
    assert levels.level2_pvalue(np.array(24.0), 14, "critical-value") == 643 / 16384
    # level 1, m = 3: U = 7.5 (rank sum 13.5) is significant at 0.10 by floor counting only
    p_floor, _ = levels.level1_pvalues(np.array([7.5]), 3, 3, "p-value")
    p_crit, _ = levels.level1_pvalues(np.array([7.5]), 3, 3, "critical-value")
    assert (p_floor[0], p_crit[0]) == (pytest.approx(2 / 20), pytest.approx(4 / 20))


# --------------------------------------------------------------------- spec §5 critical values

SIGNED_RANK_CRIT_005 = {5: 0, 6: 2, 7: 3, 8: 5, 9: 8, 10: 10, 11: 13, 12: 17, 13: 21, 14: 25, 15: 30, 16: 35,
                        17: 41, 18: 47, 19: 53, 20: 60, 21: 67, 22: 75, 23: 83, 24: 91}
RANK_SUM_CRIT = {  # m: (c at alpha 0.10, c at 0.05), as rank sums R >= c (spec §5.2)
    3: (14, 15), 4: (23, 25), 5: (35, 36), 6: (48, 50), 7: (64, 66), 8: (81, 85), 9: (101, 105),
    10: (123, 128), 11: (147, 153)}


@pytest.mark.parametrize(("n", "t_crit"), SIGNED_RANK_CRIT_005.items())
def test_signed_rank_critical_values(n, t_crit):
    # spec §5.1: the largest t with P0(T <= t) <= 0.05; the level-2 rule rejects exactly when R_B <= t
    p = levels.level2_pvalue(np.arange(n * (n + 1) // 2 + 1, dtype=float), n, "critical-value")
    assert int(np.flatnonzero(p <= 0.05 + levels.EPS).max()) == t_crit


@pytest.mark.parametrize(("m", "crit"), RANK_SUM_CRIT.items())
def test_rank_sum_critical_values(m, crit):
    # spec §5.2: the smallest c with P0(R >= c) <= alpha; "<= alpha" inclusive (m = 3: 2/20 = 0.10)
    rank_sums = np.arange(m * (m + 1) // 2, m * (3 * m + 1) // 2 + 1)
    p, _ = levels.level1_pvalues(rank_sums - m * (m + 1) / 2, m, m, "critical-value")
    for alpha, c in zip((0.10, 0.05), crit, strict=True):
        assert int(rank_sums[p <= alpha + levels.EPS].min()) == c


def test_two_runs_can_never_be_significant():
    # spec §5.2: m = 2, the smallest one-sided p is 1/6
    assert levels.min_level1_pvalue(2, 2) == pytest.approx(1 / 6)
    assert levels.min_level1_pvalue(5, 5) == pytest.approx(1 / 252)


# --------------------------------------------------------------------------- normal formulas

def test_level1_normal_formula_is_the_papers():
    # z = (R - m(2m+1)/2) / sqrt(m^2 (2m+1) / 12), no tie or continuity correction (Sec. IV-A)
    m, rank_sum = 15, 280.0
    z = (rank_sum - m * (2 * m + 1) / 2) / np.sqrt(m * m * (2 * m + 1) / 12)
    p_c, p_b = levels.level1_pvalues(np.array([rank_sum - m * (m + 1) / 2]), m, m, "p-value")
    assert p_c[0] == pytest.approx(sps.norm.sf(z), rel=1e-12)
    assert p_b[0] == pytest.approx(sps.norm.cdf(z), rel=1e-12)


def test_level2_normal_formula_is_the_papers():
    # Table III's statistic put through the n >= 25 formula gives Phi(z_B) = 0.042142 (spec §6.1)
    assert levels.level2_z(np.array(25.0), 14) == pytest.approx(-1.72635, abs=5e-6)
    n, r_b = 30, 150.0
    z = (r_b - n * (n + 1) / 4) / np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    assert levels.level2_pvalue(np.array(r_b), n, "p-value") == pytest.approx(sps.norm.cdf(z), rel=1e-12)
    assert levels.level2_pvalue(np.array(r_b), n, "critical-value") == pytest.approx(sps.norm.cdf(z), rel=1e-12)


# ---------------------------------------------------------------------------------- ranking

def test_candidate_u_counts_pairs_with_half_ties():
    rng = np.random.default_rng(3)
    cand = np.round(rng.normal(1.0, 0.1, (50, 7)), 2)  # 2 decimals: many ties
    base = np.round(rng.normal(1.0, 0.1, (50, 9)), 2)
    gamma = rng.choice([1.0, 1.01, 1.1, 0.95], 50)
    scaled = cand / gamma[:, None]
    brute = ((scaled[:, :, None] > base[:, None, :]).sum((1, 2))
             + 0.5 * np.isclose(scaled[:, :, None], base[:, None, :], rtol=1e-12, atol=0).sum((1, 2)))
    np.testing.assert_array_equal(levels.candidate_u(cand, base, gamma), brute)
    ranks = sps.rankdata(np.round(np.concatenate([scaled, base], 1), 12), axis=1)
    np.testing.assert_array_equal(levels.candidate_u(cand, base, gamma), ranks[:, :7].sum(1) - 28)


def test_ties_survive_floating_point_noise():
    # spec §9.11: differences of 2-decimal scores that are equal on paper must tie (Table III's
    # |0.76 - 1.03| and |1.27 - 1.00| tie at 6.5); in floating point these two differ
    d = np.array([0.53 - 0.76, 1.15 - 0.92, 0.0, 0.0, 0.5])
    assert abs(d[0]) != abs(d[1])
    np.testing.assert_array_equal(levels.midranks(np.abs(d)), [3.5, 3.5, 1.5, 1.5, 5])
    r_a, r_b = levels.signed_rank_sums(d)
    assert (r_a, r_b) == (3.5 + 5 + 1.5, 3.5 + 1.5)


def test_midranks_agree_with_scipy_on_exact_ties():
    x = np.round(np.random.default_rng(0).exponential(size=(20, 40)), 1)
    np.testing.assert_array_equal(levels.midranks(x), sps.rankdata(x, axis=1))


# ------------------------------------------------------- the toolkit's level-1 bug, not copied

def test_more_than_twelve_runs_does_not_declare_every_benchmark_significant():
    # landscape §1.4.3: with m > 12 the toolkit's normal branch swaps its bounds (lower = mu - z*s
    # with z = qnorm(alpha) < 0), so "W <= lower or W >= upper" always holds and every benchmark
    # is significant. Here both systems draw from the same distribution: most benchmarks must tie.
    rng = np.random.default_rng(7)
    base = {f"b{i}": rng.lognormal(0.0, 0.05, 15) for i in range(40)}
    cand = {f"b{i}": rng.lognormal(0.0, 0.05, 15) for i in range(40)}
    res = HPT().compare(base, cand)
    bench = res.details["benchmarks"]
    assert all(v["level1_method"] == "normal" for v in bench.values())
    assert res.details["wins"]["tie"] >= 32  # expected 36 of 40 at 0.05 per side
    assert res.significant is False


def test_identical_systems_with_many_runs_all_tie():
    # the toolkit's bug would make each of these benchmarks "significant" with d = 0 anyway;
    # the faithful test finds no winner (U = m^2/2, z = 0)
    runs = {f"b{i}": np.linspace(1.0, 2.0, 20) * (i + 1) for i in range(12)}
    res = HPT().compare(runs, runs)
    assert res.details["wins"] == {"candidate": 0, "baseline": 0, "tie": 12}
    assert all(v["pvalue_candidate_better"] == 0.5 for v in res.details["benchmarks"].values())
    assert res.details["R_A"] == res.details["R_B"] == 12 * 13 / 4
