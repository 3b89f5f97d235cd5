"""Change points over a history of commits: detectors and the ``perfrigor history`` command.

Detectors (a component kind of their own, ``pr.Detector``; a third party adds one the same way):
``change-scan`` (the calibrated default: uses each commit's repetitions, controls the false discovery
rate over benchmarks x commits, reports recent changes as pending) and ``e-divisive`` (E-divisive
means with a permutation test, as MongoDB's signal-processing-algorithms, seeded). See
docs/methods/history.md.
"""

from __future__ import annotations

import perfrigor as pr

from .command import HISTORY

#: the public names, imported from their modules on first use (loading the plugin imports no method module)
EXPORTS = {"Change": "results", "EDivisive": "edivisive", "Fit": "results", "HistoryDetector": "detector",
           "HistoryResult": "results", "Pending": "results", "render": "render"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [
        pr.LazyComponent(f"{__name__}.detector:HistoryDetector", "change-scan", "detector",
                         "Changes of level over a history of commits, using each commit's repetitions, "
                         "FDR-controlled.", scope="suite"),
        pr.LazyComponent(f"{__name__}.edivisive:EDivisive", "e-divisive", "detector",
                         "E-divisive means with a permutation test (Matteson & James 2014; MongoDB's anchor), "
                         "seeded.", scope="suite"),
    ]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [HISTORY]
