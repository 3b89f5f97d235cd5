"""perfrigor plugin speedup_test: the Speedup-Test of Touati, Worms & Briais (2013).

Is the observed speedup of the mean or median execution time statistically significant,
what is the overall speedup of a suite, and which proportion of benchmarks is accelerated?
Also reads the original SpeedupTest tool's configuration CSV and prints its ``.out``,
``.report`` and ``.warning`` files. See docs/methods/speedup-test.md.
"""

from __future__ import annotations

import perfrigor as pr

from .comparator import SpeedupTest
from .config_reader import SpeedupTestConfigReader
from .hypothesis_tests import (
    FisherF,
    KolmogorovSmirnov,
    ShapiroWilk,
    StudentT,
    WelchT,
    WilcoxonMannWhitney,
)
from .proportion import AcceleratedProportion, needed_benchmarks, proportion_interval
from .renderers import SpeedupTestOutRenderer, SpeedupTestReportRenderer, SpeedupTestWarningRenderer

__all__ = ["AcceleratedProportion", "FisherF", "KolmogorovSmirnov", "ShapiroWilk", "SpeedupTest",
           "SpeedupTestConfigReader", "StudentT", "WelchT", "WilcoxonMannWhitney", "needed_benchmarks",
           "proportion_interval"]

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
def perfrigor_components() -> list[type]:
    return [ShapiroWilk, FisherF, StudentT, WelchT, WilcoxonMannWhitney, KolmogorovSmirnov, SpeedupTest,
            AcceleratedProportion]


@pr.hookimpl
def perfrigor_pipelines() -> list[dict]:
    return [PRESET]


@pr.hookimpl
def perfrigor_readers() -> list[object]:
    return [SpeedupTestConfigReader()]


@pr.hookimpl
def perfrigor_renderers() -> list[object]:
    return [SpeedupTestOutRenderer(), SpeedupTestReportRenderer(), SpeedupTestWarningRenderer()]
