"""The answer a person reads first: the ``verdict`` step.

Per benchmark it picks the method whose assumptions hold for the data (Kalibera & Jones
for hierarchical samples, the shift within a mode for multimodal ones, the typical run's
location shift, ``location-shift``, widened for serial dependence otherwise) and gives one
outcome: faster, slower, same or unclear, with the speedup, its interval and the reasons.
Over a suite: the dependence pooled, the changes decided together with intervals that agree,
counts, the geometric-mean speedup and the HPT line. See docs/methods/verdict.md.
"""

from __future__ import annotations

import perfrigor as pr

from .component import VerdictStep
from .shift import LocationShift

__all__ = ["LocationShift", "VerdictStep"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [VerdictStep, LocationShift]
