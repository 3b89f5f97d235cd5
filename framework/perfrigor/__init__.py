"""perfrigor: is a performance change real, and how big is it?

The public API. Methods arrive as plugins (entry-point group ``perfrigor``);
see ``perfrigor.components()`` for what is installed.
"""

from __future__ import annotations

import importlib
from typing import Any

from . import display, drawing, progress, textsafe, units
from .commands import Command, CommandContext
from .component import (
    BenchmarkJob,
    Comparator,
    Component,
    Detector,
    Estimator,
    Previous,
    Test,
    as_positive_pair,
    as_sample,
    as_sample_mapping,
)
from .data import BenchmarkInfo, Sample, Suite
from .errors import ConfigError, DataError, ExecutionError, PerfrigorError
from .evidence import (
    DependenceCheck,
    LevelStep,
    MatchedMode,
    ModeComparison,
    SeriesState,
    ShiftComparison,
    SteadyStateCheck,
)
from .histories import BenchmarkHistory, History, as_history
from .hookspecs import Reader, Renderer, hookimpl
from .keys import PairKey, pair_key
from .params import (
    ParamInfo,
    check_random_state,
    choice_param,
    confidence_param,
    float_param,
    int_param,
    random_state_param,
)
from .pipelines import Pipeline, pipeline
from .readers import ReaderOption, parse_number, read
from .records import ReportWarning, StepError, StepSkip
from .registry import LazyComponent, components, get, lazy_exports
from .registry import get_registry as get_registry  # for tools, not user-facing (see INTERNAL)
from .report import Report, load_report
from .results import (
    OUTCOMES,
    Comparison,
    Estimate,
    RatioComparison,
    Result,
    SuiteSummary,
    SuiteVerdict,
    TestResult,
    Verdict,
    conclusion,
)
from .results import (
    to_jsonable as to_jsonable,  # for plugin authors writing to_dict (see INTERNAL)
)
from .workspace import Workspace, current_workspace

#: submodules of the public API imported on first use (``pr.stats`` needs scipy): start-up
#: (``perfrigor --help``, ``perfrigor list``) pays only for what it uses
LAZY_SUBMODULES = ("changepoints", "github", "hierarchy", "resampling", "stats")


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

#: importable for plugin authors and tools, but not user-facing (not in ``__all__``): ``to_jsonable``
#: (JSON-ready data for a result's ``to_dict``) and ``get_registry`` (the loaded plugins and their
#: look-ups). perfrigor's own hook specifications live in ``perfrigor.hookspecs`` (a plugin needs
#: only ``hookimpl``).
INTERNAL = ("get_registry", "to_jsonable")

__all__ = [
    "OUTCOMES", "BenchmarkInfo", "BenchmarkJob", "Command", "CommandContext", "PairKey", "ParamInfo", "Workspace", "current_workspace", "Comparator", "Comparison", "Component", "ConfigError", "DataError", "ExecutionError", "Estimate",
    "Estimator", "PerfrigorError", "Pipeline", "Previous", "Report", "Result", "Sample", "Suite", "SuiteSummary",
    "SuiteVerdict", "Test", "TestResult", "Verdict", "__version__", "as_positive_pair", "as_sample", "as_sample_mapping", "check_random_state",
    "choice_param", "components", "conclusion", "confidence_param", "display", "drawing", "float_param", "get",
    "github", "hierarchy", "progress", "hookimpl", "int_param", "pair_key", "pipeline", "random_state_param",
    "read", "Reader", "Renderer", "resampling", "stats", "units", "ReaderOption", "parse_number",
    "ReportWarning", "StepError", "StepSkip", "RatioComparison", "load_report", "LazyComponent", "lazy_exports",
    "changepoints", "Detector", "History", "BenchmarkHistory", "as_history", "textsafe",
    "DependenceCheck", "LevelStep", "MatchedMode", "ModeComparison", "SeriesState", "ShiftComparison",
    "SteadyStateCheck",
]
