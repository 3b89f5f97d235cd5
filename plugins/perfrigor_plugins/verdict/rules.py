"""The verdict's one decision rule, read off the speedup's interval, and the speedup from a shift.

RULE (docs/methods/verdict.md, the Verdict docstring and the reasons say the same):

- "same": the interval lies within the band [1/(1+h), 1+h] (h the threshold, 1% by default):
  whatever the change is, it is smaller than what matters (a real change inside the band too,
  as criterion.rs's noise threshold);
- "faster" / "slower": otherwise, when the interval excludes no change (1), i.e. the test is
  significant at the confidence (every path's p-value is the dual of its interval); the
  interval may reach into the band: the change is real and may matter;
- "unclear": neither (or the data cannot tell, or there is no interval).

Why "excludes 1" and not "lies beyond the band" (criterion.rs's rule): at the band's edge a
true change of exactly the threshold would be found at most half of the time, and a 2%
change with 30 runs at 1% noise about 60% instead of 100% (the power table, docs).
"""

from __future__ import annotations

import math

import attrs

FASTER, SLOWER, SAME, UNCLEAR = "faster", "slower", "same", "unclear"


@attrs.frozen
class Answer:
    """A path's answer before it becomes a Verdict: speedup (>1 better), interval, significance."""

    speedup: float | None
    ci_low: float | None
    ci_high: float | None
    significant: bool | None
    pvalue: float | None = None


def band(threshold: float) -> tuple[float, float]:
    """The speedups that count as "the same": [1/(1+h), 1+h], symmetric on the log scale."""
    return 1.0 / (1.0 + threshold), 1.0 + threshold


def outcome(answer: Answer, threshold: float) -> str:
    """faster / slower / same / unclear from an answer: THE rule (see the module docstring)."""
    if answer.speedup is None or answer.ci_low is None or answer.ci_high is None:
        return UNCLEAR
    low, high = band(threshold)
    if low <= answer.ci_low and answer.ci_high <= high:
        return SAME
    if answer.significant:
        return FASTER if answer.speedup > 1.0 else SLOWER
    return UNCLEAR


def speedup_from_shift(shift: float | None, lower_is_better: bool) -> float | None:
    """Speedup from a shift of log values baseline - candidate (times: old/new; rates: new/old)."""
    if shift is None:
        return None
    power = shift if lower_is_better else -shift
    return math.exp(power) if power < 700.0 else math.inf  # an interval at a level near 1 on 1 df: unbounded


def interval_from_shift(low: float | None, high: float | None, lower_is_better: bool
                        ) -> tuple[float | None, float | None]:
    """The speedup interval from the interval of the log shift baseline - candidate."""
    if low is None or high is None:
        return None, None
    a, b = speedup_from_shift(low, lower_is_better), speedup_from_shift(high, lower_is_better)
    return (a, b) if a <= b else (b, a)


def runs_needed(n: int, ci_low: float, ci_high: float, threshold: float) -> int | None:
    """About how many runs per system would make the interval fit within the band (halfwidth ~ 1/sqrt(n))."""
    if threshold <= 0 or ci_low <= 0:
        return None
    half = (math.log(ci_high) - math.log(ci_low)) / 2
    target = math.log(1.0 + threshold) / 2  # a centred interval of this half-width fits the band
    if half <= target:
        return None
    return int(math.ceil(n * (half / target) ** 2))
