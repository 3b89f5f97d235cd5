"""Steady state of iterations: the ``steady-state`` estimator (Barrett et al. 2017's classes).

Each series of iterations (a fork, an invocation, or a flat run order) is classified flat,
warmup, slowdown or no steady state from its change points (``perfrigor.changepoints``), with
the first steady iteration, the steady level and the segments. See docs/methods/steady-state.md.
"""

from __future__ import annotations

import perfrigor as pr

from .estimator import SeriesState, SteadyState, SteadyStateEstimator

__all__ = ["SeriesState", "SteadyState", "SteadyStateEstimator"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [SteadyStateEstimator]
