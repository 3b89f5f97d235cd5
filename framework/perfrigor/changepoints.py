"""Change points: cut a series into segments of constant level (statistics shared by plugins).

A *cost* scores a segment ``[start, end)`` of a series by minus twice its maximised Gaussian
log-likelihood; a *segmenter* finds the change points that minimise the total cost plus a
penalty per change. Costs are built once from cumulative sums and evaluated for many segment
starts at once (numpy), so every segmenter is vectorised over candidate positions:

- :class:`MeanVarCost`: the level and the spread change together (R changepoint's
  ``cpt.meanvar``, Normal; what Barrett et al. segment in-process iterations with);
- :class:`MeanCost`: only the level changes, each point with a known variance (weights),
  e.g. per-commit means whose noise was measured by repetitions.

Segmenters: :func:`optimal_partition` (the exact minimiser: optimal partitioning with PELT's
pruning, Killick, Fearnhead & Eckley 2012; on a grid of at most ``max_candidates`` positions for
long series, then refined locally) and :func:`binary_segmentation` (greedy splits). Helpers give
each split's gain (:func:`split_gains`), the segments' statistics (:func:`segments`), the null
distribution of a scan by simulation (:func:`null_gains`, :func:`calibrate_penalty`), and the
p-value of a Gaussian mean-shift scan (:func:`scan_pvalue`, Siegmund's approximation).

Names no method: what a segment means (a warm-up, a regression) is for the plugins to say.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs
import numpy as np

from .errors import DataError

__all__ = ["Cost", "MeanCost", "MeanVarCost", "Segment", "binary_segmentation", "calibrate_penalty",
           "change_points", "no_change_penalty", "null_gains", "optimal_partition", "optimal_partitions", "scan_pvalue", "segments", "split_gains"]

#: the variance a segment of equal values is given (R changepoint's floor for ``mll.meanvar``),
#: relative to the squared scale of the series: a constant run is very likely, not infinitely so
VARIANCE_FLOOR = 1e-11


class Cost(Protocol):
    """A segment cost: ``cost(starts, end)`` for an array of starts and one end (or arrays of both)."""

    n: int

    def __call__(self, starts: Any, end: Any) -> np.ndarray: ...


def _series(values: Any, what: str = "series") -> np.ndarray:
    x = np.asarray(values, dtype=float)
    if x.ndim != 1:
        raise DataError(f"{what}: expected one series (1-D), got shape {x.shape}")
    if not np.all(np.isfinite(x)):
        raise DataError(f"{what}: {int(np.sum(~np.isfinite(x)))} value(s) are NaN or infinite")
    return x


#: log(2 pi) as numpy computes it (once, not on every cost evaluation)
_LOG_2PI = np.log(2.0 * np.pi)


@attrs.frozen(eq=False)
class MeanVarCost:
    """Gaussian cost of a change in mean and variance: ``m * (log(2 pi) + log(var) + 1)``.

    ``var`` is a segment's maximum-likelihood variance; a segment of equal values gets
    ``VARIANCE_FLOOR`` times the series' squared scale (its median absolute value), as R's
    ``cpt.meanvar`` floors it (there absolutely), so the cost does not depend on the unit.
    """

    s1: np.ndarray
    s2: np.ndarray
    floor: float

    @classmethod
    def of(cls, values: Any) -> MeanVarCost:
        x = _series(values)
        scale = float(np.median(np.abs(x))) or float(np.max(np.abs(x))) or 1.0
        return cls(np.concatenate(([0.0], np.cumsum(x))), np.concatenate(([0.0], np.cumsum(x * x))),
                   VARIANCE_FLOOR * scale * scale)

    @classmethod
    def of_rows(cls, values: Any) -> list[MeanVarCost]:
        """``[MeanVarCost.of(row) for row in values]`` (a 2-D array of finite values), the same numbers, built
        for all rows at once."""
        x = np.ascontiguousarray(np.asarray(values, dtype=float))
        if x.ndim != 2:
            raise DataError(f"series: expected rows of series (2-D), got shape {x.shape}")
        if not np.all(np.isfinite(x)):
            raise DataError(f"series: {int(np.sum(~np.isfinite(x)))} value(s) are NaN or infinite")
        scale = np.median(np.abs(x), axis=1)
        scale = np.where(scale != 0, scale, np.max(np.abs(x), axis=1) if x.shape[1] else 0.0)
        scale = np.where(scale != 0, scale, 1.0)
        zero = np.zeros((x.shape[0], 1))
        s1 = np.concatenate((zero, np.cumsum(x, axis=1)), axis=1)
        s2 = np.concatenate((zero, np.cumsum(x * x, axis=1)), axis=1)
        floors = VARIANCE_FLOOR * scale * scale
        return [cls(a, b, float(f)) for a, b, f in zip(s1, s2, floors.tolist(), strict=True)]

    @property
    def n(self) -> int:
        return int(self.s1.size - 1)

    def __call__(self, starts: Any, end: Any) -> np.ndarray:
        m = np.asarray(end) - np.asarray(starts)
        a = self.s1[end] - self.s1[starts]
        b = self.s2[end] - self.s2[starts]
        with np.errstate(divide="ignore", invalid="ignore"):
            var = (b - a * a / m) / m
        var = np.where(var > self.floor, var, self.floor)
        return m * (_LOG_2PI + np.log(var) + 1.0)


@attrs.frozen(eq=False)
class MeanCost:
    """Gaussian cost of a change in mean with known variances: ``sum(w x^2) - (sum w x)^2 / sum w``.

    ``weights`` are the points' inverse variances (equal weights: the variance of one point is 1,
    so gains are chi-squared under no change). ``inflation`` divides every cost, e.g. the factor
    by which serial dependence inflates the variance of a mean.
    """

    w: np.ndarray
    wx: np.ndarray
    wxx: np.ndarray
    inflation: float = 1.0

    @classmethod
    def of(cls, values: Any, weights: Any = None, inflation: float = 1.0) -> MeanCost:
        x = _series(values)
        w = np.ones_like(x) if weights is None else np.broadcast_to(np.asarray(weights, dtype=float), x.shape)
        if np.any(~np.isfinite(w)) or np.any(w <= 0):
            raise DataError("weights must be positive and finite")
        zero = np.zeros(1)
        return cls(np.concatenate((zero, np.cumsum(w))), np.concatenate((zero, np.cumsum(w * x))),
                   np.concatenate((zero, np.cumsum(w * x * x))), float(inflation))

    @classmethod
    def of_rows(cls, values: Any) -> list[MeanCost]:
        """``[MeanCost.of(row) for row in values]`` (a 2-D array of finite values, equal weights), the same
        numbers, built for all rows at once."""
        x = np.ascontiguousarray(np.asarray(values, dtype=float))
        if x.ndim != 2:
            raise DataError(f"series: expected rows of series (2-D), got shape {x.shape}")
        if not np.all(np.isfinite(x)):
            raise DataError(f"series: {int(np.sum(~np.isfinite(x)))} value(s) are NaN or infinite")
        w = np.ones_like(x)
        zero = np.zeros((x.shape[0], 1))
        sums = [np.concatenate((zero, np.cumsum(v, axis=1)), axis=1) for v in (w, w * x, w * x * x)]
        return [cls(a, b, c) for a, b, c in zip(*sums, strict=True)]

    @property
    def n(self) -> int:
        return int(self.w.size - 1)

    def __call__(self, starts: Any, end: Any) -> np.ndarray:
        sw = self.w[end] - self.w[starts]
        swx = self.wx[end] - self.wx[starts]
        swxx = self.wxx[end] - self.wxx[starts]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            cost = swxx - np.where(sw > 0, swx / np.where(sw > 0, sw, 1.0) * swx, 0.0)
        return cost / self.inflation

    def mean(self, start: int, end: int) -> float:
        """The weighted mean of ``[start, end)``."""
        return float((self.wx[end] - self.wx[start]) / (self.w[end] - self.w[start]))

    def weight(self, start: int, end: int) -> float:
        """The total weight (inverse variance of the mean) of ``[start, end)``."""
        return float(self.w[end] - self.w[start])


def _check(cost: Cost, penalty: float, min_size: int) -> int:
    if not (isinstance(min_size, int | np.integer) and min_size >= 1):
        raise ValueError(f"min_size must be an integer >= 1, got {min_size!r}")
    if not np.isfinite(penalty) or penalty < 0:
        raise ValueError(f"penalty must be a finite number >= 0, got {penalty!r}")
    return int(cost.n)


def split_gains(cost: Cost, start: int = 0, end: int | None = None, min_size: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(positions, gains)``: for every split ``k`` of ``[start, end)`` leaving ``min_size`` points on
    each side, how much splitting there lowers the cost (``cost(start, end) - cost(start, k) - cost(k, end)``)."""
    end = cost.n if end is None else end
    k = np.arange(start + min_size, end - min_size + 1)
    if k.size == 0:
        return k, np.zeros(0)
    whole = cost(np.asarray(start), end)
    return k, whole - cost(np.full(k.size, start), k) - cost(k, np.full(k.size, end))


def binary_segmentation(cost: Cost, penalty: float, min_size: int = 2, max_changes: int | None = None,
                        accept: Callable[[int, int, int, float], bool] | None = None) -> np.ndarray:
    """Change points by repeated best splits: split the segment whose best split lowers the cost the
    most, while that gain exceeds ``penalty`` (or while ``accept(start, end, position, gain)`` says
    yes, when given) and fewer than ``max_changes`` were found. O(n log n) for few changes.

    Returns the sorted indices where a new segment starts.
    """
    n = _check(cost, penalty, min_size)
    found: list[int] = []
    pending = [(0, n)]
    best: dict[tuple[int, int], tuple[int, float]] = {}
    while pending or best:
        for seg in pending:
            pos, gain = split_gains(cost, seg[0], seg[1], min_size)
            if pos.size:
                i = int(np.argmax(gain))
                best[seg] = (int(pos[i]), float(gain[i]))
        pending = []
        if not best or (max_changes is not None and len(found) >= max_changes):
            break
        seg = max(best, key=lambda s: best[s][1])
        pos, gain = best.pop(seg)
        ok = accept(seg[0], seg[1], pos, gain) if accept is not None else gain > penalty
        if not ok:
            if accept is None:
                break  # the largest gain is below the penalty: so is every other
            continue
        found.append(pos)
        pending = [(seg[0], pos), (pos, seg[1])]
    return np.array(sorted(found), dtype=np.int64)


def optimal_partition(cost: Cost, penalty: float, min_size: int = 2, max_candidates: int = 1000) -> np.ndarray:
    """The change points minimising ``total cost + penalty x (number of changes)``, every segment
    at least ``min_size`` long: optimal partitioning with PELT's pruning (Killick et al. 2012),
    the algorithm of R changepoint's ``cpt.*(method="PELT")``, which it agrees with.

    Without changes PELT prunes nothing and costs O(n^2); so a series longer than
    ``max_candidates`` is first segmented with changes allowed only on a grid of about
    ``max_candidates`` positions (O(max_candidates^2) at worst), and each change found is then
    moved to the best position between its neighbours. Returns sorted segment starts.
    """
    n = _check(cost, penalty, min_size)
    step = max(1, -(-n // max_candidates))
    grid_min = -(-min_size // step) * step  # the shortest segment on the grid that is long enough
    positions = np.arange(0, n + 1, step)
    if positions[-1] != n:
        positions = np.append(positions, n)
    changes = _pelt(cost, positions, penalty, grid_min)
    if step == 1 or changes.size == 0:
        return changes
    return _refine(cost, changes, min_size)


def optimal_partitions(costs: Sequence[Cost], penalty: float, min_size: int = 2) -> list[np.ndarray]:
    """``[optimal_partition(c, penalty, min_size) for c in costs]``, the same change points: the cost tables of
    series of one length and cost type (:class:`MeanVarCost`, :class:`MeanCost`; at most ``TABLE_POSITIONS``
    positions) are computed for all of them at once, element by element the numbers of each alone."""
    out: list[np.ndarray | None] = [None] * len(costs)
    groups: dict[tuple[type, int], list[int]] = {}
    for i, c in enumerate(costs):
        if type(c) in (MeanVarCost, MeanCost) and c.n + 1 <= TABLE_POSITIONS:
            groups.setdefault((type(c), c.n), []).append(i)
    for (kind, n), idx in groups.items():
        _check(costs[idx[0]], penalty, min_size)
        positions = np.arange(0, n + 1)
        newest_of = (np.searchsorted(positions, positions - min_size, side="right") - 1).tolist()
        with np.errstate(all="ignore"):
            tables = _tables(kind, [costs[i] for i in idx], positions[:, None], positions[None, :])
        finite = np.flatnonzero(np.isfinite(tables).all(axis=(1, 2))).tolist()
        for i, found in zip([idx[r] for r in finite], _pelt_rows(tables[finite], positions, float(penalty),
                                                                newest_of), strict=True):
            out[i] = found
    return [found if found is not None else optimal_partition(c, penalty, min_size) for found, c in zip(out, costs,
                                                                                                        strict=True)]


def _tables(kind: type, costs: Sequence[Any], starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``c(starts, ends)`` of every cost of one type at once (rows: the costs): their ``__call__`` written over
    stacked cumulative sums, element by element the same arithmetic."""
    def pick(name: str) -> tuple[np.ndarray, np.ndarray]:
        sums = np.stack([getattr(c, name) for c in costs])
        return np.take(sums, ends, axis=1), np.take(sums, starts, axis=1)

    m = np.asarray(ends) - np.asarray(starts)
    if kind is MeanVarCost:
        (e1, b1), (e2, b2) = pick("s1"), pick("s2")
        a, b = e1 - b1, e2 - b2
        floor = np.array([c.floor for c in costs])[:, None, None]
        var = (b - a * a / m) / m
        var = np.where(var > floor, var, floor)
        return m * (_LOG_2PI + np.log(var) + 1.0)
    (ew, bw), (ex, bx), (exx, bxx) = pick("w"), pick("wx"), pick("wxx")
    sw, swx, swxx = ew - bw, ex - bx, exx - bxx
    cost = swxx - np.where(sw > 0, swx / np.where(sw > 0, sw, 1.0) * swx, 0.0)
    return cost / np.array([c.inflation for c in costs])[:, None, None]


#: PELT on at most this many positions evaluates the built-in costs of every (start, end) pair at once
#: (m^2 values, 320 KB): on short series numpy's per-call time, not the arithmetic, is PELT's cost
TABLE_POSITIONS = 200


def _pelt(cost: Cost, positions: np.ndarray, penalty: float, min_size: int) -> np.ndarray:
    """PELT over the allowed ``positions`` (sorted, from 0 to n): segment starts of the optimum."""
    m = positions.size
    # for each end, the last start at least min_size before it
    newest_of = (np.searchsorted(positions, positions - min_size, side="right") - 1).tolist()
    table = None
    if m <= TABLE_POSITIONS and type(cost) in (MeanVarCost, MeanCost):
        # every cost PELT may ask for, element by element the numbers of cost(starts, end)
        with np.errstate(all="ignore"):
            table = cost(positions[:, None], positions[None, :])
        if np.isfinite(table).all():
            return _pelt_table(table.T.tolist(), positions, float(penalty), newest_of)
    F = np.full(m, np.inf)  # F[j]: the best cost of positions[:j] (inf: no segmentation fits)
    F[0] = -penalty
    last = np.zeros(m, dtype=np.int64)
    cands = np.zeros(0, dtype=np.int64)  # indices into positions: possible starts of the last segment
    added = -1
    ends = positions.tolist()
    for j in range(1, m):
        t = ends[j]
        newest = newest_of[j]
        if newest > added:  # starts now at least min_size before t
            fresh = np.arange(added + 1, newest + 1)
            cands = np.concatenate((cands, fresh[np.isfinite(F[fresh])]))
            added = newest
        if cands.size == 0:
            continue
        vals = F[cands] + (cost(positions[cands], t) if table is None else table[cands, j])
        i = int(np.argmin(vals))
        F[j] = vals[i] + penalty
        last[j] = cands[i]
        cands = cands[vals <= F[j]]  # PELT: never optimal again (pruning constant K = 0)
    return _backtrack(last.tolist(), positions)


def _pelt_table(costs: list[list[float]], positions: np.ndarray, penalty: float, newest_of: list[int]) -> np.ndarray:
    """``_pelt`` from the cost of every (end, start) pair (``costs[j][i]``), in Python floats: the same
    additions and comparisons, so the same optimum, without numpy's per-call time on a few values."""
    m = len(costs)
    F = [math.inf] * m
    F[0] = -penalty
    last = [0] * m
    cands: list[int] = []
    added = -1
    for j in range(1, m):
        newest = newest_of[j]
        if newest > added:
            cands.extend(i for i in range(added + 1, newest + 1) if math.isfinite(F[i]))
            added = newest
        if not cands:
            continue
        col = costs[j]
        vals = [F[i] + col[i] for i in cands]
        best = min(vals)  # the first of equal minima, as np.argmin
        F[j] = best + penalty
        last[j] = cands[vals.index(best)]
        cands = [i for i, v in zip(cands, vals, strict=True) if v <= F[j]]
    return _backtrack(last, positions)


def _pelt_rows(tables: np.ndarray, positions: np.ndarray, penalty: float, newest_of: list[int]) -> list[np.ndarray]:
    """``_pelt_table`` of many series at once from their cost tables (``tables[b, i, j]``: series b's cost of
    positions i to j), the same change points: the same additions and comparisons, each row's candidates kept
    as a mask (a pruned or unreachable start is +inf), the first of equal minima taken, as there."""
    count, m = tables.shape[0], tables.shape[1]
    F = np.full((count, m), np.inf)
    F[:, 0] = -penalty
    last = np.zeros((count, m), dtype=np.int64)
    alive = np.zeros((count, m), dtype=bool)  # the candidates: added (reachable), not pruned
    rows = np.arange(count)
    added = -1
    for j in range(1, m):
        newest = newest_of[j]
        if newest > added:
            alive[:, added + 1:newest + 1] = np.isfinite(F[:, added + 1:newest + 1])
            added = newest
        if newest < 0:
            continue
        vals = np.where(alive[:, :newest + 1], F[:, :newest + 1] + tables[:, :newest + 1, j], np.inf)
        first = np.argmin(vals, axis=1)
        best = vals[rows, first]
        some = np.isfinite(best)  # a row without candidates keeps F = inf, as there
        F[:, j] = np.where(some, best + penalty, np.inf)
        last[:, j] = np.where(some, first, 0)
        alive[:, :newest + 1] &= ~(vals > F[:, j:j + 1])
    return [_backtrack(row, positions) for row in last.tolist()]


def _refine(cost: Cost, changes: np.ndarray, min_size: int) -> np.ndarray:
    """Each change moved to the best split between its neighbours (the others held fixed)."""
    out = changes.copy()
    for i in range(out.size):
        lo = out[i - 1] if i else 0
        hi = out[i + 1] if i + 1 < out.size else cost.n
        pos, gain = split_gains(cost, int(lo), int(hi), min_size)
        if pos.size:
            out[i] = pos[int(np.argmax(gain))]
    return out


def change_points(values: Any, penalty: float, cost: str = "meanvar", min_size: int = 2,
                  method: str = "optimal", **options: Any) -> np.ndarray:
    """Change points of a series in one call: ``cost`` "meanvar" or "mean", ``method`` "optimal"
    (:func:`optimal_partition`) or "binary" (:func:`binary_segmentation`)."""
    costs = {"meanvar": MeanVarCost.of, "mean": MeanCost.of}
    methods = {"optimal": optimal_partition, "binary": binary_segmentation}
    if cost not in costs or method not in methods:
        raise ValueError(f"cost must be one of {list(costs)} and method one of {list(methods)}")
    return methods[method](costs[cost](values), penalty, min_size, **options)


@attrs.frozen
class Segment:
    """One segment ``[start, end)`` of a series: its length, mean and standard deviation."""

    start: int
    end: int
    mean: float
    sd: float

    @property
    def n(self) -> int:
        return self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "mean": self.mean, "sd": self.sd}


def segments(values: Any, changes: Sequence[int] | np.ndarray) -> list[Segment]:
    """The segments between ``changes`` (segment starts), with their means and standard deviations."""
    x = _series(values)
    bounds = np.concatenate(([0], np.asarray(changes, dtype=np.int64), [x.size]))
    s1 = np.concatenate(([0.0], np.cumsum(x)))
    s2 = np.concatenate(([0.0], np.cumsum(x * x)))
    a, b = bounds[:-1], bounds[1:]
    m = b - a
    mean = (s1[b] - s1[a]) / m
    var = np.maximum((s2[b] - s2[a]) - m * mean * mean, 0.0) / np.maximum(m - 1, 1)
    return [Segment(int(i), int(j), float(mu), float(sd)) for i, j, mu, sd in zip(a, b, mean, np.sqrt(var),
                                                                                 strict=True)]


# ---------------------------------------------------------------- calibration by simulation


def no_change_penalty(cost: Cost, min_size: int = 2, max_positions: int = 400) -> float:
    """The penalty a series needs to show no change: the largest gain of one split, or half that of
    two splits (an epidemic segment), whichever is larger.

    Changes that only three or more splits would show are not counted, so this is a lower bound
    of the exact value (close to it on change-free series, whose false segments come one or two at
    a time). One split is searched at every position; two splits on a grid of at most
    ``max_positions`` positions each (O(max_positions^2)), refined by one pass of each split
    with the other held.
    """
    n = cost.n
    whole = float(cost(np.asarray(0), n))
    best = 0.0
    k = np.arange(min_size, n - min_size + 1)
    if k.size:
        best = whole - float((cost(np.zeros(k.size, dtype=np.int64), k) + cost(k, np.full(k.size, n))).min())
    step = max(1, -(-n // max_positions))
    i = np.arange(min_size, n - 2 * min_size + 1, step)
    if i.size == 0:
        return best
    j = np.append(np.arange(2 * min_size, n - min_size + 1, step), n - min_size)[None, :]
    ii = i[:, None]
    total = cost(np.zeros_like(ii), ii) + cost(ii, j) + cost(j, np.full_like(j, n))
    total = np.where(j - ii >= min_size, total, np.inf)
    a, b = np.unravel_index(int(np.argmin(total)), total.shape)
    lo, hi = int(i[a]), int(j[0, b])
    if step > 1:  # refine: each split at its best position with the other held
        _, g = split_gains(cost, 0, hi, min_size)
        lo = int(np.arange(min_size, hi - min_size + 1)[int(np.argmax(g))]) if g.size else lo
        _, g = split_gains(cost, lo, n, min_size)
        hi = int(np.arange(lo + min_size, n - min_size + 1)[int(np.argmax(g))]) if g.size else hi
    two = whole - float(cost(np.asarray(0), lo) + cost(np.asarray(lo), hi) + cost(np.asarray(hi), n))
    return max(best, two / 2.0)


def null_gains(simulate: Callable[[np.random.Generator, int, int], np.ndarray], n: int, cost: str = "meanvar",
               min_size: int = 2, n_sim: int = 500, random_state: Any = None) -> np.ndarray:
    """:func:`no_change_penalty` of ``n_sim`` change-free series of length ``n`` drawn by
    ``simulate(rng, n_sim, n)`` (an array ``(n_sim, n)``): the null distribution a penalty is
    calibrated against."""
    from .params import check_random_state

    x = np.asarray(simulate(check_random_state(random_state), n_sim, n), dtype=float)
    if x.shape != (n_sim, n):
        raise ValueError(f"simulate returned shape {x.shape}, expected {(n_sim, n)}")
    make = {"meanvar": MeanVarCost.of, "mean": MeanCost.of}[cost]
    return np.array([no_change_penalty(make(row), min_size) for row in x])


def calibrate_penalty(simulate: Callable[[np.random.Generator, int, int], np.ndarray], n: int,
                      false_rate: float = 0.05, **options: Any) -> float:
    """The penalty that leaves a false change in about ``false_rate`` of change-free series drawn by
    ``simulate`` (the ``1 - false_rate`` quantile of :func:`null_gains`)."""
    return float(np.quantile(null_gains(simulate, n, **options), 1.0 - false_rate))


# ---------------------------------------------------------------- p-value of a mean-shift scan


def _nu(x: np.ndarray) -> np.ndarray:
    """Siegmund's overshoot correction nu(x) (Siegmund 1985, the approximation of his eq. 4.38)."""
    from scipy import special

    h = np.maximum(np.asarray(x, dtype=float), 1e-12) / 2.0
    cdf = special.ndtr(h)
    pdf = np.exp(-0.5 * h * h) / np.sqrt(2.0 * np.pi)
    return (cdf - 0.5) / (h * (h * cdf + pdf))


#: nodes of the integral over the split's position, on the logit scale (smooth there)
_NODES = 257
#: nodes of the average over an estimated variance (``dof``)
_DOF_NODES = 64


def scan_pvalue(gain: Any, n: int, min_size: int = 1, dof: float | None = None) -> Any:
    """P(max over splits of the gain >= ``gain``) for ``n`` independent Gaussian points without a
    change, splits leaving ``min_size`` points each side; gains as :class:`MeanCost` gives them
    (the squared standardised CUSUM). Siegmund's approximation (James, James & Siegmund 1987):
    ``b phi(b) * integral of nu(b / sqrt(n t (1-t))) / (t (1-t)) dt`` over ``t`` in
    ``[min_size/n, 1 - min_size/n]``, with ``b = sqrt(gain)``, integrated on the logit scale
    (``du = dt / (t (1-t))``: a smooth integrand) by Simpson's rule; within 10% of simulation in
    the upper tail for n from 20 to 1000 (tests). Vectorised over ``gain``; scipy has no scan test.

    ``dof``: the gains were standardised with a variance estimated on ``dof`` degrees of freedom, so
    ``gain = Z^2 / s`` with ``s ~ chi2(dof) / dof``; the p-value is averaged over ``s`` (the scan's
    analogue of Student's t for z), which keeps the far tail honest when the variance is uncertain.
    """
    from scipy import integrate, stats

    g = np.asarray(gain, dtype=float)
    if n < 2 * min_size:
        return np.ones_like(g) if g.ndim else 1.0
    if dof is not None and np.isfinite(dof):
        s = stats.chi2.ppf((np.arange(_DOF_NODES) + 0.5) / _DOF_NODES, dof) / dof  # equal-probability nodes
        p = np.mean(np.asarray(scan_pvalue(g[..., None] * s, n, min_size)), axis=-1)
        return float(p) if np.ndim(p) == 0 else p
    lo = min_size / n
    u = np.linspace(np.log(lo / (1 - lo)), np.log((1 - lo) / lo), _NODES)
    t = 1.0 / (1.0 + np.exp(-u))
    b = np.sqrt(np.maximum(g, 0.0))[..., None]
    integral = integrate.simpson(_nu(b / np.sqrt(n * t * (1 - t))), x=u, axis=-1)
    p = b[..., 0] * np.exp(-0.5 * b[..., 0] ** 2) / np.sqrt(2 * np.pi) * integral
    p = np.where(g > 0, np.minimum(p, 1.0), 1.0)
    return float(p) if p.ndim == 0 else p


def _backtrack(last: list[int], positions: np.ndarray) -> np.ndarray:
    """The change points of an optimal partition, from each end's best previous end (``last``), back to 0."""
    out = []
    j = len(last) - 1
    while j > 0:
        j = last[j]
        if j > 0:
            out.append(int(positions[j]))
    return np.array(out[::-1], dtype=np.int64)
