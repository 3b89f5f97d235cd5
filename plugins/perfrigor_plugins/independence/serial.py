"""Serial-dependence statistics of series of runs in run order, vectorised over leading axes.

Every function takes an array whose last axis is the run order (one series, or one row per
series: the invocations of a hierarchical sample are checked in one call). Hand-written:
statsmodels has the autocorrelation but is not a dependency, and neither it nor scipy has
the small-sample bias correction, the rank-based autocorrelation time the verdict's
interval needs, or a Mann-Kendall test over many series at once.
"""

from __future__ import annotations

import numpy as np
import perfrigor as pr

#: series shorter than this are not checked: an autocorrelation of fewer runs is noise
MIN_RUNS = 10


def acf_lags(n: int) -> int:
    """Lags a check computes for a series of ``n`` runs: a third of a short series (its long-run window), at
    most 200 (a window found by Politis' rule is rarely longer; dependence beyond is an undeclared hierarchy,
    better declared)."""
    return max(1, min(n // 3, 200))


def residuals(z: np.ndarray, steps: list[int], line: bool) -> tuple[int, np.ndarray]:
    """What a series' level (its line when ``line``, and its steps) leaves: (parameters fitted, residuals).

    A drift or a step of the level is not serial dependence: it inflates the autocorrelation
    without making the runs count as fewer for a comparison (a drift common to both systems even
    makes it conservative; a step is compared segment by segment), so the dependence is measured
    on what they leave. The parameters fitted (the mean, the line's slope, one more per step)
    bias the autocorrelations by about -fitted/n.
    """
    z = np.asarray(z, dtype=float).reshape(-1)
    rest = detrended(z) if line else z - z.mean()
    edges = [0, *steps, z.size]
    for a, b in zip(edges[:-1], edges[1:], strict=True):
        rest[a:b] -= rest[a:b].mean()
    return 1 + int(line) + len(steps), rest


def detrended(z: np.ndarray) -> np.ndarray:
    """The residuals of each series after its least-squares line against run order.

    A drift is not serial dependence: it inflates the autocorrelation without making the runs
    count as fewer for a comparison (a common drift even makes it conservative), so the
    dependence checks work on what the trend leaves (the trend itself is tested apart).
    """
    z = np.asarray(z, dtype=float)
    t = np.arange(z.shape[-1], dtype=float)
    t -= t.mean()
    slope = (z * t).sum(axis=-1, keepdims=True) / (t * t).sum()
    return z - z.mean(axis=-1, keepdims=True) - slope * t


def level_step(z: np.ndarray, min_segment: int = 5, ranks: np.ndarray | None = None) -> tuple[int, float, float]:
    """The most likely single step of the level of one series: (first run of the new level, relative change,
    p-value), by Pettitt's (1979) rank test (:func:`pettitt`). The change is the ratio of the medians after
    and before, minus 1. (0, 0.0, 1.0) when the series is too short. ``ranks``: the series' average ranks
    when the caller has them (``pr.stats.rank_average``).
    """
    z = np.asarray(z, dtype=float).reshape(-1)
    n = z.size
    if n < 2 * min_segment:
        return 0, 0.0, 1.0
    ranks = pr.stats.rank_average(z) if ranks is None else ranks
    at, pvalue = pettitt(ranks[None, :], min_segment)
    return int(at[0]), step_change(z, int(at[0])), float(pvalue[0])


def pettitt(ranks: np.ndarray, min_segment: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Pettitt's (1979) scan of each row of ``ranks`` (a series' average ranks, at least ``2 min_segment``):
    the first run after the most likely split, and its p-value.

    U_t = 2 sum_{i <= t} R_i - t (n + 1) compares the ranks before and after run t (a Mann-Whitney
    statistic for every split at once, O(n log n)); the split is where |U_t| is largest, with at
    least ``min_segment`` runs on either side, and the p-value Pettitt's approximation
    2 exp(-6 K² / (n³ + n²)) (conservative where it matters, below 0.5). Vectorised over rows.
    """
    n = ranks.shape[-1]
    t = np.arange(1, n + 1)
    u = np.abs(2.0 * np.cumsum(ranks, axis=-1) - t * (n + 1.0))[:, min_segment - 1:n - min_segment]
    at = np.argmax(u, axis=-1) + min_segment
    k = u.max(axis=-1)
    return at, np.minimum(1.0, 2.0 * np.exp(-6.0 * k * k / (n ** 3 + n ** 2)))


def step_change(z: np.ndarray, at: int) -> float:
    """The relative change of a series' level at run ``at``: the median after over the median before, minus 1."""
    before, after = float(np.median(z[:at])), float(np.median(z[at:]))
    return after / before - 1.0 if before != 0 else 0.0


def rank_rows(z: np.ndarray) -> np.ndarray:
    """``pr.stats.rank_average`` of each row of ``z`` (2-D), the same numbers: rows without ties at once."""
    order = np.argsort(z, axis=-1, kind="stable")
    ordered = np.take_along_axis(z, order, axis=-1)
    ties = (ordered[:, 1:] == ordered[:, :-1]).any(axis=-1) | np.isnan(ordered).any(axis=-1)
    ranks = np.empty(z.shape)
    np.put_along_axis(ranks, order, np.broadcast_to(np.arange(1.0, z.shape[-1] + 1), z.shape), axis=-1)
    for i in np.flatnonzero(ties).tolist():
        ranks[i] = pr.stats.rank_average(z[i])
    return ranks


def residual_rows(z: np.ndarray, line: bool) -> tuple[int, np.ndarray]:
    """:func:`residuals` of each row of ``z`` without steps: (parameters fitted, residuals), each row's numbers
    those of ``residuals(row, [], line)``."""
    rest = detrended(z) if line else z - z.mean(axis=-1, keepdims=True)
    rest -= rest.mean(axis=-1, keepdims=True)
    return 1 + int(line), rest


def step_fits_better(z: np.ndarray, at: int) -> bool:
    """Whether a step at ``at`` explains the series better than a straight line (smaller squared residuals):
    a drift also moves the level between halves, but it is no step."""
    z = np.asarray(z, dtype=float).reshape(-1)
    step = ((z[:at] - z[:at].mean()) ** 2).sum() + ((z[at:] - z[at:].mean()) ** 2).sum()
    line = (detrended(z) ** 2).sum()
    return bool(step < line)


def lag1_pvalue(r1: float, n: int, fitted: int) -> float:
    """One-sided p-value of a positive lag-1 autocorrelation ``r1`` of residuals from ``fitted`` parameters.

    Under independence r_1 has mean about -fitted/n (-1/n around the mean, -2/n around a line:
    Anderson 1942's moments; checked by simulation, tests/verdict/test_independence.py) and
    variance (n - 2)/(n(n - 1)); close enough to normal from 10 runs.
    """
    from scipy import special
    return float(special.ndtr(-(r1 + fitted / n) / np.sqrt((n - 2) / (n * (n - 1)))))


#: longer series are not compared pair by pair (n²/2 differences): S from Kendall's tau in O(n log n),
#: Sen's slope from every k-th run
PAIRWISE_MAX = 1000


def mann_kendall(z: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kendall's tau of the values against run order, its two-sided p-value, and Sen's slope per run.

    The Mann-Kendall S = sum over i < j of sign(z_j - z_i), its tie-corrected variance
    (n(n-1)(2n+5) - sum t(t-1)(2t+5)) / 18 with the continuity correction (Kendall 1975).
    """
    z = np.asarray(z, dtype=float)
    n = z.shape[-1]
    if n > PAIRWISE_MAX:
        rows = [_mann_kendall_long(row) for row in z.reshape(-1, n)]  # a few long series: one at a time
        return tuple(np.array(col).reshape(z.shape[:-1]) for col in zip(*rows, strict=True))  # type: ignore
    i, j = np.triu_indices(n, 1)
    diff = z[..., j] - z[..., i]
    s = np.sign(diff).sum(axis=-1)
    t = pr.stats.tie_sizes(z).astype(float)  # the tie groups of each series, counted in O(n log n)
    ties = (t * (t - 1) * (2 * t + 5)).sum(axis=-1)
    slope = np.median(diff / (j - i), axis=-1)
    return _mann_kendall_test(s, ties, n) + (slope,)


def _mann_kendall_test(s: np.ndarray, ties: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Kendall's tau-a and the two-sided p-value of S with its tie-corrected variance."""
    from scipy import special  # scipy loaded only when a component runs (start-up)

    var = (n * (n - 1) * (2 * n + 5) - ties) / 18.0
    zstat = np.where(var > 0, (s - np.sign(s)) / np.sqrt(np.where(var > 0, var, 1.0)), 0.0)
    return s / (n * (n - 1) / 2), 2.0 * special.ndtr(-np.abs(zstat))


def _mann_kendall_long(z: np.ndarray) -> tuple[float, float, float]:
    """mann_kendall of one long series: S counted in O(n log n) (``pr.stats.kendall_s``)."""
    n = z.size
    _, counts = np.unique(z, return_counts=True)
    t = counts.astype(float)
    s = float(pr.stats.kendall_s(z))
    tau, pvalue = _mann_kendall_test(np.array(s), np.array((t * (t - 1) * (2 * t + 5)).sum()), n)
    step = -(-n // PAIRWISE_MAX)
    thin = z[::step]
    i, j = np.triu_indices(thin.size, 1)
    slope = float(np.median((thin[j] - thin[i]) / ((j - i) * step)))
    return float(tau), float(pvalue), slope


def warmup_length(values: np.ndarray, z: float = 3.0) -> int:
    """Leading iterations that stand out of the steady state, from a (units x iterations) array.

    The steady state is the second half of the iterations; an iteration index is in warm-up
    while the mean over units at that index lies more than ``z`` standard errors from the
    steady-state mean. The count is the first index from which every later index is in the band.
    """
    units, iters = values.shape
    if iters < 4 or units < 2:
        return 0
    steady = values[:, iters // 2:]
    centre = steady.mean()
    se = steady.std(ddof=1) / np.sqrt(units)
    if se == 0:
        return 0
    outside = np.abs(values.mean(axis=0) - centre) > z * se
    outside[iters // 2:] = False
    hits = np.flatnonzero(outside)
    return int(hits[-1] + 1) if hits.size else 0


def leading_outliers(z: np.ndarray, cutoff: float = 5.0) -> int:
    """Runs at the start of one series that lie far outside the rest: a warm-up (at most a quarter).

    The steady state is the second half; its spread is the MAD scaled to a normal sd. The
    warm-up is the longest leading block of runs all more than ``cutoff`` spreads from the
    steady median: a machine still busy, caches and frequency settling. Independent runs
    almost never start so (a 5-sd run first has probability ~6e-7 under normal noise). Leading runs
    are one of the series' levels, not a warm-up, when the steady half comes back to their level
    (a run beyond the cutoff, at least half as far out as their median, as the steady-state
    check's leading level, ``one_of_several_levels``: a mode of multimodal runs that happened to
    come first; an outlier of the steady half is not so far): none is cut.
    """
    n = z.size
    if n < 2 * MIN_RUNS:  # the steady half's spread needs 10 runs to mean anything
        return 0
    steady = z[n // 2:]
    centre = float(np.median(steady))
    spread = 1.4826 * float(np.median(np.abs(steady - centre)))
    if spread == 0:
        return 0
    far = np.abs(z[: n // 4] - centre) > cutoff * spread
    warm = int(np.argmin(far)) if not far.all() else int(far.size)
    if not warm:
        return 0
    lead = float(np.median(z[:warm])) - centre
    back = (steady - centre) * np.sign(lead) > max(cutoff * spread, abs(lead) / 2.0)
    return 0 if back.any() else warm
