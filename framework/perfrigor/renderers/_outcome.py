"""What a Comparison concluded: faster, slower, no change, not faster or unclear.

Used for the method summary, the colours of the method tables and ``--fail-on-regression``
when a pipeline has no verdict step.
"""

from __future__ import annotations

from ..results import Comparison, Result

#: the value an estimate is compared with, per ``Comparator.estimate_kind``
NO_CHANGE = {"speedup": 1.0, "probability": 0.5, "gain": 0.0}
#: how "no change" reads, per kind
SPLIT = {"speedup": "1", "probability": "1/2", "gain": "0"}


def estimate_kind(component: str) -> str:
    """The registered comparator's ``estimate_kind`` ("speedup" when unknown)."""
    from ..registry import get_registry

    rec = get_registry().components.get(component)
    return getattr(rec.obj, "estimate_kind", "speedup") if rec is not None else "speedup"


def is_one_sided(component: str) -> bool:
    """Whether the registered comparator only tests for an improvement (``Comparator.one_sided``)."""
    from ..registry import get_registry

    rec = get_registry().components.get(component)
    return bool(getattr(rec.obj, "one_sided", False)) if rec is not None else False


def outcome(res: Result, kind: str = "speedup", one_sided: bool = False) -> str | None:
    """"faster", "slower", "no change", "not faster" or "unclear" for a Comparison (None for other results).

    Slower: the estimate is on the slow side of no change (speedup < 1,
    probability < 0.5, gain < 0) and significant, or the whole interval is on
    the slow side; faster likewise. "no change": significant is False or the
    interval contains no change. "unclear": the method could not conclude.
    A ``one_sided`` comparator (it only tests for an improvement) is "faster"
    or "not faster": its "not significant" says nothing about a slowdown.
    """
    if not isinstance(res, Comparison) or kind not in NO_CHANGE:
        return None
    limit = NO_CHANGE[kind]
    est = res.estimate
    if one_sided:
        if est is not None and ((res.significant is True and est > limit) or
                                (res.ci_low is not None and res.ci_low > limit)):
            return "faster"
        return "not faster" if res.significant is not None or res.ci_low is not None else "unclear"
    if est is not None and ((res.significant is True and est < limit) or
                            (res.ci_high is not None and res.ci_high < limit)):
        return "slower"
    if est is not None and ((res.significant is True and est > limit) or
                            (res.ci_low is not None and res.ci_low > limit)):
        return "faster"
    if res.significant is False or (res.ci_low is not None and res.ci_high is not None):
        return "no change"
    return "unclear"
