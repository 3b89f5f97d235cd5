"""What a Comparison concluded (faster, slower, no change, not faster, unclear), and how to read its kind.

The rule itself is ``perfrigor.results.conclusion``; the method summary, the colours of the
method tables and the forest plot of a report without verdicts use it through here.
"""

from __future__ import annotations

from typing import Any

from ..results import NO_CHANGE, conclusion

__all__ = ["NO_CHANGE", "SPLIT", "estimate_kind", "is_one_sided", "outcome"]

#: how "no change" reads, per kind
SPLIT = {"speedup": "1", "probability": "1/2", "gain": "0"}

outcome = conclusion  # what a comparison concludes (perfrigor.results.conclusion)


def estimate_kind(step: Any) -> str:
    """The ``estimate_kind`` the step recorded when it ran (``StepInfo``; "speedup" when none)."""
    return getattr(step, "estimate_kind", None) or "speedup"


def is_one_sided(step: Any) -> bool:
    """Whether the step recorded that it only tests for an improvement (``Comparator.one_sided``)."""
    return bool(getattr(step, "one_sided", False))
