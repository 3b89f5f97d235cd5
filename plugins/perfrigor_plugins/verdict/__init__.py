"""The answer a person reads first: the ``verdict`` step, and its default typical-run comparison.

Per benchmark it picks the method whose assumptions hold for the data (Kalibera & Jones
for hierarchical samples, the shift within a mode for multimodal ones, the typical run's
location shift, ``location-shift``, widened for serial dependence otherwise) and gives one
outcome: faster, slower, same or unclear, with the speedup, its interval and the reasons.
Over a suite: the dependence pooled, the changes decided together with intervals that agree,
counts, the geometric-mean speedup and the HPT line. See docs/methods/verdict.md.
"""

from __future__ import annotations

import perfrigor as pr

#: the public names, imported from their modules on first use (loading the plugin imports none)
EXPORTS = {"VerdictStep": "component", "LocationShift": "shift"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [pr.LazyComponent(f"{__name__}.component:VerdictStep", "verdict", "comparator",
                             "One calibrated answer per benchmark (faster, slower, same, unclear) and for the suite."),
            pr.LazyComponent(f"{__name__}.shift:LocationShift", "location-shift", "comparator",
                             "The typical run of the candidate against the baseline's, on log values (a "
                             "``pr.ShiftComparison``).")]
