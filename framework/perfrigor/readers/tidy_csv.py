"""Tidy CSV/TSV files: one measurement per row, under a header (see :mod:`perfrigor.readers.tidy`).

Rows are cut into fields a chunk of whole lines at a time (:func:`read_fast`): by pyarrow in a
large file (:mod:`perfrigor.readers._arrow`), else, or where pyarrow does not take a chunk, with
numpy. The names of each role's column are coded (:class:`perfrigor.readers.table.Names`, in
order of first appearance, in the narrowest integers), the values read by the number parser's
rules, and the rows grouped: from runs of rows when the table is written unit after unit
(:mod:`perfrigor.readers.nested`), else by :mod:`perfrigor.readers.table`. What the fast path
does not cover (quoted fields, line breaks other than ``\\n`` and ``\\r\\n``) is read by the
csv module (:func:`csv_rows`), and so is every row up to the first one the fast path finds bad,
so that the error names it as the csv module reads it.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from . import _arrow, scan
from ._common import at, data_size, line_chunks, read_text
from .coded import CodedRows, encode
from .numbers import is_number
from .options import ReaderOption
from .tidy import OPTIONS, ColumnMap, build_table, check_columns, from_columns


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
        suffix = Path(path.name.lower().removesuffix(".gz")).suffix  # times.csv.gz is a CSV too
        # other tables with a header (a Speedup-Test .cfg, ...) belong to their own readers
        return has_header and (suffix in self.suffixes or (suffix in ("", ".txt", ".dat") and len(cells) > 1))

    def read(self, path: Path, delimiter: str | None = None, **options: Any) -> Sample | Suite:
        found = read_fast(path, delimiter, options)  # numpy over whole chunks: most files
        if found is not None:
            return found
        text = read_text(path)
        delimiter = delimiter or guess_delimiter(text, path)
        columns, rows = csv_rows(text, path, delimiter)
        return build_table(rows, columns, path, text=True, **options)


def guess_delimiter(text: str, path: Path) -> str:
    """The field separator written in the first line that is neither blank nor a comment: tab, ';' or ','."""
    header = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), None)
    if header is None:
        raise DataError(f"{path}: empty file")
    return "\t" if "\t" in header else ";" if ";" in header and "," not in header else ","


def csv_rows(text: str, path: Path, delimiter: str, until: int | None = None,
             header_only: bool = False) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """The header's column names and the ``(line, {column: cell})`` rows of a CSV text, by the csv module.

    Blank rows (and rows of empty cells) are skipped, and so are comment rows (``#``) above the
    header; a row with another number of fields than the header is a DataError naming its line.
    ``until``: stop after that line; ``header_only``: stop at the header.
    """
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
                if header_only:
                    return columns, [(line, {})]
                continue
            if len(cells) != len(columns):
                raise DataError(f"{at(path, line)}: {len(cells)} field(s) where the header has {len(columns)}")
            rows.append((line, dict(zip(columns, cells, strict=True))))
            if until is not None and line >= until:
                break
    except csv.Error as exc:
        raise DataError(f"{at(path, reader.line_num)}: malformed CSV: {exc}") from None
    if columns is None:
        raise DataError(f"{path}: no header row (only blank lines, comments or empty cells)")
    return columns, rows


# ---------------------------------------------------------------- the fast path

#: quotes, NUL, and what ends a line for str.splitlines() or the csv module besides "\n" and "\r\n":
#: files holding one are read by the csv module
_STRICT_BYTES = (b'"', b"\x00", b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")
_STRICT_CHARACTERS = (b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")


def _strict_only(chunk: bytes) -> bool:
    """Whether the chunk holds something only the csv module reads (a quote, NUL, a line break of Unicode)."""
    return (any(b in chunk for b in _STRICT_BYTES)
            or (not chunk.isascii() and any(c in chunk for c in _STRICT_CHARACTERS)))


#: ASCII characters str.strip() removes (a cell of only these is empty)
_BLANK = np.zeros(256, dtype=bool)
_BLANK[list(b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f")] = True
#: the white space the number parser strips around a number
_NUMBER_SPACE = np.zeros(256, dtype=bool)
_NUMBER_SPACE[list(b" \t\r\n\x0b\x0c")] = True
#: label cells longer than this are factorised one by one (a matrix of them would be large)
_WIDE_LABEL = 256


class _Strict(Exception):
    """The fast path stops: the csv module reads the file (up to ``line``, to name a bad row there)."""

    def __init__(self, line: int | None = None) -> None:
        super().__init__(line)
        self.line = line


def read_fast(path: Path, delimiter: str | None, options: dict[str, Any]) -> Sample | Suite | None:
    """The table, read a chunk at a time (pyarrow or numpy); None when the csv module must read it.

    A bad row is named by the csv module's reading of the rows up to it (the same message as
    without the fast path).
    """
    large = data_size(path) >= _arrow.LARGE  # gzip data: the size its trailer states
    chunks = line_chunks(path, _arrow.CHUNK) if large else line_chunks(path)
    bad: int | None = None
    try:
        first = next(chunks, None)
        if first is None:
            return None
        chunk, _, _ = first
        if _strict_only(chunk):
            return None
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError:
            return None
        try:
            delimiter = delimiter or guess_delimiter(text, path)
            columns, ((header_line, _),) = csv_rows(text, path, delimiter, header_only=True)
            m = ColumnMap(columns, str(path), **options)
        except DataError:
            return None  # the csv module's reading says what is wrong, as it would without this path
        rest = chunk[_line_offset(chunk, header_line):]
        state = _Columns(path, columns, m, large)
        state.add(rest, header_line + 1, delimiter)
        for chunk, line, offset in chunks:
            state.large = state.large or offset + len(chunk) >= _arrow.LARGE  # gzip data: once it unpacked so far
            state.add(chunk, line, delimiter)
        bad = state.bad
    except _Strict as stop:
        if stop.line is None:
            return None
        bad = stop.line
        for chunk, _, _ in chunks:  # the csv module's reading decodes the whole file first
            if not chunk.isascii():
                try:
                    chunk.decode("utf-8")
                except UnicodeDecodeError:
                    return None
    if bad is not None:
        _name_bad_row(path, delimiter, options, bad)
        return None
    return state.rows.table()


def _line_offset(chunk: bytes, line: int) -> int:
    """Where line ``line + 1`` starts in a chunk starting with line 1 (the end when there is none)."""
    offset = 0
    for _ in range(line):
        found = chunk.find(b"\n", offset)
        if found < 0:
            return len(chunk)
        offset = found + 1
    return offset


def _name_bad_row(path: Path, delimiter: str | None, options: dict[str, Any], line: int) -> None:
    """Raise the csv module's error for the rows up to ``line`` (nothing when it finds none: the caller goes on)."""
    parts = []
    for chunk, first_line, _ in line_chunks(path):
        parts.append(chunk)
        if first_line + chunk.count(b"\n") > line:
            break
    text = b"".join(parts).decode("utf-8", errors="strict")
    delimiter = delimiter or guess_delimiter(text, path)
    columns, rows = csv_rows(text, path, delimiter, until=line)
    m = ColumnMap(columns, str(path), **options)
    lines = [ln for ln, _ in rows]
    cells = {c: [row.get(c) for _, row in rows] for c in dict.fromkeys(
        c for c in (m.benchmark, m.system, m.value, *m.levels, m.unit_column) if c is not None)}
    from_columns(m, path, lines, cells, text=True, check_only=True)


class _Columns:
    """The rows of a CSV read so far, a chunk at a time: their role columns kept by :class:`CodedRows`."""

    def __init__(self, path: Path, columns: list[str], m: ColumnMap, large: bool = False) -> None:
        self.path, self.m, self.columns, self.large = path, m, columns, large
        self.rows = CodedRows(path, m, data_size(path))
        index = {c: i for i, c in enumerate(columns)}
        self.labels = {c: index[c] for c in self.rows.labels}
        self.value = index[m.value]
        #: the first row whose cells are bad: after it only the rows' fields are counted (the csv
        #: module's reading counts every row's fields before any cell is read)
        self.bad: int | None = None

    def add(self, chunk: bytes, first_line: int, delimiter: str) -> None:
        """Read the rows of a chunk of whole lines (_Strict on anything the fast path does not cover)."""
        if not chunk:
            return
        if _strict_only(chunk):
            raise _Strict()
        if not chunk.isascii():
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                raise _Strict() from None  # the csv module's reading names the byte
        if self.large and self.bad is None and _short_lines(chunk) and self._add_arrow(chunk, first_line, delimiter):
            return
        self._add_numpy(chunk, first_line, delimiter)

    def _add_arrow(self, chunk: bytes, first_line: int, delimiter: str) -> bool:
        """Read a chunk with pyarrow (:func:`perfrigor.readers._arrow.columns`); False when it does not take it."""
        found = _arrow.columns(chunk, self.columns, delimiter, list(self.labels), self.m.value)
        if found is None:
            return False
        cells, values = found
        coded = self.rows.code(cells, range(first_line, first_line + values.size))  # a row a line: no blank lines
        if coded is None:
            return False
        if coded[1] is not None:
            self.bad = first_line + coded[1]
        else:
            self.rows.keep(coded[0], values, first_line, len(chunk))
        return True

    def _add_numpy(self, chunk: bytes, first_line: int, delimiter: str) -> None:
        """Read the rows of a chunk of whole lines with numpy (_Strict on anything the fast path does not cover)."""
        raw = np.frombuffer(chunk, dtype=np.uint8)
        starts, ends, line_index = _lines(raw)
        seps = np.flatnonzero(raw == ord(delimiter))
        counts = np.searchsorted(seps, ends) - np.searchsorted(seps, starts)
        odd = (ends > starts) & (counts != len(self.columns) - 1)
        blank = np.zeros(starts.size, dtype=bool)
        for i in np.flatnonzero(odd).tolist():  # a blank row (white space, separators) is skipped; else an error
            if any(c.strip() for c in chunk[starts[i]:ends[i]].decode("utf-8").split(delimiter)):
                raise _Strict(first_line + i)  # another number of fields than the header
            blank[i] = True
        row = (ends > starts) & ~blank
        if blank.any():  # drop the separators of blank rows
            inside = np.zeros(raw.size + 1, dtype=np.int64)
            np.add.at(inside, starts[row], 1)
            np.add.at(inside, ends[row], -1)
            seps = seps[np.cumsum(inside)[seps] > 0]
        starts, ends, lines = starts[row], ends[row], first_line + line_index[row]
        seps = seps.reshape(starts.size, len(self.columns) - 1)
        field_starts = np.column_stack((starts, seps + 1))
        field_ends = np.column_stack((seps, ends))
        if (field_ends - field_starts).max(initial=0) > csv.field_size_limit():
            raise _Strict()
        if self.bad is not None:
            return
        worst = []
        coded = {}
        for column, j in self.labels.items():
            texts, first, inverse = _distinct_cells(chunk, raw, field_starts[:, j], field_ends[:, j])
            remap, bad_row = encode(texts, first, self.rows.labels[column], lines)
            coded[column] = remap, inverse
            if bad_row is not None:
                worst.append(bad_row)
        values, bad_row = _values(raw, field_starts[:, self.value], field_ends[:, self.value])
        if bad_row is not None:
            worst.append(bad_row)
        if worst:
            self.bad = int(lines[min(worst)])
            return
        self.rows.keep(coded, values, lines, len(chunk))


def _short_lines(chunk: bytes) -> bool:
    """Whether no line of the chunk is longer than the csv module's field size limit (its fields cannot be)."""
    limit, at = csv.field_size_limit(), 0
    while len(chunk) - at > limit:
        found = chunk.rfind(b"\n", at, at + limit + 1)
        if found < 0:
            return False
        at = found + 1
    return True


def _lines(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each line's start and end (a "\\r" before its "\\n" left out) and its index; _Strict on a lone "\\r"."""
    newlines = np.flatnonzero(raw == ord("\n"))
    ends = newlines if raw[-1] == ord("\n") else np.append(newlines, raw.size)
    starts = np.concatenate(([0], newlines + 1))[:ends.size]
    returns = np.flatnonzero(raw == ord("\r"))
    if returns.size:
        if not (raw[np.minimum(returns + 1, raw.size - 1)] == ord("\n")).all() or returns[-1] == raw.size - 1:
            raise _Strict()  # a "\\r" alone ends a row for the csv module
        ends = ends - (raw[np.maximum(ends - 1, 0)] == ord("\r")) * (ends > starts)
    return starts, ends, np.arange(starts.size)


def _distinct_cells(chunk: bytes, raw: np.ndarray, starts: np.ndarray,
                    ends: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The distinct cells of a label column, where each first appears, and each row's index into them.

    Found with numpy: the rows of a byte matrix, compared as whole numbers when they fit in 8 bytes.
    """
    lengths = ends - starts
    width = int(lengths.max(initial=0))
    if width > _WIDE_LABEL:
        cells = np.array([chunk[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)], dtype=object)
        unique, first, inverse = np.unique(cells, return_index=True, return_inverse=True)
        texts = [u.decode("utf-8") for u in unique]
    else:
        matrix = _cells(raw, starts, lengths, width, 0)
        keys = matrix.view("<u8" if matrix.shape[1] == 8 else f"S{matrix.shape[1]}").reshape(-1)
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        if matrix.shape[1] == 8:
            texts = [int(u).to_bytes(8, "little").rstrip(b"\0").decode("utf-8") for u in unique.tolist()]
        else:
            texts = [u.decode("utf-8") for u in unique.tolist()]
    return texts, first, inverse.reshape(-1)


_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _cells(raw: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int, fill: int) -> np.ndarray:
    """The cells as the rows of a byte matrix of ``width`` columns (rounded up to 8), ``fill`` after each end.

    Read eight bytes at a time (an unaligned view of the chunk as 64-bit words), each word masked
    past the cell's end: a few operations per cell rather than one per byte.
    """
    words = max(-(-width // 8), 1)
    padded = np.concatenate((raw, np.zeros(8 * words + 8, dtype=np.uint8)))
    as_words = np.ndarray(shape=(padded.size - 7,), dtype="<u8", buffer=padded, strides=(1,))
    filler = np.uint64(int.from_bytes(bytes([fill]) * 8, "little"))
    out = np.empty((starts.size, words), dtype="<u8")
    for k in range(words):
        keep = _LOW_BYTES[np.clip(lengths - 8 * k, 0, 8)]
        out[:, k] = (as_words[starts + 8 * k] & keep) | (filler & ~keep)
    return out.view(np.uint8).reshape(starts.size, 8 * words)


def _values(raw: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, int | None]:
    """The numbers of a value column, and the row of the first cell that is not one (None when all are).

    The cells are laid out as the rows of a matrix padded with spaces (so the numbers stand apart,
    as in a values file) and read by :func:`perfrigor.readers.scan.read_numbers`; white space around
    a number is allowed, as the number parser strips it.
    """
    lengths = ends - starts
    matrix = _cells(raw, starts, lengths, int(lengths.max(initial=0)) + 1, ord(" "))
    width = matrix.shape[1]
    kinds = scan.CLASS[matrix]
    first, last = np.zeros(starts.size, dtype=np.int64), lengths - 1
    padded = np.concatenate((raw, np.zeros(1, dtype=np.uint8)))
    if _NUMBER_SPACE[padded[starts]].any() or _NUMBER_SPACE[padded[np.maximum(ends - 1, 0)]].any():
        filled = ~_NUMBER_SPACE[matrix]
        first = np.argmax(filled, axis=1)
        last = width - 1 - np.argmax(filled[:, ::-1], axis=1)
    # only number characters between the first and the last character that is not white space
    foreign = (~scan.NUMBER_CHARS[kinds]).sum(axis=1)
    ok = (last >= first) & (foreign == width - (last + 1 - first))
    if not ok.all():
        return np.empty(0), int(np.argmin(ok))
    offsets = np.arange(starts.size, dtype=np.int64) * width
    flat = matrix.reshape(-1)
    return scan.read_numbers(flat, kinds.reshape(-1), offsets + first, offsets + last + 1, flat)
