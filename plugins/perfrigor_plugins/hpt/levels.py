"""HPT's two tests, vectorised: level 1 per benchmark, level 2 across benchmarks.

Level 1 (Chen et al., Sec. IV-A): one-sided Wilcoxon rank-sum tests in both directions,
exact when both systems have fewer than 12 runs, otherwise the paper's normal formula
(no tie, no continuity correction). Level 2: the signed-rank test on the per-benchmark
differences of medians, zeros kept and split half and half between R_A and R_B, exact
for fewer than 25 benchmarks, otherwise the paper's normal formula.

The exact null distributions come from ``pr.stats`` (ties ignored, as the paper's tables).
How a half-integer statistic (ties, split zeros) is compared with them is ``rule``:

- ``"p-value"`` (default, the authors' toolkit): the exact p-value of the observed
  statistic, P0(T <= R_B) = P0(T <= floor(R_B)) and P0(U >= ceil(U)).
- ``"critical-value"`` (the paper's wording): reject when R_B <= T_crit, i.e. use
  P0(T <= ceil(R_B)); at level 1, U >= c, i.e. P0(U >= floor(U)).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import perfrigor as pr

RULES = ("p-value", "critical-value")
#: level 1 is exact below this many runs per system, level 2 below this many benchmarks (the paper)
EXACT_RUNS, EXACT_BENCHMARKS = 12, 25
#: values within this relative distance are ties (0.76 - 1.03 and 1.27 - 1.00 in Table III)
TIE_TOLERANCE = 1e-9
#: slack when comparing exact probabilities with a level (2/20 <= 0.10 must hold)
EPS = 1e-12


def tie_blocks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sort each row of ``x``; give the order, and for every sorted position the first and last
    position of its block of ties (neighbours within TIE_TOLERANCE, relative; an infinite
    value ties only with an equal one).

    Hand-written: scipy's rankdata only knows exact equality, and floating-point noise
    (1.03 - 0.76 != 1.27 - 1.00) would break the paper's ties.
    """
    order = np.argsort(x, axis=-1)
    xs = np.take_along_axis(x, order, axis=-1)
    n = x.shape[-1]
    pos = np.broadcast_to(np.arange(n), x.shape)
    new = np.ones(x.shape, dtype=bool)
    upper, lower = xs[..., 1:], xs[..., :-1]
    with np.errstate(invalid="ignore"):  # inf - inf between padding values
        new[..., 1:] = ((upper - lower) > TIE_TOLERANCE * np.abs(upper)) | (np.isinf(upper) & (upper != lower))
    first = np.maximum.accumulate(np.where(new, pos, 0), axis=-1)
    ends = np.ones(x.shape, dtype=bool)
    ends[..., :-1] = new[..., 1:]
    last = np.flip(np.minimum.accumulate(np.flip(np.where(ends, pos, n - 1), -1), axis=-1), -1)
    return order, first, last


def tied_values(x: np.ndarray) -> np.ndarray:
    """Per row, how many finite values share their value with another (the exact tables ignore ties)."""
    order, first, last = tie_blocks(x)
    return ((last > first) & np.isfinite(np.take_along_axis(x, order, axis=-1))).sum(axis=-1)


def midranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n along the last axis, ties (within TIE_TOLERANCE) given their average rank."""
    order, first, last = tie_blocks(x)
    ranks = np.empty(x.shape)
    np.put_along_axis(ranks, order, (first + last) / 2 + 1, axis=-1)
    return ranks


# ------------------------------------------------------------------------------ level 1

def candidate_u(candidate: np.ndarray, baseline: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """Mann-Whitney U of each row's candidate scores divided by ``gamma``, against the baseline.

    ``candidate`` (k, m_c), ``baseline`` (k, m_b), ``gamma`` (k,): the number of pairs where
    the candidate is larger, ties counting one half; its midrank sum is ``U + m_c(m_c+1)/2``.
    Rows with fewer runs are padded with -inf (candidate) and +inf (baseline): pads never
    count, since no baseline lies below -inf and no candidate above +inf.
    """
    m_c = candidate.shape[1]
    pooled = np.concatenate([candidate / np.asarray(gamma, dtype=float)[:, None], baseline], axis=1)
    order, first, last = tie_blocks(pooled)
    is_base = order >= m_c
    base_upto = np.cumsum(is_base, axis=1)  # baselines at sorted positions <= p
    base_before = np.take_along_axis(base_upto - is_base, first, axis=1)  # strictly below the block
    base_tied = np.take_along_axis(base_upto, last, axis=1) - base_before
    return np.where(is_base, 0.0, base_before + 0.5 * base_tied).sum(axis=1)


def is_exact_level1(m_c: Any, m_b: Any) -> Any:
    """Exact tables when both systems have fewer than 12 runs (elementwise for arrays)."""
    return np.maximum(m_c, m_b) < EXACT_RUNS


def level1_pvalues(u: np.ndarray, m_c: Any, m_b: Any, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """One-sided p-values (candidate better, baseline better) of the rank-sum test, per row
    (run counts ``m_c``, ``m_b``: numbers or one per row)."""
    from scipy import stats as sps
    u = np.asarray(u, dtype=float)
    m_c, m_b = np.broadcast_to(m_c, u.shape), np.broadcast_to(m_b, u.shape)
    n_pairs = m_c * m_b
    # the paper's z = (R - m(2m+1)/2) / sqrt(m^2(2m+1)/12), written for unequal sizes
    z = (u - n_pairs / 2) / np.sqrt(n_pairs * (m_c + m_b + 1) / 12)
    p_c, p_b = sps.norm.sf(z), sps.norm.cdf(z)
    exact = is_exact_level1(m_c, m_b)
    rnd = (lambda x: np.ceil(x - 1e-9)) if rule == "p-value" else (lambda x: np.floor(x + 1e-9))
    for a, b in {(int(a), int(b)) for a, b in zip(m_c[exact], m_b[exact], strict=True)}:
        rows = exact & (m_c == a) & (m_b == b)
        sf = np.append(np.cumsum(pr.stats.rank_sum_distribution(a, b)[::-1])[::-1], 0.0)  # P0(U >= k)
        p_c[rows] = sf[np.clip(rnd(u[rows]), 0, a * b + 1).astype(int)]
        p_b[rows] = sf[np.clip(rnd(a * b - u[rows]), 0, a * b + 1).astype(int)]
    return np.minimum(p_c, 1.0), np.minimum(p_b, 1.0)


def min_level1_pvalue(m_c: int, m_b: int) -> float:
    """The smallest one-sided p-value level 1 can reach (complete separation)."""
    from scipy import stats as sps
    if is_exact_level1(m_c, m_b):
        return float(pr.stats.rank_sum_distribution(m_c, m_b)[-1])
    n_pairs = m_c * m_b
    return float(sps.norm.sf((n_pairs / 2) / np.sqrt(n_pairs * (m_c + m_b + 1) / 12)))


# ------------------------------------------------------------------------------ level 2

def signed_rank_sums(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """R_A and R_B along the last axis: ranks of |d|, zeros ranked too and split half and half."""
    order, first, last = tie_blocks(np.abs(d))
    rank = (first + last) / 2 + 1
    ds = np.take_along_axis(d, order, axis=-1)
    half_zero = 0.5 * np.where(ds == 0, rank, 0.0).sum(axis=-1)
    return (np.where(ds > 0, rank, 0.0).sum(axis=-1) + half_zero,
            np.where(ds < 0, rank, 0.0).sum(axis=-1) + half_zero)


def level2_pvalue(r_b: np.ndarray, n: int, rule: str) -> np.ndarray:
    """P-value of "the candidate is better" from the baseline's signed-rank sum R_B, n benchmarks."""
    from scipy import stats as sps
    r_b = np.asarray(r_b, dtype=float)
    if n < EXACT_BENCHMARKS:
        cdf = np.minimum(np.cumsum(pr.stats.signed_rank_distribution(n)), 1.0)
        rnd = np.floor(r_b + 1e-9) if rule == "p-value" else np.ceil(r_b - 1e-9)
        return cdf[np.clip(rnd, 0, cdf.size - 1).astype(int)]
    return sps.norm.cdf(level2_z(r_b, n))


def level2_z(r_b: np.ndarray, n: int) -> np.ndarray:
    """The paper's z_B = (R_B - n(n+1)/4) / sqrt(n(n+1)(2n+1)/24), no tie or continuity correction."""
    return (np.asarray(r_b, dtype=float) - n * (n + 1) / 4) / np.sqrt(n * (n + 1) * (2 * n + 1) / 24)


def min_level2_pvalue(n: int) -> float:
    """The smallest p-value level 2 can reach with n benchmarks (every d > 0)."""
    return float(level2_pvalue(np.array(0.0), n, "p-value"))
