"""Gaussian mixtures for performance data (Worms & Touati 2016).

Components: ``gmm`` (mixture by EM, K and model by BIC as R's mclust, modes
I4), ``gmm-fit`` (the KSfit goodness-of-fit test), and the comparison metrics
``mean-difference`` (I1), ``prob-faster`` (I2), ``prob-fastest`` (I3), and
``mode-comparison`` (shared or shifted modes, the shift within each); preset
``gmm``. See docs/methods/gmm.md.
"""

from __future__ import annotations

import perfrigor as pr

#: the public names, imported from their modules on first use (loading the plugin imports none)
EXPORTS = {"GaussianMixture": "estimator", "KsFitResult": "results", "MeanDifference": "comparators",
           "Mixture": "mixture", "MixtureFit": "results", "MixtureGoodnessOfFit": "estimator",
           "ModeComparison": "mode_comparison", "ModeComparisonComparator": "mode_comparison",
           "ProbFaster": "comparators", "ProbFastest": "comparators"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)

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
def perfrigor_components() -> list[pr.LazyComponent]:
    return [
        pr.LazyComponent(f"{__name__}.estimator:GaussianMixture", "gmm", "estimator",
                         "Gaussian mixture by EM, K and model by BIC as mclust; clusters and modes (I4)."),
        pr.LazyComponent(f"{__name__}.estimator:MixtureGoodnessOfFit", "gmm-fit", "test",
                         "KSfit: does a Gaussian mixture fit? KS distance calibrated by parametric bootstrap with "
                         "refits."),
        pr.LazyComponent(f"{__name__}.comparators:MeanDifference", "mean-difference", "comparator",
                         "I1 = E|X - Y|: how far apart single runs of the two versions are on average; estimate = "
                         "mean speedup."),
        pr.LazyComponent(f"{__name__}.comparators:ProbFaster", "prob-faster", "comparator",
                         "I2 = P[a candidate run is faster than a baseline run (+ margin)], parametric and "
                         "non-parametric."),
        pr.LazyComponent(f"{__name__}.comparators:ProbFastest", "prob-fastest", "comparator",
                         "I3 = P[a system's run is the fastest of one run of each], for k >= 2 systems."),
        pr.LazyComponent(f"{__name__}.mode_comparison:ModeComparisonComparator", "mode-comparison", "comparator",
                         "Do both systems have the same modes? The shift within each mode, and the change of their "
                         "shares."),
    ]


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [PRESET]
