"""The answer a person reads first: the ``verdict`` step.

Per benchmark it picks the method whose assumptions hold for the data (Kalibera & Jones
for hierarchical samples, the shift within a mode for multimodal ones, the rank-based
interval widened for serial dependence otherwise) and gives one outcome: faster, slower,
same or unclear, with the speedup, its interval and the reasons. Over a suite: counts,
the geometric-mean speedup and the HPT line. See docs/methods/verdict.md.
"""

from __future__ import annotations

import perfrigor as pr

from .component import VerdictStep

__all__ = ["VerdictStep"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [VerdictStep]
