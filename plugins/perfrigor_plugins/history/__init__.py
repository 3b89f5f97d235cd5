"""Change points over a history of commits: detectors and the ``perfrigor history`` command.

Detectors (a component kind of their own, ``pr.Detector``; a third party adds one the same way):
``history`` (the calibrated default: uses each commit's repetitions, controls the false discovery
rate over benchmarks x commits, reports recent changes as pending) and ``e-divisive`` (E-divisive
means with a permutation test, as MongoDB's signal-processing-algorithms, seeded). See
docs/methods/history.md.
"""

from __future__ import annotations

import perfrigor as pr

from .command import HISTORY
from .detector import HistoryDetector
from .edivisive import EDivisive
from .render import render
from .results import Change, Fit, HistoryResult, Pending

__all__ = ["Change", "EDivisive", "Fit", "HistoryDetector", "HistoryResult", "Pending", "render"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [HistoryDetector, EDivisive]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [HISTORY]
