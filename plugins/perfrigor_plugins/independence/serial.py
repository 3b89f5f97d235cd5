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
#: below this, the autocorrelation time is the AR(1) form alone (tests/verdict: calibration at n = 10)
SHORT_SERIES = 20


def autocorrelation(z: np.ndarray, max_lag: int) -> np.ndarray:
    """Sample autocorrelations r_1..r_max_lag along the last axis (the usual biased estimator)."""
    return pr.stats.autocorrelation(z, max_lag)  # O(n log n) for long series (an FFT)


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


def lag1_test(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lag-1 autocorrelation of detrended series and the one-sided p-value of "runs are positively correlated".

    Under independence r_1 of a series with its mean removed has mean -1/n and variance
    (n - 2)/(n(n - 1)) (Anderson 1942's moments); removing a line as well moves the mean to
    about -2/n (checked by simulation, tests/verdict). Close enough to normal from n = 10.
    """
    from scipy import special
    n = z.shape[-1]
    r = autocorrelation(z, 1)[..., 0]
    zstat = (r + 1.0 / n) / np.sqrt((n - 2) / (n * (n - 1)))
    return r, special.ndtr(-zstat)


def autocorrelation_time(z: np.ndarray) -> np.ndarray:
    """Integrated autocorrelation time tau >= 1 of each series (n runs count as n / tau).

    The larger of two estimates, each weak alone on short series: the AR(1) form
    (1 + r)/(1 - r) with r_1 bias-corrected by (2 + 4 r_1)/n (Marriott & Pope 1954's
    (1 + 4 r_1)/n for a series with its mean removed, one more 1/n for its line), which
    sees short-range dependence, and Geyer's (1992) initial positive sequence, which sees
    long-range dependence such as an undeclared hierarchy (runs grouped by invocation).
    Both are computed around the series' own mean, which makes them low by about tau/n
    (Bartlett): the estimate is divided by 1 - tau/n (simulation: an undeclared hierarchy of
    10 invocations x 10 runs is then calibrated, tests/verdict).
    """
    n = z.shape[-1]
    max_lag = max(2, n // 3)
    r = autocorrelation(z, max_lag)
    r1 = np.clip(r[..., 0] + (1.0 + 4.0 * r[..., 0]) / n, 0.0, 0.9)
    tau_ar1 = (1.0 + r1) / (1.0 - r1)
    gamma = np.concatenate([np.ones(r.shape[:-1] + (1,)), r], axis=-1)
    pairs = gamma[..., : 2 * ((max_lag + 1) // 2)].reshape(r.shape[:-1] + (-1, 2)).sum(axis=-1)
    positive = np.cumprod(pairs > 0, axis=-1).astype(bool)
    tau_ips = -1.0 + 2.0 * (pairs * positive).sum(axis=-1)
    if n < SHORT_SERIES:  # too short for long lags and for the mean's correction: their noise dominates;
        # and for telling tau = 5 from tau = 10: at most n / 3 (3 effective runs), which AR(1) 0.5 (tau 3) respects
        return np.clip(tau_ar1, 1.0, n / 3.0)
    tau = np.maximum(tau_ar1, tau_ips)
    return np.clip(tau / np.maximum(1.0 - tau / n, 1.0 / n), 1.0, n)


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
    """mann_kendall of one long series: S from scipy's tau-b (index untied: S = tau_b sqrt(n0 (n0 - n2)))."""
    from scipy import stats

    n = z.size
    _, counts = np.unique(z, return_counts=True)
    t = counts.astype(float)
    n0, n2 = n * (n - 1) / 2, float((t * (t - 1) / 2).sum())
    tau_b = stats.kendalltau(np.arange(n), z).statistic
    s = 0.0 if np.isnan(tau_b) else float(np.round(tau_b * np.sqrt(n0 * (n0 - n2))))
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
    almost never start so (a 5-sd run first has probability ~6e-7 under normal noise).
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
    return int(np.argmin(far)) if not far.all() else int(far.size)
