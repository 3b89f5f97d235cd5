"""hyperfine's ``--export-json`` files: ``{"results": [{"command": ..., "times": [...], ...}]}``.

Each command is a system (its ``command`` string names it); times are in
seconds. One command gives a Sample; several give a Suite with one benchmark
(named after the file) and one system per command. Runs with a non-zero exit
code (kept by ``hyperfine -i``) are kept and counted in ``Sample.metadata``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import at, lines_of, numbers, positions, sample_or_suite
from ._jsonlines import line_of, value_line


class HyperfineReader:
    """hyperfine JSON export: results -> command -> times (seconds)."""

    name = "hyperfine"
    suffixes = (".json",)
    priority = 10

    def sniff(self, path: Path, head: str) -> bool:
        return '"results"' in head and '"command"' in head

    def read(self, path: Path, benchmark: str | None = None, **options: Any) -> Sample | Suite:
        if options:
            raise DataError(f"{path}: the hyperfine format takes only benchmark=, not {sorted(options)}")
        return _jsonlines.read_with_lines(path, lambda doc: self._convert(doc, path, benchmark))

    def _convert(self, doc: Any, path: Path, benchmark: str | None) -> Sample | Suite:
        results = doc.get("results") if isinstance(doc, dict) else None
        if not isinstance(results, list) or not results:
            raise DataError(f"{at(path, line_of(doc))}: not a hyperfine export (no \"results\" array)")
        systems: dict[str, Sample] = {}
        for i, res in enumerate(results, 1):
            if not isinstance(res, dict) or not isinstance(res.get("command"), str):
                raise DataError(f"{at(path, line_of(res, line_of(results)))}: result {i} has no \"command\"")
            command = res["command"]
            if command in systems:
                raise DataError(f"{at(path, line_of(res))}: command {command!r} appears twice")
            times = res.get("times")
            if not isinstance(times, list) or not times:
                raise DataError(f"{at(path, line_of(res))}: command {command!r} has no \"times\" "
                                "(export with a hyperfine recent enough to write them)")
            values = numbers(times, path, f"command {command!r} time")
            metadata: dict[str, Any] = {"format": "hyperfine"}
            codes = res.get("exit_codes") or []
            failed = sum(1 for c in codes if c not in (0, None))
            if failed:
                metadata["failed_runs_kept"] = failed
            if res.get("parameters"):
                metadata["parameters"] = dict(res["parameters"])
            systems[command] = Sample(values, unit="s", lower_is_better=True, name=command,
                                      source=str(path), metadata=metadata,
                                      positions=positions(lines_of(times, value_line(res, "times"))))
        return sample_or_suite({benchmark or path.stem: systems}, path, named=benchmark is not None)
