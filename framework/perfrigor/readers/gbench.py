"""Google Benchmark's ``--benchmark_format=json`` (or ``--benchmark_out``) files.

``{"context": {...}, "benchmarks": [{"name", "run_name", "run_type",
"repetition_index", "real_time", "cpu_time", "time_unit", ...}]}``. Every
``run_type == "iteration"`` entry (or entry without a run type, as older
versions write) is one measurement, its per-iteration time; the repetitions of
a benchmark (grouped by ``run_name``, else ``name``) form its sample, in the
unit of its first repetition (repetitions in other time units are converted
exactly). Aggregates (mean, median, stddev, cv, BigO, RMS...) are excluded and
counted in ``Sample.metadata``; benchmarks with aggregates only are listed
there too. ``metric=`` chooses ``real_time`` (default) or ``cpu_time``. A
benchmark that reported an error is an error, naming its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from ..units import canonical, convert, factor
from . import _jsonlines
from ._common import at, json_type, number, positions, sample_or_suite
from ._jsonlines import line_of, value_line
from .options import ReaderOption

METRICS = ("real_time", "cpu_time")


class GoogleBenchmarkReader:
    """Google Benchmark JSON: benchmarks -> name, real_time/cpu_time, time_unit (aggregates excluded)."""

    name = "gbench"
    suffixes = (".json",)
    priority = 10
    options = {"metric": ReaderOption("str", "which time is the measurement", METRICS)}

    def sniff(self, path: Path, head: str) -> bool:
        return '"context"' in head and '"benchmarks"' in head

    def read(self, path: Path, metric: str = "real_time") -> Sample | Suite:
        return _jsonlines.read_with_lines(path, lambda doc: self._convert(doc, path, metric))

    def _convert(self, doc: Any, path: Path, metric: str) -> Sample | Suite:
        entries = doc.get("benchmarks") if isinstance(doc, dict) else None
        if not isinstance(entries, list):
            raise DataError(f"{at(path, line_of(doc))}: not a Google Benchmark file (no \"benchmarks\" array)")
        values: dict[str, list[float]] = {}
        lines: dict[str, list[int]] = {}
        units: dict[str, str] = {}
        converted: dict[str, set[str]] = {}
        aggregates: dict[str, int] = {}
        for i, e in enumerate(entries, 1):
            line = _jsonlines.value_line(entries, i - 1)
            if not isinstance(e, dict) or "name" not in e:
                raise DataError(f"{at(path, line)}: benchmark entry {i} has no \"name\"")
            for key in ("name", "run_name", "run_type", "aggregate_name", "error_message"):
                if key in e and (not isinstance(e[key], str) or (key in ("name", "run_name") and not e[key].strip())):
                    shown = "empty" if isinstance(e[key], str) else json_type(e[key])
                    raise DataError(f"{at(path, value_line(e, key, line))}: benchmark entry {i}: \"{key}\" is "
                                    f"{shown}, not {'a name' if key in ('name', 'run_name') else 'a string'}")
            name = e.get("run_name") or e["name"]
            if not isinstance(e.get("error_occurred", False), bool):
                raise DataError(f"{at(path, value_line(e, 'error_occurred', line))}: benchmark {name!r}: "
                                f"\"error_occurred\" is {json_type(e['error_occurred'])}, not true or false")
            if e.get("error_occurred"):
                raise DataError(f"{at(path, line)}: benchmark {name!r} reported an error: "
                                f"{e.get('error_message', 'no message')}")
            run_type = e.get("run_type", "iteration")
            if run_type not in ("iteration", "aggregate"):
                raise DataError(f"{at(path, value_line(e, 'run_type', line))}: benchmark {name!r}: run_type "
                                f"{run_type!r} is not 'iteration' or 'aggregate'")
            if run_type == "aggregate":
                aggregates[name] = aggregates.get(name, 0) + 1
                continue
            where = at(path, value_line(e, metric, line))
            v = number(e.get(metric), where, f"benchmark {name!r} {metric}")
            raw_unit = e.get("time_unit", "ns")
            if not isinstance(raw_unit, str) or not raw_unit.strip():
                raise DataError(f"{at(path, value_line(e, 'time_unit', line))}: benchmark {name!r}: "
                                f"time_unit {raw_unit!r} is not a unit")
            unit = canonical(raw_unit)
            first = units.setdefault(name, unit)
            if unit != first:  # Google Benchmark picks a unit per benchmark: express repetitions in the first's
                try:
                    factor(unit, first)
                except DataError as exc:
                    raise DataError(f"{where}: benchmark {name!r}: {exc}") from None
                v = float(convert(np.array([v]), unit, first)[0])
                converted.setdefault(name, set()).add(unit)
            values.setdefault(name, []).append(v)
            lines.setdefault(name, []).append(value_line(e, metric, line))
        if not values:
            raise DataError(f"{path}: no benchmark measurements (only aggregates? run with "
                            "--benchmark_report_aggregates_only=false)")
        aggregate_only = sorted(set(aggregates) - set(values))
        data = {}
        for name, vals in values.items():
            metadata: dict[str, Any] = {"format": "google-benchmark", "metric": metric,
                                        "aggregates_excluded": aggregates.get(name, 0)}
            if name in converted:
                metadata["converted_from"] = sorted(converted[name])
            if aggregate_only:
                metadata["aggregate_only_benchmarks_excluded"] = aggregate_only
            data[name] = {path.name: Sample(vals, unit=units[name], lower_is_better=True, name=path.name,
                                            source=str(path), metadata=metadata,
                                            positions=positions(lines[name]))}
        return sample_or_suite(data, path)
