"""What both ratio comparators share: input checks, the threshold decision, the verdict.

Kalibera & Jones report the ratio of means new/old (θ) with its interval; perfrigor's
``Comparison.estimate`` is a speedup (>1: candidate faster). For times the speedup is
old/new = 1/θ, for throughput or scores it is θ. The decision is taken on θ's interval,
as in the paper (§4.2): with a threshold h, the change is *beyond* it when the interval
lies below 1 - h or above 1 + h, *within* it when it lies inside [1 - h, 1 + h], and
otherwise the data cannot tell.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import perfrigor as pr

BEYOND, WITHIN, INCONCLUSIVE, UNDEFINED = "beyond", "within", "inconclusive", "undefined"


def _check_threshold(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value < 1.0:
        raise ValueError(f"{attribute.name} must be a relative change in [0, 1) (e.g. 0.02 for 2%; "
                         f"0 for none), got {value!r}")


def threshold_param() -> Any:
    """The smallest relative change that matters (0.02 = 2%); 0: any change."""
    return attrs.field(default=0.0, converter=_number_to_float, validator=_check_threshold,
                       metadata={"help": "the smallest relative change that matters (0.02 = 2%); 0: any change",
                                 "type": "float", "range": "[0, 1)"})


def _number_to_float(value: Any) -> Any:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def prepare(baseline: Any, candidate: Any) -> tuple[pr.Sample, pr.Sample, list[str]]:
    """Both samples validated for a ratio of means (positive, same unit and direction)."""
    old, new = pr.as_positive_pair(baseline, candidate)
    warnings = []
    if old.levels != new.levels:
        warnings.append(f"the two samples have different levels ({', '.join(old.levels)} vs "
                        f"{', '.join(new.levels)}); Kalibera & Jones assume the same experiment design for both")
    return old, new, warnings


def decide(low: float, high: float, threshold: float) -> str:
    """Where the interval (low, high) of θ = new/old lies with respect to [1 - h, 1 + h]."""
    if high < 1.0 - threshold or low > 1.0 + threshold:
        return BEYOND
    if threshold > 0 and 1.0 - threshold <= low and high <= 1.0 + threshold:
        return WITHIN
    return INCONCLUSIVE


def speedup_interval(ratio: float, low: float | None, high: float | None, lower_is_better: bool
                     ) -> tuple[float, float | None, float | None, list[str]]:
    """The speedup and its interval from θ = new/old and its interval (old/new for times)."""
    if not lower_is_better:
        return ratio, low, high, []
    if low is None or high is None:
        return 1.0 / ratio, None, None, []
    if low > 0:
        return 1.0 / ratio, 1.0 / high, 1.0 / low, []
    return 1.0 / ratio, 1.0 / high, None, [
        "the interval of the ratio new/old reaches 0 (the candidate's mean is not significantly above 0), "
        "so the speedup has no upper limit"]


def _percent(x: float) -> str:
    return f"{100 * x:.3g}%"


def _percent_beside(x: float, half: float) -> str:
    """100·x as a percentage to the decimal place of the half-width shown beside it.

    A centre or estimate of no change must read "0%" next to "± 0.0882%", not "3.89e-05%".
    """
    h = 100 * abs(half)
    decimals = max(0, 2 - math.floor(math.log10(h))) if h > 0 else 3
    text = f"{100 * x:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return ("0" if text in ("-0", "+0") else text) + "%"


def _interval_words(estimate: float, low: float, high: float, half: float) -> str:
    """The change's interval in words: "5.5% ± 2.5% lower" only when it is symmetric around the estimate
    as shown (the paper's form), else its ends: "between 14.6% and 54.2% lower", "between 42% lower and
    56% higher" (a ± centred on the interval's midpoint read "7.1% ± 49% higher" beside an estimate of
    -9.8%)."""
    below, above = _percent_beside(estimate - low, half), _percent_beside(high - estimate, half)
    if below == above:
        side = "higher" if estimate >= 0 else "lower"
        # the centre to the half-width's decimals as shown ("1.532% ± 0.023%", not "1.5323% ± 0.023%")
        decimals = len(above.rstrip("%").partition(".")[2])
        centre = f"{100 * abs(estimate):.{decimals}f}"
        return f"{'0' if centre.strip('0.') == '' else centre}% ± {above} {side}"
    # the ends to two significant digits of the interval's width: "between 9.3% and 10.7%"
    width = 100 * (high - low)
    decimals = max(0, 1 - math.floor(math.log10(width))) if width > 0 else 3

    def end(x: float) -> str:
        return f"{100 * x:.{decimals}f}%"

    if low >= 0 or high <= 0:
        side = "higher" if low >= 0 else "lower"
        ends = sorted((abs(low), abs(high)))
        return f"between {end(ends[0])} and {end(ends[1])} {side}"
    return f"between {end(-low)} lower and {end(high)} higher"


def verdict(decision: str, ratio: float, low: float | None, high: float | None, confidence: float,
            threshold: float, lower_is_better: bool, speedup: float) -> str:
    """One sentence, as Kalibera & Jones report a change: "5.5% ± 2.5% faster, with 95% confidence"."""
    what = "time" if lower_is_better else "value"
    if decision == UNDEFINED or low is None or high is None:
        return (f"cannot bound the change: ratio of mean {what}s new/old {ratio:.4g}, but its {confidence:.0%} "
                "interval is unbounded (the baseline mean is too uncertain)")
    half = (high - low) / 2
    faster = (high < 1.0) if lower_is_better else (low > 1.0)
    band = f"±{_percent(threshold)}"
    if decision == BEYOND:
        head = "candidate faster" if faster else "candidate slower"
        if threshold > 0:
            head += f", beyond the {band} threshold"
    elif decision == WITHIN:
        head = f"no change beyond the {band} threshold"
    elif threshold > 0:
        slower = (low > 1.0) if lower_is_better else (high < 1.0)
        if faster or slower:  # a real change, of unknown size relative to h
            head = (f"candidate {'faster' if faster else 'slower'}, but cannot tell whether by more than "
                    f"the {band} threshold")
        else:
            head = f"cannot tell whether the change exceeds the {band} threshold"
    else:
        head = "no significant change"
    change = _percent_beside(ratio - 1, half)
    return (f"{head}: mean {what} {_interval_words(ratio - 1, low - 1, high - 1, half)} with {confidence:.0%} "
            f"confidence (estimate {'' if change.startswith('-') or change == '0%' else '+'}{change}, "
            f"ratio new/old {ratio:.4g}; speedup {speedup:.4g}x)")


def comparison(*, method: str, ratio: float, low: float | None, high: float | None, confidence: float,
               threshold: float, lower_is_better: bool, pvalue: float | None, baseline_mean: float,
               candidate_mean: float, details: dict[str, Any], warnings: list[str],
               n_top: dict[str, int] | None = None, defined: bool = True) -> pr.RatioComparison:
    """The RatioComparison both comparators return: speedup fields, the ratio new/old and the means as
    attributes, and the same in ``details`` (``details["ratio"]``, the contract's place for it)."""
    decision = decide(low, high, threshold) if defined and low is not None and high is not None else UNDEFINED
    speedup, s_low, s_high, more = speedup_interval(ratio, low, high, lower_is_better)
    significant = None if decision == UNDEFINED else decision == BEYOND
    info = {
        "method": method,
        "ratio": {"estimate": ratio, "ci_low": low, "ci_high": high},
        "change_percent": {"estimate": 100 * (ratio - 1),
                           "ci_low": None if low is None else 100 * (low - 1),
                           "ci_high": None if high is None else 100 * (high - 1)},
        "threshold": threshold,
        "decision": decision,
        **details,
        "baseline_mean": baseline_mean, "candidate_mean": candidate_mean,
        **({} if n_top is None else {"n_top": dict(n_top)}),
    }
    return pr.RatioComparison(
        estimate=speedup, ci_low=s_low, ci_high=s_high, confidence=confidence, pvalue=pvalue,
        significant=significant,
        verdict=verdict(decision, ratio, low, high, confidence, threshold, lower_is_better, speedup),
        details=info, warnings=(*warnings, *more), ratio=ratio, ratio_low=low, ratio_high=high,
        baseline_mean=baseline_mean, candidate_mean=candidate_mean, decision=decision,
        n_top=None if n_top is None else dict(n_top))
