"""Diagnostics of serial dependence: the ``independence`` estimator.

Run-order trend (Mann-Kendall, Sen's slope), lag-1 autocorrelation and the effective
sample size it implies; per top-level unit and across units for hierarchical samples,
with warm-up detection. The ``verdict`` step widens its intervals by what it finds.
See docs/methods/independence.md.
"""

from __future__ import annotations

import perfrigor as pr

from .estimator import Independence, IndependenceResult, SeriesCheck

__all__ = ["Independence", "IndependenceResult", "SeriesCheck"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [Independence]
