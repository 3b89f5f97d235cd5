"""Reader for the original SpeedupTest tool's configuration CSV (drop-in for its users).

Header exactly ``Name,Sample1,Sample2,ConfLevel,Coef``; one row per benchmark: its name,
the initial (baseline) and optimised (candidate) sample files, relative to the CSV, each
with one execution time per line, then an optional confidence level and weight (``NA`` or
empty: none). The result is a two-system :class:`perfrigor.Suite` whose ``info`` carries
each row's ``confidence`` and ``weight``.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import perfrigor as pr

HEADER = ["Name", "Sample1", "Sample2", "ConfLevel", "Coef"]
SYSTEMS = ("initial", "optimised")


def _fields(line: str) -> list[str]:
    return [f.strip() for f in next(csv.reader([line], skipinitialspace=True))]


def _optional_number(raw: str, where: str, what: str) -> float | None:
    if raw in ("", "NA"):
        return None
    try:
        return float(raw)
    except ValueError:
        raise pr.DataError(f"{where}: {what} {raw!r} is not a number (or NA)") from None


class SpeedupTestConfigReader:
    """The SpeedupTest tool's ``Name,Sample1,Sample2,ConfLevel,Coef`` configuration file."""

    name = "speedup-test-config"
    suffixes = (".cfg", ".csv")
    priority = 20  # a recognisable header: tried before generic CSV readers

    def sniff(self, path: Path, head: str) -> bool:
        for line in head.splitlines():
            if line.strip():
                try:
                    return _fields(line) == HEADER
                except (csv.Error, StopIteration):
                    return False
        return False

    def read(self, path: str | Path, lower_is_better: bool = True, unit: str = "s", **options: Any) -> pr.Suite:
        if options:
            raise pr.DataError(f"{path}: the speedup-test-config format takes only unit= and lower_is_better=, "
                               f"not {sorted(options)}")
        path = Path(path)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise pr.DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise pr.DataError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        numbered = [(i, line) for i, line in enumerate(lines, 1) if line.strip()]
        if not numbered or _fields(numbered[0][1]) != HEADER:
            raise pr.DataError(f"{path}, line 1: the header must be exactly {','.join(HEADER)}")
        cache: dict[Path, pr.Sample] = {}
        data: dict[str, dict[str, pr.Sample]] = {}
        info: dict[str, pr.BenchmarkInfo] = {}
        for lineno, line in numbered[1:]:
            where = f"{path}, line {lineno}"
            try:
                fields = _fields(line)
            except csv.Error as exc:
                raise pr.DataError(f"{where}: {exc}") from None
            if len(fields) != 5:
                raise pr.DataError(f"{where}: {len(fields)} field(s), expected 5 ({','.join(HEADER)})")
            name, first, second, level_raw, coef_raw = fields
            if not name:
                raise pr.DataError(f"{where}: empty benchmark Name")
            if name in data:
                raise pr.DataError(f"{where}: benchmark {name!r} appears twice")
            level = _optional_number(level_raw, where, "ConfLevel")
            if level is not None and not 0 < level < 1:
                raise pr.DataError(f"{where}: ConfLevel {level_raw!r} must lie strictly between 0 and 1 (e.g. 0.95)")
            weight = _optional_number(coef_raw, where, "Coef")
            if weight is not None and weight < 0:
                raise pr.DataError(f"{where}: Coef {coef_raw!r} is negative; weights must be >= 0")
            samples = {}
            for system, rel in zip(SYSTEMS, (first, second), strict=True):
                file = (path.parent / rel).resolve()
                if not file.is_file():
                    raise pr.DataError(f"{where}: sample file {rel!r} not found (looked for {file})")
                if file not in cache:
                    sample = pr.read(file, format="values", lower_is_better=lower_is_better, unit=unit)
                    cache[file] = sample
                samples[system] = cache[file]
            data[name] = samples
            info[name] = pr.BenchmarkInfo(weight=weight, confidence=level)
        if not data:
            raise pr.DataError(f"{path}: no benchmark rows after the header")
        return pr.Suite(data, systems=SYSTEMS, info=info, source=str(path))
