"""Gaussian mixtures for performance data (Worms & Touati 2016).

Components: ``gmm`` (mixture by EM, K and model by BIC as R's mclust, modes
I4), ``gmm-fit`` (the KSfit goodness-of-fit test), and the comparison metrics
``mean-difference`` (I1), ``prob-faster`` (I2), ``prob-fastest`` (I3), and
``mode-comparison`` (shared or shifted modes, the shift within each); preset
``gmm``. See docs/methods/gmm.md.
"""

from __future__ import annotations

import perfrigor as pr

from .comparators import MeanDifference, ProbFaster, ProbFastest
from .estimator import GaussianMixture, MixtureGoodnessOfFit
from .mixture import Mixture
from .mode_comparison import ModeComparison, ModeComparisonComparator
from .results import KsFitResult, MixtureFit

__all__ = ["GaussianMixture", "KsFitResult", "MeanDifference", "Mixture", "MixtureFit",
           "MixtureGoodnessOfFit", "ModeComparison", "ModeComparisonComparator", "ProbFaster", "ProbFastest"]

PRESET = {
    "name": "gmm",
    "description": "Gaussian-mixture view (Worms & Touati 2016): mixture and modes of each system, KSfit, "
                   "single-run metrics I1 (mean |difference|), I2 (P[faster]), I3 (P[fastest]), the modes compared, "
                   "and the verdict",
    "steps": [
        {"component": "gmm"},
        {"component": "gmm-fit"},
        {"component": "mean-difference"},
        {"component": "prob-faster"},
        {"component": "prob-fastest"},
        {"component": "mode-comparison"},
        {"component": "verdict"},
    ],
}


@pr.hookimpl
def perfrigor_components() -> list[type]:
    return [GaussianMixture, MixtureGoodnessOfFit, MeanDifference, ProbFaster, ProbFastest, ModeComparisonComparator]


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [PRESET]
