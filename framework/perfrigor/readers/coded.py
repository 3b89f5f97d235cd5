"""The role columns of a large tidy table, read a chunk at a time: names coded, values and lines kept.

The fast tidy readers (CSV: :mod:`perfrigor.readers.tidy_csv`; JSON records:
:mod:`perfrigor.readers.tidy_json`) cut each chunk into cells and hand each name column's
distinct cells here (:meth:`CodedRows.code`): they go through
:class:`~perfrigor.readers.table.Names` in order of first appearance, as a row-by-row reading
meets them, and each row keeps a code in the narrowest integer that holds the names (one byte
for up to 256). Values are written once into room reserved from the first chunk's count, lines
kept as runs (:class:`~perfrigor.readers.table.LineRuns`). At the end the rows are grouped from
runs when the table was written unit after unit (:mod:`perfrigor.readers.nested`), else by
:func:`perfrigor.readers.table.group`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from . import nested, table
from ._common import Growing
from .tidy import ColumnMap, from_columns

#: ``{column: (each distinct cell's code, each row's index into the distinct cells)}``
Coded = dict[str, tuple[np.ndarray, np.ndarray]]


class CodedRows:
    """The role columns of the rows read so far: codes of names, values, lines (and the values' lines)."""

    def __init__(self, path: Path, m: ColumnMap, expected_size: int) -> None:
        self.path, self.m, self.expected_size = path, m, expected_size
        self.labels = {c: table.Names(c, path) for c in
                       dict.fromkeys(c for c in (m.benchmark, m.system, *m.levels, m.unit_column) if c is not None)}
        self.codes = {c: Growing(np.uint8) for c in self.labels}  # the narrowest integers the names' count allows
        self.values = Growing(np.float64)
        self.lines = table.LineRuns()
        #: each value's line, where it is not its row's (a JSON record's value may sit on a line of its own)
        self.value_lines: table.LineRuns | None = None

    def code(self, cells: Mapping[str, tuple[list[Any], np.ndarray]],
             lines: Sequence[int]) -> tuple[Coded, int | None] | None:
        """Code a part's name columns: ``{column: (distinct cells in order of first appearance, each row's index)}``.

        Returns the codes and the row of the first bad cell (None when every cell is a good name),
        or None when the distinct cells are not numbered in order of first appearance. ``lines``:
        each row's line.
        """
        coded, worst = {}, []
        for column, (cells_of, indices) in cells.items():
            names = self.labels[column]
            known = names.known(cells_of)
            if None in known:  # new names: given to Names in order of first appearance, with their lines
                firsts = first_appearances(indices, len(cells_of))
                if firsts is None:
                    return None
                remap, bad_row = encode(cells_of, firsts, names, lines)
                if bad_row is not None:
                    worst.append(bad_row)
            else:
                remap = np.array(known, dtype=np.int64)
            coded[column] = remap, indices
        return coded, min(worst) if worst else None

    def keep(self, coded: Coded, values: np.ndarray, lines: int | np.ndarray, size: int,
             value_lines: np.ndarray | None = None) -> None:
        """Keep the rows of a part of ``size`` bytes: codes (``remap[indices]``), values, lines.

        ``lines``: each row's line, or the first of consecutive lines; ``value_lines``: each value's
        line when it is not its row's.
        """
        if not self.values.size:  # room for the file's rows, guessed from the first part's
            guess = int(values.size * max(self.expected_size, size) / max(size, 1) * 1.02) + 16
            for growing in (self.values, *self.codes.values()):
                growing.reserve(guess)
        for column, (remap, indices) in coded.items():
            codes = self.codes[column]
            codes.widen(_narrowest(len(self.labels[column].names)))
            codes.add(remap.astype(codes.data.dtype)[indices])
        self.values.add(values)
        if isinstance(lines, np.ndarray):
            self.lines.add(lines)
        else:
            self.lines.add(lines, values.size)
        if value_lines is not None and self.value_lines is None and not np.array_equal(value_lines, lines):
            self.value_lines = table.LineRuns()  # the values so far were on their rows' lines
            self.value_lines.add(self.lines.array()[:self.lines.size - values.size])
        if self.value_lines is not None:
            self.value_lines.add(value_lines if value_lines is not None else lines, values.size)

    def table(self) -> Sample | Suite:
        """The samples of every row read, grouped as a row-by-row reading groups them."""
        m = self.m
        codes = {c: self.codes[c].filled() for c in self.labels}
        plan = nested.layout(codes.get(m.benchmark), codes.get(m.system), [codes[c] for c in m.levels],
                             codes.get(m.unit_column) if m.unit_column is not None else None, self.values.size)
        names = self.labels
        if plan is not None:  # written unit after unit: the samples are slices of the values read
            del codes
            self.codes.clear()  # let go before the samples are written
            return nested.build(self.path, m, plan, self.values, self.value_lines or self.lines, names.get(m.benchmark),
                                names.get(m.system), m.levels, names.get(m.unit_column) if m.unit_column else None)
        lines = self.lines.array()
        return from_columns(m, self.path, lines, {}, lines if self.value_lines is None else self.value_lines.array(),
                            text=True, values=self.values.frozen(),
                            coded={c: (names[c], codes[c].astype(np.int64)) for c in codes})


def _narrowest(count: int) -> Any:
    """The narrowest unsigned integer type holding the codes of ``count`` names."""
    return np.uint8 if count <= 1 << 8 else np.uint16 if count <= 1 << 16 else np.int64


def first_appearances(indices: np.ndarray, count: int) -> np.ndarray | None:
    """Where each of ``count`` distinct cells first appears, when they are numbered in that order (else None)."""
    rising = np.flatnonzero(np.diff(np.maximum.accumulate(indices), prepend=-1) > 0)
    if rising.size != count or not np.array_equal(indices[rising], np.arange(count)):
        return None
    return rising


def encode(cells: Sequence[Any], first: np.ndarray, names: table.Names,
           lines: Sequence[int] | np.ndarray) -> tuple[np.ndarray, int | None]:
    """The code of each distinct cell, given to ``names`` in order of first appearance (as a row-by-row
    reading meets them), and the row of the first bad one (None when all are good)."""
    codes = np.zeros(len(cells), dtype=np.int64)
    for k in np.argsort(first, kind="stable").tolist():
        try:
            codes[k] = names.add(cells[k], int(lines[first[k]]))
        except DataError:
            return codes, int(first[k])
    return codes, None
