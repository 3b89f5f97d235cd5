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
from ._common import at, json_type, lines_of, numbers, positions, sample_or_suite
from ._jsonlines import line_of, value_line
from .options import ReaderOption


class HyperfineReader:
    """hyperfine JSON export: results -> command -> times (seconds)."""

    name = "hyperfine"
    suffixes = (".json",)
    priority = 10
    options = {"benchmark": ReaderOption("str", "the benchmark's name (default: the file's stem)")}

    def sniff(self, path: Path, head: str) -> bool:
        return '"results"' in head and '"command"' in head

    def read(self, path: Path, benchmark: str | None = None) -> Sample | Suite:
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
            if times is not None and not isinstance(times, list):
                raise DataError(f"{at(path, value_line(res, 'times'))}: command {command!r}: \"times\" is "
                                f"{json_type(times)}, not an array")
            if not times:
                raise DataError(f"{at(path, line_of(res))}: command {command!r} has no \"times\" "
                                "(export with a hyperfine recent enough to write them)")
            values = numbers(times, path, f"command {command!r} time")
            metadata: dict[str, Any] = {"format": "hyperfine"}
            failed = _failed_runs(res, len(times), path, command)
            if failed:
                metadata["failed_runs_kept"] = failed
            parameters = res.get("parameters", {})
            if not isinstance(parameters, dict | type(None)):
                raise DataError(f"{at(path, value_line(res, 'parameters'))}: command {command!r}: \"parameters\" is "
                                f"{json_type(parameters)}, not an object")
            if parameters:
                metadata["parameters"] = dict(parameters)
            systems[command] = Sample(values, unit="s", lower_is_better=True, name=command,
                                      source=str(path), metadata=metadata,
                                      positions=positions(lines_of(times, value_line(res, "times"))))
        return sample_or_suite({benchmark or path.stem: systems}, path, named=benchmark is not None)


def _failed_runs(res: dict, n_times: int, path: Path, command: str) -> int:
    """How many runs exited with a non-zero code: ``exit_codes`` is one integer (or null) per time."""
    if "exit_codes" not in res or res["exit_codes"] is None:
        return 0
    codes = res["exit_codes"]
    where = at(path, value_line(res, "exit_codes"))
    if not isinstance(codes, list):
        raise DataError(f"{where}: command {command!r}: \"exit_codes\" is {json_type(codes)}, not an array")
    if len(codes) != n_times:
        raise DataError(f"{where}: command {command!r}: {len(codes)} exit code(s) for {n_times} time(s); "
                        "hyperfine writes one per run")
    for k, c in enumerate(codes):
        if c is not None and (isinstance(c, bool) or not isinstance(c, int)):
            raise DataError(f"{at(path, value_line(codes, k))}: command {command!r}: exit code {k + 1} is "
                            f"{json_type(c)}, not an integer")
    return sum(1 for c in codes if c not in (0, None))
