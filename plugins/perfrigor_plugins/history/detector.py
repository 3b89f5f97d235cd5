"""The ``change-scan`` detector: changes of level over commits, with the false discovery rate controlled.

Per benchmark (``noise.levels``): a level per commit with its variance from the repetitions and
the commit-to-commit noise (AR(1)). Binary segmentation with the Gaussian mean-change cost
weighted by those variances (``perfrigor.changepoints.MeanCost``): each segment's best split is
tested with the scan p-value (``changepoints.scan_pvalue``, Siegmund's approximation of the
maximum over every commit of the segment); splitting goes on while a split's p-value is below
``fdr``. Every test made, over every benchmark, then goes through Benjamini-Hochberg at ``fdr``
(a split is kept only if the one that made its segment was). For each change kept: the first
commit after it, a confidence set for that commit (parametric bootstrap of the fitted two-level
model around it, seeded), the speedup between the neighbouring segments with its interval, and
the p-values. Changes that fewer than ``min_size`` commits follow cannot be confirmed: the last
commits are tested against the level before them and reported as *pending*.
"""

from __future__ import annotations

import math
import zlib
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr
from perfrigor import changepoints as cp

from .noise import Levels, levels
from .results import Change, Fit, HistoryResult, Pending

#: replicates of the parametric bootstrap that gives a change's range of commits
N_BOOT = 400


@attrs.frozen
class Test:
    """One split tested: the benchmark, the segment ``[start, end)`` (positions among its commits),
    the split, its gain and p-value, and the test that made the segment (None: the whole series)."""

    benchmark: str
    start: int
    end: int
    split: int
    gain: float
    pvalue: float
    parent: int | None


def bh_adjust(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg adjusted p-values (R's ``p.adjust(p, "BH")``)."""
    from scipy import stats

    return np.asarray(stats.false_discovery_control(p, method="bh")) if p.size else p


def search(name: str, lv: Levels, min_size: int, alpha: float) -> list[Test]:
    """Binary segmentation of one benchmark's levels; every split tested (``parent``: the index, in
    this list, of the test that made the segment)."""
    cost = cp.MeanCost.of(lv.level, lv.weights, lv.inflation)
    tests: list[Test] = []
    owner: dict[tuple[int, int], int | None] = {(0, cost.n): None}

    def accept(start: int, end: int, split: int, gain: float) -> bool:
        p = cp.scan_pvalue(gain, end - start, min_size, lv.dof)
        tests.append(Test(name, start, end, split, gain, p, owner.get((start, end))))
        if p <= alpha:
            owner[(start, split)] = owner[(split, end)] = len(tests) - 1
            return True
        return False

    cp.binary_segmentation(cost, 0.0, min_size, accept=accept)
    return tests


def analyse(batch: list[tuple[str, pr.BenchmarkHistory]], robust: bool, dependence: bool, min_size: int,
            alpha: float) -> list[tuple[str, Levels, list[Test]]]:
    """The per-benchmark work (noise model and search) for a batch of benchmarks: what an executor runs."""
    out = []
    for name, b in batch:
        lv = levels(b, robust, dependence)
        out.append((name, lv, search(name, lv, min_size, alpha)))
    return out


def _batches(items: list[Any], executor: Any) -> list[list[Any]]:
    """About four batches per worker (a process pool's ``_max_workers``; else 8 in all)."""
    workers = getattr(executor, "_max_workers", None) or 2
    size = max(1, -(-len(items) // (4 * workers)))
    return [items[i:i + size] for i in range(0, len(items), size)]


@attrs.define(repr=False)
class HistoryDetector(pr.Detector):
    """Changes of level over a history of commits, using each commit's repetitions, FDR-controlled.

    The false discovery rate is controlled over benchmarks x commits; recent changes are pending.

    Each commit's level is the 20% trimmed mean of the logs of its runs (or forks); its noise comes
    from the runs and from the commit-to-commit variation (AR(1)). See docs/methods/history.md.
    """

    name: ClassVar[str] = "change-scan"
    fdr: float = pr.float_param(0.05, minimum=0.0, maximum=1.0, strict=True,
                                help="false discovery rate over every benchmark and commit tested")
    confidence: float = pr.confidence_param(0.95, help="level of a change's range of commits and of its "
                                                      "speedup's interval")
    min_size: int = pr.int_param(3, minimum=1, help="commits that must follow a change to confirm it (fewer: "
                                                    "pending)")
    robust: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool),
                               metadata={"help": "damp single-commit spikes before the search", "type": "bool"})
    dependence: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool),
                                   metadata={"help": "model serial dependence between commits (AR(1))",
                                             "type": "bool"})
    random_state: Any = pr.random_state_param(0, help="seed of the bootstrap of the changes' ranges")

    def detect(self, history: Any, executor: Any = None) -> HistoryResult:
        """The changes of every benchmark of ``history``; ``executor`` (a concurrent.futures executor,
        e.g. a process pool or dask's ``client.get_executor()``) spreads the benchmarks over workers,
        with the same result."""
        h = pr.as_history(history)
        args = (self.robust, self.dependence, self.min_size, self.fdr)
        items = list(h.benchmarks.items())
        if executor is None:
            done = analyse(items, *args)
        else:
            futures = [executor.submit(analyse, batch, *args) for batch in _batches(items, executor)]
            done = [row for f in futures for row in f.result()]
        fits: dict[str, Levels] = {}
        tests: list[Test] = []
        for name, lv, found in done:
            fits[name] = lv
            tests += [attrs.evolve(t, parent=None if t.parent is None else t.parent + len(tests)) for t in found]
        q = bh_adjust(np.array([t.pvalue for t in tests]))
        kept: list[bool] = []
        for t, qi in zip(tests, q, strict=True):
            kept.append(bool(qi <= self.fdr) and (t.parent is None or kept[t.parent]))
        changes, tails, fit_out = [], [], {}
        for name, lv in fits.items():
            mine = [(t, float(qi)) for t, qi, k in zip(tests, q, kept, strict=True) if k and t.benchmark == name]
            splits = sorted(t.split for t, _ in mine)
            qv = {t.split: (t.pvalue, qi) for t, qi in mine}
            if splits and _recent(lv, splits, self.min_size):
                qv.pop(splits.pop())  # the last change is nearer the end than min_size allows: pending
            b = h.benchmarks[name]
            found = self._changes(h, name, lv, splits, qv, b.lower_is_better)
            changes += found
            tail = _pending(h, name, lv, splits, self.min_size, b.lower_is_better)
            if tail is not None:
                tails.append(tail)
            fit_out[name] = _fit(name, lv, splits, b)
        # the last commits of every benchmark tested: the same false discovery rate over them
        q_tail = bh_adjust(np.array([t.pvalue for t in tails]))
        pending = [t for t, qi in zip(tails, q_tail, strict=True) if qi <= self.fdr]
        return HistoryResult(changes=tuple(changes), pending=tuple(pending), fits=fit_out, commits=h.commits,
                             detector=self.name, method="binary segmentation, scan p-values, Benjamini-Hochberg",
                             confidence=self.confidence, fdr=self.fdr, tested=len(tests))

    def _changes(self, h: pr.History, name: str, lv: Levels, splits: list[int],
                 qv: dict[int, tuple[float, float]], lower: bool) -> list[Change]:
        from scipy import stats

        z = float(stats.norm.ppf(0.5 + self.confidence / 2))
        bounds = [0, *splits, lv.level.size]
        cost = cp.MeanCost.of(lv.level, lv.weights, lv.inflation)
        out = []
        for i, k in enumerate(splits):
            lo, hi = bounds[i], bounds[i + 2]
            first, last = _location_set(lv, lo, k, hi, self.min_size, self.confidence,
                                        _seed(self.random_state, name, int(lv.commits[k])))
            before, after = cost.mean(lo, k), cost.mean(k, hi)
            se = math.sqrt(lv.inflation * (1 / cost.weight(lo, k) + 1 / cost.weight(k, hi)))
            diff = after - before  # log(after / before)
            sign = -1.0 if lower else 1.0
            speed = [math.exp(sign * (diff + t * z * se)) for t in (0.0, -1.0, 1.0)]
            p, q = qv[k]
            c = int(lv.commits[k])
            out.append(Change(benchmark=name, commit=h.commits[c], index=c, first=h.commits[int(lv.commits[first])],
                              last=h.commits[int(lv.commits[last])], first_index=int(lv.commits[first]),
                              last_index=int(lv.commits[last]), speedup=speed[0], ci_low=min(speed[1:]),
                              ci_high=max(speed[1:]), confidence=self.confidence, pvalue=p, qvalue=q,
                              before=math.exp(before), after=math.exp(after)))
        return out


def _recent(lv: Levels, splits: list[int], min_size: int) -> bool:
    """Whether the last change, placed freely between the change before it and the end, falls among
    the last ``min_size - 1`` commits: the search had to keep ``min_size`` commits after it, so it
    put it early; it is a change of the last commits, not yet confirmed (pending)."""
    lo = splits[-2] if len(splits) > 1 else 0
    cost = cp.MeanCost.of(lv.level, lv.weights, lv.inflation)
    pos, gain = cp.split_gains(cost, lo, cost.n, 1)
    return bool(pos.size) and cost.n - int(pos[int(np.argmax(gain))]) < min_size


def _seed(random_state: Any, name: str, commit: int) -> np.random.Generator:
    """A generator for one change, the same whatever else the history holds (stable when appended)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng([0 if random_state is None else int(random_state), zlib.crc32(name.encode()),
                                  commit])


def _location_set(lv: Levels, lo: int, k: int, hi: int, min_size: int, confidence: float,
                  rng: np.random.Generator) -> tuple[int, int]:
    """The range of positions (among the benchmark's commits) where the first commit after the change
    may be, at ``confidence``: quantiles of the bootstrap estimates' offset from ``k`` (parametric
    bootstrap of the two levels with the fitted noise, AR(1) between commits)."""
    if hi - lo < 2 * min_size:
        return k, k
    # the location is uncertain over about variance / step^2 commits: bootstrap a window of 20 times
    # that (at least 25 commits) around k, not the whole segment pair
    whole = cp.MeanCost.of(lv.level[lo:hi], lv.weights[lo:hi], lv.inflation)
    step = whole.mean(k - lo, hi - lo) - whole.mean(0, k - lo)
    spread = float(np.mean(lv.variance[lo:hi])) * lv.inflation / max(step * step, 1e-300)
    reach = int(min(hi - lo, max(25, math.ceil(20 * spread))))
    lo, hi = max(lo, k - reach), min(hi, k + reach)
    m = hi - lo
    w = lv.weights[lo:hi]
    cost = cp.MeanCost.of(lv.level[lo:hi], w, lv.inflation)
    mu = np.where(np.arange(m) < k - lo, cost.mean(0, k - lo), cost.mean(k - lo, m))
    within = np.maximum(lv.variance[lo:hi] - lv.between, 0.0)
    from scipy import signal

    e = rng.standard_normal((N_BOOT, m))
    b = rng.standard_normal((N_BOOT, m)) * math.sqrt(lv.between * (1 - lv.phi ** 2))
    if lv.between > 0 and lv.phi > 0:  # AR(1) between commits, started stationary
        b[:, 0] = b[:, 0] / math.sqrt(1 - lv.phi ** 2)
        b = signal.lfilter([1.0], [1.0, -lv.phi], b, axis=1)
    y = mu + b + e * np.sqrt(within)
    # every replicate's best split, vectorised: weighted CUSUM gain at every position
    cw = np.cumsum(w)
    cwy = np.cumsum(w * y, axis=1)
    pos = np.arange(min_size, m - min_size + 1)
    wl, wr = cw[pos - 1], cw[-1] - cw[pos - 1]
    ml = cwy[:, pos - 1] / wl
    mr = (cwy[:, -1:] - cwy[:, pos - 1]) / wr
    gain = wl * wr / (wl + wr) * (ml - mr) ** 2
    offset = pos[np.argmax(gain, axis=1)] - (k - lo)
    alpha = 1.0 - confidence
    a, b_ = np.quantile(offset, [alpha / 2, 1 - alpha / 2], method="inverted_cdf")
    return int(max(lo + 1, k + a)), int(min(hi - 1, k + b_))


def _pending(h: pr.History, name: str, lv: Levels, splits: list[int], min_size: int, lower: bool) -> Pending | None:
    """The last commits (fewer than ``min_size``) against the level since the last change: the most
    significant of those tests (Bonferroni over them); None when nothing can be tested."""
    from scipy import stats

    n = lv.level.size
    start = splits[-1] if splits else 0
    if min_size < 2 or n - start < min_size + 1:
        return None
    cost = cp.MeanCost.of(lv.raw, lv.weights, lv.inflation)  # the last commits undamped: a spike may start
    best = None
    tries = min_size - 1
    for j in range(1, tries + 1):
        cut = n - j
        if cut - start < min_size:
            break
        diff = cost.mean(cut, n) - cost.mean(start, cut)
        se = math.sqrt(lv.inflation * (1 / cost.weight(start, cut) + 1 / cost.weight(cut, n)))
        p = min(1.0, tries * 2 * float(stats.norm.sf(abs(diff) / se)))
        if best is None or p < best[0]:
            best = (p, cut, diff)
    if best is None:
        return None
    p, cut, diff = best
    c = int(lv.commits[cut])
    return Pending(benchmark=name, commit=h.commits[c], index=c, commits=n - cut,
                   speedup=math.exp(-diff if lower else diff), pvalue=p)


def _fit(name: str, lv: Levels, splits: list[int], b: pr.BenchmarkHistory) -> Fit:
    """What the plots draw: per commit the level (geometric mean) and the units' spread, the segments."""
    bounds = [0, *splits, lv.level.size]
    cost = cp.MeanCost.of(lv.level, lv.weights, lv.inflation)
    segs = tuple((int(lv.commits[a]), int(lv.commits[e - 1]) + 1, math.exp(cost.mean(a, e)))
                 for a, e in zip(bounds[:-1], bounds[1:], strict=True))
    centre = np.exp(lv.raw)
    return Fit(benchmark=name, commits=tuple(int(c) for c in lv.commits), centre=tuple(centre.tolist()),
               low=tuple(np.exp(lv.raw - lv.spread).tolist()), high=tuple(np.exp(lv.raw + lv.spread).tolist()),
               segments=segs, unit=b.unit, lower_is_better=b.lower_is_better, noise=lv.noise(),
               damped=tuple(int(lv.commits[i]) for i in lv.damped))
