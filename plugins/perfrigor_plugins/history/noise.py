"""One benchmark's history as the detector models it: a level per commit and its noise.

Each commit's level is the 20% trimmed mean of the logs of its replication units (runs, or forks'
means; the mean below 5 units): a change is multiplicative, so a 5% step is the same on a fast and
a slow benchmark, and one slow run is not a slow commit. Its variance has two parts, both
estimated from the data:

- within a commit: ``s_w^2 / ((1 - 2 trim)^2 r_c)`` (``s_w^2`` the winsorised variance of the units,
  pooled over commits, ``r_c`` units: Yuen's variance of a trimmed mean);
- between commits: ``sigma_b^2``, an AR(1) process with coefficient ``phi`` (the machine, the build,
  the runner drift from one commit to the next; asv models this too).

``sigma_b^2`` and ``phi`` come from the first differences of the commit levels, which a step
changes at one commit only, with robust (median absolute deviation) scales: for AR(1) noise
``var(d) = 2 sigma_b^2 (1 - phi) + 2 v`` and ``cov(d_t, d_t-1) = -sigma_b^2 (1 - phi)^2 - v``, with
``v`` the mean within-commit variance. A commit that stands out of its neighbours (running median
of 5) by more than ``SPIKE`` standard deviations on both sides is damped to the median: one
spike is not a change (the complaint against Otava and asv).
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
import perfrigor as pr
from perfrigor import changepoints as cp

#: a commit beyond this many standard deviations from both neighbours' running median is a spike
SPIKE = 5.0
#: share of a commit's runs trimmed at each end (Yuen's 20%): a slow run is not a slow commit
TRIM = 0.2
#: the running median that spikes are judged against spans 2 HALF + 1 commits
HALF = 3
#: the largest serial dependence between commits the model accepts
MAX_PHI = 0.9
MAD = 1.482602218505602  # 1 / Phi^-1(3/4): the MAD of a Gaussian as its standard deviation
#: the first, conservative search that the noise is estimated around: its p-value and segment length
FIRST_PASS = 1e-6
FIRST_SIZE = 5


@attrs.frozen(eq=False)
class Levels:
    """A benchmark's commits (indices into the history), their levels (mean log), the variance of
    each level, the serial dependence and the commits damped as spikes."""

    commits: np.ndarray
    level: np.ndarray
    raw: np.ndarray
    variance: np.ndarray
    units: np.ndarray
    within: float
    between: float
    phi: float
    damped: np.ndarray
    spread: np.ndarray

    @property
    def inflation(self) -> float:
        """How much serial dependence widens the variance of a mean of many commits (long-run over
        marginal variance, averaged over the within and between parts)."""
        v = float(np.mean(self.variance))
        if v <= 0:
            return 1.0
        longrun = self.between * (1 + self.phi) / (1 - self.phi) + (v - self.between)
        return max(1.0, longrun / v)

    @property
    def weights(self) -> np.ndarray:
        return 1.0 / self.variance

    @property
    def dof(self) -> float:
        """Degrees of freedom of the noise estimate: the commits a robust (MAD) scale is worth (37%
        efficiency), fewer under serial dependence; the scan's p-values average over its error."""
        n = self.level.size
        return max(4.0, 0.37 * n * (1 - self.phi) / (1 + self.phi))

    def noise(self) -> dict[str, Any]:
        return {"within_sd": math.sqrt(self.within), "between_sd": math.sqrt(self.between), "phi": self.phi,
                "inflation": self.inflation, "dof": self.dof}


def _robust_scale(x: np.ndarray) -> float:
    if x.size == 0:
        return 0.0
    return float(MAD * np.median(np.abs(x - np.median(x))))


def levels(b: pr.BenchmarkHistory, robust: bool = True, dependence: bool = True) -> Levels:
    """The levels and noise model of one benchmark (values must be positive: their logs are used)."""
    if np.any(b.values <= 0):
        raise pr.DataError(f"benchmark {b.name!r}: {int(np.sum(b.values <= 0))} value(s) <= 0: a history is "
                           "analysed on the log scale (times, rates)")
    unit_commit, unit_mean = b.units()
    logs = np.log(unit_mean)
    commits, inverse, counts = np.unique(unit_commit, return_inverse=True, return_counts=True)
    level, wvar = _trimmed(logs, inverse, counts, TRIM if robust else 0.0)
    resid = logs - level[inverse]
    dof = int(np.sum(counts - 1))
    # the pooled (winsorised) variance of a unit, and of each commit's (trimmed) mean
    within = float(np.sum(wvar * (counts - 1)) / dof) if dof > 0 else 0.0
    kept = counts - 2 * np.floor((TRIM if robust else 0.0) * counts)
    per_commit_within = within * counts / (kept * kept) if dof > 0 else np.zeros(counts.size)
    sd_units = np.sqrt(np.bincount(inverse, weights=resid * resid) / np.maximum(counts - 1, 1))
    v = float(np.mean(per_commit_within)) if dof > 0 else 0.0
    between, phi = _between(level, v, dependence)
    variance = between + per_commit_within
    floor = max(1e-12, 1e-6 * float(np.median(variance)) if np.any(variance > 0) else 1e-12)
    variance = np.maximum(variance, floor)
    raw = level.copy()
    damped = _spikes(level, variance) if robust else np.zeros(0, dtype=np.int64)
    if damped.size:
        level = level.copy()
        level[damped] = _running_median(raw)[damped]
    spread = np.where(counts > 1, sd_units, 0.0)
    return Levels(commits, level, raw, variance, counts, within, between, phi, damped, spread)


def _trimmed(logs: np.ndarray, inverse: np.ndarray, counts: np.ndarray, trim: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """Per commit the ``trim``-trimmed mean of its units and their winsorised variance (Yuen 1974:
    the trimmed mean's variance is the winsorised variance / ((1 - 2 trim)^2 r)), vectorised over
    commits of any size; ``trim = 0``: the mean and the variance."""
    order = np.lexsort((logs, inverse))
    x = logs[order]
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    k = np.floor(trim * counts).astype(np.int64)
    rank = np.arange(x.size) - np.repeat(first, counts)
    low = x[first + k]
    high = x[first + counts - 1 - k]
    r = np.repeat(counts, counts)
    inside = (rank >= np.repeat(k, counts)) & (rank < r - np.repeat(k, counts))
    commit = np.repeat(np.arange(counts.size), counts)
    mean = np.bincount(commit, weights=np.where(inside, x, 0.0)) / (counts - 2 * k)
    wins = np.clip(x, np.repeat(low, counts), np.repeat(high, counts))
    wmean = np.bincount(commit, weights=wins) / counts
    dev = wins - np.repeat(wmean, counts)
    wvar = np.bincount(commit, weights=dev * dev) / np.maximum(counts - 1, 1)
    return mean, wvar


def _between(level: np.ndarray, v: float, dependence: bool) -> tuple[float, float]:
    """``(sigma_b^2, phi)``: the commits' own variance and serial dependence, from the residuals of the
    levels around their segments' means. The segments come from a first, conservative search (only
    splits with a scan p-value below ``FIRST_PASS``), so real steps do not pass for noise and the
    dependence is not split away; scales and the lag-1 correlation are robust (MAD)."""
    n = level.size
    if n < 3:
        return (float(np.var(level)) if n > 1 else 0.0), 0.0
    d = np.diff(level)
    guess = max(_robust_scale(d) ** 2 / 2, 1e-300)
    cost = cp.MeanCost.of(level, np.full(n, 1.0 / guess))
    splits = cp.binary_segmentation(cost, 0.0, FIRST_SIZE, accept=lambda a, b, k, g: cp.scan_pvalue(
        g, b - a, FIRST_SIZE) < FIRST_PASS) if n >= 2 * FIRST_SIZE else np.zeros(0, dtype=np.int64)
    bounds = np.concatenate(([0], splits, [n]))
    resid = level - np.repeat([level[a:b].mean() for a, b in zip(bounds[:-1], bounds[1:], strict=True)],
                              np.diff(bounds))
    marginal = _robust_scale(resid) ** 2
    between = max(0.0, marginal - v)
    if not dependence or n < 8 or between <= 0:
        return between, 0.0
    u, w = resid[1:] + resid[:-1], resid[1:] - resid[:-1]
    su, sw = _robust_scale(u) ** 2, _robust_scale(w) ** 2
    rho = (su - sw) / (su + sw) if su + sw > 0 else 0.0
    phi = max(0.0, rho * marginal / between)
    return between, min(MAX_PHI, phi + (1 + 3 * phi) / n)  # the lag-1 estimate's bias (Kendall 1954)


def _running_median(x: np.ndarray, half: int = HALF) -> np.ndarray:
    """The median of the ``2 half + 1`` commits around each (windows kept inside the series at its ends)."""
    n = x.size
    width = 2 * half + 1
    if n < width:
        return np.full(n, np.median(x)) if n else x
    medians = np.median(np.lib.stride_tricks.sliding_window_view(x, width), axis=1)
    return medians[np.clip(np.arange(n) - half, 0, n - width)]


def _spikes(level: np.ndarray, variance: np.ndarray, half: int = HALF) -> np.ndarray:
    """Commits (not among the last two: those may start a change, reported pending) far from the
    running median of their neighbourhood: excursions of up to ``half`` commits in ``2 half + 1``."""
    n = level.size
    if n < 2 * half + 3:
        return np.zeros(0, dtype=np.int64)
    med = _running_median(level, half)
    z = np.abs(level - med) / np.sqrt(variance)
    z[n - 2:] = 0.0
    return np.flatnonzero(z > SPIKE)
