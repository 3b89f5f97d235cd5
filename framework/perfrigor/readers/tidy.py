"""Tidy tables (CSV or JSON records): one row per measurement.

Columns: a benchmark, a system, optional level columns (outermost first, e.g.
build, invocation, iteration) and a value. The mapping is given with options
(``benchmark=``, ``system=``, ``value=``, ``levels=[...]``, ``unit=``,
``lower_is_better=``) or detected from common column names. Each
(benchmark, system) becomes one balanced hierarchical Sample; units with the
wrong number of measurements are an error, never trimmed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from .. import units
from ..data import Sample, Suite
from ..errors import DataError
from . import table
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
#: what every tidy table's options are checked against: the ``tidy-json`` reader's (DataFrames and JSON
#: values' records are read by its rules)
TIDY = SimpleNamespace(name="tidy-json", options=OPTIONS)


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


def build_table(rows: Iterable[tuple[int, Mapping[str, Any]]], columns: Sequence[str], path: Path,
                positioned: bool = True, text: bool = False, **options: Any) -> Sample | Suite:
    """Group ``(line, row)`` records into ``{benchmark: {system: Sample}}``.

    ``positioned``: record each value's line in ``Sample.positions`` (not for DataFrames, which have rows).
    ``text``: the cells are text (CSV, a DataFrame), whose strings are parsed as numbers; in JSON a
    value must be a JSON number.
    """
    check_options(TIDY, options)  # for DataFrames and JSON values' records too
    m = ColumnMap(columns, str(path), **options)
    rows = rows if isinstance(rows, list) else list(rows)
    lines = [line for line, _ in rows]
    wanted = [c for c in (m.benchmark, m.system, m.value, *m.levels, m.unit_column) if c is not None]
    cells = {c: [row.get(c) for _, row in rows] for c in dict.fromkeys(wanted)}
    # a JSON record knows the line of each of its values
    value_lines = [getattr(row, "key_lines", {}).get(m.value, line) for line, row in rows]
    return from_columns(m, path, lines, cells, value_lines, positioned=positioned, text=text)


def from_columns(m: ColumnMap, path: Path, lines: Sequence[int], cells: Mapping[str, Any],
                 value_lines: Sequence[int] | None = None, positioned: bool = True, text: bool = False,
                 coded: Mapping[str, tuple[table.Names, np.ndarray]] | None = None,
                 values: np.ndarray | None = None, check_only: bool = False) -> Sample | Suite | None:
    """The samples of a table given as columns: ``cells[column]`` (a list, or a numpy column of values).

    Every row is checked first, and the earliest bad row is named (ties: benchmark, system, value,
    levels, unit, the order of a row-by-row reader); then the rows are grouped
    (:func:`perfrigor.readers.table.group`). ``coded``/``values``: columns already encoded (the CSV
    fast path); ``check_only``: stop after the checks (None when every row is good).
    """
    coded = dict(coded or {})
    found: list[tuple[int | None, DataError | None]] = []
    role_names: dict[str, tuple[table.Names, np.ndarray]] = {}

    def names_of(column: str | None) -> None:
        if column is None:
            return
        if column in coded:
            role_names[column] = coded[column]
            return
        names = table.Names(column, path)
        codes, i, exc = names.encode(cells[column], lines)
        role_names[column] = (names, codes)
        found.append((i, exc))

    names_of(m.benchmark)
    names_of(m.system)
    if values is None:
        values, i, exc = table.encode_values(cells[m.value], lines, path, f"{m.value!r}", text)
        found.append((i, exc))
    for level in m.levels:
        names_of(level)
    names_of(m.unit_column)
    table.first_error(found)
    if check_only:
        return None
    if not len(lines):
        raise DataError(f"{path}: no measurements (only a header)")
    line_array = np.asarray(lines, dtype=np.int64)
    return table.group(path, m, line_array,
                       line_array if value_lines is None else np.asarray(value_lines, dtype=np.int64), values,
                       role_names.get(m.benchmark), role_names.get(m.system),
                       [role_names[level] for level in m.levels],
                       role_names.get(m.unit_column) if m.unit_column is not None else None, positioned)
