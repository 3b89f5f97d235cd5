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

from .. import units
from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import at, json_type, number, positions, read_text, sample_or_suite
from .numbers import is_number
from .options import LOWER_IS_BETTER, UNIT, ReaderOption, check_options

VALUE_NAMES = ("value", "time", "times", "seconds", "secs", "sec", "runtime", "duration", "elapsed",
               "wall", "wall_time", "walltime", "real", "real_time", "ms", "us", "ns", "cycles",
               "measurement", "throughput", "score", "rate", "ops", "speed")
BENCHMARK_NAMES = ("benchmark", "bench", "benchmark_name", "name", "test", "workload", "program", "case")
SYSTEM_NAMES = ("system", "version", "config", "configuration", "variant", "compiler", "commit",
                "revision", "executable", "implementation", "vm", "label")
#: level columns recognised without being named, outermost first (this order is used)
LEVEL_NAMES = ("build", "compilation", "process", "fork", "invocation", "execution", "run", "trial",
               "repetition", "rep", "iteration", "iter")
#: value columns named so (without a unit) hold a rate or a score: higher is better
HIGHER_IS_BETTER = ("throughput", "score", "rate", "ops", "speed", "qps", "rps", "tps", "iops", "bandwidth",
                    "ops_per_sec", "ops_per_second", "items_per_second", "bytes_per_second", "requests_per_second")
#: units that are also ordinary words or abbreviations (``min``imum, ``h``): never taken from a bare name or
#: a ``_suffix``, only from brackets (``time (min)``) or ``unit=``
AMBIGUOUS_UNITS = frozenset({"min", "h", "B", "day", "hr"})
#: units tidy tables write that the unit registry does not know, accepted as a suffix all the same
OTHER_UNITS = frozenset({"cycles"})
_BRACKETED = re.compile(r"^(?P<base>.*?)\s*[(\[](?P<unit>[^()\[\]]+)[)\]]$")
#: a name that says "per unit of time" (``items_per_second``, ``items/s``, ``req per sec``): a rate
_RATE_NAME = re.compile(r"(?:/|(?:^|[\s_\-])per[\s_\-]*)(?:s|secs?|seconds?|ms|msecs?|milliseconds?|us|usecs?|"
                        r"microseconds?|ns|nsecs?|nanoseconds?|min|minutes?|h|hr|hours?)$", re.IGNORECASE)
_SEPARATED = re.compile(r"^(?P<base>.+?)[\s_\-]+(?P<unit>[^\s_\-]+)$")
OPTIONS = {
    "benchmark": ReaderOption("str", "the column naming the benchmark"),
    "system": ReaderOption("str", "the column naming the system (version, configuration...)"),
    "value": ReaderOption("str", "the column holding the measurements"),
    "levels": ReaderOption("names", "the level columns, outermost first (e.g. [\"invocation\", \"iteration\"])"),
    "unit": UNIT,
    "lower_is_better": LOWER_IS_BETTER,
}


def _norm(name: str) -> str:
    return name.strip().lower()


def _known_unit(text: str, bracketed: bool = False) -> str | None:
    """``text`` as a unit: the registry's name (any spelling), a unit of OTHER_UNITS, or None.

    Outside brackets the ambiguous abbreviations (``min``, ``h``) are not units.
    """
    unit = units.canonical(text)
    if units.lookup(text) is None and unit not in OTHER_UNITS:
        return None
    if not bracketed and (text.strip() in AMBIGUOUS_UNITS or unit in AMBIGUOUS_UNITS):
        return None
    return unit


def split_unit(column: str) -> tuple[str, str | None]:
    """A value column's name -> (its base name, the unit it states, or None).

    The unit is taken only where the name states one explicitly: the whole name is a unit
    (``ms``, ``seconds``, ``ops/s``), a unit in brackets (``time (ms)``, ``throughput [ops/s]``),
    or a known unit after a separator (``time_ms``, ``time-ns``, ``latency us``). A bare word is
    never split (``ops`` is not ``op`` + ``s``, ``runtimes`` not ``runtime`` + ``s``).
    """
    name = column.strip()
    whole = _known_unit(name)
    if whole is not None:
        return _norm(name), whole
    m = _BRACKETED.match(name)
    if m and m.group("base").strip():
        unit = _known_unit(m.group("unit"), bracketed=True)
        return _norm(m.group("base")), unit if unit is not None else m.group("unit").strip()
    m = _SEPARATED.match(name)
    if m and not re.search(r"(?:^|[\s_\-])per$", m.group("base"), re.IGNORECASE):  # items_per_second: a rate
        unit = _known_unit(m.group("unit"))
        if unit is not None:
            return _norm(m.group("base")), unit
    return _norm(name), None


def direction(column: str, unit: str | None, where: str) -> tuple[bool, str]:
    """Whether lower is better for a value column (and why), when ``lower_is_better=`` does not say.

    1. A unit that has a direction says it: times lower, rates (``ops/s``, ``MB/s``) higher.
    2. Else a column named like a rate or score (HIGHER_IS_BETTER, with or without a unit) is higher.
    3. Else lower (a time, the common case).
    A unit and a name that disagree (``throughput_ms``) are a DataError asking for ``lower_is_better=``.
    """
    base, _ = split_unit(column)
    by_unit = units.lower_is_better(unit) if unit else None
    by_name = False if is_rate_name(base) else None
    if by_unit is not None and by_name is not None and by_unit != by_name:
        raise DataError(f"{where}: column {column!r} is named like a rate (higher is better) but its unit "
                        f"{unit!r} is {'a time' if by_unit else 'a rate'}; say which with lower_is_better=")
    if by_unit is not None:
        return by_unit, f"unit {unit}"
    if by_name is not None:
        return False, f"column {column!r} names a rate"
    return True, "the default (a time)"


def is_rate_name(base: str) -> bool:
    """Whether a column's base name (without its unit) names a rate or a score: higher is better."""
    return _norm(base) in HIGHER_IS_BETTER or _RATE_NAME.search(base.strip()) is not None


def _find(columns: Sequence[str], names: Iterable[str]) -> str | None:
    by_norm = {_norm(c): c for c in columns}
    for n in names:
        if n in by_norm:
            return by_norm[n]
    return None


def check_columns(columns: Sequence[str], where: str) -> None:
    """DataError for two columns of one name, or of names that differ only in case or spaces.

    Which of ``time`` and ``TIME`` holds the measurements would be a guess: both are named.
    """
    seen: dict[str, str] = {}
    for c in columns:
        key = _norm(c)
        if key in seen:
            same = "the same name" if seen[key] == c else "names that differ only in case or spaces"
            raise DataError(f"{where}: columns {seen[key]!r} and {c!r} have {same}; which one is meant "
                            "is ambiguous (rename one)")
        seen[key] = c


class ColumnMap:
    """Which column plays which role, resolved against a header."""

    def __init__(self, columns: Sequence[str], where: str, benchmark: str | None = None,
                 system: str | None = None, value: str | None = None,
                 levels: Sequence[str] | str | None = None, unit: str | None = None,
                 lower_is_better: bool | None = None) -> None:
        self.where = where
        cols = list(columns)
        check_columns(cols, where)
        missing = [c for c in (benchmark, system, value) if c is not None and c not in cols]
        if isinstance(levels, str):
            levels = [levels]
        missing += [c for c in (levels or []) if c not in cols]
        if missing:
            raise DataError(f"{where}: no column(s) {missing}; columns are {cols}")
        if value is None:
            value = _find(cols, VALUE_NAMES)
            if value is None:  # a time or a rate with its unit (time_ms, ops/s), or a rate (items_per_second)
                value = next((c for c in cols if (split_unit(c)[1] is not None and (
                    split_unit(c)[0] in VALUE_NAMES or is_rate_name(split_unit(c)[0])
                    or split_unit(c)[0] == _norm(c))) or is_rate_name(c)), None)
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
        base, name_unit = split_unit(value)
        # a column named like a rate states no unit: not seconds, whatever its values are
        self.unit = unit or name_unit or ("" if is_rate_name(base) else "s")
        #: the unit stated by unit= or the column's name (a unit column's units are per sample)
        self.stated_unit = unit or name_unit
        self.lower_is_better = lower_is_better

    def direction(self, unit: str) -> tuple[bool, str]:
        """``(lower_is_better, why)`` for a sample in ``unit``: lower_is_better= if given, else the rules."""
        if self.lower_is_better is not None:
            return self.lower_is_better, "lower_is_better="
        stated = self.stated_unit or (unit if self.unit_column is not None else None)
        return direction(self.value, stated, self.where)


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
                positioned: bool = True, text: bool = False, **options: Any) -> Sample | Suite:
    """Group ``(line, row)`` records into ``{benchmark: {system: Sample}}``.

    ``positioned``: record each value's line in ``Sample.positions`` (not for DataFrames, which have rows).
    ``text``: the cells are text (CSV, a DataFrame), whose strings are parsed as numbers; in JSON a
    value must be a JSON number.
    """
    check_options(TidyJsonReader(), options)  # for DataFrames and JSON values' records too
    m = ColumnMap(columns, str(path), **options)
    default_bench = path.stem
    default_system = path.name
    groups: dict[str, dict[str, _Unit]] = {}
    units_found: dict[tuple[str, str], dict[str, int]] = {}
    depth = len(m.levels)
    what = f"{m.value!r}"
    for line, row in rows:
        bench = default_bench if m.benchmark is None else _label(row.get(m.benchmark), path, line, m.benchmark)
        system = default_system if m.system is None else _label(row.get(m.system), path, line, m.system)
        raw = row.get(m.value)
        value = raw if type(raw) is float and math.isfinite(raw) else number(raw, at(path, line), what, text=text)
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
            unit_text = _label(row.get(m.unit_column), path, line, m.unit_column)
            units_found.setdefault((bench, system), {}).setdefault(unit_text, line)
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
            if (bench, system) in units_found:
                found = units_found[(bench, system)]
                if len(found) > 1:
                    raise DataError(f"{path}: {label}: several units {sorted(found)} in column {m.unit_column!r} "
                                    f"(lines {', '.join(str(ln) for ln in found.values())})")
                unit = next(iter(found))
            lower, why = m.direction(unit)
            metadata = {} if lower and m.lower_is_better is None and why.startswith("the default") else {
                "direction": f"{'lower' if lower else 'higher'} is better ({why})"}
            data[bench][system] = Sample(arr, levels=level_names or None, unit=unit, lower_is_better=lower,
                                         name=system if m.system is not None else path.name,
                                         source=str(path), metadata=metadata,
                                         positions=positions(where) if positioned else None)
    return sample_or_suite(data, path, named=m.benchmark is not None)


def _label(raw: Any, path: Path, line: int, column: str) -> str:
    """A benchmark, system, level or unit value as a name: text, or a number written in JSON."""
    if type(raw) is str:
        text = raw.strip()
        if text:
            return text
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise DataError(f"{at(path, line)}: missing {column!r}")
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise DataError(f"{at(path, line)}: {column!r} is {json_type(raw)}, not a name (a string or a number)")
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return str(raw).strip()


# ---------------------------------------------------------------- CSV


class TidyCsvReader:
    """CSV/TSV with a header row, one measurement per row (benchmark, system, levels, value)."""

    name = "tidy-csv"
    suffixes = (".csv", ".tsv", ".tab")
    priority = 50
    options = {**OPTIONS, "delimiter": ReaderOption("char", "the field separator (default: tab, ';' or ',' "
                                                            "from the header)")}

    def sniff(self, path: Path, head: str) -> bool:
        first = next((ln for ln in head.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
        if not first:
            return False
        cells = [c.strip().strip('"') for c in re.split(r"[,\t;]", first)]
        has_header = any(c and not is_number(c) for c in cells)
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
                if not cells or not any(c.strip() for c in cells):
                    continue  # a blank line, or a row of empty cells: nothing to lose
                if columns is None:
                    if cells[0].lstrip().startswith("#"):
                        continue  # a comment above the header; after it, '#' is a benchmark's first character
                    columns = [c.strip() for c in cells]
                    check_columns(columns, at(path, line))
                    continue
                if len(cells) != len(columns):
                    raise DataError(f"{at(path, line)}: {len(cells)} field(s) where the header has {len(columns)}")
                rows.append((line, dict(zip(columns, cells, strict=True))))
        except csv.Error as exc:
            raise DataError(f"{at(path, reader.line_num)}: malformed CSV: {exc}") from None
        assert columns is not None
        return build_table(rows, columns, path, text=True, **options)


# ---------------------------------------------------------------- JSON records


class TidyJsonReader:
    """JSON array of records ``[{"benchmark": ..., "system": ..., "value": ...}, ...]``."""

    name = "tidy-json"
    suffixes = (".json",)
    priority = 30
    options = OPTIONS

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
