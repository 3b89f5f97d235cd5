"""The ``e-divisive`` detector: E-divisive with means (Matteson & James 2014) as MongoDB's
``signal-processing-algorithms`` codes it, seeded so that it answers the same every time.

Over one level per commit (the mean of its values, as the anchors take one number per point):
the energy statistic ``q(tau) = tau (m - tau) / m * (2 mean|X - Y| - mean|X - X'| - mean|Y - Y'|)``
(means over all pairs, the zero diagonal included, as theirs) is maximised over the split ``tau`` of
every segment between the change points found so far; the best split is kept when a permutation
test (``permutations`` shuffles within each segment; p = count(max permuted q >= q) /
(permutations + 1)) gives ``p <= pvalue``, and the search repeats. No false discovery rate and no
range of commits: the anchor has neither (the ``change-scan`` detector does). The speedup and its
interval come from the same noise model as the ``change-scan`` detector's.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr
from perfrigor import changepoints as cp

from .detector import _fit
from .noise import levels
from .results import Change, HistoryResult


def energy_statistics(distances: np.ndarray) -> np.ndarray:
    """``q(tau)`` for every split ``tau`` in ``0..m-1`` of a segment from its distance matrix
    (vectorised: pair sums within the prefix and suffix from row sums; O(m^2))."""
    m = distances.shape[0]
    upper = np.triu(distances, 1)
    below = upper.sum(axis=0)  # sum over i < j of D[i, j], per j
    above = upper.sum(axis=1)  # sum over j > i of D[i, j], per i
    tau = np.arange(m)
    x = np.concatenate(([0.0], np.cumsum(below)))[tau]  # pairs within the first tau points
    y = np.concatenate((np.cumsum(above[::-1])[::-1], [0.0]))[tau]  # pairs within the rest
    xy = upper.sum() - x - y
    n1, n2 = tau.astype(float), (m - tau).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = (2 * np.where(n1 * n2 > 0, xy / (n1 * n2), 0.0) - np.where(n1 > 0, 2 * x / n1 ** 2, 0.0)
             - np.where(n2 > 0, 2 * y / n2 ** 2, 0.0))
        return np.where(m > 0, n1 * n2 / m * e, 0.0)


def e_divisive(series: Any, pvalue: float = 0.05, permutations: int = 100, random_state: Any = None
               ) -> list[int]:
    """Change points (segment starts) in the order found, as MongoDB's ``e_divisive`` returns them."""
    x = np.asarray(series, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    distances = np.linalg.norm(x[:, None, :] - x[None, :, :], axis=2)
    rng = pr.check_random_state(random_state)
    found: list[int] = []
    memo: dict[tuple[int, int], tuple[int, float]] = {}
    while True:
        bounds = [0, *sorted(found), len(distances)]
        windows = list(zip(bounds[:-1], bounds[1:], strict=True))
        for w in windows:
            if w not in memo:
                stats = energy_statistics(distances[w[0]:w[1], w[0]:w[1]])
                i = int(np.argmax(stats)) if stats.size else 0
                memo[w] = (w[0] + i, float(stats[i]) if stats.size else 0.0)
        best = max((memo[w] for w in windows), key=lambda c: c[1])
        better = 0
        for _ in range(permutations):
            top = -np.inf
            for a, b in windows:
                idx = a + rng.permutation(b - a)
                stats = energy_statistics(distances[np.ix_(idx, idx)])
                top = max(top, float(stats.max()) if stats.size else 0.0)
            better += top >= best[1]
        if better / (permutations + 1) > pvalue or best[0] == 0 or best[0] in found:
            return found
        found.append(best[0])


@attrs.define(repr=False)
class EDivisive(pr.Detector):
    """E-divisive means with a permutation test (Matteson & James 2014; MongoDB's anchor), seeded.

    One level per commit (the mean of its runs); no false discovery rate control and no range of
    commits, as the anchor; prefer ``change-scan``, which uses the repetitions.
    """

    name: ClassVar[str] = "e-divisive"
    pvalue: float = pr.float_param(0.05, minimum=0.0, maximum=1.0, strict=True,
                                   help="level of each permutation test")
    permutations: int = pr.int_param(100, minimum=1, help="permutations per test")
    confidence: float = pr.confidence_param(0.95, help="level of the speedups' intervals")
    random_state: Any = pr.random_state_param(0, help="seed of the permutations")

    def detect(self, history: Any) -> HistoryResult:
        from scipy import stats

        h = pr.as_history(history)
        rng = pr.check_random_state(self.random_state)
        z = float(stats.norm.ppf(0.5 + self.confidence / 2))
        changes, fits = [], {}
        for name, b in h.benchmarks.items():
            commit_idx, inverse = np.unique(b.commit, return_inverse=True)
            means = np.bincount(inverse, weights=b.values) / np.bincount(inverse)
            lv = levels(b, robust=False)
            splits = sorted(e_divisive(means, self.pvalue, self.permutations, rng))
            pvals = _pvalues(means, splits)
            bounds = [0, *splits, means.size]
            cost = cp.MeanCost.of(lv.level, lv.weights, lv.inflation)
            for i, k in enumerate(splits):
                lo, hi = bounds[i], bounds[i + 2]
                before, after = cost.mean(lo, k), cost.mean(k, hi)
                se = math.sqrt(lv.inflation * (1 / cost.weight(lo, k) + 1 / cost.weight(k, hi)))
                sign = -1.0 if b.lower_is_better else 1.0
                speed = [math.exp(sign * (after - before + t * z * se)) for t in (0.0, -1.0, 1.0)]
                c = int(commit_idx[k])
                changes.append(Change(benchmark=name, commit=h.commits[c], index=c, first=h.commits[c],
                                      last=h.commits[c], first_index=c, last_index=c, speedup=speed[0],
                                      ci_low=min(speed[1:]), ci_high=max(speed[1:]), confidence=self.confidence,
                                      pvalue=pvals[i], before=math.exp(before), after=math.exp(after)))
            fits[name] = _fit(name, lv, splits, b)
        return HistoryResult(changes=tuple(changes), fits=fits, commits=h.commits, detector=self.name,
                             method=f"E-divisive means, permutation test ({self.permutations} permutations, "
                                    f"p <= {self.pvalue:g})", confidence=self.confidence)


def _pvalues(means: np.ndarray, splits: list[int]) -> list[float]:
    """Each change's Welch t-test p-value between its neighbouring segments (Otava's per-candidate
    test), to report with the change; the permutation test decided it."""
    from scipy import stats

    bounds = [0, *splits, means.size]
    out = []
    for i in range(len(splits)):
        a, b = means[bounds[i]:bounds[i + 1]], means[bounds[i + 1]:bounds[i + 2]]
        if a.size < 2 or b.size < 2 or (np.ptp(a) == 0 and np.ptp(b) == 0):
            out.append(0.0 if a.mean() != b.mean() else 1.0)
        else:
            out.append(float(stats.ttest_ind(a, b, equal_var=False).pvalue))
    return out
