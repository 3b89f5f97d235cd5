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

import perfrigor as pr

HEADER = ["Name", "Sample1", "Sample2", "ConfLevel", "Coef"]
SYSTEMS = ("initial", "optimised")


def _fields(line: str) -> list[str]:
    return [f.strip(" \t\r\n") for f in next(csv.reader([line], skipinitialspace=True))]


def _optional_number(raw: str, where: str, what: str) -> float | None:
    if raw in ("", "NA"):
        return None
    return pr.parse_number(raw, where, what)


def _cfg_lines(path: Path) -> list[str]:
    """The cfg's lines; DataError for an unreadable, non-UTF-8 or binary (NUL byte) file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise pr.DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if b"\x00" in raw:
        line = raw[:raw.index(b"\x00")].count(b"\n") + 1
        raise pr.DataError(f"{path}, line {line}: a NUL byte: not a text file (expected the CSV header "
                           f"{','.join(HEADER)})")
    try:
        return raw.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise pr.DataError(f"{path}, line {line}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _sample_file(folder: Path, rel: str, where: str, allow_outside: bool) -> Path:
    """The sample file a row names, relative to the cfg's folder; refused outside it unless allowed.

    A cfg is data, and may come from anyone: by default it reads nothing but files in its own
    folder and below (after following symbolic links), so that ``/etc/passwd`` or ``../../x``
    cannot be read through it. ``allow_outside=True`` lifts this.
    """
    if not rel:
        raise pr.DataError(f"{where}: empty sample file name")
    file = (folder / rel).resolve()
    if not allow_outside and not file.is_relative_to(folder.resolve()):
        raise pr.DataError(f"{where}: sample file {rel!r} is outside the cfg's folder {str(folder)!r}; a cfg reads "
                           "only files in its folder (allow others with the reader option allow_outside=true)")
    if not file.is_file():
        raise pr.DataError(f"{where}: sample file {rel!r} not found (looked for {file})")
    return file


def _read_sample(file: Path, where: str, lower_is_better: bool, unit: str) -> pr.Sample:
    """One execution time per line (blank lines and '#' comments skipped).

    A line that is not a number is named by its number and what was expected, never shown: the
    file may not be a measurement file at all, and its text must not reach a terminal or a log.
    """
    try:
        text = file.read_bytes()
    except OSError as exc:
        raise pr.DataError(f"{where}: cannot read sample file {file}: {exc.strerror or exc}") from None
    if b"\x00" in text:
        raise pr.DataError(f"{file}: a NUL byte: not a text file (expected one execution time per line; "
                           f"named in {where})")
    try:
        lines = text.decode("utf-8-sig").split("\n")
    except UnicodeDecodeError:
        raise pr.DataError(f"{file}: not UTF-8 text (expected one execution time per line; named in {where})") from None
    values, positions = [], []
    for lineno, line in enumerate(lines, 1):
        s = line.strip(" \t\r")
        if not s or s.startswith("#"):
            continue
        try:
            values.append(pr.parse_number(s.rstrip(","), f"{file}, line {lineno}"))
        except pr.DataError:
            raise pr.DataError(f"{file}, line {lineno}: not one finite number (expected one execution time per "
                               f"line; the file is named in {where})") from None
        positions.append(lineno)
    if not values:
        raise pr.DataError(f"{file}: no measurements (named in {where})")
    return pr.Sample(values, unit=unit, lower_is_better=lower_is_better, name=file.name, source=str(file),
                     positions=positions)


class SpeedupTestConfigReader:
    """The SpeedupTest tool's ``Name,Sample1,Sample2,ConfLevel,Coef`` configuration file."""

    name = "speedup-test-config"
    suffixes = (".cfg", ".csv")
    priority = 20  # a recognisable header: tried before generic CSV readers
    options = {
        "unit": pr.ReaderOption("str", "the unit of the sample files' values"),
        "lower_is_better": pr.ReaderOption("bool", "whether a lower value is better"),
        "allow_outside": pr.ReaderOption("bool", "read sample files outside the cfg's folder too"),
    }

    def sniff(self, path: Path, head: str) -> bool:
        for line in head.splitlines():
            if line.strip():
                try:
                    return _fields(line) == HEADER
                except (csv.Error, StopIteration):
                    return False
        return False

    def read(self, path: str | Path, lower_is_better: bool = True, unit: str = "s",
             allow_outside: bool = False) -> pr.Suite:
        path = Path(path)
        lines = _cfg_lines(path)
        numbered = [(i, line) for i, line in enumerate(lines, 1) if line.strip()]
        try:
            header_ok = bool(numbered) and _fields(numbered[0][1]) == HEADER
        except csv.Error:
            header_ok = False
        if not header_ok:
            raise pr.DataError(f"{path}, line {numbered[0][0] if numbered else 1}: the header must be exactly "
                               f"{','.join(HEADER)}")
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
                file = _sample_file(path.parent, rel, where, allow_outside)
                if file not in cache:
                    cache[file] = _read_sample(file, where, lower_is_better, unit)
                samples[system] = cache[file]
            data[name] = samples
            info[name] = pr.BenchmarkInfo(weight=weight, confidence=level)
        if not data:
            raise pr.DataError(f"{path}: no benchmark rows after the header")
        return pr.Suite(data, systems=SYSTEMS, info=info, source=str(path))
