"""Kalibera & Jones random effects: variance components, CI of a mean, experiment planning.

Components: ``variance-components`` (S_i², T_i² per level), ``mean-ci`` (t or
hierarchical-bootstrap interval of one system's mean) and ``experiment-plan``
(optimal repetition counts per level from costs), and the command ``perfrigor plan``
that runs the last on a pilot experiment. The level statistics they use are
public in ``perfrigor.hierarchy``; the bootstrap in ``perfrigor.resampling``.
"""

from __future__ import annotations

import perfrigor as pr

from .command import PLAN
from .mean_ci import MeanCI
from .plan import ExperimentPlan, ExperimentPlanner
from .variance import VarianceComponents, VarianceComponentsEstimator

__all__ = ["ExperimentPlan", "ExperimentPlanner", "MeanCI", "VarianceComponents",
           "VarianceComponentsEstimator"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [VarianceComponentsEstimator, MeanCI, ExperimentPlanner]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [PLAN]
