"""Google Benchmark's ``--benchmark_format=json`` (or ``--benchmark_out``) files.

``{"context": {...}, "benchmarks": [{"name", "run_name", "run_type",
"repetition_index", "real_time", "cpu_time", "time_unit", ...}]}``. Every
``run_type == "iteration"`` entry is one measurement (its per-iteration time);
repetitions of a benchmark form its sample. Aggregates (mean, median, stddev,
cv, BigO...) are excluded and counted in ``Sample.metadata``. ``metric=``
chooses ``real_time`` (default) or ``cpu_time``. A benchmark that reported an
error is an error, naming its line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import UNIT_ALIASES, at, number, sample_or_suite
from ._jsonlines import line_of


class GoogleBenchmarkReader:
    """Google Benchmark JSON: benchmarks -> name, real_time/cpu_time, time_unit (aggregates excluded)."""

    name = "gbench"
    suffixes = (".json",)
    priority = 10

    def sniff(self, path: Path, head: str) -> bool:
        return '"context"' in head and '"benchmarks"' in head

    def read(self, path: Path, metric: str = "real_time", **options: Any) -> Sample | Suite:
        if options:
            raise DataError(f"{path}: the Google Benchmark format takes only metric=, not {sorted(options)}")
        if metric not in ("real_time", "cpu_time"):
            raise DataError(f"{path}: metric must be 'real_time' or 'cpu_time', got {metric!r}")
        return _jsonlines.read_with_lines(path, lambda doc: self._convert(doc, path, metric))

    def _convert(self, doc: Any, path: Path, metric: str) -> Sample | Suite:
        entries = doc.get("benchmarks") if isinstance(doc, dict) else None
        if not isinstance(entries, list):
            raise DataError(f"{at(path, line_of(doc))}: not a Google Benchmark file (no \"benchmarks\" array)")
        values: dict[str, list[float]] = {}
        units: dict[str, str] = {}
        aggregates: dict[str, int] = {}
        for i, e in enumerate(entries, 1):
            line = line_of(e, line_of(entries))
            if not isinstance(e, dict) or "name" not in e:
                raise DataError(f"{at(path, line)}: benchmark entry {i} has no \"name\"")
            name = str(e.get("run_name") or e["name"])
            if e.get("error_occurred"):
                raise DataError(f"{at(path, line)}: benchmark {name!r} reported an error: "
                                f"{e.get('error_message', 'no message')}")
            if e.get("run_type", "iteration") == "aggregate":
                aggregates[name] = aggregates.get(name, 0) + 1
                continue
            v = number(e.get(metric), at(path, line), f"benchmark {name!r} {metric}")
            unit = UNIT_ALIASES.get(str(e.get("time_unit", "ns")), str(e.get("time_unit", "ns")))
            if units.setdefault(name, unit) != unit:
                raise DataError(f"{at(path, line)}: benchmark {name!r}: time unit {unit!r} where earlier "
                                f"repetitions used {units[name]!r}")
            values.setdefault(name, []).append(v)
        if not values:
            raise DataError(f"{path}: no benchmark measurements (only aggregates? run with "
                            "--benchmark_report_aggregates_only=false)")
        data = {
            name: {path.name: Sample(vals, unit=units[name], lower_is_better=True, name=path.name,
                                     source=str(path),
                                     metadata={"format": "google-benchmark", "metric": metric,
                                               "aggregates_excluded": aggregates.get(name, 0)})}
            for name, vals in values.items()
        }
        return sample_or_suite(data, path)
