"""Tidy tables (CSV or JSON records): one row per measurement.

Columns: a benchmark, a system, optional level columns (outermost first, e.g.
build, invocation, iteration) and a value. The mapping is given with options
(``benchmark=``, ``system=``, ``value=``, ``levels=[...]``, ``unit=``,
``lower_is_better=``) or detected from common column names. Each
(benchmark, system) becomes one balanced hierarchical Sample; units with the
wrong number of measurements are an error, never trimmed.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import UNIT_ALIASES, at, number, positions, read_text, sample_or_suite

VALUE_NAMES = ("value", "time", "times", "seconds", "secs", "sec", "runtime", "duration", "elapsed",
               "wall", "wall_time", "walltime", "real", "real_time", "ms", "us", "ns", "cycles",
               "measurement", "throughput", "score", "rate", "ops", "speed")
BENCHMARK_NAMES = ("benchmark", "bench", "benchmark_name", "name", "test", "workload", "program", "case")
SYSTEM_NAMES = ("system", "version", "config", "configuration", "variant", "compiler", "commit",
                "revision", "executable", "implementation", "vm", "label")
#: level columns recognised without being named, outermost first (this order is used)
LEVEL_NAMES = ("build", "compilation", "process", "fork", "invocation", "execution", "run", "trial",
               "repetition", "rep", "iteration", "iter")
HIGHER_IS_BETTER = ("throughput", "score", "rate", "ops", "speed")
_UNIT_IN_NAME = re.compile(r"^(?P<base>.*?)[\s_\-]*[(\[]?(?P<unit>ms|us|µs|ns|s|sec|secs|seconds|"
                           r"milliseconds|microseconds|nanoseconds|cycles)[)\]]?$", re.IGNORECASE)
OPTIONS = ("benchmark", "system", "value", "levels", "unit", "lower_is_better")


def _norm(name: str) -> str:
    return name.strip().lower()


def _split_unit(column: str) -> tuple[str, str | None]:
    """``"time_ms"`` / ``"time (ms)"`` -> ("time", "ms"); ``"ms"`` -> ("ms", "ms")."""
    if _norm(column) in UNIT_ALIASES:
        return _norm(column), UNIT_ALIASES[_norm(column)]
    m = _UNIT_IN_NAME.match(column.strip())
    if m and m.group("base"):
        return _norm(m.group("base")), UNIT_ALIASES.get(m.group("unit").lower(), m.group("unit"))
    return _norm(column), None


def _find(columns: Sequence[str], names: Iterable[str]) -> str | None:
    by_norm = {_norm(c): c for c in columns}
    for n in names:
        if n in by_norm:
            return by_norm[n]
    return None


class ColumnMap:
    """Which column plays which role, resolved against a header."""

    def __init__(self, columns: Sequence[str], where: str, benchmark: str | None = None,
                 system: str | None = None, value: str | None = None,
                 levels: Sequence[str] | str | None = None, unit: str | None = None,
                 lower_is_better: bool | None = None) -> None:
        self.where = where
        cols = list(columns)
        missing = [c for c in (benchmark, system, value) if c is not None and c not in cols]
        if isinstance(levels, str):
            levels = [levels]
        missing += [c for c in (levels or []) if c not in cols]
        if missing:
            raise DataError(f"{where}: no column(s) {missing}; columns are {cols}")
        if value is None:
            value = _find(cols, VALUE_NAMES)
            if value is None:
                value = next((c for c in cols if _split_unit(c)[1] is not None
                              and _split_unit(c)[0] in VALUE_NAMES), None)
        if value is None:
            raise DataError(f"{where}: cannot tell which column holds the measurements (columns: {cols}); "
                            "name it with value=... (CLI: a [input] table in the config, value = \"...\")")
        self.value = value
        self.benchmark = benchmark or _find([c for c in cols if c != value], BENCHMARK_NAMES)
        self.system = system or _find([c for c in cols if c not in (value, self.benchmark)], SYSTEM_NAMES)
        if levels is None:
            taken = {value, self.benchmark, self.system}
            by_norm = {_norm(c): c for c in cols if c not in taken}
            levels = [by_norm[n] for n in LEVEL_NAMES if n in by_norm]
        self.levels = list(levels)
        self.unit_column = _find(cols, ("unit",)) if unit is None else None
        base, name_unit = _split_unit(value)
        self.unit = unit or name_unit or "s"
        if lower_is_better is None:
            lower_is_better = base not in HIGHER_IS_BETTER
        if not isinstance(lower_is_better, bool):
            raise DataError(f"{where}: lower_is_better must be true or false, got {lower_is_better!r}")
        self.lower_is_better = lower_is_better


def _check_options(options: Mapping[str, Any], where: str) -> None:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise DataError(f"{where}: unknown reader option(s) {unknown}; tidy tables take {list(OPTIONS)}")


class _Unit:
    """A node of the level tree: children in order of first appearance, or rows at the bottom."""

    __slots__ = ("children", "rows", "line")

    def __init__(self, line: int) -> None:
        self.children: dict[str, _Unit] = {}
        self.rows: list[tuple[int, float]] = []
        self.line = line


def _nest(root: _Unit, depth: int, level_names: Sequence[str], label: str, where: Path) -> tuple[list, list]:
    """Nested lists of values (and of their lines) from the level tree, checking every unit has the same count."""
    # walk level by level so the first unit with a different count is named
    frontier: list[tuple[str, _Unit]] = [("", root)]
    for d in range(depth):
        counts = [len(u.children) for _, u in frontier]
        ref = counts[0]
        for (name, unit), n in zip(frontier, counts, strict=True):
            if n != ref:
                first = frontier[0][0] or "the sample"
                raise DataError(f"{at(where, unit.line)}: {label}: unbalanced: {name or 'the sample'} has {n} "
                                f"{level_names[d]}(s) where {first} has {ref} (hierarchical samples "
                                "must be balanced; nothing is trimmed)")
        frontier = [(f"{name + ', ' if name else ''}{level_names[d]} {key}", child)
                    for name, unit in frontier for key, child in unit.children.items()]
    counts = [len(u.rows) for _, u in frontier]
    ref = counts[0]
    for (name, unit), n in zip(frontier, counts, strict=True):
        if n != ref:
            raise DataError(f"{at(where, unit.line)}: {label}: unbalanced: {name or 'the sample'} has {n} "
                            f"measurement(s) where {frontier[0][0] or 'the sample'} has {ref} (hierarchical "
                            "samples must be balanced; nothing is trimmed)")

    def build(unit: _Unit, d: int, part: int) -> Any:
        if d == depth:
            vals = [row[part] for row in unit.rows]
            return vals if ref > 1 or depth == 0 else vals[0]
        return [build(child, d + 1, part) for child in unit.children.values()]

    return build(root, 0, 1), build(root, 0, 0)


def build_table(rows: Iterable[tuple[int, Mapping[str, Any]]], columns: Sequence[str], path: Path,
                positioned: bool = True, **options: Any) -> Sample | Suite:
    """Group ``(line, row)`` records into ``{benchmark: {system: Sample}}``.

    ``positioned``: record each value's line in ``Sample.positions`` (not for DataFrames, which have rows).
    """
    _check_options(options, str(path))
    m = ColumnMap(columns, str(path), **options)
    default_bench = path.stem
    default_system = path.name
    groups: dict[str, dict[str, _Unit]] = {}
    units: dict[tuple[str, str], set[str]] = {}
    depth = len(m.levels)
    for line, row in rows:
        bench = default_bench if m.benchmark is None else _label(row.get(m.benchmark), path, line, m.benchmark)
        system = default_system if m.system is None else _label(row.get(m.system), path, line, m.system)
        raw = row.get(m.value)
        value = _fast_float(raw)
        if value is None:  # not a plain finite number: let number() say what is wrong, and where
            value = number(raw, at(path, line), f"{m.value!r}")
        node = groups.setdefault(bench, {}).get(system)
        if node is None:
            node = groups[bench][system] = _Unit(line)
        for level in m.levels:
            key = _label(row.get(level), path, line, level)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Unit(line)
            node = child
        key_lines = getattr(row, "key_lines", None)  # a JSON record knows the line of each of its values
        node.rows.append((key_lines.get(m.value, line) if key_lines else line, value))
        if m.unit_column is not None:
            units.setdefault((bench, system), set()).add(_label(row.get(m.unit_column), path, line, m.unit_column))
    if not groups:
        raise DataError(f"{path}: no measurements (only a header)")
    data: dict[str, dict[str, Sample]] = {}
    for bench, systems in groups.items():
        data[bench] = {}
        for system, root in systems.items():
            label = f"benchmark {bench!r}, system {system!r}"
            nested, lines = _nest(root, depth, m.levels, label, path)
            level_names = list(m.levels)
            arr = np.asarray(nested, dtype=float)
            where = np.asarray(lines, dtype=np.int64).reshape(arr.shape)
            if arr.ndim > depth > 0:  # several rows per deepest unit: an implicit innermost level
                level_names.append("iteration" if "iteration" not in level_names else "repetition")
            if arr.ndim == 0:
                arr, where = arr.reshape(1), where.reshape(1)
                level_names = level_names or ["run"]
            unit = m.unit
            if (bench, system) in units:
                found = units[(bench, system)]
                if len(found) > 1:
                    raise DataError(f"{path}: {label}: several units {sorted(found)} in column {m.unit_column!r}")
                unit = found.pop()
            data[bench][system] = Sample(arr, levels=level_names or None, unit=unit,
                                         lower_is_better=m.lower_is_better,
                                         name=system if m.system is not None else path.name,
                                         source=str(path), positions=positions(where) if positioned else None)
    return sample_or_suite(data, path, named=m.benchmark is not None)


def _fast_float(raw: Any) -> float | None:
    """``float(raw)`` for a finite number or numeric string, else None (the slow path explains)."""
    kind = type(raw)
    if kind is str or kind is float or kind is int:
        try:
            v = float(raw)
        except (ValueError, OverflowError):
            return None
        return v if math.isfinite(v) else None
    return None


def _label(raw: Any, path: Path, line: int, column: str) -> str:
    """A benchmark, system or level value as a name."""
    if type(raw) is str:
        text = raw.strip()
        if text:
            return text
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise DataError(f"{at(path, line)}: missing {column!r}")
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return str(raw).strip()


# ---------------------------------------------------------------- CSV


def _looks_numeric(cell: str) -> bool:
    try:
        float(cell)
        return True
    except ValueError:
        return False


class TidyCsvReader:
    """CSV/TSV with a header row, one measurement per row (benchmark, system, levels, value)."""

    name = "tidy-csv"
    suffixes = (".csv", ".tsv", ".tab")
    priority = 50

    def sniff(self, path: Path, head: str) -> bool:
        first = next((ln for ln in head.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
        if not first:
            return False
        cells = [c.strip().strip('"') for c in re.split(r"[,\t;]", first)]
        has_header = any(c and not _looks_numeric(c) for c in cells)
        suffix = path.suffix.lower()
        # other tables with a header (a Speedup-Test .cfg, ...) belong to their own readers
        return has_header and (suffix in self.suffixes or (suffix in ("", ".txt", ".dat") and len(cells) > 1))

    def read(self, path: Path, delimiter: str | None = None, **options: Any) -> Sample | Suite:
        text = read_text(path)
        lines = text.splitlines()
        header_index = next((i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")), None)
        if header_index is None:
            raise DataError(f"{path}: empty file")
        if delimiter is None:
            header = lines[header_index]
            delimiter = "\t" if "\t" in header else ";" if ";" in header and "," not in header else ","
        reader = csv.reader(io.StringIO(text), delimiter=delimiter)
        columns: list[str] | None = None
        rows: list[tuple[int, dict[str, str]]] = []
        try:
            for cells in reader:
                line = reader.line_num
                if not cells or not any(c.strip() for c in cells) or cells[0].lstrip().startswith("#"):
                    continue
                if columns is None:
                    columns = [c.strip() for c in cells]
                    dup = sorted({c for c in columns if columns.count(c) > 1})
                    if dup:
                        raise DataError(f"{at(path, line)}: duplicate column name(s) {dup}")
                    continue
                if len(cells) != len(columns):
                    raise DataError(f"{at(path, line)}: {len(cells)} field(s) where the header has {len(columns)}")
                rows.append((line, dict(zip(columns, cells, strict=True))))
        except csv.Error as exc:
            raise DataError(f"{at(path, reader.line_num)}: malformed CSV: {exc}") from None
        assert columns is not None
        return build_table(rows, columns, path, **options)


# ---------------------------------------------------------------- JSON records


class TidyJsonReader:
    """JSON array of records ``[{"benchmark": ..., "system": ..., "value": ...}, ...]``."""

    name = "tidy-json"
    suffixes = (".json",)
    priority = 30

    def sniff(self, path: Path, head: str) -> bool:
        return re.match(r"\s*\[\s*\{", head) is not None

    def read(self, path: Path, **options: Any) -> Sample | Suite:
        return _jsonlines.read_with_lines(path, lambda data: self.from_records(data, path, **options))

    @staticmethod
    def from_records(data: Any, path: Path, **options: Any) -> Sample | Suite:
        if not isinstance(data, list) or not data:
            raise DataError(f"{path}: expected a non-empty JSON array of records")
        columns: dict[str, None] = {}
        rows = []
        for i, rec in enumerate(data):
            line = data.lines[i] if isinstance(data, _jsonlines.JList) else None
            if not isinstance(rec, dict):
                raise DataError(f"{at(path, line)}: record {i + 1} is a {type(rec).__name__}, not an object")
            for k in rec:
                columns.setdefault(k, None)
            rows.append((line or _jsonlines.line_of(rec), rec))
        return build_table(rows, list(columns), path, **options)
