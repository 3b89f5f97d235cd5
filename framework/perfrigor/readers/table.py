"""A tidy table's columns grouped into samples, a whole column at a time.

The tidy readers (CSV, JSON records, DataFrames: :mod:`perfrigor.readers.tidy`) find which
column plays which role and hand the cells here. Names are factorised (:class:`Names`: a code
per row, names in order of first appearance), values checked, and the rows grouped with
numpy: each (benchmark, system) becomes one balanced hierarchical sample whose units keep
their order of first appearance and whose values keep the file's order within a unit. The
first bad row is named, as a row-by-row reader would name it; an unbalanced sample is named
by the unit whose count differs (rebuilt row by row for that one sample, :func:`_nest`).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from ._common import Growing, at, json_type, number, positions, sample_or_suite, space_key


def place(path: Path, line: int) -> str:
    """``line N`` (``row N`` of a DataFrame): where a row is, without the file's name."""
    return at(path, line).removeprefix(f"{path}, ")


def label(raw: Any, path: Path, line: int, column: str) -> str:
    """A benchmark, system, level or unit cell as a name: text (trimmed), or a number written in JSON."""
    if type(raw) is str:
        text = raw.strip()
        if text:
            return text
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise DataError(f"{at(path, line)}: missing {column!r}")
    if isinstance(raw, np.integer | np.floating) and not isinstance(raw, bool):
        raw = raw.item()  # numpy's scalars (a DataFrame's object column) are numbers
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        raise DataError(f"{at(path, line)}: {column!r} is {json_type(raw)}, not a name (a string or a number)")
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return str(raw).strip()


class Names:
    """The names of one column, in order of first appearance, and each row's code into them.

    Names are trimmed (``" fib "`` is ``fib``), but two cells that differ only in white space
    (``a`` and `` a``, ``old`` and ``old ``, a no-break space) are an error naming both: pooling
    them into one sample, or splitting one sample in two, would be a guess.
    """

    def __init__(self, column: str, path: Path) -> None:
        self.column, self.path = column, path
        self.names: list[str] = []
        self.lines: list[int] = []  # where each name first appears
        self._codes: dict[Any, int] = {}  # cell -> code
        self._spaced: dict[str, tuple[str, int]] = {}  # space key -> (first text, its line)
        self._named: dict[str, int] = {}

    def add(self, raw: Any, line: int) -> int:
        """The code of a cell (DataError when it is no name, or differs from another only in white space)."""
        with contextlib.suppress(KeyError, TypeError):
            return self._codes[raw]
        name = label(raw, self.path, line, self.column)
        text = raw if isinstance(raw, str) else name
        first = self._spaced.setdefault(space_key(text), (text, line))
        if first[0] != text:
            raise DataError(f"{at(self.path, line)}: column {self.column!r}: the names {first[0]!r} "
                            f"({place(self.path, first[1])}) and {text!r} differ only in white space; "
                            "pooling them would be a guess (write each name one way)")
        code = self._named.get(name)
        if code is None:
            code = self._named[name] = len(self.names)
            self.names.append(name)
            self.lines.append(line)
        with contextlib.suppress(TypeError):
            self._codes[raw] = code
        return code

    def known(self, texts: Sequence[str]) -> list[int | None]:
        """The code of each text met before as a cell; None for a text not met yet."""
        return list(map(self._codes.get, texts))

    def encode(self, cells: Sequence[Any], lines: Sequence[int]) -> tuple[np.ndarray, int | None, DataError | None]:
        """Each cell's code; at the first bad cell stop: ``(codes, its index, its DataError)``."""
        codes = np.empty(len(cells), dtype=np.int64)
        known = self._codes
        for i, raw in enumerate(cells):
            try:
                codes[i] = known[raw]
            except (KeyError, TypeError):
                try:
                    codes[i] = self.add(raw, lines[i])
                except DataError as exc:
                    return codes, i, exc
        return codes, None, None


def encode_values(cells: Any, lines: Sequence[int], path: Path, what: str,
                  text: bool) -> tuple[np.ndarray, int | None, DataError | None]:
    """The cells as finite floats; at the first bad one stop: ``(values, its index, its DataError)``.

    A numeric numpy column is taken whole; a list of floats is checked at once; anything else
    cell by cell with :func:`~perfrigor.readers._common.number` (``text``: strings are parsed).
    """
    if isinstance(cells, np.ndarray) and cells.dtype.kind in "fiu":
        values = cells.astype(float)
    elif all(type(v) is float for v in cells):
        values = np.array(cells, dtype=float)
    else:
        values = np.empty(len(cells))
        for i, raw in enumerate(cells):
            try:
                values[i] = raw if type(raw) is float and math.isfinite(raw) else number(raw, at(path, lines[i]),
                                                                                      what, text=text)
            except DataError as exc:
                return values, i, exc
        return values, None, None
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        i = int(bad[0])
        try:
            number(float(values[i]), at(path, lines[i]), what)
        except DataError as exc:
            return values, i, exc
    return values, None, None


def first_error(found: Sequence[tuple[int | None, DataError | None]]) -> None:
    """Raise the error of the earliest bad row (ties: the column checked first in a row)."""
    bad = [(i, k, exc) for k, (i, exc) in enumerate(found) if i is not None and exc is not None]
    if bad:
        raise min(bad, key=lambda b: (b[0], b[1]))[2]


def _units(parent: np.ndarray, codes: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's unit (its parent unit and its name in one column), and each unit's parent.

    Units are numbered in their parent's order, then in order of first appearance: the
    order a row-by-row reader gives them.
    """
    key = parent * max(size, 1) + codes
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    unit_parent = unique // max(size, 1)
    order = np.lexsort((first, unit_parent))
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return rank[inverse.reshape(-1)], unit_parent[order]


def _even(counts: np.ndarray, sample_of: np.ndarray, first_of_sample: np.ndarray) -> np.ndarray:
    """Samples whose units do not all have the count of their sample's first unit."""
    return np.unique(sample_of[counts != counts[first_of_sample[sample_of]]])


class _Unit:
    """A node of the level tree of one sample: children in order of first appearance, or rows."""

    __slots__ = ("children", "rows", "line")

    def __init__(self, line: int) -> None:
        self.children: dict[str, _Unit] = {}
        self.rows: list[int] = []
        self.line = line


def _nest(root: _Unit, depth: int, level_names: Sequence[str], label: str, where: Path) -> None:
    """Raise the DataError naming the first unit whose count differs from its siblings' (walked level by level)."""
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


def group(path: Path, columns: Any, lines: np.ndarray, value_lines: np.ndarray, values: np.ndarray,
          bench: tuple[Names, np.ndarray] | None, system: tuple[Names, np.ndarray] | None,
          levels: Sequence[tuple[Names, np.ndarray]], unit: tuple[Names, np.ndarray] | None,
          positioned: bool = True) -> Sample | Suite:
    """``{benchmark: {system: Sample}}`` from checked columns (codes of names, values), by the rule of every reader.

    ``columns``: the :class:`~perfrigor.readers.tidy.ColumnMap` (roles, unit, direction);
    ``lines``: each row's line, ``value_lines``: each value's (a JSON record's value may sit on
    a line of its own). DataError for an unbalanced sample or one of several units.
    """
    m = columns
    n = values.size
    if n == 0:
        raise DataError(f"{path}: no measurements (only a header)")
    zeros = np.zeros(n, dtype=np.int64)
    b_codes = bench[1] if bench else zeros
    s_names = system[0].names if system else [path.name]
    sample_of, sample_bench = _units(b_codes, system[1] if system else zeros, len(s_names))
    n_samples = sample_bench.size
    sample_system = np.empty(n_samples, dtype=np.int64)
    sample_system[sample_of] = system[1] if system else 0
    row_unit, parents, unit_counts = sample_of, [], []
    for names, codes in levels:  # the units of each level: (unit of each row, parent of each unit)
        row_unit, parent = _units(row_unit, codes, len(names.names))
        parents.append(parent)
    order = np.argsort(row_unit, kind="stable")
    del zeros
    rows_per_unit = np.bincount(row_unit, minlength=(parents[-1].size if parents else n_samples))
    # the sample of each unit at each level, and each sample's first unit there
    samples_at = [np.arange(n_samples)]
    for parent in parents:
        samples_at.append(samples_at[-1][parent])
    firsts = [np.searchsorted(s_at, np.arange(n_samples)) for s_at in samples_at]
    bad: set[int] = set()
    for depth, parent in enumerate(parents):  # each unit of a level has as many children as its sample's first
        unit_counts.append(np.bincount(parent, minlength=samples_at[depth].size))
        bad.update(_even(unit_counts[-1], samples_at[depth], firsts[depth]).tolist())
    bad.update(_even(rows_per_unit, samples_at[-1], firsts[-1]).tolist())
    several: dict[int, dict[int, int]] = {}
    if unit is not None:
        pair, first_row = np.unique(sample_of * len(unit[0].names) + unit[1], return_index=True)
        many = np.flatnonzero(np.bincount(pair // len(unit[0].names), minlength=n_samples) > 1)
        for s in many.tolist():
            mine = np.flatnonzero(pair // len(unit[0].names) == s)
            found = sorted(zip(first_row[mine].tolist(), (pair[mine] % len(unit[0].names)).tolist(), strict=True))
            several[s] = {code: int(lines[row]) for row, code in found}
    b_names = bench[0].names if bench else [path.stem]
    level_names = [names.column for names, _ in levels]
    sorted_values, sorted_lines = values[order], value_lines[order]
    offsets = np.concatenate(([0], np.cumsum(np.bincount(sample_of, minlength=n_samples))))
    data: dict[str, dict[str, Sample]] = {}
    for s in range(n_samples):
        b_name, s_name = b_names[sample_bench[s]], s_names[sample_system[s]]
        where = f"benchmark {b_name!r}, system {s_name!r}"
        if s in bad:
            _raise_unbalanced(path, where, lines, sample_of == s, levels, level_names)
        if s in several:
            found = several[s]
            raise DataError(f"{path}: {where}: several units {sorted(unit[0].names[c] for c in found)} in column "
                            f"{m.unit_column!r} (lines {', '.join(str(ln) for ln in found.values())})")
        shape = [int(unit_counts[0][s])] if levels else []
        for depth in range(1, len(levels)):
            shape.append(int(unit_counts[depth][firsts[depth][s]]))
        per_unit = int(rows_per_unit[firsts[-1][s]])
        names_of_levels = list(level_names)
        if not levels or per_unit > 1:
            shape.append(per_unit)
            if levels:  # several rows per deepest unit: an implicit innermost level
                names_of_levels.append("iteration" if "iteration" not in names_of_levels else "repetition")
        block = slice(int(offsets[s]), int(offsets[s + 1]))
        unit_text = unit[0].names[unit[1][order[block.start]]] if unit is not None else m.unit
        data.setdefault(b_name, {})[s_name] = make_sample(
            m, path, sorted_values[block].reshape(shape), names_of_levels, unit_text, s_name if system else None,
            positions(sorted_lines[block].reshape(shape)) if positioned else None)
    return sample_or_suite(data, path, named=bench is not None)


def make_sample(m: Any, path: Path, values: np.ndarray, levels: Sequence[str], unit: str, system: str | None,
                lines: np.ndarray | None) -> Sample:
    """One sample of a tidy table: its values and lines shaped by its levels; the direction from its unit."""
    lower, why = m.direction(unit)
    metadata = {} if lower and m.lower_is_better is None and why.startswith("the default") else {
        "direction": f"{'lower' if lower else 'higher'} is better ({why})"}
    return Sample(values, levels=list(levels) or ["run"], unit=unit, lower_is_better=lower,
                  name=system if system is not None else path.name, source=str(path), metadata=metadata,
                  positions=lines)


class LineRuns:
    """The line of each row of a table, kept as runs of rows on evenly spaced lines.

    A large CSV's rows are nearly all in a few runs of consecutive lines (a JSON file's records
    in runs of lines as many apart as a record has lines): their lines cost nothing until a
    sample's positions are written (:meth:`fill`).
    """

    def __init__(self) -> None:
        self.rows = Growing(np.int64)  # the row where each run starts
        self.lines = Growing(np.int64)  # its line
        self.steps = Growing(np.int64)  # the lines from one row of the run to the next
        self.size = 0

    def add(self, first: int | np.ndarray, count: int = 0) -> None:
        """Rows on the lines ``first`` (an array), or ``count`` rows on consecutive lines from line ``first``."""
        if isinstance(first, np.ndarray):
            count = first.size
            if not count:
                return
            gaps = np.diff(first)
            starts = np.concatenate(([0], np.flatnonzero(gaps[1:] != gaps[:-1]) + 1))
            lines, steps = first[starts], np.append(gaps, 1)[starts]
        else:
            if not count:
                return
            starts, lines, steps = np.zeros(1, dtype=np.int64), np.array([first]), np.ones(1, dtype=np.int64)
        if self.size:  # the last run may go on
            row, line, step = self.rows.filled()[-1], self.lines.filled()[-1], self.steps.filled()[-1]
            if lines[0] - (line + step * (self.size - 1 - row)) == step and (count == 1 or steps[0] == step):
                starts, lines, steps = starts[1:], lines[1:], steps[1:]
        self.rows.add(starts + self.size)
        self.lines.add(lines)
        self.steps.add(steps)
        self.size += count

    def fill(self, out: np.ndarray, start: int) -> np.ndarray:
        """Write the lines of the rows ``start, start + 1, ...`` into ``out`` (one-dimensional); return it."""
        if not out.size:
            return out
        rows, lines, steps = self.rows.filled(), self.lines.filled(), self.steps.filled()
        first = int(np.searchsorted(rows, start, side="right")) - 1
        last = int(np.searchsorted(rows, start + out.size, side="left"))  # the runs first..last-1 hold the rows
        inner = np.arange(first + 1, last)
        at = rows[inner] - start
        out[:] = 0  # each row's step: that of its run
        out[0] = steps[first]
        out[at] = steps[inner] - steps[inner - 1]
        np.cumsum(out, out=out)
        out[0] = lines[first] + steps[first] * (start - rows[first])  # then the first line, and a jump where a run starts
        out[at] = lines[inner] - (lines[inner - 1] + steps[inner - 1] * (rows[inner] - 1 - rows[inner - 1]))
        return np.cumsum(out, out=out)

    def array(self) -> np.ndarray:
        """Every row's line."""
        return self.fill(np.empty(self.size, dtype=np.int64), 0)


def _raise_unbalanced(path: Path, where: str, lines: np.ndarray, mine: np.ndarray,
                      levels: Sequence[tuple[Names, np.ndarray]], level_names: Sequence[str]) -> None:
    """The DataError of one unbalanced sample, its level tree rebuilt row by row to name the unit."""
    rows = np.flatnonzero(mine)
    root = _Unit(int(lines[rows[0]]))
    for row in rows.tolist():
        node = root
        for names, codes in levels:
            key = names.names[codes[row]]
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Unit(int(lines[row]))
            node = child
        node.rows.append(row)
    _nest(root, len(levels), level_names, where, path)
    raise AssertionError(f"{where}: counted as unbalanced, but every unit has its siblings' count")
