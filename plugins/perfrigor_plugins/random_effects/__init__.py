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

#: the public names, imported from their modules on first use (loading the plugin imports no method module)
EXPORTS = {"ExperimentPlan": "plan", "ExperimentPlanner": "plan", "MeanCI": "mean_ci",
           "VarianceComponents": "variance", "VarianceComponentsEstimator": "variance"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [
        pr.LazyComponent(f"{__name__}.variance:VarianceComponentsEstimator", "variance-components", "estimator",
                         "Variance of each level of a hierarchical sample: S_i² and unbiased T_i² (Kalibera & "
                         "Jones)."),
        pr.LazyComponent(f"{__name__}.mean_ci:MeanCI", "mean-ci", "estimator",
                         "Mean of one system with its t or hierarchical-bootstrap confidence interval (Kalibera & "
                         "Jones)."),
        pr.LazyComponent(f"{__name__}.plan:ExperimentPlanner", "experiment-plan", "estimator",
                         "Optimal repetition counts per level from an initial experiment and costs (Kalibera & Jones "
                         "§6.1)."),
    ]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [PLAN]
