"""perfrigor: is a performance change real, and how big is it?

The public API. Methods arrive as plugins (entry-point group ``perfrigor``);
see ``perfrigor.components()`` for what is installed.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from . import display, drawing, hierarchy, progress, resampling, stats, units
from .components import (
    Comparator,
    Component,
    Estimator,
    Previous,
    Test,
    as_sample,
    as_sample_mapping,
    check_random_state,
    choice_param,
    confidence_param,
    float_param,
    int_param,
    pair_key,
    random_state_param,
)
from .data import BenchmarkInfo, Sample, Suite
from .errors import ConfigError, DataError, PerfrigorError
from .hookspecs import hookimpl, hookspec
from .pipeline import Pipeline, pipeline
from .readers import read
from .registry import components, get, get_registry
from .report import Report
from .results import (
    OUTCOMES,
    Comparison,
    Estimate,
    Result,
    SuiteSummary,
    SuiteVerdict,
    TestResult,
    Verdict,
    conclusion,
    to_jsonable,
)

try:
    __version__ = version("perfrigor")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = [
    "OUTCOMES", "BenchmarkInfo", "Comparator", "Comparison", "Component", "ConfigError", "DataError", "Estimate",
    "Estimator", "PerfrigorError", "Pipeline", "Previous", "Report", "Result", "Sample", "Suite", "SuiteSummary",
    "SuiteVerdict", "Test", "TestResult", "Verdict", "__version__", "as_sample", "as_sample_mapping", "check_random_state",
    "choice_param", "components", "conclusion", "confidence_param", "display", "drawing", "float_param", "get",
    "get_registry",
    "hierarchy", "progress", "hookimpl", "hookspec", "int_param", "pair_key", "pipeline", "random_state_param",
    "read", "resampling", "stats", "to_jsonable", "units",
]
