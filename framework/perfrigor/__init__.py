"""perfrigor: is a performance change real, and how big is it?

The public API. Methods arrive as plugins (entry-point group ``perfrigor``);
see ``perfrigor.components()`` for what is installed.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import display, drawing, progress, units
from .components import (
    BenchmarkJob,
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
from .readers import ReaderOption, parse_number, read
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
from .workspace import Workspace, current_workspace

#: submodules of the public API imported on first use (``pr.stats`` needs scipy): start-up
#: (``perfrigor --help``, ``perfrigor list``) pays only for what it uses
LAZY_SUBMODULES = ("hierarchy", "resampling", "stats")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("perfrigor")
    except PackageNotFoundError:  # running from a source tree
        return "0.0.0+unknown"


def __getattr__(name: str) -> Any:
    if name in LAZY_SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")  # also binds it here: called once
    if name == "__version__":  # the installed metadata, read only when asked for
        globals()["__version__"] = value = _version()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "OUTCOMES", "BenchmarkInfo", "BenchmarkJob", "Workspace", "current_workspace", "Comparator", "Comparison", "Component", "ConfigError", "DataError", "Estimate",
    "Estimator", "PerfrigorError", "Pipeline", "Previous", "Report", "Result", "Sample", "Suite", "SuiteSummary",
    "SuiteVerdict", "Test", "TestResult", "Verdict", "__version__", "as_sample", "as_sample_mapping", "check_random_state",
    "choice_param", "components", "conclusion", "confidence_param", "display", "drawing", "float_param", "get",
    "get_registry",
    "hierarchy", "progress", "hookimpl", "hookspec", "int_param", "pair_key", "pipeline", "random_state_param",
    "read", "resampling", "stats", "to_jsonable", "units", "ReaderOption", "parse_number",
]
