"""JMH's JSON results (``-rf json``): one record per benchmark, mode and parameter set.

::

    [{"benchmark": "org.example.Bench.sort", "mode": "avgt", "forks": 5,
      "params": {"size": "1000"},
      "primaryMetric": {"score": 12.3, "scoreUnit": "us/op",
                        "rawData": [[12.1, 12.4, 12.2], [12.6, 12.3, 12.5], ...]},
      "secondaryMetrics": {"·gc.alloc.rate": {...}}}, ...]

``rawData`` holds one array per fork (a JVM process) of the measurement
iterations: with several forks of equal length the sample is hierarchical,
levels ``("fork", "iteration")`` (the hierarchy Kalibera & Jones ask for);
with one fork it is flat (``iteration``); forks of unequal length are
flattened, and the metadata says so. Sample mode's ``rawDataHistogram``
(value, count pairs) is expanded into its values.

The benchmark's name is JMH's full name, its parameters as JMH prints them,
and its mode: ``org.example.Bench.sort(size=1000) [avgt]``. Throughput
(``thrpt``) is higher-is-better; average time, sample time and single shot
(``avgt``, ``sample``, ``ss``) lower-is-better. The unit is ``scoreUnit``
(``ops/ms``, ``us/op`` ...). ``metric=`` picks a secondary metric (a
profiler's, e.g. ``gc.alloc.rate.norm``, with or without JMH's leading ``·``);
its direction follows its unit (operations per time: higher is better; other
units: lower), or ``lower_is_better=``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from ..units import lower_is_better as unit_direction
from . import _jsonlines
from ._common import at, lines_of, number, numbers, positions, sample_or_suite
from ._jsonlines import line_of, value_line
from .options import LOWER_IS_BETTER, ReaderOption

#: JMH modes, and whether a lower score is better
MODES = {"thrpt": False, "avgt": True, "sample": True, "ss": True}
MODE_ALIASES = {"throughput": "thrpt", "averagetime": "avgt", "sampletime": "sample", "singleshottime": "ss"}
#: the most values a sample-mode histogram is expanded into
MAX_HISTOGRAM_VALUES = 10_000_000


def benchmark_name(record: dict, mode: str) -> str:
    """``benchmark(p=v, ...) [mode]``: unique per record of a JMH run, the same across runs."""
    params = record.get("params") or {}
    shown = f"({', '.join(f'{k}={v}' for k, v in params.items())})" if isinstance(params, dict) and params else ""
    return f"{record['benchmark']}{shown} [{mode}]"


class JmhReader:
    """JMH JSON (-rf json): rawData forks x iterations, mode, scoreUnit, params; secondary metrics by metric=."""

    name = "jmh"
    suffixes = (".json",)
    priority = 10
    options = {"metric": ReaderOption("str", "a secondary metric to read (e.g. gc.alloc.rate.norm)"),
               "lower_is_better": LOWER_IS_BETTER}

    def sniff(self, path: Path, head: str) -> bool:
        return (re.match(r"\s*\[\s*\{", head) is not None
                and ('"primaryMetric"' in head or ('"benchmark"' in head and '"mode"' in head)))

    def read(self, path: Path, metric: str | None = None, lower_is_better: bool | None = None) -> Sample | Suite:
        return _jsonlines.read_with_lines(path, lambda doc: self._convert(doc, path, metric, lower_is_better))

    def _convert(self, doc: Any, path: Path, metric: str | None, lower_is_better: bool | None) -> Sample | Suite:
        if not isinstance(doc, list) or not doc:
            raise DataError(f"{at(path, line_of(doc))}: not a JMH result file (expected a non-empty array of "
                            "benchmark records)")
        data: dict[str, dict[str, Sample]] = {}
        where_first: dict[str, int] = {}
        for i, record in enumerate(doc):
            line = value_line(doc, i)
            if not isinstance(record, dict) or not isinstance(record.get("benchmark"), str):
                raise DataError(f"{at(path, line)}: record {i + 1} has no \"benchmark\" name")
            mode = _mode(record, path, line)
            name = benchmark_name(record, mode)
            if name in where_first:
                raise DataError(f"{at(path, line)}: benchmark {name!r} appears twice (first on line "
                                f"{where_first[name]})")
            where_first[name] = line
            block, metric_name = _metric(record, metric, path, line, name)
            direction = lower_is_better
            if direction is None:
                if metric_name == "primary":
                    direction = MODES[mode]
                else:
                    unit_says = unit_direction(str(block.get("scoreUnit", "")))
                    direction = True if unit_says is None else unit_says
            data[name] = {path.name: _sample(record, block, metric_name, mode, direction, path, name)}
        return sample_or_suite(data, path)


def _mode(record: dict, path: Path, line: int) -> str:
    raw = record.get("mode")
    mode = MODE_ALIASES.get(str(raw).lower(), str(raw)) if raw is not None else None
    if mode not in MODES:
        raise DataError(f"{at(path, value_line(record, 'mode', line))}: benchmark {record['benchmark']!r}: "
                        f"mode {raw!r} is not a JMH mode ({', '.join(MODES)})")
    return mode


def _metric(record: dict, metric: str | None, path: Path, line: int, name: str) -> tuple[dict, str]:
    """The metric's block of the record, and its name ("primary" for the primary metric)."""
    if metric is None or metric == "primary":
        block = record.get("primaryMetric")
        if not isinstance(block, dict):
            raise DataError(f"{at(path, line)}: benchmark {name!r} has no \"primaryMetric\"")
        return block, "primary"
    secondary = record.get("secondaryMetrics") or {}
    if not isinstance(secondary, dict):
        raise DataError(f"{at(path, value_line(record, 'secondaryMetrics', line))}: benchmark {name!r}: "
                        "\"secondaryMetrics\" is not an object")
    bare = metric.lstrip("·")
    for key, block in secondary.items():
        if key.lstrip("·") == bare and isinstance(block, dict):
            return block, key
    known = ", ".join(k.lstrip("·") for k in secondary) or "none"
    raise DataError(f"{at(path, line)}: benchmark {name!r} has no metric {metric!r} (secondary metrics: {known}; "
                    "the primary metric is the default)")


def _sample(record: dict, block: dict, metric_name: str, mode: str, lower_is_better: bool, path: Path,
            name: str) -> Sample:
    unit = block.get("scoreUnit")
    if not isinstance(unit, str) or not unit.strip():
        raise DataError(f"{at(path, line_of(block))}: benchmark {name!r}: no \"scoreUnit\"")
    what = f"benchmark {name!r}" + ("" if metric_name == "primary" else f", metric {metric_name!r}")
    if "rawData" in block:
        forks, fork_lines = _raw_data(block["rawData"], path, what, value_line(block, "rawData"))
        source_key = "rawData"
    elif "rawDataHistogram" in block:
        forks, fork_lines = _histogram(block["rawDataHistogram"], path, what, value_line(block, "rawDataHistogram"))
        source_key = "rawDataHistogram"
    else:
        raise DataError(f"{at(path, line_of(block))}: {what} has a score but no \"rawData\" (the measurements)")
    metadata: dict[str, Any] = {"format": "jmh", "mode": mode, "metric": metric_name, "forks": len(forks),
                                "from": source_key}
    for key in ("threads", "jmhVersion", "measurementIterations"):
        if key in record:
            metadata[key] = record[key]
    for key, label in (("score", "jmh_score"), ("scoreError", "jmh_score_error")):
        if isinstance(block.get(key), int | float) and not isinstance(block.get(key), bool):
            metadata[label] = block[key]
    if isinstance(record.get("params"), dict) and record["params"]:
        metadata["params"] = dict(record["params"])
    counts = {len(f) for f in forks}
    empty = sum(1 for f in forks if not f)
    if empty:
        metadata["empty_forks"] = empty
    kept = [(f, ln) for f, ln in zip(forks, fork_lines, strict=True) if f]
    if not kept:
        raise DataError(f"{at(path, line_of(block))}: {what}: \"{source_key}\" holds no measurements")
    if len(kept) > 1 and len(counts - {0}) == 1 and not empty:
        values = np.array([f for f, _ in kept], dtype=float)  # balanced: no nested-list walk in Sample
        lines, levels = [ln for _, ln in kept], ("fork", "iteration")
    else:
        values = [v for f, _ in kept for v in f]
        lines = [x for _, ln in kept for x in ln]
        levels = ("iteration",)
        if len(counts - {0}) > 1:
            metadata["flattened"] = f"forks have unequal numbers of iterations {sorted(counts)}"
    return Sample(values, levels=levels, unit=unit.strip(), lower_is_better=lower_is_better, name=path.name,
                  source=str(path), metadata=metadata, positions=positions(lines))


def _raw_data(raw: Any, path: Path, what: str, line: int) -> tuple[list[list[float]], list[list[int]]]:
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{at(path, line)}: {what}: \"rawData\" is not an array of forks")
    forks, lines = [], []
    for k, fork in enumerate(raw):
        fork_line = value_line(raw, k, line)
        if not isinstance(fork, list):
            raise DataError(f"{at(path, fork_line)}: {what}: fork {k + 1} of \"rawData\" is not an array")
        forks.append(numbers(fork, path, f"{what}, fork {k + 1} value"))
        lines.append(lines_of(fork, fork_line))
    return forks, lines


def _histogram(raw: Any, path: Path, what: str, line: int) -> tuple[list[list[float]], list[list[int]]]:
    """Sample mode: per fork, per iteration, ``[[value, count], ...]`` -> each fork's values."""
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{at(path, line)}: {what}: \"rawDataHistogram\" is not an array of forks")
    forks, lines, total = [], [], 0
    for k, fork in enumerate(raw):
        fork_line = value_line(raw, k, line)
        if not isinstance(fork, list):
            raise DataError(f"{at(path, fork_line)}: {what}: fork {k + 1} of \"rawDataHistogram\" is not an array")
        values: list[float] = []
        where: list[int] = []
        for j, iteration in enumerate(fork):
            it_line = value_line(fork, j, fork_line)
            if not isinstance(iteration, list):
                raise DataError(f"{at(path, it_line)}: {what}: fork {k + 1}, iteration {j + 1} is not an array")
            for b, pair in enumerate(iteration):
                pair_line = value_line(iteration, b, it_line)
                if not isinstance(pair, list) or len(pair) != 2:
                    raise DataError(f"{at(path, pair_line)}: {what}: histogram entries are [value, count] pairs")
                value = number(pair[0], at(path, pair_line), f"{what} histogram value")
                count = number(pair[1], at(path, pair_line), f"{what} histogram count")
                if count < 0 or not count.is_integer():
                    raise DataError(f"{at(path, pair_line)}: {what}: histogram count {pair[1]!r} is not a "
                                    "whole number >= 0")
                total += int(count)
                if total > MAX_HISTOGRAM_VALUES:
                    raise DataError(f"{at(path, pair_line)}: {what}: the histogram holds more than "
                                    f"{MAX_HISTOGRAM_VALUES:,} values")
                values.extend([value] * int(count))
                where.extend([pair_line] * int(count))
        forks.append(values)
        lines.append(where)
    return forks, lines

