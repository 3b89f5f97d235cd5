"""One series of iterations: its outliers, segments, classification and steady level.

The procedure of Barrett et al. (OOPSLA 2017, as their ``warmup_stats`` codes it), with three
changes, each for a stated reason:

1. Outliers (a value beyond the median ± 3 × (90th − 10th percentile) of the 200 values around
   it, their Tukey-style rule) are left out of the segmentation, as theirs are.
2. Segments: PELT on the Normal mean-and-variance cost (R ``cpt.meanvar``), penalty
   ``penalty_factor × log n`` with the factor **calibrated by simulation** (``calibration.py``)
   instead of their fixed 15, so a change-free series shows a false change in at most 5% of cases
   under realistic noise.
3. Relevance and recurrence: two segments are the same state unless their levels differ by more
   than ``relevance`` × the level **with confidence** (the ratio's interval lies beyond it), so a
   significant but irrelevant shift (+0.5% at n = 3,000) is not a change of state. The steady state
   is what the last ``tail`` share of the series shows: when that part holds several levels, the
   series is steady only if each of them was already held, for at least a third of the tail,
   before it (a series that switches between recurring levels is in a steady state; a new level
   at the end is not).

Classification (Barrett's four): **flat** (no earlier segment differs from the steady state),
**warmup** (the last differing segment is worse: slower for times), **slowdown** (it is better:
the series settles at a worse level), **no steady state** (the end of the series has not settled).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from perfrigor import changepoints as cp

#: the penalty per change point, times log n: calibrated by simulation (``calibration.calibrate()``
#: with its defaults gives 8.0; docs/methods/steady-state.md has the table)
PENALTY_FACTOR = 8.0
#: fewer values than this: too short to tell a warm-up from noise
MIN_LENGTH = 20
#: the window of Barrett's outlier rule, and its width in inter-decile ranges
OUTLIER_WINDOW = 200
OUTLIER_WIDTH = 3.0
#: a level recurs when an earlier segment held it for at least this share of the tail window
RECURRENCE = 1.0 / 3.0
CLASSES = ("flat", "warmup", "slowdown", "no steady state")


def outlier_mask(x: np.ndarray, window: int = OUTLIER_WINDOW, width: float = OUTLIER_WIDTH) -> np.ndarray:
    """True for values beyond ``median ± width × (p90 − p10)`` of the ``window`` values around them
    (Barrett et al.'s rule; windows kept inside the series at its ends). The window statistics are
    computed every ``window / 20`` positions and each value is judged by the nearest (a window
    centred within 5 of 200 positions of it): O(20 n), so a million runs take about a second."""
    n = x.size
    w = min(window, n)
    if w < 5:
        return np.zeros(n, dtype=bool)
    step = max(1, w // 20)
    anchors = np.arange(0, n - w + 1, step)  # window starts whose statistics are computed
    views = np.lib.stride_tricks.sliding_window_view(x, w)
    med = np.empty(anchors.size)
    band = np.empty(anchors.size)
    chunk = max(1, 2_000_000 // w)
    quantiles = _window_quantiles(w)
    for lo in range(0, anchors.size, chunk):
        win = views[anchors[lo:lo + chunk]]
        med[lo:lo + chunk], p10, p90 = quantiles(win)
        band[lo:lo + chunk] = width * (p90 - p10)
    start = np.clip(np.arange(n) - w // 2, 0, n - w)  # each value's own window start, as Barrett's
    which = np.minimum(np.rint(start / step).astype(np.int64), anchors.size - 1)
    return np.abs(x - med[which]) > band[which]


def _window_quantiles(w: int) -> Any:
    """A function of windows (rows of ``w`` values) giving their medians, 10th and 90th percentiles: the
    numbers ``np.median`` and ``np.percentile(..., [10, 90])`` give, bit for bit, from one partition
    of each row (numpy's percentile partitions the windows again, across the rows' stride: twice the
    cost of the whole mask). Written out as numpy computes them: the median the mean of the two middle
    values (the middle one for odd w), a percentile numpy's "linear" interpolation between two order
    statistics (``_lerp``); ``tests/steady_state`` holds them to numpy's on random windows."""
    virtual = (w - 1) * np.true_divide(np.array([10.0, 90.0]), 100)
    below = np.floor(virtual).astype(np.intp)
    above = np.minimum(below + 1, w - 1)
    gamma = virtual - below
    middle = [w // 2 - 1, w // 2] if w % 2 == 0 else [w // 2]
    kth = sorted({*below.tolist(), *above.tolist(), *middle})

    def quantiles(win: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        part = np.partition(win, kth, axis=1)
        med = (part[:, middle[0]] + part[:, middle[1]]) / 2 if len(middle) == 2 else part[:, middle[0]]
        out = []
        for k in range(2):
            a, b, t = part[:, below[k]], part[:, above[k]], gamma[k]
            diff = b - a
            out.append(b - diff * (1 - t) if t >= 0.5 else a + diff * t)
        return med, out[0], out[1]

    return quantiles


def _differs(a: tuple[float, float, int], b: tuple[float, float, int], relevance: float, z: float) -> bool:
    """Whether the levels of segments ``a`` and ``b`` (mean, variance, count) differ by more than
    ``relevance`` with confidence: the interval of the ratio of means (delta method) lies beyond."""
    (m1, v1, k1), (m2, v2, k2) = a, b
    if m2 == 0 or m1 == 0:
        return m1 != m2
    r = m1 / m2
    se = abs(r) * math.sqrt(v1 / (k1 * m1 * m1) + v2 / (k2 * m2 * m2))
    return r - z * se >= 1.0 + relevance or r + z * se <= 1.0 - relevance


def steady_interval(values: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """Mean of the steady values with a batch-means t interval (about sqrt(n) batches of about
    sqrt(n) consecutive values), which holds under the serial dependence iterations have."""
    m = values.size
    if m < 2:
        return float(values.mean()), math.nan, math.nan
    mean, low, high = steady_intervals(np.asarray(values)[None, :], confidence)
    return float(mean[0]), float(low[0]), float(high[0])


def steady_intervals(rows: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`steady_interval` of every row (series of one length, at least 2): their means and interval ends."""
    # stdtrit is scipy.stats.t.ppf, without importing scipy.stats (start-up)
    from scipy import special

    count, m = rows.shape
    mean = rows.mean(axis=1)
    size = max(1, int(math.sqrt(m))) if m >= 16 else 1
    batches = rows[:, : (m // size) * size].reshape(count, -1, size).mean(axis=2)
    k = batches.shape[1]
    if k < 2:
        return mean, mean, mean
    half = special.stdtrit(k - 1, 0.5 + confidence / 2) * batches.std(ddof=1, axis=1) / math.sqrt(k)
    still = np.ptp(batches, axis=1) == 0.0  # no spread between batches: the mean itself
    return mean, np.where(still, mean, mean - half), np.where(still, mean, mean + half)


def analyse(x: Any, *, penalty_factor: float, relevance: float, tail: float, confidence: float,
            min_size: int | None, lower_is_better: bool, outliers: bool = True) -> dict[str, Any]:
    """Everything the ``steady-state`` result says about one series, as plain values."""
    x = np.asarray(x, dtype=float)
    n = int(x.size)
    if n < MIN_LENGTH:
        return _too_short(n)
    mask = outlier_mask(x) if outliers else np.zeros(n, dtype=bool)
    kept = np.flatnonzero(~mask)
    y = x[kept]
    scale = float(np.median(np.abs(y))) or 1.0
    size = _min_size(min_size, n, y.size)
    changes = cp.optimal_partition(cp.MeanVarCost.of(y / scale), penalty_factor * math.log(y.size), size)
    return _classify(x, mask, kept, y, changes, size, relevance, tail, confidence, lower_is_better)


def analyse_many(rows: Any, *, penalty_factor: float, relevance: float, tail: float, confidence: float,
                 min_size: int | None, lower_is_better: bool, outliers: bool = True) -> list[dict[str, Any]]:
    """``[analyse(row, ...) for row in rows]`` (series of one length, one per row), the same values: the
    outliers, scales, segment costs and cost tables of the rows without outliers computed for all of them at
    once (what costs numpy's per-call time on short series); a row with outliers is analysed alone."""
    x = np.ascontiguousarray(np.atleast_2d(np.asarray(rows, dtype=float)))
    count, n = x.shape
    if n < MIN_LENGTH:
        return [_too_short(n) for _ in range(count)]
    options = {"penalty_factor": penalty_factor, "relevance": relevance, "tail": tail, "confidence": confidence,
               "min_size": min_size, "lower_is_better": lower_is_better, "outliers": outliers}
    if not np.isfinite(x).all():  # analyse says what is wrong
        return [analyse(row, **options) for row in x]
    masks = outlier_masks(x) if outliers else np.zeros(x.shape, dtype=bool)
    clean = np.flatnonzero(~masks.any(axis=1)).tolist()
    out: list[dict[str, Any] | None] = [None] * count
    if clean:
        y = x[clean]
        scale = np.median(np.abs(y), axis=1)
        scale = np.where(scale != 0, scale, 1.0)
        size = _min_size(min_size, n, n)
        changes = cp.optimal_partitions(cp.MeanVarCost.of_rows(y / scale[:, None]), penalty_factor * math.log(n),
                                        size)
        kept = np.arange(n)
        one = [i for i, found in zip(clean, changes, strict=True) if found.size == 0]
        for i, found in zip(one, _one_segment(x[one], confidence), strict=True):
            out[i] = found
        for i, found in zip(clean, changes, strict=True):
            if found.size:
                out[i] = _classify(x[i], masks[i], kept, x[i], found, size, relevance, tail, confidence,
                                   lower_is_better)
    return [found if found is not None else analyse(x[i], **options) for i, found in enumerate(out)]


def _one_segment(x: np.ndarray, confidence: float) -> list[dict[str, Any]]:
    """What :func:`_classify` says of series without outliers or change points (one row each), the same values
    for all at once: flat, steady from the start at their one segment's level, with its batch-means interval
    (:func:`steady_interval`, written over rows)."""
    count, n = x.shape
    if not count:
        return []
    # the segment's statistics as cp.segments computes them (cumulative sums)
    s1, s2 = np.cumsum(x, axis=1)[:, -1] - 0.0, np.cumsum(x * x, axis=1)[:, -1] - 0.0
    mean = s1 / n
    sd = np.sqrt(np.maximum(s2 - n * mean * mean, 0.0) / max(n - 1, 1))
    level, low, high = steady_intervals(x, confidence)  # n >= MIN_LENGTH
    return [{"classification": "flat", "steady_start": 0, "n": n, "outliers": 0,
             "segments": (cp.Segment(0, n, mu, sigma),), "levels": (mu,), "level": lev, "ci_low": lo, "ci_high": hi}
            for mu, sigma, lev, lo, hi in zip(mean.tolist(), sd.tolist(), level.tolist(), low.tolist(), high.tolist(),
                                              strict=True)]


def _too_short(n: int) -> dict[str, Any]:
    return {"classification": None, "steady_start": None, "n": n, "outliers": 0, "segments": (),
            "level": None, "ci_low": None, "ci_high": None, "levels": ()}


def _min_size(min_size: int | None, n: int, kept: int) -> int:
    """The shortest segment: ``min_size``, else 2 to 10 with the length; at most a quarter of the kept values."""
    size = min_size if min_size is not None else max(2, min(10, n // 50))
    return min(size, max(1, kept // 4))


def outlier_masks(x: np.ndarray) -> np.ndarray:
    """:func:`outlier_mask` of each row of ``x`` (series of one length), the same booleans: series no longer
    than the window (one window, the whole series) at once, longer ones one at a time."""
    count, n = x.shape
    if n < 5 or n > OUTLIER_WINDOW:
        return np.array([outlier_mask(row) for row in x], dtype=bool).reshape(x.shape)
    med, p10, p90 = _window_quantiles(n)(x)
    band = OUTLIER_WIDTH * (p90 - p10)
    return np.abs(x - med[:, None]) > band[:, None]


def _classify(x: np.ndarray, mask: np.ndarray, kept: np.ndarray, y: np.ndarray, changes: np.ndarray, size: int,
              relevance: float, tail: float, confidence: float, lower_is_better: bool) -> dict[str, Any]:
    """A series' segments, classification and steady level from its change points (``changes``: in the kept
    values ``y = x[kept]``, outliers left out)."""
    # ndtri is scipy.stats.norm.ppf, without importing scipy.stats (start-up)
    from scipy import special

    n = int(x.size)
    bounds = np.concatenate(([0], changes, [y.size]))
    parts = cp.segments(y, changes)
    # segments in the original indices (an outlier between two segments belongs to the later one)
    starts = np.concatenate(([0], kept[bounds[1:-1]]))
    ends = np.concatenate((kept[bounds[1:-1]], [n]))
    stat = [(p.mean, p.sd * p.sd, p.n) for p in parts]
    segs = tuple(cp.Segment(int(s), int(e), p.mean, p.sd) for s, e, p in zip(starts, ends, parts, strict=True))
    z = float(special.ndtri(0.5 + confidence / 2))
    window = n - max(size, int(math.ceil(tail * n)))
    last = len(segs) - 1
    in_tail = [j for j in range(len(segs)) if segs[j].end > window]
    need = RECURRENCE * (n - window)

    def recurs(j: int) -> bool:
        return any(segs[i].end <= window and segs[i].n >= need and not _differs(stat[j], stat[i], relevance, z)
                   for i in range(len(segs)) if i != j)

    settled = all(not _differs(stat[j], stat[last], relevance, z) or (recurs(j) and recurs(last))
                  for j in in_tail if j != last)
    start: int | None = None
    before: int | None = None
    if settled:
        start = 0
        for i in range(len(segs) - 1, -1, -1):
            if i not in in_tail and all(_differs(stat[i], stat[t], relevance, z) for t in in_tail):
                start, before = segs[i].end, i
                break
    levels = _distinct(stat, in_tail, relevance, z)
    if start is None:
        classification = "no steady state"
    elif before is None:
        classification = "flat"
    else:
        steady = np.average([stat[t][0] for t in in_tail], weights=[stat[t][2] for t in in_tail])
        worse = stat[before][0] > steady if lower_is_better else stat[before][0] < steady
        classification = "warmup" if worse else "slowdown"
        start = _refine(x, mask, segs[before + 1], segs[in_tail[0]].start, float(steady), size, relevance, z)
    out: dict[str, Any] = {"classification": classification, "steady_start": start, "n": n,
                           "outliers": int(mask.sum()), "segments": segs, "levels": levels}
    if start is None:
        out.update(level=None, ci_low=None, ci_high=None)
    else:
        steady_values = x[start:][~mask[start:]]
        mean, low, high = steady_interval(steady_values, confidence)
        out.update(level=mean, ci_low=low, ci_high=high)
    return out


def _refine(x: np.ndarray, mask: np.ndarray, first: cp.Segment, tail_start: int, steady: float, size: int,
            relevance: float, z: float) -> int:
    """The steady start moved within the first steady segment past its blocks still beyond relevance.

    A warm-up that fades (an exponential decay) is cut by the segmentation into steps, and the first
    steady segment may begin while the level is still a few percent high. Its values, in blocks of
    about 1% of the series, are compared with the steady level; the start moves past the last block
    whose level differs by more than ``relevance`` with confidence (block noise: the spread of the
    block means of the steady part after this segment, which includes serial dependence).
    """
    idx = np.flatnonzero(~mask[first.start:first.end]) + first.start
    block = max(size, int(math.ceil(x.size / 100)))
    if idx.size < 2 * block:
        return first.start
    later = np.flatnonzero(~mask[max(first.end, tail_start):]) + max(first.end, tail_start)
    if later.size < 4 * block:  # the segment runs to the end: its second half is the reference
        later = idx[idx.size // 2:]
    ref = x[later[: later.size // block * block]].reshape(-1, block).mean(axis=1)
    spread = float(ref.std(ddof=1)) if ref.size > 1 else 0.0
    level = float(ref.mean()) if ref.size else steady  # the level after the segment: no fading start in it
    means = x[idx[: idx.size // block * block]].reshape(-1, block).mean(axis=1)
    beyond = np.abs(means / level - 1.0) - z * spread / abs(level) > relevance
    if not beyond.any():
        return first.start
    last = int(np.flatnonzero(beyond)[-1])
    return int(idx[min((last + 1) * block, idx.size - 1)])


def _distinct(stat: list[tuple[float, float, int]], idx: list[int], relevance: float, z: float) -> tuple[float, ...]:
    """The distinct levels among the segments ``idx`` (those that differ from every one kept before)."""
    kept: list[int] = []
    for j in sorted(idx, key=lambda j: -stat[j][2]):
        if all(_differs(stat[j], stat[k], relevance, z) for k in kept):
            kept.append(j)
    return tuple(float(stat[j][0]) for j in sorted(kept))
