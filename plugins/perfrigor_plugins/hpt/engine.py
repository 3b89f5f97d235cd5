"""The HPT procedure on a whole suite: one speedup-under-test, and the r-Speedup search.

Benchmarks with similar run counts (the same powers of two) form a group whose level-1
tests run as one array operation, shorter rows padded with values that never count. The r-Speedup search (Algorithm 1: gamma = 1.00, 1.01, ... until the confidence
drops below r) never re-ranks the runs per step: the candidate's U statistic only falls
as gamma grows, so each benchmark's level-1 outcome over the whole grid is given by two
grid indices (where the candidate stops winning, where the baseline starts), found by a
bisection run for all benchmarks at once. Level 2 is then evaluated for a block of grid
points at a time (a 2-D rank), stopping at the first failure.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np

from . import levels
from .scores import Scores

CANDIDATE, TIE, BASELINE = 1, 0, -1


@attrs.frozen
class Group:
    """Benchmarks processed together: positions in suite order, padded score matrices, and
    per row the run counts and the level-1 significance (1 - benchmark confidence)."""

    index: np.ndarray
    candidate: np.ndarray  # (k, max m_c), padded with -inf
    baseline: np.ndarray  # (k, max m_b), padded with +inf
    m_c: np.ndarray
    m_b: np.ndarray
    alpha: np.ndarray
    # the real extremes of each row, which bound where level 1 can still change
    candidate_range: tuple[np.ndarray, np.ndarray]
    baseline_range: tuple[np.ndarray, np.ndarray]

    def take(self, rows: np.ndarray) -> Group:
        """The group's rows ``rows`` (repeats allowed)."""
        return Group(*(x[rows] for x in (self.index, self.candidate, self.baseline, self.m_c, self.m_b, self.alpha)),
                     tuple(x[rows] for x in self.candidate_range), tuple(x[rows] for x in self.baseline_range))


def _padded(rows: list[np.ndarray], fill: float) -> np.ndarray:
    out = np.full((len(rows), max(r.size for r in rows)), fill)
    for i, r in enumerate(rows):
        out[i, :r.size] = r
    return out


def _bucket(size: int) -> int:
    return 1 << max(int(size) - 1, 0).bit_length()


@attrs.frozen
class Evaluation:
    """Both levels at one speedup-under-test."""

    gamma: float
    u: np.ndarray  # candidate's Mann-Whitney U per benchmark (rank sum = U + m(m+1)/2)
    pvalue_candidate: np.ndarray
    pvalue_baseline: np.ndarray
    winner: np.ndarray  # CANDIDATE, TIE or BASELINE
    d: np.ndarray
    ranks: np.ndarray
    r_a: float
    r_b: float
    pvalue: float

    @property
    def confidence(self) -> float:
        return 1.0 - self.pvalue


class Engine:
    """HPT on prepared scores, for any speedup-under-test."""

    def __init__(self, scores: Scores, benchmark_confidence: float | None = None, rule: str = "p-value") -> None:
        self.scores = scores
        self.rule = rule
        self.n = len(scores)
        self.m_c = np.array([c.size for c in scores.candidate])
        self.m_b = np.array([b.size for b in scores.baseline])
        self.alpha = 1.0 - (np.full(self.n, benchmark_confidence) if benchmark_confidence
                            else np.where(np.minimum(self.m_c, self.m_b) >= 5, 0.95, 0.90))
        self.med_candidate, self.med_baseline = np.empty(self.n), np.empty(self.n)
        buckets: dict[tuple[int, int], list[int]] = {}
        for i, (m_c, m_b) in enumerate(zip(self.m_c, self.m_b, strict=True)):
            buckets.setdefault((_bucket(m_c), _bucket(m_b)), []).append(i)
        self.groups = []
        for idx in map(np.array, buckets.values()):
            cand = [scores.candidate[i] for i in idx]
            base = [scores.baseline[i] for i in idx]
            self.med_candidate[idx] = np.nanmedian(_padded(cand, np.nan), axis=1)
            self.med_baseline[idx] = np.nanmedian(_padded(base, np.nan), axis=1)
            self.groups.append(Group(
                idx, _padded(cand, -np.inf), _padded(base, np.inf), self.m_c[idx], self.m_b[idx], self.alpha[idx],
                (np.array([c.min() for c in cand]), np.array([c.max() for c in cand])),
                (np.array([b.min() for b in base]), np.array([b.max() for b in base]))))

    def gm_speedup(self) -> float:
        """The geometric-mean speedup the paper criticises (SPEC practice: median run, GM across benchmarks)."""
        return float(np.exp(np.mean(np.log(self.med_candidate / self.med_baseline))))

    # ------------------------------------------------------------ one speedup-under-test
    def _level1(self, group: Group, gamma: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        u = levels.candidate_u(group.candidate, group.baseline, gamma)
        p_c, p_b = levels.level1_pvalues(u, group.m_c, group.m_b, self.rule)
        return u, p_c, p_b

    def _level2(self, winner: np.ndarray, gamma: np.ndarray) -> tuple:
        """Level 2 for rows of winners (s, n) at gammas (s,): d, R_A, R_B, p."""
        d = np.where(winner != TIE, self.med_candidate / gamma[:, None] - self.med_baseline, 0.0)
        r_a, r_b = levels.signed_rank_sums(d)
        return d, r_a, r_b, levels.level2_pvalue(r_b, self.n, self.rule)

    def evaluate(self, gamma: float) -> Evaluation:
        """Both levels with the candidate's scores divided by ``gamma``."""
        gamma = float(gamma)
        u, p_c, p_b = (np.empty(self.n) for _ in range(3))
        winner = np.zeros(self.n, dtype=int)
        for g in self.groups:
            gu, gp_c, gp_b = self._level1(g, np.full(g.index.size, gamma))
            u[g.index], p_c[g.index], p_b[g.index] = gu, gp_c, gp_b
            winner[g.index] = np.where(gp_c <= g.alpha + levels.EPS, CANDIDATE,
                                       np.where(gp_b <= g.alpha + levels.EPS, BASELINE, TIE))
        d, r_a, r_b, p = self._level2(winner[None, :], np.array([gamma]))
        return Evaluation(gamma, u, p_c, p_b, winner, d[0], levels.midranks(np.abs(d[0])), float(r_a[0]),
                          float(r_b[0]), float(p[0]))

    # ------------------------------------------------------------ the r-Speedup search
    def r_speedup(self, confidence: float, max_speedup: float) -> tuple[float | None, bool]:
        """The paper's r-Speedup (Algorithm 1): the last gamma = 1.00, 1.01, ... before the
        confidence first drops below ``confidence``; None when gamma = 1 already fails. Also
        whether the search stopped at ``max_speedup`` with every step passing."""
        gammas = np.arange(100, int(round(100 * max_speedup)) + 1) / 100
        first_fail = self._first(gammas, confidence, passing=False)
        if first_fail is None:
            return float(gammas[-1]), True
        return (None if first_fail == 0 else float(gammas[first_fail - 1])), False

    def speedup_below_one(self, confidence: float) -> float | None:
        """When gamma = 1 fails, the same claim for a slower candidate: the largest gamma = 0.99,
        0.98, ..., 0.01 whose confidence reaches ``confidence`` (None if none does)."""
        gammas = np.arange(99, 0, -1) / 100
        first_pass = self._first(gammas, confidence, passing=True)
        return None if first_pass is None else float(gammas[first_pass])

    def _first(self, gammas: np.ndarray, confidence: float, passing: bool) -> int | None:
        """The first index of the monotone grid ``gammas`` where level 2 passes (``passing``) or
        fails, scanning blocks of grid points in order; None when no grid point does."""
        winners = self._grid_winners(gammas)
        alpha = 1.0 - confidence + levels.EPS
        q0, block = 0, 32
        while q0 < gammas.size:
            q = np.arange(q0, min(q0 + block, gammas.size))
            *_, p = self._level2(winners(q), gammas[q])
            hit = np.flatnonzero((p <= alpha) == passing)
            if hit.size:
                return int(q[hit[0]])
            q0, block = q0 + block, min(2 * block, 1024)
        return None

    def _grid_winners(self, gammas: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """Level 1 on a whole monotone grid of speedups, from two indices per benchmark.

        Dividing the candidate by a growing gamma can only lower its U, so each benchmark's
        candidate-wins and baseline-wins sets are a prefix and a suffix of an increasing grid
        (the reverse on a decreasing one); their ends are found by bisection.
        """
        rising = bool(gammas[-1] >= gammas[0])
        first_c, first_b = np.empty(self.n, dtype=int), np.empty(self.n, dtype=int)
        for g in self.groups:
            first_c[g.index], first_b[g.index] = self._group_flips(g, gammas, rising)
        if rising:  # the candidate wins until first_c, the baseline from first_b on
            return lambda q: np.where(q[:, None] < first_c, CANDIDATE, np.where(q[:, None] >= first_b, BASELINE, TIE))
        return lambda q: np.where(q[:, None] >= first_c, CANDIDATE, np.where(q[:, None] < first_b, BASELINE, TIE))

    def _group_flips(self, g: Group, gammas: np.ndarray, rising: bool) -> tuple[np.ndarray, np.ndarray]:
        """Per benchmark, the first grid index where the candidate's and where the baseline's
        level-1 outcome changes (len(gammas): never)."""
        k, top = g.index.size, gammas.size - 1
        alpha = g.alpha + levels.EPS
        # past the largest (smallest) ratio candidate/baseline, U is 0 (m_c m_b): nothing changes
        if rising:
            edge = g.candidate_range[1] / g.baseline_range[0] * (1 + 1e-8)
            last = np.searchsorted(gammas, edge, side="right")
        else:
            edge = g.candidate_range[0] / g.baseline_range[1] * (1 - 1e-8)
            last = np.searchsorted(-gammas, -edge, side="right")
        last = np.concatenate([np.minimum(last, top)] * 2)
        # searches 0..k-1 follow the candidate's outcome, k..2k-1 the baseline's
        rows_of = np.concatenate([np.arange(k)] * 2)

        def flips(q: np.ndarray, searches: np.ndarray) -> np.ndarray:
            rows = rows_of[searches]
            _, p_c, p_b = self._level1(g.take(rows), gammas[q])
            for_candidate = searches < k
            wins = np.where(for_candidate, p_c, p_b) <= alpha[rows]
            return wins ^ (for_candidate == rising)  # rising: has the candidate stopped / the baseline started?

        both = _first_true(flips, last)
        both = np.where(both > last, top + 1, both)
        return both[:k], both[k:]


def _first_true(pred: Callable[[np.ndarray, np.ndarray], np.ndarray], last: np.ndarray) -> np.ndarray:
    """Vectorised bisection: per search, the smallest q in [0, last] where the monotone predicate
    (False..False True..True) holds, or last + 1 when it never does. ``pred(q, searches)`` is
    asked only about the searches still open."""
    lo = np.zeros_like(last)
    hi = last + 1
    while True:
        open_ = np.flatnonzero(lo < hi)
        if not open_.size:
            return lo
        mid = (lo[open_] + hi[open_]) // 2
        ok = pred(mid, open_)
        hi[open_] = np.where(ok, mid, hi[open_])
        lo[open_] = np.where(ok, lo[open_], mid + 1)
