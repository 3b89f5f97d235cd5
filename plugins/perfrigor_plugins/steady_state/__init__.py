"""Steady state of iterations: the ``steady-state`` estimator (Barrett et al. 2017's classes).

Each series of iterations (a fork, an invocation, or a flat run order) is classified flat,
warmup, slowdown or no steady state from its change points (``perfrigor.changepoints``), with
the first steady iteration, the steady level and the segments. See docs/methods/steady-state.md.
"""

from __future__ import annotations

import perfrigor as pr

#: the public names, imported from their modules on first use (loading the plugin imports none)
EXPORTS = {"SeriesState": "estimator", "SteadyState": "estimator", "SteadyStateEstimator": "estimator"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [pr.LazyComponent(f"{__name__}.estimator:SteadyStateEstimator", "steady-state", "estimator",
                             "Does each series of iterations reach a steady state? flat, warmup, slowdown or no "
                             "steady state.", shorthands=("relevance",))]
