"""What a Comparison concluded (faster, slower, no change, not faster, unclear), and how to read its kind.

The rule itself is ``perfrigor.results.conclusion``; the method summary, the colours of the
method tables and the forest plot of a report without verdicts use it through here.
"""

from __future__ import annotations

from ..results import NO_CHANGE, conclusion

__all__ = ["NO_CHANGE", "SPLIT", "estimate_kind", "is_one_sided", "outcome"]

#: how "no change" reads, per kind
SPLIT = {"speedup": "1", "probability": "1/2", "gain": "0"}

outcome = conclusion  # what a comparison concludes (perfrigor.results.conclusion)


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
