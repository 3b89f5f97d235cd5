"""``location-shift``: the typical run of the candidate against the baseline's, the verdict's default.

On log values (a speedup is a ratio): the Hodges-Lehmann shift with the interval that inverts
a studentised rank test (``pr.stats.studentized_rank_shift``: valid when the systems differ
in spread and run count, unlike the Wilcoxon interval). Two cases where ranks say too little:
with so few runs that no rank test can reach the level (3 per side at 95%), the means of log
values (Welch, which assume roughly normal noise); when every run of one system is faster
than every run of the other, or when the rank statistic cannot reach the level at all (a few
effective runs of serially dependent ones), ranks have said all they can and the size of the
gap is measured on 10%-trimmed means (Yuen), which keep it (an A/A comparison separates with
probability 2 / C(m + n, m): 1e-5 at 10 runs a side). A coarse timer (values on a grid) widens
the rank interval by half a step either way.

The verdict calls :func:`shift` with the long-run variance factors of serially dependent
runs; the component gives the answer for independent runs, in any pipeline.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .rules import interval_from_shift, speedup_from_shift

#: share trimmed from each end where magnitudes decide (separated samples): rare outliers out, 8 of 10 runs kept
TRIM = 0.1


def resolution(values: np.ndarray) -> float | None:
    """The grid step of quantised values relative to their median, when the timer's resolution shows.

    Values are quantised when they take few distinct values (at most half the runs) all on a
    common step; the step matters when it is above 0.1% of the values.
    """
    distinct = np.unique(values)
    if distinct.size < 2 or distinct.size > values.size // 2:
        return None
    step = float(np.diff(distinct).min())
    units = (distinct - distinct[0]) / step
    if not np.allclose(units, np.round(units), rtol=0.0, atol=1e-6):
        return None
    rel = step / float(np.median(values))
    return rel if rel > 1e-3 else None


def too_few_for_ranks(m: int, n: int, confidence: float) -> bool:
    """No rank test reaches ``confidence`` with m and n runs: its smallest two-sided p-value 2 / C(m + n, m) is larger."""
    log_comb = math.lgamma(m + n + 1) - math.lgamma(m + 1) - math.lgamma(n + 1)
    return math.log(2.0) - log_comb > math.log(1.0 - confidence)


def separated(x: np.ndarray, y: np.ndarray) -> bool:
    """Every run of one system lies beyond every run of the other."""
    return bool(x.max() < y.min() or y.max() < x.min())


def shift(old: pr.Sample, new: pr.Sample, confidence: float, taus: tuple[float, float] = (1.0, 1.0),
          precision: float = 0.0, statistic: str = "auto") -> pr.ShiftComparison:
    """The typical run's speedup with its interval and p-value (dual: p < 1 - confidence exactly when the
    interval excludes 1); ``taus``: long-run variance factors of the two series, ``precision`` their
    relative variance as estimated (see ``pr.stats.studentized_rank_shift``); ``statistic``: "auto" (the
    choice of the module docstring), or the one a recomputation at another level keeps ("median",
    "trimmed mean", "mean"), so that the answers at all levels are one family of intervals."""
    raw_x, raw_y = old.flat, new.flat
    x, y = np.log(raw_x), np.log(raw_y)
    grid = resolution(np.concatenate([raw_x, raw_y]))
    step = math.log1p(grid / 2) if grid else 0.0
    dependent = max(taus) > 1.0
    if statistic == "auto" and too_few_for_ranks(x.size, y.size, confidence) and not dependent:
        statistic = "mean"
    if statistic == "mean":
        res = pr.stats.yuen_shift(x, y, confidence, trim=0.0, rounding=grid or 0.0)
    elif statistic == "trimmed mean":
        res = pr.stats.yuen_shift(x, y, confidence, inflation=taus, trim=TRIM, rounding=grid or 0.0)
    else:
        res = pr.stats.studentized_rank_shift(x, y, confidence, inflation=taus, inflation_precision=precision)
        if statistic == "auto" and (separated(x, y) or res.ci_low is None):  # the ranks saturate: magnitudes
            res = pr.stats.yuen_shift(x, y, confidence, inflation=taus, trim=TRIM, rounding=grid or 0.0)
            statistic = "trimmed mean"
        else:
            statistic = "median"
        if statistic == "median" and step and res.ci_low is not None:
            # the ranks know nothing of the grid: half a step either way, and the p-value of the widened
            # interval (the test of a shift of half a step toward the estimate: the interval moves with it)
            toward = math.copysign(step, res.estimate)
            moved = pr.stats.studentized_rank_shift(x - toward, y, confidence, inflation=taus,
                                                    inflation_precision=precision)
            res = attrs.evolve(res, ci_low=res.ci_low - step, ci_high=res.ci_high + step,
                               pvalue=moved.pvalue if abs(res.estimate) > step else 1.0)
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
        baseline_center=float(np.median(raw_x)), candidate_center=float(np.median(raw_y)), df=res.df,
        method=res.method, details={"taus": list(taus), "grid": grid})


@attrs.define(repr=False)
class LocationShift(pr.Comparator):
    """The typical run of the candidate against the baseline's, on log values (a ``pr.ShiftComparison``).

    The Hodges-Lehmann shift with a studentised rank interval (valid for unequal spreads and
    run counts); Welch on the means of logs where no rank test reaches ``confidence``;
    Yuen's trimmed means when the systems' runs do not overlap. Assumes independent runs:
    the verdict widens it for serially dependent ones.
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
