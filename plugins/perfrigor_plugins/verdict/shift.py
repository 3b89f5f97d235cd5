"""``location-shift``: the typical run of the candidate against the baseline's, the verdict's default.

On log values (a speedup is a ratio), the test chosen by the runs' tails (Hogg's adaptive
test: the choice reads the shapes of the two samples, each centred on its own median and
scaled by its own spread, never the shift between them, so it keeps the level):

- tails no heavier than a normal's (Hogg's tail weight Q <= 3; a normal's is 2.6, a uniform's
  1.9, Student's t3 3.3): **the means of log values** (Welch; the ratio of geometric means),
  the most powerful test there, and valid when the systems differ in spread and run count;
  a periodic disturbance (bounded, light tails) lands here;
- heavier tails (outliers, t3): **the Hodges-Lehmann shift**, tested by a studentised rank
  test (``pr.stats.studentized_rank_shift``: valid for unequal spreads and run counts, unlike
  the Wilcoxon interval) and Yuen's 10%-trimmed means together (Simes): ranks are the more
  powerful near no change, trimmed means where the systems barely overlap and the rank
  statistic saturates (:func:`ranks_and_magnitudes`);
- so few runs that no rank test can reach the level (3 per side at 95%): the means of logs.

A coarse timer (values on a grid: :func:`grid_of`) widens the rank interval by half a step either
way (the means add the rounding variance), and by half a step more for a system whose readings all
coincide (one rounding error shared by all of them). The verdict calls :func:`shift` with the long-run variance
factors of serially dependent runs; the component gives the answer for independent runs.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .rules import interval_from_shift, speedup_from_shift

#: share Yuen's means trim from each end: rare outliers out, 8 of 10 runs kept
TRIM = 0.1


def resolution(values: np.ndarray) -> float | None:
    """The grid step of quantised values relative to their median, when the timer's resolution shows.

    Values are quantised when they take few distinct values (at most half the runs) all on a
    common step; the step matters when it is above 0.1% of the values.
    """
    distinct = np.unique(values)
    if distinct.size < 2 or distinct.size > values.size // 2:
        return None
    step = _common_step(distinct)
    rel = 0.0 if step is None else step / float(np.median(values))
    return rel if rel > 1e-3 else None


def _common_step(distinct: np.ndarray) -> float | None:
    """The step all of several distinct readings (sorted) sit on, their smallest gap; None where they do not."""
    step = float(np.diff(distinct).min())
    units = (distinct - distinct[0]) / step
    return step if np.allclose(units, np.round(units), rtol=0.0, atol=1e-6) else None


def _smallest_gap(values: np.ndarray) -> float | None:
    """The smallest difference between a system's distinct readings (None: they are all one value)."""
    distinct = np.unique(values)
    return float(np.diff(distinct).min()) if distinct.size > 1 else None


def _own_grid(values: np.ndarray) -> float | None:
    """One system's grid step relative to its smallest reading, from its readings alone: repeated readings (a tie)
    all on a common step, at least 3 of them. Continuous readings almost never tie; a handful of readings of a
    coarse timer nearly always do, but rarely take as few distinct values as half of them."""
    distinct = np.unique(values)
    if values.size < 3 or distinct.size < 2 or distinct.size == values.size:
        return None
    step = _common_step(distinct)
    rel = 0.0 if step is None else step / float(distinct[0])  # at its smallest reading: half a step there is the most
    return rel if rel > 1e-3 else None


def grid_of(x: np.ndarray, y: np.ndarray) -> float | None:
    """The timer's grid step relative to the values, when the systems' readings show one: their common grid
    (:func:`resolution`) where one system's own readings are that far apart somewhere (the timer's step), else
    the coarser of the grids each system's readings show on their own. A reading is known to half a step of
    its own system's grid, which a common grid can understate: readings normalised per operation (a time per
    call from a batch of calls) sit on a rescaled grid of their own, and two grids a hundredth of a step apart
    interleave into a common one a hundred times too fine."""
    both = np.concatenate([x, y])
    pooled = resolution(both)
    if pooled is not None:
        step = pooled * float(np.median(both))
        if any(g is not None and math.isclose(g, step, rel_tol=1e-6) for g in map(_smallest_gap, (x, y))):
            return pooled
    own = [g for g in (_own_grid(x), _own_grid(y)) if g is not None]
    return max(own) if own else pooled


#: Hogg's tail weight up to which the means of logs are compared (a normal's is 2.6, Student's t3 3.3)
LIGHT_TAILS = 3.0


def tail_weight(x: np.ndarray, y: np.ndarray) -> float:
    """Hogg's (1974) Q of both samples, each centred on its median and scaled by its median absolute deviation:
    (mean of the top 5% - mean of the bottom 5%) / (mean of the top half - mean of the bottom half).
    Location-free: it reads the shapes, not the shift between the samples."""
    parts = []
    for v in (x, y):
        centre = _median(v)
        spread = _median(np.abs(v - centre))
        parts.append((v - centre) / (spread if spread > 0 else 1.0))
    e = np.sort(np.concatenate(parts))
    tail, half = max(1, round(0.05 * e.size)), e.size // 2
    inner = e[-half:].mean() - e[:half].mean()
    return float((e[-tail:].mean() - e[:tail].mean()) / inner) if inner > 0 else math.inf


def _median(v: np.ndarray) -> float:
    """``float(np.median(v))`` of finite values, the same number (the middle value, or the two middle ones' sum
    halved, summed from +0.0 as numpy does), from one partition without np.median's checks: the tail weight asks for four a comparison."""
    half = v.size // 2
    if v.size % 2:
        return 0.0 + float(np.partition(v, half)[half])  # numpy's sums start from +0.0: a -0.0 middle gives 0.0
    part = np.partition(v, (half - 1, half))
    return (0.0 + float(part[half - 1]) + float(part[half])) / 2


def too_few_for_ranks(m: int, n: int, confidence: float) -> bool:
    """No rank test reaches ``confidence`` with m and n runs: its smallest two-sided p-value 2 / C(m + n, m) is larger."""
    log_comb = math.lgamma(m + n + 1) - math.lgamma(m + 1) - math.lgamma(n + 1)
    return math.log(2.0) - log_comb > math.log(1.0 - confidence)


def shift(old: pr.Sample, new: pr.Sample, confidence: float, taus: tuple[float, float] = (1.0, 1.0),
          precision: float = 0.0, statistic: str = "auto", df_taus: tuple[float, float] | None = None
          ) -> pr.ShiftComparison:
    """The typical run's speedup with its interval and p-value (dual: p < 1 - confidence exactly when the
    interval excludes 1); ``taus``: long-run variance factors of the two series, ``precision`` their
    relative variance as estimated (see ``pr.stats.studentized_rank_shift``); ``statistic``: "auto" (the
    choice of the module docstring), or the one a recomputation at another level keeps ("median",
    "geometric mean"), so that the answers at all levels are one family of intervals; ``df_taus``: what each
    side's runs are divided by for the degrees of freedom of its variance (default ``taus``; over a suite,
    Bartlett's factor: :func:`.suite_control.bartlett_factor`)."""
    raw_x, raw_y = old.flat, new.flat
    x, y = np.log(raw_x), np.log(raw_y)
    grid = grid_of(raw_x, raw_y)
    step = math.log1p(grid / 2) if grid else 0.0
    if statistic == "auto" and (too_few_for_ranks(x.size, y.size, confidence) or tail_weight(x, y) <= LIGHT_TAILS):
        statistic = "geometric mean"
    if statistic == "geometric mean":
        def test(a: np.ndarray) -> pr.stats.ShiftResult:
            return pr.stats.yuen_shift(a, y, confidence, inflation=taus, trim=0.0, rounding=grid or 0.0,
                                       inflation_precision=precision, df_inflation=df_taus)
        # the rounding variance (Sheppard's) assumes the readings' rounding errors independent, as they are where
        # the noise spans ticks; a system whose readings all coincide keeps its one rounding error: half a step more
        res = _widened(test(x), step * _coinciding(x, y), test, x)
    elif step:  # a coarse timer: the ranks alone, which know nothing of the grid: half a step, and as above
        def test(a: np.ndarray) -> pr.stats.ShiftResult:
            return pr.stats.studentized_rank_shift(a, y, confidence, inflation=taus, inflation_precision=precision,
                                                   df_inflation=df_taus)
        res, statistic = _widened(test(x), step * (1 + _coinciding(x, y)), test, x), "median"
    else:
        res, statistic = ranks_and_magnitudes(x, y, confidence, taus, precision, df_taus), "median"
    lib = old.lower_is_better
    low, high = interval_from_shift(res.ci_low, res.ci_high, lib)
    speedup = speedup_from_shift(res.estimate, lib)
    significant = None if low is None else bool(low > 1.0 or high < 1.0)
    if low is None:
        text = f"typical run speedup {speedup:.4g}: no {confidence:.0%} interval from these runs"
    else:
        text = (f"typical run speedup {speedup:.4g} ({confidence:.0%} CI {low:.4g} to {high:.4g}), "
                f"{'significant' if significant else 'not significant'} (p = {res.pvalue:.2g})")
    return pr.ShiftComparison(
        estimate=speedup, ci_low=low, ci_high=high, confidence=confidence, pvalue=res.pvalue,
        significant=significant, verdict=text, statistic=statistic,
        baseline_center=_centre(raw_x, statistic), candidate_center=_centre(raw_y, statistic), df=res.df,
        method=res.method, details={"taus": list(taus), "grid": grid})


def _coinciding(x: np.ndarray, y: np.ndarray) -> int:
    """How many of the two systems have readings that all coincide (one value: on a timer's grid, noise below
    a tick, whose rounding error is one error shared by every reading rather than one per reading)."""
    return sum(int(v.size > 1 and np.ptp(v) == 0.0) for v in (x, y))


def _widened(res: pr.stats.ShiftResult, by: float, test: Any, x: np.ndarray) -> pr.stats.ShiftResult:
    """``res``'s interval widened by ``by`` either way (what the rounding to a timer's grid may have moved the
    estimate by), and the p-value of the widened interval: ``test`` of a shift of ``by`` toward the estimate
    (the interval moves with it)."""
    if not by or res.ci_low is None:
        return res
    moved = test(x - math.copysign(by, res.estimate))
    return attrs.evolve(res, ci_low=res.ci_low - by, ci_high=res.ci_high + by,
                        pvalue=moved.pvalue if abs(res.estimate) > by else 1.0)


def ranks_and_magnitudes(x: np.ndarray, y: np.ndarray, confidence: float, taus: tuple[float, float],
                         precision: float, df_taus: tuple[float, float] | None = None) -> pr.stats.ShiftResult:
    """The Hodges-Lehmann shift, tested by the studentised rank test and Yuen's 10%-trimmed means together.

    Both are robust to heavy tails; ranks are the more powerful near no change, trimmed means
    where the systems barely overlap (the rank statistic saturates: at 10 runs a side its
    p-value cannot go much below 1e-3, which a suite of 100 benchmarks needs). Simes' combination
    p = min(2 min(p_r, p_t), max(p_r, p_t)) keeps the level (the two tests are positively
    dependent) and costs nothing where they agree; its interval is the exact dual: the shifts
    neither test rejects at half the level, and one of them does not reject at the level,
    (I_r' ∩ I_t') ∩ (I_r ∪ I_t), the primes at 1 - alpha/2.
    """
    alpha = 1.0 - confidence
    half = 1.0 - alpha / 2.0
    kw = {"inflation": taus, "inflation_precision": precision, "df_inflation": df_taus}
    rank = pr.stats.studentized_rank_shift(x, y, confidence, **kw)
    rank_half = pr.stats.studentized_rank_shift(x, y, half, **kw)
    trim = pr.stats.yuen_shift(x, y, confidence, trim=TRIM, **kw)
    trim_half = pr.stats.yuen_shift(x, y, half, trim=TRIM, **kw)

    def ends(r: pr.stats.ShiftResult) -> tuple[float, float]:
        return (-math.inf, math.inf) if r.ci_low is None else (r.ci_low, r.ci_high)

    (lr, hr), (lt, ht), (lr2, hr2), (lt2, ht2) = ends(rank), ends(trim), ends(rank_half), ends(trim_half)
    low, high = max(lr2, lt2, min(lr, lt)), min(hr2, ht2, max(hr, ht))
    pvalue = min(1.0, 2.0 * min(rank.pvalue, trim.pvalue), max(rank.pvalue, trim.pvalue))
    finite = math.isfinite(low) and math.isfinite(high) and low <= high
    return attrs.evolve(rank, ci_low=low if finite else None, ci_high=high if finite else None, pvalue=pvalue,
                        method="Hodges-Lehmann shift; studentised rank and 10%-trimmed-mean tests (Simes)"
                        + (" widened for serial dependence" if max(taus) > 1.0 else ""))


def _centre(values: np.ndarray, statistic: str) -> float:
    """Each side's value of the statistic the change is computed from (a row must not show medians beside a
    change of geometric means): the Hodges-Lehmann shift is the medians'; Welch's shift is the
    differences of means of logs, i.e. ratios of geometric means."""
    if statistic == "median":
        return float(np.median(values))
    return float(np.exp(np.mean(np.log(values))))


@attrs.define(repr=False)
class LocationShift(pr.Comparator):
    """The typical run of the candidate against the baseline's, on log values (a ``pr.ShiftComparison``).

    Welch on the means of logs where the tails are light (or no rank test reaches
    ``confidence``), else the Hodges-Lehmann shift with a studentised rank interval (valid for
    unequal spreads and run counts), Yuen's trimmed means where the ranks saturate. Assumes
    independent runs: the verdict widens it for serially dependent ones.
    """

    name: ClassVar[str] = "location-shift"
    confidence: float = pr.confidence_param(help="level of the interval and the test")

    def compare(self, baseline: Any, candidate: Any) -> pr.ShiftComparison:
        old = pr.as_sample(baseline, what="baseline")
        new = pr.as_sample(candidate, what="candidate")
        for who, s in (("baseline", old), ("candidate", new)):
            s.require_positive(f"{who} {s.label}")
            if len(s) < 2:
                raise pr.DataError(f"{who} {s.label}: {len(s)} run(s); a location shift needs at least 2 per system")
        return shift(old, new, self.confidence)
