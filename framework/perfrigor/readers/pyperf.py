"""pyperf result files (``python -m pyperf ... -o bench.json``).

Layout: ``{"version": "1.0", "metadata": {...}, "benchmarks": [{"metadata":
{"name": ...}, "runs": [{"warmups": [[loops, value], ...], "values": [...]}]}]}``.
Values are per-loop (pyperf normalises them). Warmups and calibration runs
(runs with warmups but no values) are excluded and counted in
``Sample.metadata``. A run is one process (an invocation): when every run has
the same number of values > 1 the sample is hierarchical, levels
``("run", "value")``; otherwise it is flat (level ``value``) and the metadata
says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import (
    UNIT_ALIASES,
    at,
    json_type,
    lines_of,
    number,
    numbers,
    positions,
    sample_or_suite,
)
from ._jsonlines import line_of, value_line


class PyperfReader:
    """pyperf JSON: benchmarks -> runs -> values (warmups excluded and counted)."""

    name = "pyperf"
    suffixes = (".json", ".json.gz")
    priority = 10
    options: dict = {}

    def sniff(self, path: Path, head: str) -> bool:
        return ('"benchmarks"' in head and '"runs"' in head and '"context"' not in head
                and '"machine_info"' not in head)

    def read(self, path: Path) -> Sample | Suite:
        return _jsonlines.read_with_lines(path, lambda doc: self._convert(doc, path))

    def _convert(self, doc: Any, path: Path) -> Sample | Suite:
        if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
            raise DataError(f"{at(path, line_of(doc))}: not a pyperf file (no \"benchmarks\" array)")
        common = _object(doc, "metadata", path, "the file's \"metadata\"")
        benches = doc["benchmarks"]
        if not benches:
            raise DataError(f"{at(path, line_of(benches))}: no benchmarks")
        data: dict[str, dict[str, Sample]] = {}
        for i, bench in enumerate(benches):
            if not isinstance(bench, dict):
                raise DataError(f"{at(path, line_of(benches))}: benchmark {i + 1} is not an object")
            meta = {**common, **_object(bench, "metadata", path, f"benchmark {i + 1}: \"metadata\"")}
            name = meta.get("name", f"benchmark{i + 1}")
            if not isinstance(name, str) or not name.strip():
                where = value_line(bench.get("metadata"), "name", line_of(bench))
                raise DataError(f"{at(path, where)}: benchmark {i + 1}: \"name\" is "
                                f"{'empty' if isinstance(name, str) else json_type(name)}, not a name")
            if name in data:
                raise DataError(f"{at(path, line_of(bench))}: benchmark {name!r} appears twice")
            data[name] = {path.name: self._sample(bench, meta, name, path)}
        return sample_or_suite(data, path)

    @staticmethod
    def _sample(bench: dict, meta: dict, name: str, path: Path) -> Sample:
        runs = bench.get("runs")
        if not isinstance(runs, list) or not runs:
            raise DataError(f"{at(path, line_of(bench))}: benchmark {name!r} has no runs")
        per_run: list[list[float]] = []
        per_run_lines: list[list[int]] = []
        warmups = calibration = 0
        for r, run in enumerate(runs, 1):
            if not isinstance(run, dict):
                raise DataError(f"{at(path, line_of(runs))}: benchmark {name!r}, run {r} is not an object")
            what = f"benchmark {name!r}, run {r}"
            _object(run, "metadata", path, f"{what}: \"metadata\"")
            values = _array(run, "values", path, what)
            warmups += len(_warmups(run, path, what))
            if not values:
                calibration += 1  # a calibration run: warmups only
                continue
            per_run.append(numbers(values, path, f"benchmark {name!r}, run {r} value"))
            per_run_lines.append(lines_of(values, value_line(run, "values")))
        if not per_run:
            raise DataError(f"{at(path, line_of(bench))}: benchmark {name!r} has runs but no values "
                            "(only warmups / calibration)")
        counts = {len(v) for v in per_run}
        metadata: dict[str, Any] = {"format": "pyperf", "runs": len(per_run), "warmups_excluded": warmups,
                                    "calibration_runs_excluded": calibration}
        if len(counts) == 1 and len(per_run) > 1 and counts != {1}:
            # balanced: an array, so Sample need not walk nested lists to check the shape
            values, lines, levels = np.array(per_run, dtype=float), per_run_lines, ("run", "value")
        else:
            values = [v for run in per_run for v in run]
            lines = [ln for run in per_run_lines for ln in run]
            levels = ("value",)
            if len(counts) > 1:
                metadata["flattened"] = f"runs have unequal numbers of values {sorted(counts)}"
        unit_name = meta.get("unit", "second")
        if not isinstance(unit_name, str):
            raise DataError(f"{at(path, line_of(bench))}: benchmark {name!r}: \"unit\" is {json_type(unit_name)}, "
                            "not a unit")
        unit = UNIT_ALIASES.get(unit_name, unit_name)
        return Sample(values, levels=levels, unit=unit, lower_is_better=True, name=path.name,
                      source=str(path), metadata=metadata, positions=positions(lines))


def _object(parent: dict, key: str, path: Path, what: str) -> dict:
    """``parent[key]``, a JSON object (``{}`` when absent); DataError for another type."""
    value = parent.get(key, {})
    if not isinstance(value, dict):
        raise DataError(f"{at(path, value_line(parent, key))}: {what} is {json_type(value)}, not an object")
    return value


def _array(parent: dict, key: str, path: Path, what: str) -> list:
    """``parent[key]``, a JSON array (``[]`` when absent); DataError for another type."""
    value = parent.get(key, [])
    if not isinstance(value, list):
        raise DataError(f"{at(path, value_line(parent, key))}: {what}: \"{key}\" is {json_type(value)}, "
                        "not an array")
    return value


def _warmups(run: dict, path: Path, what: str) -> list:
    """A run's warmups: ``[[loops, value], ...]`` as pyperf writes them (only counted, but checked)."""
    warm = _array(run, "warmups", path, what)
    for k, pair in enumerate(warm):
        if not (isinstance(pair, list) and len(pair) == 2):
            raise DataError(f"{at(path, value_line(warm, k))}: {what}: warmup {k + 1} is {json_type(pair)}, "
                            "not a [loops, value] pair")
        number(pair[0], at(path, value_line(warm, k)), f"{what}: warmup {k + 1} loops")
        number(pair[1], at(path, value_line(warm, k)), f"{what}: warmup {k + 1} value")
    return warm
