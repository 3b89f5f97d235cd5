"""Tidy JSON: an array of records, one measurement each (see :mod:`perfrigor.readers.tidy`).

A small file is parsed in Python with the line of every record and value kept
(:mod:`perfrigor.readers._jsonlines`). A larger one (:data:`FAST_FROM`, 256 KiB) is
read a piece of whole records at a time (:func:`read_fast`): the array's structure is checked
with numpy (flat records, one comma between them, nothing else outside them), the commas and
brackets between records blanked, and the records parsed by ``pyarrow.json``; each record's
line and its value's line come from the structure (the record's ``{``, the value's first
character: searched for only where a record spans lines, else the record's own line). pyarrow's reading is taken only where it is the json module's: the value column
holds JSON numbers, finite, with no ``-0`` read as a float (pyarrow makes it -0.0, the json
module the integer 0); a name column holds strings, integers, or floats below 2**53 (so each
name is the text the json module's value gives), none missing or null; every piece of records
has the same keys as the first; and no backslash is anywhere (an escaped quote would need a
JSON parser to tell from a real one). Any other file is read the slow way from its start,
which names what is wrong. The rows are then kept and grouped as a large CSV's are
(:mod:`perfrigor.readers.coded`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from . import _arrow, _jsonlines
from ._common import UTF8_BOM, at, data_size, input_chunks
from .coded import CodedRows
from .tidy import OPTIONS, ColumnMap, build_table

#: bytes of records read at a time: larger pieces cost pyarrow and numpy less per byte but hold more
#: (a 100 MB file of 1.1 M records: its numbers' size 2.6x at the peak with these, 2.8x with 512 KiB
#: pieces and 7-17% less CPU, 3.5x with 1 MiB; the goal is at most 3x, for files with fewer numbers a byte too)
PIECE = 1 << 18
#: a file of this many bytes or more (at most :data:`perfrigor.readers._arrow.LARGE`) is read by pyarrow: the
#: line-keeping parse of a small one reads about 5 MB/s, so from here it costs more than pyarrow's import (0.05 s)
FAST_FROM = 256 << 10
#: JSON's white space
_SPACE = np.zeros(256, dtype=bool)
_SPACE[list(b" \t\r\n")] = True


class TidyJsonReader:
    """JSON array of records ``[{"benchmark": ..., "system": ..., "value": ...}, ...]``."""

    name = "tidy-json"
    suffixes = (".json",)
    priority = 30
    options = OPTIONS

    def sniff(self, path: Path, head: str) -> bool:
        return re.match(r"\s*\[\s*\{", head) is not None

    def read(self, path: Path, **options: Any) -> Sample | Suite:
        found = read_fast(path, options)
        if found is not None:
            return found
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


# ---------------------------------------------------------------- the fast path


class _Slow(Exception):
    """The fast path stops: the file is read the slow way."""


def read_fast(path: Path, options: dict[str, Any]) -> Sample | Suite | None:
    """The table of a large file, read by pyarrow a piece of whole records at a time; None for the slow way."""
    size = data_size(path)  # gzip data: the size its trailer states
    if size < min(_arrow.LARGE, FAST_FROM) or _arrow.json_module() is None:
        return None
    rows: CodedRows | None = None
    columns: list[str] = []
    try:
        first_line = 1
        for piece, is_first, is_last in _pieces(path):
            found = _records(piece, first_line, is_first, is_last)
            first_line += found.newlines.size
            if not found.starts.size:
                continue  # the array's end
            table = _arrow.json_records(piece)
            if table is None or table.num_rows != found.starts.size:
                raise _Slow()
            if rows is None:
                columns = table.column_names
                try:
                    rows = CodedRows(path, ColumnMap(columns, str(path), **options), size)
                except DataError:
                    raise _Slow() from None  # the slow way says what is wrong
            elif set(table.column_names) != set(columns):
                raise _Slow()  # keys that only some records have: the slow way
            _keep(rows, table, found, len(piece), size)
    except _Slow:
        return None
    if rows is None:
        return None
    return rows.table()


class _Found:
    """Where a piece's records start, its lines end, and (records over several lines) what finds their values."""

    __slots__ = ("starts", "raw", "newlines", "first_line", "quotes")

    def __init__(self, starts: np.ndarray, raw: np.ndarray, newlines: np.ndarray, first_line: int,
                 quotes: np.ndarray | None) -> None:
        self.starts, self.raw, self.newlines, self.first_line = starts, raw, newlines, first_line
        #: where the quotes are; None when every record is on one line (its value on its line: nothing to find)
        self.quotes = quotes

    @property
    def one_line(self) -> bool:
        """Every record on one line: each value's line is its record's."""
        return self.quotes is None

    def lines(self, positions: np.ndarray) -> np.ndarray:
        return self.first_line + np.searchsorted(self.newlines, positions)


def _pieces(path: Path) -> Iterator[tuple[bytearray, bool, bool]]:
    """``(bytes, first?, last?)``: the file in pieces that end right after a record's ``}``."""
    tail, first = b"", True
    for chunk in input_chunks(path, PIECE):
        if first:
            chunk = chunk.removeprefix(UTF8_BOM)
        data = tail + chunk if tail else chunk
        if b"\\" in data:
            raise _Slow()  # escapes: quotes that do not open or close a string
        cut = _last_record_end(data)
        if cut == 0:
            tail = data
            continue
        piece, tail = bytearray(memoryview(data)[:cut]), data[cut:]  # the piece is blanked in place
        del data, chunk  # not held while the piece is read
        yield piece, first, False
        first = False
    if first:
        raise _Slow()  # no record at all
    yield bytearray(tail), False, True


def _last_record_end(data: bytes) -> int:
    """Where the last ``}`` outside strings ends (0 when there is none); ``data`` starts outside strings."""
    end = len(data)
    while (end := data.rfind(b"}", 0, end)) >= 0:
        if data.count(b'"', 0, end) % 2 == 0:  # an even number of quotes before it: outside strings
            return end + 1
    return 0


def _records(piece: bytearray, first_line: int, is_first: bool, is_last: bool) -> _Found:
    """Check a piece's structure (flat records, one comma between them) and blank what is not a record
    (in place: pyarrow then reads the piece).

    A piece starts at the file's start (``[{...}``) or right after a record (``, {...}``) and ends
    right after a record; the last holds the end of the array (``]``). _Slow for anything else.
    """
    raw = np.frombuffer(piece, dtype=np.uint8)
    quotes = np.flatnonzero(raw == ord('"'))
    if quotes.size % 2:
        raise _Slow()
    opens, closes = (_outside(raw, quotes, mark) for mark in b"{}")
    if opens.size != closes.size or not (opens < closes).all() or not (closes[:-1] < opens[1:]).all():
        raise _Slow()  # a record inside a record, or a brace unmatched
    between = _between(raw, opens, closes)  # what is outside records but white space
    count = opens.size
    if is_last:  # the array's end, after the last record
        expected, before = b"]", [0]
    elif is_first:  # the array's start, then a comma between records
        expected, before = b"[" + b"," * (count - 1), [0, *range(1, count)]
    else:  # a comma before each record
        expected, before = b"," * count, list(range(count))
    if (between.size != len(expected) or not count and not is_last
            or not np.array_equal(raw[between], np.frombuffer(expected, dtype=np.uint8))
            or not np.array_equal(np.searchsorted(opens, between), before)):
        raise _Slow()
    ends = is_first + is_last  # the array's brackets: in the first piece and the last
    stray = (piece.count(b"[") + piece.count(b"]") != ends) if ends else (b"[" in piece or b"]" in piece)
    if stray and sum(_outside(raw, quotes, mark).size for mark in b"[]") != ends:
        raise _Slow()  # an array in a record: the slow way reads it
    raw[between] = ord(" ")
    newlines = np.flatnonzero(raw == ord("\n"))
    one_line = np.array_equal(np.searchsorted(newlines, opens), np.searchsorted(newlines, closes))
    return _Found(opens, raw, newlines, first_line, None if one_line else quotes)


def _outside(raw: np.ndarray, quotes: np.ndarray, mark: int) -> np.ndarray:
    """Where ``mark`` is outside strings (an even number of quotes before it)."""
    at = np.flatnonzero(raw == mark)
    return at[np.searchsorted(quotes, at) % 2 == 0]


def _between(raw: np.ndarray, opens: np.ndarray, closes: np.ndarray) -> np.ndarray:
    """Where the bytes outside the records ``[open, close]`` are, but white space.

    The gaps between records are looked at a byte at a time for all gaps at once (a few bytes
    each: ``,\\n``), not the whole piece.
    """
    starts = np.concatenate(([0], closes + 1))
    ends = np.append(opens, raw.size)
    width = int((ends - starts).max(initial=0))
    found = []
    for k in range(width):  # the k-th byte of every gap that long
        at = (starts + k)[ends - starts > k]
        found.append(at[~_SPACE[raw[at]]])
    found = [at for at in found if at.size]
    if len(found) == 1:  # all at the same byte of their gaps (as ``,\n`` puts them): in order already
        return found[0]
    return np.sort(np.concatenate(found)) if found else np.empty(0, dtype=np.int64)


def _value_positions(found: _Found, key: str) -> np.ndarray:
    """Where each record's value of ``key`` starts (its first character); _Slow unless each has one."""
    raw, closing = found.raw, found.quotes
    colons = _outside(raw, closing, ord(":"))
    name = key.encode("utf-8")
    before = np.searchsorted(closing, colons) - 1  # the key's closing quote: the last quote before its colon
    if (before < 1).any():
        raise _Slow()
    close, open_ = closing[before], closing[before - 1]
    mine = close - open_ - 1 == len(name)
    if name:
        cells = raw[open_[mine, None] + 1 + np.arange(len(name))]
        mine[mine] = (cells == np.frombuffer(name, dtype=np.uint8)).all(axis=1)
    at_colons = colons[mine]
    if at_colons.size != found.starts.size or not (np.searchsorted(found.starts, at_colons) - 1
                                                   == np.arange(at_colons.size)).all():
        raise _Slow()
    start = at_colons + 1  # the value's first character: past the white space after the colon
    while (space := _SPACE[raw[np.minimum(start, raw.size - 1)]] & (start < raw.size)).any():
        start[space] += 1
    return start


def _keep(rows: CodedRows, table: Any, found: _Found, piece_size: int, size: int) -> None:
    """Code a piece's records and keep them (_Slow where pyarrow's reading is not the json module's)."""
    m = rows.m
    cells = {}
    for column in rows.labels:
        got = _arrow.json_names(table.column(column))
        if got is None:
            raise _Slow()
        cells[column] = got
    values = _arrow.json_values(table.column(m.value))
    if values is None:
        raise _Slow()
    lines = found.lines(found.starts)
    result = rows.code(cells, lines)
    if result is None or result[1] is not None:
        raise _Slow()  # a bad name: the slow way names it
    value_lines = lines if found.one_line else found.lines(_value_positions(found, m.value))
    rows.keep(result[0], values, lines, piece_size, value_lines)
