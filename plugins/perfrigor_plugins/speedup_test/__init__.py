"""perfrigor plugin speedup_test: the Speedup-Test of Touati, Worms & Briais (2013).

Is the observed speedup of the mean or median execution time statistically significant,
what is the overall speedup of a suite, and which proportion of benchmarks is accelerated?
Also reads the original SpeedupTest tool's configuration CSV and prints its ``.out``,
``.report`` and ``.warning`` files. See docs/methods/speedup-test.md.
"""

from __future__ import annotations

import perfrigor as pr

from .config_reader import SpeedupTestConfigReader
from .renderers import SpeedupTestOutRenderer, SpeedupTestReportRenderer, SpeedupTestWarningRenderer

#: the public names, imported from their modules on first use (loading the plugin imports no method module)
EXPORTS = {"AcceleratedProportion": "proportion", "FisherF": "hypothesis_tests", "KolmogorovSmirnov": "hypothesis_tests",
           "ShapiroWilk": "hypothesis_tests", "SpeedupTest": "comparator", "StudentT": "hypothesis_tests",
           "WelchT": "hypothesis_tests", "WilcoxonMannWhitney": "hypothesis_tests",
           "needed_benchmarks": "proportion", "proportion_interval": "proportion"}
__all__ = sorted([*EXPORTS, "SpeedupTestConfigReader"])
__getattr__ = pr.lazy_exports(__name__, EXPORTS)

PRESET = {
    "name": "speedup-test",
    "description": "The Speedup-Test (Touati, Worms, Briais): is the speedup of the mean and of the median "
                   "significant, overall speedup of a suite, proportion of accelerated benchmarks",
    "steps": [
        {"component": "speedup-test", "id": "mean", "statistic": "mean"},
        {"component": "speedup-test", "id": "median", "statistic": "median"},
        {"component": "accelerated-proportion", "id": "proportion-mean", "statistic": "mean", "step": "mean"},
        {"component": "accelerated-proportion", "id": "proportion-median", "statistic": "median",
         "step": "median"},
        {"component": "verdict"},  # the answer first: one calibrated outcome per benchmark
    ],
}


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    tests = f"{__name__}.hypothesis_tests"
    return [
        pr.LazyComponent(f"{tests}:ShapiroWilk", "shapiro-wilk", "test",
                         "Shapiro-Wilk normality test of one sample (R's shapiro.test); H0: the sample is normal."),
        pr.LazyComponent(f"{tests}:FisherF", "fisher-f", "test",
                         "Fisher's F test of equal variances (R's var.test); two-sided by default."),
        pr.LazyComponent(f"{tests}:StudentT", "student-t", "test",
                         "Student's t test with pooled variance (R's t.test, var.equal=TRUE); one-sided: candidate "
                         "faster."),
        pr.LazyComponent(f"{tests}:WelchT", "welch-t", "test",
                         "Welch's t test for unequal variances (R's t.test default); one-sided: candidate faster."),
        pr.LazyComponent(f"{tests}:WilcoxonMannWhitney", "wilcoxon-mann-whitney", "test",
                         "Wilcoxon-Mann-Whitney rank-sum test as R's wilcox.test; one-sided: candidate faster."),
        pr.LazyComponent(f"{tests}:KolmogorovSmirnov", "kolmogorov-smirnov", "test",
                         "Two-sample Kolmogorov-Smirnov test as R 4.2's ks.test (exact p-values also with ties)."),
        pr.LazyComponent(f"{__name__}.comparator:SpeedupTest", "speedup-test", "comparator",
                         "The Speedup-Test: is the speedup of the mean or of the median significant at "
                         "``confidence``?", shorthands=("weight",)),
        pr.LazyComponent(f"{__name__}.proportion:AcceleratedProportion", "accelerated-proportion", "comparator",
                         "Confidence interval of the proportion of benchmarks with a significant speedup (P§4).",
                         scope="suite", shorthands=("precision",)),
    ]


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [PRESET]


@pr.hookimpl
def perfrigor_readers() -> list[object]:
    return [SpeedupTestConfigReader()]


@pr.hookimpl
def perfrigor_renderers() -> list[object]:
    return [SpeedupTestOutRenderer(), SpeedupTestReportRenderer(), SpeedupTestWarningRenderer()]
