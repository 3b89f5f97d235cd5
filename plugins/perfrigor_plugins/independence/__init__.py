"""Diagnostics of serial dependence: the ``independence`` estimator.

Run-order trend (Mann-Kendall, Sen's slope), a step of the level (Pettitt), the
autocorrelations of the ranks and the long-run variance factor and effective sample size
they imply; per top-level unit and across units for hierarchical samples, with warm-up
detection. Its result is a ``pr.DependenceCheck``: the ``verdict`` step widens its
intervals by what it finds, in proportion.
See docs/methods/independence.md.
"""

from __future__ import annotations

import perfrigor as pr

#: the public names, imported from their modules on first use (loading the plugin imports none)
EXPORTS = {"Independence": "estimator", "IndependenceResult": "estimator", "SeriesCheck": "estimator"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [pr.LazyComponent(f"{__name__}.estimator:Independence", "independence", "estimator",
                             "Are the runs independent? Run-order trend, steps, autocorrelation, long-run factor, "
                             "effective size.")]
