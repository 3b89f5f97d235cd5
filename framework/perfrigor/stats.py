"""R-compatible statistical primitives shared by several plugins (written once, here).

Rank-sum (Wilcoxon-Mann-Whitney) and signed-rank exact null distributions, the
tests as R's ``wilcox.test`` computes them, and R >= 4.2's two-sample
Kolmogorov-Smirnov test with exact p-values also in the presence of ties.

scipy has rank tests, but its choices of exact vs. asymptotic method, tie
handling and continuity correction differ from R's; the Speedup-Test and HPT
must reproduce R's numbers, so these are written here (vectorised numpy).

Conventions follow R: ``alternative`` is ``"two-sided"`` (``"two.sided"`` is
accepted), ``"less"`` or ``"greater"``; ``pwilcox(q, m, n, lower_tail=False)``
is P(U > q) as R's ``pwilcox(q, m, n, lower.tail = FALSE)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import attrs
import numpy as np

from .data import as_array
from .errors import ConfigError, DataError
from .results import Result

__all__ = [
    "RankTestResult", "ShiftResult", "autocorrelation", "autoregressive_long_run_factor", "false_coverage_confidence",
    "hodges_lehmann", "kendall_s", "ks_two_sample", "long_run_factor", "pairwise_order_statistics", "psignrank", "psmirnov",
    "pwilcox", "rank_average", "shares_pvalue", "rank_sum_distribution", "rank_sum_min_pvalue", "signed_rank_distribution", "studentized_rank_shift",
    "tie_sizes", "unbiased_autocorrelation", "wilcoxon_rank_sum", "wilcoxon_signed_rank", "yuen_shift",
]

_ALTERNATIVES = {"two-sided": "two-sided", "two.sided": "two-sided", "less": "less", "greater": "greater"}


def _alternative(alternative: str) -> str:
    try:
        return _ALTERNATIVES[alternative]
    except (KeyError, TypeError):
        raise ConfigError(f"alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}") from None


@attrs.frozen(kw_only=True)
class RankTestResult(Result):
    """Outcome of a rank test, as R's ``htest``: statistic (R's W, V or D), p-value, method."""

    statistic: float
    pvalue: float
    alternative: str
    method: str
    exact: bool

    def describe(self) -> str:
        return f"{self.method}: statistic {self.statistic:.6g}, p-value {self.pvalue:.4g} ({self.alternative})"


# --------------------------------------------------------------- exact null distributions

#: largest m*n for which the exact rank-sum distribution is computed (accurate to ~1e-12 there)
MAX_EXACT_RANK_SUM = 100_000
_RESCALE = 1e150  # counts are rescaled above this so that large m, n never overflow


@lru_cache(maxsize=256)
def _rank_sum_pmf(m: int, n: int) -> np.ndarray:
    # Hand-written (R's dwilcox is a memoised recursion; scipy has no R-matching version).
    # The counts of U are the coefficients of the Gaussian binomial [m+n choose m]_q =
    # prod_{i=1..k} (1 - q^(j+i)) / (1 - q^i) with k = min(m, n), j = max(m, n) (Harding 1984):
    # k steps of O(m*n) array work. Dividing by (1 - q^i) is a running sum with stride i.
    # The distribution is symmetric; the lower half (computed from lower coefficients only,
    # hence with full relative precision in the tail) is mirrored onto the upper half.
    k, j = min(m, n), max(m, n)
    size = m * n + 1
    coef = np.zeros(size)
    coef[0] = 1.0
    for i in range(1, k + 1):
        shifted = np.zeros(size)
        shifted[j + i:] = coef[: size - j - i]
        coef = coef - shifted
        pad = (-size) % i
        coef = np.cumsum(np.concatenate([coef, np.zeros(pad)]).reshape(-1, i), axis=0).reshape(-1)[:size]
        peak = coef.max()
        if peak > _RESCALE:
            coef /= peak
    half = coef[: size // 2 + 1]
    coef = np.concatenate([half, half[: size - half.size][::-1]])
    pmf = np.clip(coef, 0.0, None) / coef.sum()
    pmf.setflags(write=False)
    return pmf


def rank_sum_min_pvalue(m: int, n: int) -> float:
    """The smallest two-sided p-value a rank-sum test of ``m`` and ``n`` distinct values can give.

    2 / C(m + n, m) (every x above every y), capped at 1; 0.0 where that underflows a float
    (C(m + n, m) above 1e300, e.g. from 500 runs a side), instead of overflowing.
    """
    m, n = _size(m, "m", 0), _size(n, "n", 0)
    if math.lgamma(m + n + 1) - math.lgamma(m + 1) - math.lgamma(n + 1) > 690.0:  # log(1e300)
        return 0.0
    return min(1.0, 2.0 / math.comb(m + n, m))


def rank_sum_distribution(m: int, n: int) -> np.ndarray:
    """Exact null PROBABILITIES of the Mann-Whitney U = W - m(m+1)/2, for u = 0..m*n (no ties).

    ``W`` is the sum of the ranks of the first sample (size ``m``) in the pooled sample of
    ``m + n`` distinct values; this is R's ``dwilcox(0:(m*n), m, n)``. The array is read-only
    (cached).
    """
    m, n = _size(m, "m", 0), _size(n, "n", 0)
    if m == 0 or n == 0:
        return np.ones(1)
    if m * n > MAX_EXACT_RANK_SUM:
        raise ConfigError(f"exact rank-sum distribution for m={m}, n={n}: m*n above {MAX_EXACT_RANK_SUM} "
                          "loses precision; use the normal approximation (exact=False)")
    return _rank_sum_pmf(m, n)


@lru_cache(maxsize=256)
def _signed_rank_pmf(n: int) -> np.ndarray:
    # Subsets of 1..n counted by their sum; halving at every step gives probabilities directly.
    top = n * (n + 1) // 2
    pmf = np.zeros(top + 1)
    pmf[0] = 1.0
    for rank in range(1, n + 1):
        shifted = np.zeros_like(pmf)
        shifted[rank:] = pmf[:-rank]
        pmf = 0.5 * (pmf + shifted)
    pmf.setflags(write=False)
    return pmf


def signed_rank_distribution(n: int) -> np.ndarray:
    """Exact null PROBABILITIES of the signed-rank statistic V = 0..n(n+1)/2 (R's ``dsignrank``)."""
    return _signed_rank_pmf(_size(n, "n", 0))


def _size(value: Any, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not float(value).is_integer() or value < minimum:
        raise ConfigError(f"{what} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _cdf(pmf: np.ndarray, q: Any, lower_tail: bool) -> np.ndarray | float:
    q = np.floor(np.asarray(q, dtype=float) + 1e-7)  # R: q <- floor(q + 1e-7)
    cum = np.concatenate([[0.0], np.cumsum(pmf)])
    idx = np.clip(q + 1, 0, pmf.size).astype(int)
    lower = np.minimum(cum[idx], 1.0)
    if lower_tail:
        out = lower
    else:  # sum the upper tail directly: 1 - lower loses precision in the far tail
        rcum = np.concatenate([np.cumsum(pmf[::-1])[::-1], [0.0]])
        out = np.minimum(rcum[idx], 1.0)
    return float(out) if out.ndim == 0 else out


def pwilcox(q: Any, m: int, n: int, lower_tail: bool = True) -> np.ndarray | float:
    """R's ``pwilcox``: P(U <= q) (``lower_tail``) or P(U > q), U the Mann-Whitney statistic."""
    return _cdf(rank_sum_distribution(m, n), q, lower_tail)


def psignrank(q: Any, n: int, lower_tail: bool = True) -> np.ndarray | float:
    """R's ``psignrank``: P(V <= q) (``lower_tail``) or P(V > q)."""
    return _cdf(signed_rank_distribution(n), q, lower_tail)


# --------------------------------------------------------------------- Wilcoxon tests

def _normal_pvalue(z: float, alternative: str) -> float:
    # scipy.stats.norm's cdf and sf are ndtr(z) and ndtr(-z); scipy.special alone spares the
    # start of a command the import of scipy.stats (0.5-1 s of CPU)
    from scipy import special
    if alternative == "less":
        return float(special.ndtr(z))
    if alternative == "greater":
        return float(special.ndtr(-z))
    return float(2.0 * min(special.ndtr(z), special.ndtr(-z)))


def _correction(z: float, alternative: str, correct: bool) -> float:
    if not correct:
        return 0.0
    return {"two-sided": float(np.sign(z)) * 0.5, "greater": 0.5, "less": -0.5}[alternative]


def _flat(values: Any, what: str) -> np.ndarray:
    return as_array(values, what).reshape(-1)


def _sorted_pair(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Both samples flat and sorted: what the rank statistics and their order statistics start from."""
    return np.sort(_flat(x, "x")), np.sort(_flat(y, "y"))


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")


def _tie_term(ranks: np.ndarray) -> float:
    _, counts = np.unique(ranks, return_counts=True)
    return float(np.sum(counts.astype(float) ** 3 - counts))


def tie_sizes(z: Any) -> np.ndarray:
    """The sizes of the groups of equal values in each series (last axis), largest value last.

    Shape of ``z``: group k of a series holds ``out[..., k]`` values (ascending values); the
    rest of the row is 0. Every tie correction (rank tests, Kendall's tau, Mann-Kendall) is a
    sum over these: e.g. ``(t * (t - 1) * (2 * t + 5)).sum(axis=-1)``. O(n log n) per series,
    all series at once.
    """
    z = np.asarray(z, dtype=float)
    n = z.shape[-1]
    rows = z.reshape(-1, n)
    if n == 0:
        return np.zeros(z.shape, dtype=np.intp)
    ordered = np.sort(rows, axis=-1)
    starts = np.ones(rows.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    group = np.cumsum(starts, axis=-1) - 1 + n * np.arange(rows.shape[0])[:, None]
    return np.bincount(group.reshape(-1), minlength=rows.size).reshape(z.shape)


def rank_average(z: Any) -> np.ndarray:
    """The ranks of the flattened ``z``, ties given their average rank: ``scipy.stats.rankdata(z)``,
    the very same numbers (each a whole or half number, exact), without importing scipy.stats
    (0.5-1 s of a command's start). NaN anywhere gives NaN everywhere, as scipy's default."""
    z = np.asarray(z, dtype=float).reshape(-1)
    n = z.size
    if np.isnan(z).any():
        return np.full(n, np.nan)
    order = np.argsort(z, kind="stable")
    ordered = z[order]
    first = np.ones(n, dtype=bool)
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    del ordered
    ranks = np.empty(n)
    if first.all():  # no ties: the ranks 1..n
        ranks[order] = np.arange(1.0, n + 1)
        return ranks
    starts = np.flatnonzero(first)
    counts = np.diff(np.append(starts, n))
    ranks[order] = np.repeat(starts + 1 + (counts - 1) / 2, counts)
    return ranks


def kendall_s(z: Any) -> int:
    """Mann-Kendall's S of a series against run order: the sum over i < j of sign(z_j - z_i), ties 0.

    O(n log n): S = pairs - tied pairs - 2 x (pairs with z_i > z_j), the last the inversions of
    the stable sort's permutation, counted by a bottom-up merge sort (each pass one stable sort
    of two sorted runs per block, a merge, and a sum of where the left half's values went).
    Written by hand: scipy's is inside ``scipy.stats.kendalltau``, whose import costs a command
    0.5-1 s; the same S as tau-b x sqrt(n0 (n0 - n2)) rounded (``tests/test_stats.py``)."""
    z = np.asarray(z, dtype=float).reshape(-1)
    n = z.size
    if n < 2:
        return 0
    tied = tie_sizes(z).astype(np.int64)
    pairs, tied_pairs = n * (n - 1) // 2, int((tied * (tied - 1) // 2).sum())
    perm = np.argsort(z, kind="stable").astype(np.int64)  # where each value stands in run order
    index = np.arange(n, dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    positions = int(index.sum())
    inversions = 0
    level = 0
    while (1 << level) < n:  # blocks of 2w runs, each of two sorted halves of w (in place: 3 arrays of n)
        width = 1 << level
        np.right_shift(index, level + 1, out=keys)
        keys *= n
        keys += perm  # sorted within each half, blocks in order
        keys <<= 1
        np.right_shift(index, level, out=perm)
        perm &= 1
        keys |= perm  # the half a value came from rides along
        keys.sort(kind="stable")  # two sorted runs a block: a merge
        np.bitwise_and(keys, 1, out=perm)
        # the i-th left value of a block, merged to position p, follows p - start - i right values:
        # the inversions are the left values' positions less their blocks' starts and less sum(i)
        lefts = np.minimum(width, n - np.arange(0, n, 2 * width, dtype=np.int64))
        starts = np.arange(0, n, 2 * width, dtype=np.int64)
        inversions += (positions - int(index @ perm) - int(lefts @ starts)
                       - int((lefts * (lefts - 1) // 2).sum()))
        keys >>= 1
        np.right_shift(index, level + 1, out=perm)
        perm *= n
        np.subtract(keys, perm, out=perm)
        level += 1
    return pairs - tied_pairs - 2 * inversions


def _rank_sum(xs: np.ndarray, ys: np.ndarray) -> tuple[float, float, bool]:
    """From sorted ``xs`` and ``ys``: W = sum of the ranks of xs - m(m+1)/2, the tie term
    sum(t³ - t) over groups of equal pooled values, and whether any value repeats.

    The same numbers as ``rankdata`` of the pooled values and :func:`_tie_term` (W counts
    the pairs with y < x, and half the pairs with y = x, in integers), from a merge and
    two binary searches: three sorts fewer, which counts at 10^6 values a side.
    """
    pairs = int(np.searchsorted(ys, xs, side="left").sum())
    pairs += int(np.searchsorted(ys, xs, side="right").sum())
    pooled = np.concatenate([xs, ys])
    pooled.sort(kind="stable")  # two sorted runs: a merge
    change = pooled[1:] != pooled[:-1]
    if change.all():  # no ties: every group of one, a term of 0
        return pairs / 2, 0.0, False
    edges = np.flatnonzero(change) + 1
    counts = np.diff(np.concatenate([[0], edges, [pooled.size]]))
    return pairs / 2, float(np.sum(counts.astype(float) ** 3 - counts)), True


def wilcoxon_rank_sum(x: Any, y: Any, alternative: str = "two-sided", mu: float = 0.0,
                      exact: bool | None = None, correct: bool = True) -> RankTestResult:
    """R's ``wilcox.test(x, y, alternative, mu, exact, correct)`` (unpaired).

    The statistic is R's W = (sum of the ranks of ``x - mu``) - m(m+1)/2. Exact p-value when
    ``exact`` (default: both samples < 50) and there are no ties; otherwise the normal
    approximation with the tie-corrected variance and (``correct``) the continuity
    correction, as R. "greater" means ``x`` tends to be larger than ``y``.
    """
    alternative = _alternative(alternative)
    x = np.sort(_flat(x, "x") - float(mu))
    y = np.sort(_flat(y, "y"))
    m, n = x.size, y.size
    w, tie_term, ties = _rank_sum(x, y)
    if exact is None:
        exact = m < 50 and n < 50
    warnings: list[str] = []
    if exact and not ties:
        if alternative == "two-sided":
            p = pwilcox(w - 1, m, n, lower_tail=False) if w > m * n / 2 else pwilcox(w, m, n)
            p = min(2.0 * p, 1.0)
        elif alternative == "greater":
            p = pwilcox(w - 1, m, n, lower_tail=False)
        else:
            p = pwilcox(w, m, n)
        return RankTestResult(statistic=w, pvalue=float(p), alternative=alternative,
                              method="Wilcoxon rank sum exact test", exact=True)
    z = w - m * n / 2
    sigma = math.sqrt((m * n / 12) * ((m + n + 1) - tie_term / ((m + n) * (m + n - 1))))
    z = (z - _correction(z, alternative, correct)) / sigma if sigma > 0 else math.nan
    if sigma == 0:
        warnings.append("all values are tied: the rank-sum test is undefined (p-value NaN, as R)")
    if exact and ties:
        warnings.append("cannot compute exact p-value with ties")
    method = "Wilcoxon rank sum test" + (" with continuity correction" if correct else "")
    p = _normal_pvalue(z, alternative) if sigma > 0 else math.nan
    return RankTestResult(statistic=w, pvalue=p, alternative=alternative, method=method, exact=False,
                          warnings=tuple(warnings))


def wilcoxon_signed_rank(x: Any, y: Any = None, alternative: str = "two-sided", mu: float = 0.0,
                         exact: bool | None = None, correct: bool = True) -> RankTestResult:
    """R's ``wilcox.test(x, alternative, mu)`` (one sample) or ``wilcox.test(x, y, paired=TRUE)``.

    Differences ``x - y - mu`` equal to zero are dropped, as R does (with a warning saying
    how many); V is the sum of the ranks of the positive differences. Exact p-value when
    ``exact`` (default: fewer than 50 non-zero differences) with no ties and no zeros.
    """
    from scipy import stats as sps
    alternative = _alternative(alternative)
    d = _flat(x, "x")
    if y is not None:
        yy = _flat(y, "y")
        if yy.size != d.size:
            raise DataError(f"paired samples must have the same length, got {d.size} and {yy.size}")
        d = d - yy
    d = d - float(mu)
    zero = d == 0
    warnings: list[str] = []
    if zero.any():
        warnings.append(f"{int(zero.sum())} zero difference(s) dropped before ranking (as R)")
        d = d[~zero]
    n = d.size
    if n == 0:
        raise DataError("signed-rank test: every difference is zero, nothing to rank")
    ranks = sps.rankdata(np.abs(d))
    v = float(ranks[d > 0].sum())
    ties = np.unique(ranks).size != n
    if exact is None:
        exact = n < 50
    if exact and not ties and not zero.any():
        if alternative == "two-sided":
            p = psignrank(v - 1, n, lower_tail=False) if v > n * (n + 1) / 4 else psignrank(v, n)
            p = min(2.0 * p, 1.0)
        elif alternative == "greater":
            p = psignrank(v - 1, n, lower_tail=False)
        else:
            p = psignrank(v, n)
        return RankTestResult(statistic=v, pvalue=float(p), alternative=alternative,
                              method="Wilcoxon signed rank exact test", exact=True, warnings=tuple(warnings))
    z = v - n * (n + 1) / 4
    sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24 - _tie_term(ranks) / 48)
    z = (z - _correction(z, alternative, correct)) / sigma if sigma > 0 else math.nan
    if exact and ties:
        warnings.append("cannot compute exact p-value with ties")
    if exact and zero.any():
        warnings.append("cannot compute exact p-value with zeroes")
    method = "Wilcoxon signed rank test" + (" with continuity correction" if correct else "")
    p = _normal_pvalue(z, alternative) if sigma > 0 else math.nan
    return RankTestResult(statistic=v, pvalue=p, alternative=alternative, method=method, exact=False,
                          warnings=tuple(warnings))


# ------------------------------------------------------------ two-sample Kolmogorov-Smirnov

def psmirnov(statistic: float, m: int, n: int, z: Any = None, two_sided: bool = True,
             lower_tail: bool = True) -> float:
    """Exact distribution of the two-sample Smirnov statistic, with ties (as R's ``psmirnov``).

    Hand-written because scipy's exact two-sample KS ignores ties. It counts the monotone
    lattice paths from (0, 0) to (m, n) (u steps for x, v steps for y, in pooled sorted
    order) whose difference ``u/m - v/n`` (absolute value when ``two_sided``) stays below
    ``statistic`` at every point where the pooled sorted sample ``z`` changes value (every
    point when ``z`` is None, i.e. no ties). The probability is that count over C(m+n, m).
    Returns P(D < statistic) (``lower_tail``) or P(D >= statistic), as R.
    """
    m, n = _size(m, "m", 1), _size(n, "n", 1)
    # R compares against (0.5 + floor(q*m*n - 1e-7)) / (m*n); in units of 1/(m*n) the
    # differences u*n - v*m are integers, so "d < that" is "d <= floor(q*m*n - 1e-7)".
    limit = math.floor(statistic * m * n - 1e-7)
    if z is None:  # no ties: a function of the integer limit alone, asked again and again over a suite
        below = _psmirnov_untied(limit, m, n, bool(two_sided))
        return below if lower_tail else 1.0 - below
    return _psmirnov(limit, m, n, z, two_sided, lower_tail)


@lru_cache(maxsize=4096)
def _psmirnov_untied(limit: int, m: int, n: int, two_sided: bool) -> float:
    return _psmirnov(limit, m, n, None, two_sided, True)


def _psmirnov(limit: int, m: int, n: int, z: Any, two_sided: bool, lower_tail: bool) -> float:
    from scipy import special
    total = m + n
    if z is None:
        checked = np.ones(total, dtype=bool)
    else:
        zs = np.sort(_flat(z, "z"))
        if zs.size != total:
            raise DataError(f"psmirnov: z has {zs.size} values, expected m + n = {total}")
        checked = np.append(np.diff(zs) != 0, True)
    # Column by column along the smaller sample (few Python iterations): within a column the
    # paths to point j are those arriving from the previous column at j' <= j with no dead
    # point in between, i.e. a running sum restarted after each dead point.
    short, long_ = (m, n) if m <= n else (n, m)
    j = np.arange(long_ + 1)
    log_scale = 0.0
    paths = np.zeros(long_ + 1)
    for i in range(short + 1):
        u, v = (i, j) if m <= n else (j, i)
        d = u * n - v * m
        if two_sided:
            d = np.abs(d)
        k = i + j  # position in the pooled sorted sample
        dead = (k > 0) & checked[np.maximum(k - 1, 0)] & (d > limit)
        arriving = paths if i > 0 else np.r_[1.0, np.zeros(long_)]
        running = np.cumsum(arriving)
        last_dead = np.maximum.accumulate(np.where(dead, j, -1))
        restart = np.where(last_dead >= 0, running[np.maximum(last_dead, 0)], 0.0)
        paths = np.where(dead, 0.0, running - restart)
        peak = paths.max()
        if peak > _RESCALE:
            paths /= peak
            log_scale += math.log(peak)
    count = paths[long_]
    log_denom = special.gammaln(total + 1) - special.gammaln(m + 1) - special.gammaln(n + 1)
    below = 0.0 if count == 0 else math.exp(math.log(count) + log_scale - log_denom)
    return below if lower_tail else 1.0 - below


def _kolmogorov_sf(x: float) -> float:
    # 1 - K(x), K the limiting Kolmogorov distribution (R's C_pKS2 complement)
    from scipy import special
    return float(special.kolmogorov(x)) if x > 0 else 1.0


def ks_two_sample(x: Any, y: Any, alternative: str = "two-sided", exact: bool | None = None) -> RankTestResult:
    """R (>= 4.2) ``ks.test(x, y, alternative, exact)``: two-sample Kolmogorov-Smirnov.

    Exact p-values (default when m*n < 10000) also with ties, through :func:`psmirnov`;
    asymptotic otherwise (with a warning when there are ties). "greater" means the CDF of
    ``x`` lies above that of ``y`` (statistic max(F_x - F_y)), as R.
    """
    alternative = _alternative(alternative)
    x = _flat(x, "x")
    y = _flat(y, "y")
    m, n = x.size, y.size
    pooled = np.concatenate([x, y])
    order = np.argsort(pooled, kind="stable")
    steps = np.where(order < m, n, -m)  # F_x - F_y in units of 1/(m*n)
    diff = np.cumsum(steps)
    sorted_pooled = pooled[order]
    block_end = np.append(np.diff(sorted_pooled) != 0, True)
    ties = not block_end.all()
    diff = diff[block_end]
    if alternative == "two-sided":
        stat_units = int(np.abs(diff).max())
    elif alternative == "greater":
        stat_units = int(diff.max())
    else:
        stat_units = int(-diff.min())
    statistic = stat_units / (m * n)
    if exact is None:
        exact = m * n < 10000
    warnings: list[str] = []
    if exact:
        p = psmirnov(statistic, m, n, z=pooled if ties else None, two_sided=alternative == "two-sided",
                     lower_tail=False)
        method = "Exact two-sample Kolmogorov-Smirnov test"
    else:
        eff = m * n / (m + n)
        if alternative == "two-sided":
            p = _kolmogorov_sf(math.sqrt(eff) * statistic)
        else:
            p = math.exp(-2.0 * eff * statistic ** 2)
        method = "Asymptotic two-sample Kolmogorov-Smirnov test"
        if ties:
            warnings.append("p-value will be approximate in the presence of ties")
    p = min(1.0, max(0.0, p))
    return RankTestResult(statistic=statistic, pvalue=p, alternative=alternative, method=method,
                          exact=bool(exact), warnings=tuple(warnings))


# ------------------------------------------------------------ Hodges-Lehmann location shift

#: above this many pairs (m*n) the order statistics of the pairwise differences are selected
#: (:func:`_select_pairwise`, O((m+n) log)) instead of sorting all m*n differences
_MAX_SORTED_PAIRS = 250_000


@attrs.frozen(kw_only=True)
class ShiftResult(Result):
    """A location shift of ``x`` against ``y`` (x - y) with its interval and two-sided p-value.

    ``ci_low``/``ci_high`` are None when no interval at ``confidence`` is attainable
    (too few values for the rank test to reach that level). ``inflation`` is the factor
    applied to the rank-sum variance for serially dependent runs (1: independent runs),
    ``df`` the degrees of freedom used with it (None: normal or exact).
    """

    estimate: float
    ci_low: float | None
    ci_high: float | None
    confidence: float
    pvalue: float
    exact: bool
    inflation: float = 1.0
    df: float | None = None
    min_pvalue: float = 0.0
    method: str = ""

    def describe(self) -> str:
        ci = ("no interval attainable" if self.ci_low is None
              else f"{self.confidence:.0%} CI {self.ci_low:.6g} to {self.ci_high:.6g}")
        return f"{self.method}: shift {self.estimate:.6g} ({ci}), p-value {self.pvalue:.4g}"


#: most pairs drawn per round of the selection to place its two pivots (about 3 rounds at 10^6 x 10^6)
_SELECT_SAMPLE = 1 << 18
#: the pivots sit this many binomial standard deviations either side of the target's rank in the sample
_SELECT_SPREAD = 3.0
#: a window of at most max(m + n, this) candidates is gathered and partitioned
_SELECT_GATHER = 1 << 16


def _row_values(xs: np.ndarray, ys: np.ndarray, rows: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Differences xs[rows] - ys[n - 1 - q]: in row i position q counts up from the largest y."""
    return xs[rows] - ys[ys.size - 1 - q]


def _fast_counts(xs: np.ndarray, ys: np.ndarray, value: float, strict: bool) -> np.ndarray:
    """Per row i, #{j: xs[i] - ys[j] < value} (``strict``) or <= value, by binary search on ys.

    Exact up to the rounding of ``xs[i] - value``; the selection verifies its answer, so a
    rounding slip near a pivot costs a retry with :func:`_exact_counts`, never a wrong value.
    """
    counts = np.searchsorted(ys, xs - value, side="right" if strict else "left")
    return np.subtract(ys.size, counts, out=counts)


def _exact_counts(xs: np.ndarray, ys: np.ndarray, value: float, strict: bool) -> np.ndarray:
    """As :func:`_fast_counts`, exact: the rounded differences themselves are compared with ``value``.

    The fast counts are checked at each row's boundary (the entry before it must be below
    ``value``, the one at it not); the rows where rounding moved it are bisected again.
    """
    n = ys.size

    def below(rows: np.ndarray, q: np.ndarray) -> np.ndarray:
        d = _row_values(xs, ys, rows, q)
        return d < value if strict else d <= value

    guess = _fast_counts(xs, ys, value, strict)
    rows = np.arange(xs.size)
    wrong = np.zeros(xs.size, dtype=bool)
    inner = guess > 0
    wrong[inner] = ~below(rows[inner], guess[inner] - 1)
    inner = guess < n
    wrong[inner] |= below(rows[inner], guess[inner])
    if not wrong.any():
        return guess
    bad = rows[wrong]
    lo = np.zeros(bad.size, dtype=np.int64)  # positions q < lo are below the bound
    hi = np.full(bad.size, n, dtype=np.int64)  # positions q >= hi are not
    while True:
        open_ = np.flatnonzero(lo < hi)
        if not open_.size:
            guess[bad] = lo
            return guess
        mid = (lo[open_] + hi[open_]) // 2
        hit = below(bad[open_], mid)
        lo[open_[hit]] = mid[hit] + 1
        hi[open_[~hit]] = mid[~hit]


def _select_pairwise(xs: np.ndarray, ys: np.ndarray, k: int, counts: Any = _fast_counts) -> float:
    """The k-th smallest (1-based) of the m*n differences xs[i] - ys[j], both arrays sorted.

    Hand-written (numpy and scipy have no selection in X - Y): a randomised selection in a
    matrix whose rows are sorted, after Monahan (1984) and Johnson & Mizoguchi (1978).
    Row i holds xs[i] - ys[n-1-q], ascending in q; a window [lo_i, hi_i) of positions per
    row holds the candidates. Each round draws pairs uniformly from the window, takes two
    of their order statistics that bracket the target's rank with high probability, and
    counts by binary search (O(m log n)) the entries below each: the window shrinks by a
    factor of about 80 a round. Once it holds at most 2(m + n) entries they are gathered and
    partitioned. The answer is then checked against the entries just outside the window
    (every entry left of it <= answer <= every entry right of it), which makes it exact
    whatever the rounding of the counts; a failed check (a pivot within an ulp of the
    answer) reruns with counts that compare the rounded differences themselves.
    O((m + n) log n) time and O(m + n) memory; deterministic (a fixed internal seed).
    """
    m, n = xs.size, ys.size
    rng = np.random.default_rng(0x5E1EC7)
    lo = np.zeros(m, dtype=np.int64)
    hi = np.full(m, n, dtype=np.int64)
    cap = max(2 * (m + n), _SELECT_GATHER)
    value = None
    previous = -1
    for _ in range(200):
        sizes = hi - lo
        total = int(sizes.sum())
        below = int(lo.sum())
        if total <= cap:
            break
        if total == previous:  # no progress: are the candidates one value (ties)?
            used = np.flatnonzero(sizes)
            first = _row_values(xs, ys, used, lo[used])
            if first.min() == _row_values(xs, ys, used, hi[used] - 1).max():
                value = float(first.min())
                break
        previous = total
        draw = min(total, _SELECT_SAMPLE, 1 << max(12, (m + n - 1).bit_length() - 1))  # ~ (m + n) / 2
        cum = np.cumsum(sizes)
        u = rng.integers(0, total, draw)
        rows = np.searchsorted(cum, u, side="right")
        picked = _row_values(xs, ys, rows, lo[rows] + u - (cum[rows] - sizes[rows]))
        centre = (k - below) / total * draw
        spread = _SELECT_SPREAD * math.sqrt(draw)
        new_lo, new_hi = lo, hi
        a, b = int(math.floor(centre - spread)), int(math.ceil(centre + spread))
        picked = np.partition(picked, [i for i in (a, b) if 0 <= i < draw] or [0])
        if a >= 0:  # entries < picked[a]: all below the answer, or the answer is among them
            left = counts(xs, ys, float(picked[a]), True)
            np.clip(left, lo, hi, out=left)
            if left.sum() < k:
                new_lo = left
            else:
                new_hi = left
        if b < draw:  # entries <= picked[b]
            right = counts(xs, ys, float(picked[b]), False)
            np.clip(right, lo, hi, out=right)
            if right.sum() >= k:
                new_hi = np.minimum(new_hi, right)
            else:
                new_lo = np.maximum(new_lo, right)
        lo, hi = new_lo, np.maximum(new_hi, new_lo)
    if value is None:
        window = _gather_window(xs, ys, lo, hi)
        below = int(lo.sum())
        window.partition(k - below - 1)
        value = float(window[k - below - 1])
    left_rows, right_rows = np.flatnonzero(lo > 0), np.flatnonzero(hi < n)
    left_ok = not left_rows.size or _row_values(xs, ys, left_rows, lo[left_rows] - 1).max() <= value
    right_ok = not right_rows.size or _row_values(xs, ys, right_rows, hi[right_rows]).min() >= value
    if left_ok and right_ok and lo.sum() < k <= hi.sum():
        return value
    if counts is _exact_counts:  # cannot happen: exact counts agree with the values compared
        raise RuntimeError("pairwise selection failed its check with exact counts")
    return _select_pairwise(xs, ys, k, _exact_counts)


def _gather_window(xs: np.ndarray, ys: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                   rows_at_once: int = 1 << 15) -> np.ndarray:
    """The differences at positions [lo_i, hi_i) of every row, row block by row block (the
    index arrays of one block at a time: memory stays that of the window itself)."""
    sizes = hi - lo
    out = np.empty(int(sizes.sum()))
    at = 0
    for start in range(0, xs.size, rows_at_once):
        block = sizes[start:start + rows_at_once]
        count = int(block.sum())
        if not count:
            continue
        rows = np.repeat(np.arange(start, start + block.size), block)
        first = np.cumsum(block) - block
        q = lo[rows] + np.arange(count) - first[rows - start]
        out[at:at + count] = _row_values(xs, ys, rows, q)
        at += count
    return out


def pairwise_order_statistics(x: Any, y: Any, ks: Sequence[int]) -> list[float]:
    """The ``ks``-th smallest (1-based) of the differences x_i - y_j over all m*n pairs.

    Exact (the very values ``np.sort(np.subtract.outer(x, y), axis=None)[k - 1]`` holds) in
    O((m + n) log(m + n)) time and O(m + n) memory, also for 10^6 values a side, where the
    m*n differences would not fit in memory (the Hodges-Lehmann shift and its interval).
    """
    xs, ys = _sorted_pair(x, y)
    total = xs.size * ys.size
    for k in ks:
        if isinstance(k, bool) or not float(k).is_integer() or not 1 <= k <= total:
            raise ConfigError(f"order statistic {k!r} out of range: there are {total} differences")
    return _pairwise_order(xs, ys, [int(k) for k in ks])


def _pairwise_order(xs: np.ndarray, ys: np.ndarray, ks: list[int]) -> list[float]:
    """Order statistics (1-based ``ks``) of the pairwise differences xs[i] - ys[j] (both sorted)."""
    if xs.size * ys.size <= _MAX_SORTED_PAIRS:
        diffs = np.sort(np.subtract.outer(xs, ys), axis=None)
        return [float(diffs[k - 1]) for k in ks]
    return [_select_pairwise(xs, ys, k) for k in ks]


def _pairwise_median(xs: np.ndarray, ys: np.ndarray) -> float:
    total = xs.size * ys.size
    if total % 2:
        return _pairwise_order(xs, ys, [(total + 1) // 2])[0]
    if total <= _MAX_SORTED_PAIRS:
        a, b = _pairwise_order(xs, ys, [total // 2, total // 2 + 1])
        return (a + b) / 2
    a = _select_pairwise(xs, ys, total // 2)
    return (a + _next_pairwise(xs, ys, a, total // 2 + 1)) / 2


def _next_pairwise(xs: np.ndarray, ys: np.ndarray, value: float, k: int) -> float:
    """The k-th smallest difference, given that ``value`` is the (k-1)-th: ``value`` again when
    k or more differences are <= it, else the smallest difference above it (one count, O(m log n))."""
    at_most = _exact_counts(xs, ys, value, strict=False)
    if int(at_most.sum()) >= k:
        return value
    rows = np.flatnonzero(at_most < ys.size)
    return float(_row_values(xs, ys, rows, at_most[rows]).min())


def hodges_lehmann(x: Any, y: Any, confidence: float = 0.95, inflation: tuple[float, float] = (1.0, 1.0),
                   exact: bool | None = None, correct: bool = True) -> ShiftResult:
    """Hodges-Lehmann shift of ``x`` against ``y`` with the interval that inverts the rank-sum test.

    As R's ``wilcox.test(x, y, conf.int = TRUE, conf.level = confidence)`` where it is exact
    (no ties, both samples < 50, independent runs): the estimate is the median of the pairwise
    differences and the interval their order statistics at ``qwilcox``. Otherwise the normal
    approximation with the tie-corrected variance (and continuity correction for the p-value),
    the interval at the matching order statistics (Lehmann 1975, §2.6).

    ``inflation = (tau_x, tau_y)``: integrated autocorrelation times of the two series' ranks.
    Serially dependent runs inflate Var(W) to mn/12 (n tau_x + m tau_y + 1) (the projection of
    the U statistic); the quantile is then Student's on m/tau_x + n/tau_y - 2 degrees of freedom.
    Hand-written: scipy's ``mannwhitneyu`` has neither the interval nor the inflation.
    """
    from scipy import special
    _check_confidence(confidence)
    xs, ys = _sorted_pair(x, y)
    m, n = xs.size, ys.size
    if m < 1 or n < 1:
        raise DataError("hodges_lehmann: both samples need at least one value")
    tau_x, tau_y = (max(1.0, float(t)) for t in inflation)
    dependent = tau_x > 1.0 or tau_y > 1.0
    u, tie_term, ties = _rank_sum(xs, ys)
    if exact is None:
        exact = m < 50 and n < 50
    exact = bool(exact) and not ties and not dependent and m * n <= MAX_EXACT_RANK_SUM
    alpha = 1.0 - confidence
    total = m * n
    # the smallest two-sided p-value the rank test can give (all of x above all of y)
    min_p = rank_sum_min_pvalue(m, n)
    estimate = _pairwise_median(xs, ys)
    df = None
    if exact:
        pmf = rank_sum_distribution(m, n)
        cum = np.cumsum(pmf)
        pvalue = min(1.0, 2.0 * (pwilcox(u - 1, m, n, lower_tail=False) if u > total / 2 else pwilcox(u, m, n)))
        qu = int(np.searchsorted(cum, alpha / 2 - 1e-12))  # R's qwilcox(alpha/2, m, n)
        attainable = qu >= 1
        qu = max(qu, 1)
        lows = _pairwise_order(xs, ys, [qu, total - qu + 1])
        low, high = lows if attainable else (None, None)
        method = "Hodges-Lehmann shift, exact rank-sum interval"
    else:
        tie = tie_term / ((m + n) * (m + n - 1)) if m + n > 1 else 0.0
        var = (m * n / 12.0) * ((n * tau_x + m * tau_y + 1.0) - tie)
        sigma = math.sqrt(var) if var > 0 else 0.0
        if dependent:
            df = max(1.0, m / tau_x + n / tau_y - 2.0)
            quantile = float(special.stdtrit(df, 1.0 - alpha / 2))
        else:
            quantile = float(special.ndtri(1.0 - alpha / 2))
        z = u - total / 2
        if sigma > 0:
            z = (z - _correction(z, "two-sided", correct)) / sigma
            tail = special.stdtr(df, -abs(z)) if df is not None else special.ndtr(-abs(z))
            pvalue = float(min(1.0, 2.0 * tail))
        else:  # every value tied: no evidence of a shift
            pvalue = 1.0
        reach = total / 2 - quantile * sigma
        # a confidence so near 1 that 1 - alpha/2 rounds to 1 has an infinite quantile: no interval
        k = int(math.floor(reach)) if math.isfinite(reach) else 0
        if sigma == 0:
            low = high = estimate
        elif k >= 1 and min_p <= alpha:
            low, high = _pairwise_order(xs, ys, [k, total - k + 1])
        else:
            low = high = None
        method = ("Hodges-Lehmann shift, rank-sum interval"
                  + (" widened for serial dependence" if dependent else "") + " (normal approximation)")
    return ShiftResult(estimate=float(estimate), ci_low=low, ci_high=high, confidence=float(confidence),
                       pvalue=float(pvalue), exact=exact, inflation=float(max(tau_x, tau_y)), df=df,
                       min_pvalue=float(min_p), method=method)


# ------------------------------------------------------------------------ autocorrelation

#: above this many products (series length x lags) the autocorrelations come from an FFT
_DIRECT_LAG_PRODUCTS = 1 << 22


def autocorrelation(z: Any, max_lag: int) -> np.ndarray:
    """Sample autocorrelations r_1..r_max_lag along the last axis (the usual biased estimator).

    r_k = sum_t c_t c_{t+k} / sum_t c_t², c the series minus its mean; 0 for a constant
    series. Leading axes are independent series. Lag by lag while series x lags is small
    (those numbers are the reference), through scipy's FFT above (O(n log n) for all n - 1
    lags of a series of 10^6 runs; the same values to about 1e-15 of r_0).
    """
    z = np.asarray(z, dtype=float)
    n = z.shape[-1]
    max_lag = int(max_lag)
    if max_lag < 1:
        return np.zeros(z.shape[:-1] + (0,))
    c = z - z.mean(axis=-1, keepdims=True)
    denom = np.einsum("...i,...i->...", c, c)
    if n * max_lag <= _DIRECT_LAG_PRODUCTS:
        lags = np.stack([np.einsum("...i,...i->...", c[..., k:], c[..., :-k]) for k in range(1, max_lag + 1)],
                        axis=-1)
    else:
        from scipy import fft
        size = fft.next_fast_len(2 * n, real=True)  # zero-padded: circular products become plain ones
        spectrum = fft.rfft(c, size, axis=-1)
        lags = fft.irfft(spectrum.real ** 2 + spectrum.imag ** 2, size, axis=-1)[..., 1:max_lag + 1]
    safe = np.where(denom > 0, denom, 1.0)[..., None]
    return np.where(denom[..., None] > 0, lags / safe, 0.0)


# ------------------------------------------------------------------ Yuen's trimmed-mean shift


def _trimmed(values: np.ndarray, trim: float) -> tuple[float, float, int]:
    """Trimmed mean, the winsorised variance term d = (n - 1) s_w² / (h (h - 1)), and h (values kept)."""
    n = values.size
    g = int(math.floor(trim * n))
    h = n - 2 * g
    ordered = np.sort(values)
    mean = float(ordered[g:n - g].mean())
    wins = np.clip(ordered, ordered[g], ordered[n - g - 1])
    d = (n - 1) * float(wins.var(ddof=1)) / (h * (h - 1)) if h > 1 else math.inf
    return mean, d, h


def yuen_shift(x: Any, y: Any, confidence: float = 0.95, inflation: tuple[float, float] = (1.0, 1.0),
               trim: float = 0.2, rounding: float = 0.0, inflation_precision: float = 0.0,
               df_inflation: tuple[float, float] | None = None) -> ShiftResult:
    """Difference of trimmed means of ``x`` and ``y`` with Yuen's (1974) interval and two-sided p-value.

    Robust to outliers like a rank test, but it keeps the size of the values: with serially
    dependent runs (``inflation = (tau_x, tau_y)``, the autocorrelation times) the variance
    terms grow by tau and the degrees of freedom shrink to the effective counts h / tau, so a
    change far larger than the noise stays visible even when few runs are independent. As
    R's ``WRS2::yuen`` for independent runs (``trim = 0``: Welch's t). ``rounding``: the grid
    step the values were recorded on (a coarse timer); its rounding variance step²/12 is added
    to each value's (Sheppard), so identical readings do not pass for noiseless ones.
    ``inflation_precision``: the relative variance of the taus as estimated (1/df grows by half of it).
    ``df_inflation``: what each side's count is divided by for its degrees of freedom (default
    ``inflation``: h dependent runs count as h / tau blocks; see :func:`_dependent_df`).
    Hand-written: scipy's ``ttest_ind(trim=)`` gives no interval, no inflation, no rounding.
    """
    from scipy import special
    _check_confidence(confidence)
    if not 0.0 <= trim < 0.5:
        raise ConfigError(f"trim must lie in [0, 0.5), got {trim!r}")
    xs, ys = _flat(x, "x"), _flat(y, "y")
    if xs.size < 2 or ys.size < 2:
        raise DataError("yuen_shift: both samples need at least 2 values")
    tau_x, tau_y = (max(1.0, float(t)) for t in inflation)
    mx, dx, hx = _trimmed(xs, trim)
    my, dy, hy = _trimmed(ys, trim)
    grid = rounding * rounding / 12.0
    dx = (dx + grid * (xs.size - 1) / (hx * (hx - 1))) * tau_x
    dy = (dy + grid * (ys.size - 1) / (hy * (hy - 1))) * tau_y
    kappa_x, kappa_y = (tau_x, tau_y) if df_inflation is None else (max(1.0, float(k)) for k in df_inflation)
    nu_x, nu_y = max(hx / kappa_x - 1.0, 1e-9), max(hy / kappa_y - 1.0, 1e-9)
    estimate = mx - my
    spread = dx + dy
    if spread == 0:
        return ShiftResult(estimate=estimate, ci_low=estimate, ci_high=estimate, confidence=float(confidence),
                           pvalue=1.0 if estimate == 0 else 0.0, exact=False, inflation=max(tau_x, tau_y),
                           method=f"Yuen's {trim:.0%}-trimmed means")
    df = max(1.0, 1.0 / ((dx * dx / nu_x + dy * dy / nu_y) / (spread * spread) + inflation_precision / 2.0))
    se = math.sqrt(spread)
    quantile = float(special.stdtrit(df, 0.5 + confidence / 2))
    pvalue = float(min(1.0, 2.0 * special.stdtr(df, -abs(estimate) / se)))
    dependent = tau_x > 1.0 or tau_y > 1.0
    return ShiftResult(estimate=estimate, ci_low=estimate - quantile * se, ci_high=estimate + quantile * se,
                       confidence=float(confidence), pvalue=pvalue, exact=False, inflation=max(tau_x, tau_y),
                       df=df, method=f"Yuen's {trim:.0%}-trimmed means"
                       + (", widened for serial dependence" if dependent else ""))


# ------------------------------------------------- studentised rank shift (Brunner-Munzel, inverted)


def _placements(xs: np.ndarray, ys: np.ndarray, shift: float) -> tuple[np.ndarray, np.ndarray]:
    """Placements of ``xs - shift`` among ``ys`` and of ``ys`` among ``xs - shift`` (ties count half).

    P_i = F_y(x_i - shift) and Q_j = 1 - F_x(y_j + shift) with the empirical CDFs of the other
    sample: their means are both the share of pairs with x_i - y_j > shift (ties half), whose
    variances give the rank statistic's (DeLong; Brunner & Munzel 2000). Both arrays sorted:
    O((m + n) log) by binary search.
    """
    a = xs - shift
    p = (np.searchsorted(ys, a, side="left") + np.searchsorted(ys, a, side="right")) / (2.0 * ys.size)
    q = 1.0 - (np.searchsorted(a, ys, side="left") + np.searchsorted(a, ys, side="right")) / (2.0 * xs.size)
    return p, q


def _variance_df(placements: np.ndarray) -> float:
    """Degrees of freedom of the sample variance of ``placements``: 2 / its relative variance, from
    their own fourth moment (Var s² = (m4 - s⁴ (k - 3)/(k - 1)) / k). Placements are bounded and,
    for overlapping samples, near uniform (kurtosis 1.8): their variance is known far better than a
    normal sample's, whose k - 1 would make the interval needlessly wide at 10 runs."""
    k = placements.size
    s2 = float(placements.var(ddof=1))
    m4 = float(np.mean((placements - placements.mean()) ** 4))
    spread = (m4 - s2 * s2 * (k - 3) / (k - 1)) / k
    return max(1.0, 2.0 * s2 * s2 / spread) if spread > 0 else math.inf


def _dependent_df(df: float, n: int, tau: float, kappa: float | None = None) -> float:
    """Degrees of freedom of a placement variance from ``n`` runs with long-run factor ``tau``: the placements'
    own precision divided by tau² (the variance of a variance grows with the dependence), but never below the
    normal-theory count of the runs' worth, n/kappa - 1 (``kappa`` default tau: blocks of dependent runs, a
    handful of independent ones; a caller that knows the autocorrelations passes Bartlett's factor)."""
    if tau <= 1.0:
        return df
    return max(df / (tau * tau), n / (tau if kappa is None else max(1.0, kappa)) - 1.0, 1.0)


def studentized_rank_shift(x: Any, y: Any, confidence: float = 0.95, inflation: tuple[float, float] = (1.0, 1.0),
                           inflation_precision: float = 0.0, df_inflation: tuple[float, float] | None = None
                           ) -> ShiftResult:
    """Hodges-Lehmann shift of ``x`` against ``y`` with the interval that inverts a studentised rank test.

    The rank-sum interval (:func:`hodges_lehmann`) assumes both samples have the same shape:
    with 10 noisy runs against 60 quiet ones an A/A comparison reads "changed" about 15% of the
    time at 5%. As Brunner & Munzel (2000), the variance of the rank statistic p = P(X - Y > d)
    is estimated from each sample's placements (no equal-shape assumption), here at the
    Hodges-Lehmann shift (where the samples overlap by construction, so it never collapses) and
    without the bias p(1 - p)/(mn) of the plain estimator (DeLong; an unbiased U-statistic
    variance); Student's quantile on Welch-Satterthwaite degrees of freedom whose per-sample
    parts come from the placements' own kurtosis (:func:`_variance_df`). The interval is the
    pairwise differences' order statistics k and mn - k + 1, k = round(mn/2 - t mn se): the test
    inverted, as the Wilcoxon interval inverts the rank-sum test. The p-value is its exact dual
    (p < 1 - confidence exactly when the interval excludes 0). Measured by simulation
    (tests/test_stats.py, docs/methods/verdict.md): level 4-5% at 10 runs a side for normal, t3
    and log-normal noise and for 10 runs at 3% against 60 at 1%, power within 2-3% of the
    Wilcoxon-Mann-Whitney test's where that one is valid.

    ``inflation = (tau_x, tau_y)``: long-run variance factors of the two series (serially
    dependent runs): each sample's placement variance grows by its tau and its degrees of
    freedom shrink (:func:`_dependent_df`); ``inflation_precision``: the relative variance of the taus as
    estimated (their uncertainty lowers the degrees of freedom: 1/df grows by half of it);
    ``df_inflation``: the floor's divisor per side (default the taus; see :func:`_dependent_df`).
    O((m + n) log(m + n)) time and O(m + n) memory: no pair is formed (order statistics by
    counting). Hand-written: scipy.stats.brunnermunzel tests no shift and gives no interval.
    """
    from scipy import special
    _check_confidence(confidence)
    xs, ys = _sorted_pair(x, y)
    m, n = xs.size, ys.size
    if m < 2 or n < 2:
        raise DataError("studentized_rank_shift: both samples need at least 2 values")
    tau_x, tau_y = (max(1.0, float(t)) for t in inflation)
    estimate = _pairwise_median(xs, ys)
    p, q = _placements(xs, ys, estimate)
    total = float(m) * float(n)
    bias = 1.0 / (8.0 * total)  # half of p(1 - p)/(mn) at p = 1/2 on either side
    vx, vy = float(p.var(ddof=1)) / m, float(q.var(ddof=1)) / n
    a, b = tau_x * max(vx - bias, vx / 2), tau_y * max(vy - bias, vy / 2)
    dependent = tau_x > 1.0 or tau_y > 1.0
    method = "Hodges-Lehmann shift, studentised rank interval" + (" widened for serial dependence" if dependent else "")
    if a + b <= 0.0:  # every value tied at the shift: no spread, nothing beyond the shift itself
        return ShiftResult(estimate=float(estimate), ci_low=float(estimate), ci_high=float(estimate),
                           confidence=float(confidence), pvalue=1.0 if estimate == 0 else 0.0, exact=False,
                           inflation=max(tau_x, tau_y), method=method)
    kx, ky = (None, None) if df_inflation is None else df_inflation
    df_x, df_y = _dependent_df(_variance_df(p), m, tau_x, kx), _dependent_df(_variance_df(q), n, tau_y, ky)
    spread = (a * a / df_x + b * b / df_y) / (a + b) ** 2 + inflation_precision / 2.0  # 1 / df
    df = max(1.0, 1.0 / spread) if spread > 0 else math.inf
    se = math.sqrt(a + b) * total  # of the count of pairs above the shift
    quantile = float(special.stdtrit(df, 0.5 + confidence / 2))
    k = math.floor(total / 2 - quantile * se + 0.5)
    if k >= 1:
        low, high = _pairwise_order(xs, ys, [k, int(total) - k + 1])
    else:
        low = high = None
    # the dual p-value: the interval excludes 0 exactly when k > #(differences <= 0) (it lies above 0)
    # or k > #(differences >= 0) (below 0), i.e. when t se <= mn/2 - min(both counts) - 1/2
    above = float(np.searchsorted(ys, xs, side="left").sum())  # pairs with x_i - y_j > 0
    at_least = float(np.searchsorted(ys, xs, side="right").sum())  # ... >= 0
    margin = total / 2 - min(total - above, at_least) - 0.5
    pvalue = 1.0 if margin <= 0 else float(min(1.0, 2.0 * special.stdtr(df, -margin / se)))
    return ShiftResult(estimate=float(estimate), ci_low=low, ci_high=high, confidence=float(confidence),
                       pvalue=pvalue, exact=False, inflation=max(tau_x, tau_y), df=df, method=method)


# ------------------------------------------------------------------ serial dependence: the long-run variance


def long_run_factor(autocorrelation: Any, n: int, fitted: int = 1) -> float:
    """The long-run variance factor tau of a series of ``n`` runs from its sample autocorrelations.

    ``autocorrelation`` holds r_1..r_K (lags 1..K, K < n/2, computed around the series' own
    mean). n runs of a stationary series carry the information of n / tau independent ones:
    the variance of their mean is gamma_0 tau / n with tau = 1 + 2 sum_k (1 - k/n) rho_k (the
    spectral density at frequency 0, relative). Estimated with a flat-top lag window (weight 1
    up to K/2, falling linearly to 0 at K + 1: Politis & Romano 1995, less bias than Bartlett's),
    and without the bias of autocorrelations taken around the sample mean: E r_k ~ (1 - k/n)
    (rho_k - p tau/n) / (1 - p tau/n) with p the parameters fitted before (``fitted``: 1 for the
    mean, 2 for a line; each absorbs about tau/n of the variance: Bartlett 1946), which solved
    for tau gives (1 + 2S) / (1 - 2p(W - S)/n), S = sum w_k r_k, W = sum w_k (1 - k/n).
    A periodic disturbance whose period is shorter than K averages out (its autocorrelations
    cancel over a period): it costs no information. The window is shortened until
    2 p W <= n / 2 (longer, the correction would divide noise by noise: a window of n/3 lags beside
    a fitted line is not identified). Clipped to [1, n/2].
    """
    r = np.asarray(autocorrelation, dtype=float).reshape(-1)
    while r.size and 2.0 * fitted * _window_weight(r.size, n) > n / 2.0:
        r = r[:-1]  # a window that long is not identified beside the fitted level: shorten it
    if r.size == 0 or n < 4:
        return 1.0
    w = _flat_top(r.size)
    s = float((w * r).sum())
    lag_weight = _window_weight(r.size, n)
    denominator = 1.0 - 2.0 * fitted * (lag_weight - s) / n
    if denominator <= 2.0 / n:  # the window sees nothing but dependence: as few as 2 independent runs
        return n / 2.0
    return float(np.clip((1.0 + 2.0 * s) / denominator, 1.0, n / 2.0))


@lru_cache(maxsize=1024)
def _flat_top(lags: int) -> np.ndarray:
    """Politis & Romano's flat-top lag window over lags 1..``lags``: 1 up to half-way, then linear to 0
    (kept: every series of a suite asks for the same few windows; read-only)."""
    k = np.arange(1, lags + 1)
    w = np.clip(2.0 * (1.0 - k / (lags + 1)), 0.0, 1.0)
    w.setflags(write=False)
    return w


@lru_cache(maxsize=4096)
def _window_weight(lags: int, n: int) -> float:
    k = np.arange(1, lags + 1)
    return float((_flat_top(lags) * (1.0 - k / n)).sum())


def unbiased_autocorrelation(r: Any, n: int, fitted: int = 1) -> np.ndarray:
    """Sample autocorrelations of ``n`` runs freed of their small-sample bias, E r ~ rho - (p + 4 rho)/n
    (Marriott & Pope 1954: 1 + 4 rho around the mean; each further fitted parameter p adds 1), inverted:
    rho = (r + p/n) / (1 - 4/n), within [-0.95, 0.95]. Exact to first order for an AR(1); the usual
    correction for short series (10 runs: E r_1 = 0.2 for a true 0.5)."""
    r = np.asarray(r, dtype=float)
    return np.clip((r + fitted / n) / (1.0 - 4.0 / n), -0.95, 0.95)


def autoregressive_long_run_factor(r1: float, r2: float | None, n: int, fitted: int = 1,
                                   unbiased: bool = False, order: int | None = None) -> float:
    """The long-run variance factor tau of ``n`` runs from their lag-1 and lag-2 autocorrelations,
    through an autoregression: the model-based estimate short series need.

    A lag window needs more lags than a short series can estimate; an AR(2) needs two. The
    autocorrelations are first freed of their small-sample bias (:func:`unbiased_autocorrelation`;
    ``unbiased``: they already are, e.g. pooled over series of different lengths). Then the
    spectral density at frequency 0 relative to the variance: (1 + rho)/(1 - rho) for an AR(1)
    (``r2`` None, or fewer than 20 runs: the lag-2 estimate is noise there); for an AR(2) fitted
    by Yule-Walker, (1 - phi1 rho1 - phi2 rho2)/(1 - phi1 - phi2)². The larger of the two, except
    where the AR(2) oscillates (complex roots: a periodic disturbance, which averages out over
    the run and costs no information: its own estimate). Clipped to [1, n/2] (at least two
    effective runs). ``order``: 1 or 2 to fit that autoregression whatever ``n`` (the caller has
    the evidence for it: e.g. runs that oscillate decisively); None: the AR(2) from 20 runs.
    """
    if n < 5:
        return 1.0
    cap = n / 2.0

    def unbiased_(r: float) -> float:
        return float(r) if unbiased else float(unbiased_autocorrelation(r, n, fitted))

    rho1 = unbiased_(r1)
    ar1 = (1.0 + max(rho1, 0.0)) / (1.0 - max(rho1, 0.0))
    if r2 is None or order == 1 or (order is None and n < 20):
        return float(np.clip(ar1, 1.0, cap))
    rho2 = unbiased_(r2)
    det = 1.0 - rho1 * rho1
    phi1 = rho1 * (1.0 - rho2) / det
    phi2 = float(np.clip((rho2 - rho1 * rho1) / det, -0.98, 0.98))
    if phi1 + phi2 >= 0.98:  # a root at (nearly) 1: dependence as long as the series
        return cap
    innovation = max(1.0 - phi1 * rho1 - phi2 * rho2, 0.02)
    ar2 = innovation / (1.0 - phi1 - phi2) ** 2
    oscillates = phi1 * phi1 + 4.0 * phi2 < 0.0
    return float(np.clip(ar2 if oscillates else max(ar1, ar2), 1.0, cap))


# ------------------------------------------------------------------ suites: false coverage rate


def false_coverage_confidence(pvalues: Any, confidence: float = 0.95) -> tuple[float, int]:
    """The confidence level of Benjamini & Yekutieli's (2005) false-coverage-rate adjusted intervals.

    With m two-sided p-values and R of them selected by Benjamini-Hochberg at q = 1 - confidence,
    intervals at level 1 - R q / m cover their parameters for all but a share q of the selected
    ones on average (the false coverage rate), and such an interval excludes "no change"
    exactly when its test is among the selected (an interval dual to its p-value). With nothing
    selected the level is 1 - q / m (no interval excludes no change then either). Returns the
    level and R. p-values that are NaN count as 1.
    """
    from scipy.stats import false_discovery_control  # scipy at run time only (start-up)
    p = np.asarray(pvalues, dtype=float).reshape(-1)
    m = p.size
    if m == 0:
        return float(confidence), 0
    q = 1.0 - confidence
    adjusted = false_discovery_control(np.where(np.isfinite(p), p, 1.0), method="bh")
    selected = int((adjusted < q).sum())
    return 1.0 - max(selected, 1) * q / m, selected


def shares_pvalue(counts: Any) -> float | None:
    """Do two systems' shares over categories (e.g. modes) differ? ``counts``: 2 x categories run counts.

    Fisher's exact test for two non-empty categories, else the chi-square test of independence (scipy's);
    None with fewer than two non-empty categories."""
    from scipy import stats as sps

    counts = np.asarray(counts)
    counts = counts[:, counts.sum(axis=0) > 0]
    if counts.shape[1] < 2:
        return None
    if counts.shape[1] == 2:
        return float(sps.fisher_exact(counts).pvalue)
    return float(sps.chi2_contingency(counts).pvalue)
