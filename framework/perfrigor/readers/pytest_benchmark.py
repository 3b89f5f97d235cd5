"""pytest-benchmark's JSON files (``--benchmark-json=FILE``, or ``--benchmark-save`` with ``--benchmark-save-data``).

::

    {"machine_info": {...}, "commit_info": {...},
     "benchmarks": [{"group": null, "name": "test_sort[1000]", "fullname": "tests/test_sort.py::test_sort[1000]",
                     "params": {"n": 1000}, "stats": {"min": ..., "mean": ..., "rounds": 52, "iterations": 1,
                                                      "data": [0.00123, 0.00119, ...]}}, ...],
     "datetime": "...", "version": "4.0.0"}

``stats.data`` holds one value per round: the round's time divided by its
iterations, in seconds. Each benchmark is named as pytest-benchmark's tables
name it (``name``); when two benchmarks of a file share a name (the same test
name in two modules) they are named by ``fullname``. A file with summary
statistics only (``--benchmark-save`` or ``--benchmark-autosave`` without
``--benchmark-save-data``) cannot be analysed: the reader says so, naming
the option.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import at, lines_of, numbers, positions, sample_or_suite
from ._jsonlines import line_of, value_line

NO_DATA = ("has summary statistics only, not the measurements: save them with pytest's --benchmark-json=FILE, "
           "or --benchmark-save-data with --benchmark-save / --benchmark-autosave")


class PytestBenchmarkReader:
    """pytest-benchmark JSON: benchmarks -> name, stats.data (seconds per iteration, one per round)."""

    name = "pytest-benchmark"
    suffixes = (".json",)
    priority = 10
    options: dict = {}

    def sniff(self, path: Path, head: str) -> bool:
        return ('"machine_info"' in head or '"commit_info"' in head
                or ('"benchmarks"' in head and '"stats"' in head and '"fullname"' in head))

    def read(self, path: Path) -> Sample | Suite:
        return _jsonlines.read_with_lines(path, lambda doc: self._convert(doc, path))

    def _convert(self, doc: Any, path: Path) -> Sample | Suite:
        benches = doc.get("benchmarks") if isinstance(doc, dict) else None
        if not isinstance(benches, list):
            raise DataError(f"{at(path, line_of(doc))}: not a pytest-benchmark file (no \"benchmarks\" array)")
        if not benches:
            raise DataError(f"{at(path, value_line(doc, 'benchmarks'))}: no benchmarks")
        records = []
        for i, bench in enumerate(benches):
            line = value_line(benches, i)
            if not isinstance(bench, dict) or not isinstance(bench.get("name"), str):
                raise DataError(f"{at(path, line)}: benchmark {i + 1} has no \"name\"")
            records.append((bench, line))
        names = [b["name"] for b, _ in records]
        data: dict[str, dict[str, Sample]] = {}
        for bench, line in records:
            name = bench["name"]
            if names.count(name) > 1:
                name = str(bench.get("fullname") or name)
            if name in data:
                raise DataError(f"{at(path, line)}: benchmark {name!r} appears twice")
            data[name] = {path.name: self._sample(bench, name, line, path)}
        return sample_or_suite(data, path)

    @staticmethod
    def _sample(bench: dict, name: str, line: int, path: Path) -> Sample:
        stats = bench.get("stats")
        if not isinstance(stats, dict):
            raise DataError(f"{at(path, line)}: benchmark {name!r} has no \"stats\"")
        raw = stats.get("data")
        if raw is None:
            raise DataError(f"{at(path, value_line(bench, 'stats', line))}: benchmark {name!r} {NO_DATA}")
        data_line = value_line(stats, "data", line)
        if not isinstance(raw, list) or not raw:
            raise DataError(f"{at(path, data_line)}: benchmark {name!r}: \"stats.data\" is not a non-empty array")
        values = numbers(raw, path, f"benchmark {name!r} value")
        metadata: dict[str, Any] = {"format": "pytest-benchmark"}
        if isinstance(stats.get("iterations"), int) and not isinstance(stats.get("iterations"), bool):
            metadata["iterations_per_round"] = stats["iterations"]
        if bench.get("group") is not None:
            metadata["group"] = bench["group"]
        if isinstance(bench.get("params"), dict) and bench["params"]:
            metadata["params"] = dict(bench["params"])
        return Sample(values, unit="s", lower_is_better=True, name=path.name, source=str(path),
                      metadata=metadata, positions=positions(lines_of(raw, data_line)))
