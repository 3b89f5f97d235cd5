"""One measurement per line (the Speedup-Test's sample files, ``perf stat`` dumps...).

Read in chunks of whole lines: a large file's chunks by pyarrow when they hold numbers and
line ends only (:mod:`perfrigor.readers._arrow`), others checked and converted with numpy
(:mod:`perfrigor.readers.scan`: the number parser's rules on every token at once); a chunk
that breaks a rule is read again line by line (:func:`strict_lines`), which names the line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..data import Sample, line_type
from ..errors import DataError
from . import _arrow, scan
from ._common import LINE_CHUNK, Growing, data_size, line_chunks, not_utf8
from .numbers import ASCII_SPACE, parse_number, shown
from .options import LOWER_IS_BETTER, UNIT


class ValuesReader:
    """Plain text or CSV with one number per line; blank lines and '#' comments are skipped.

    A trailing comma (a one-column CSV) is allowed. Anything else on a line is an
    error naming the file and the line: nothing is skipped silently.
    """

    name = "values"
    suffixes = (".txt", ".dat", ".data", ".csv", "")
    priority = 90  # the fallback: tried after formats with a recognisable header
    options = {"unit": UNIT, "lower_is_better": LOWER_IS_BETTER}

    def sniff(self, path: Path, head: str) -> bool:
        for line in head.splitlines():
            s = line.strip(ASCII_SPACE)
            if not s or s.startswith("#"):
                continue
            try:
                float(s.rstrip(",").strip())
                return True
            except ValueError:
                return False
        return False

    def read(self, path: Path, lower_is_better: bool = True, unit: str = "s") -> Sample:
        values, lines = read_values(path)
        if not values.size:
            raise DataError(f"{path}: no measurements")
        return Sample(values, unit=unit, lower_is_better=lower_is_better, name=path.name, source=str(path),
                      positions=lines)


def read_values(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Every number of a values file and its line (read-only arrays); DataError naming the first bad line.

    The chunks of a large file are read by pyarrow when they hold numbers and line ends only
    (:func:`perfrigor.readers._arrow.numbers`); other chunks, and every small file, by numpy
    (:func:`fast_lines`) or else the strict parser (:func:`strict_lines`), which names a bad line.
    """
    values = Growing(np.float64)
    lines = Growing(np.int32)  # widened when a line's number needs it (data.line_type)
    on_disk = data_size(path)  # gzip data: the size its trailer states
    for chunk, first_line, offset in line_chunks(path, _arrow.CHUNK if on_disk >= _arrow.LARGE else LINE_CHUNK):
        large = max(on_disk, offset + len(chunk)) >= _arrow.LARGE  # gzip data: once it has unpacked so far
        found = _arrow.numbers(chunk) if large else None
        if found is not None:
            fast = found, np.arange(found.size)
        else:
            fast = fast_lines(chunk)
        if fast is None:
            try:
                text = chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise not_utf8(chunk, exc, path, first_line, offset) from None
            numbers, where = strict_lines(text, path, first_line)
            fast = np.asarray(numbers, dtype=float), np.asarray(where, dtype=np.int64) - first_line
        if not values.size:  # room for the file's numbers, guessed from the first chunk's (grown if short)
            guess = int(fast[0].size * max(on_disk, len(chunk)) / max(len(chunk), 1) * 1.02) + 16
            values.reserve(guess)
            lines.reserve(guess)
        values.add(fast[0])
        if fast[1].size and line_type(int(fast[1][-1]) + first_line) != lines.data.dtype:
            lines.widen(np.int64)
        lines.add(fast[1] + first_line)
    return values.frozen(), lines.frozen()


def strict_lines(text: str, path: Path, first_line: int = 1) -> tuple[list[float], list[int]]:
    """The numbers of ``text`` and their lines, line by line: a DataError names the first bad line."""
    values: list[float] = []
    lines: list[int] = []
    for lineno, line in enumerate(text.split("\n"), first_line):
        s = line.strip(ASCII_SPACE)
        if not s or s.startswith("#"):
            continue
        s = s.rstrip(",").strip(ASCII_SPACE)
        if len(s.replace(",", " ").split()) > 1:
            raise DataError(f"{path}, line {lineno}: {shown(s)} is several values (expected one number per line)")
        values.append(parse_number(s, f"{path}, line {lineno}"))
        lines.append(lineno)
    return values, lines


def fast_lines(chunk: bytes) -> tuple[np.ndarray, np.ndarray] | None:
    """The numbers of a chunk of whole lines and their lines (counted from 0), checked with numpy.

    None when a line breaks a rule (or holds text that is not ASCII): :func:`strict_lines` then says which.
    The rules are those of :func:`strict_lines`: on each line one number, white space around it,
    a run of trailing commas after it; blank lines, and lines whose first character is ``#``, skipped.
    """
    if not chunk.isascii():
        return None  # text beyond ASCII is no number; in a comment the strict reader checks its UTF-8
    raw = np.frombuffer(chunk, dtype=np.uint8)
    kinds = scan.CLASS[raw]
    newlines = np.flatnonzero(kinds == scan.NEWLINE)
    if b"#" in chunk:
        _blank_comments(raw, kinds, newlines)
    if (kinds == scan.OTHER).any():
        return None
    solid = scan.NUMBER_CHARS[kinds].view(np.int8)
    edges = np.diff(solid, prepend=np.int8(0), append=np.int8(0))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1)
    line = np.searchsorted(newlines, starts)
    if starts.size > 1 and not (np.diff(line) > 0).all():
        return None  # several values on a line
    commas = np.flatnonzero(kinds == scan.COMMA)
    if commas.size:  # allowed after the line's number only, in one run (``1,,`` but not ``1, ,``)
        comma_line = np.searchsorted(newlines, commas)
        token = np.minimum(np.searchsorted(line, comma_line), max(starts.size - 1, 0))
        if not starts.size or not ((line[token] == comma_line) & (commas >= ends[token])).all():
            return None
        same_line = comma_line[1:] == comma_line[:-1]
        if (same_line & (np.diff(commas) != 1)).any():
            return None
    text = chunk if not commas.size and b"#" not in chunk else np.where(solid.view(bool), raw, np.uint8(32))
    values, bad = scan.read_numbers(raw, kinds, starts, ends, text)
    if bad is not None:
        return None  # the strict parser says what is wrong (1e400: too large)
    return values, line


def _blank_comments(raw: np.ndarray, kinds: np.ndarray, newlines: np.ndarray) -> None:
    """Mark as white space every line whose first character (after white space) is ``#``."""
    hashes = np.flatnonzero(raw == ord("#"))
    line = np.searchsorted(newlines, hashes)
    line_start = np.concatenate(([0], newlines + 1))[line]
    filled = np.concatenate((np.zeros(1, np.int32), np.cumsum(kinds != scan.SPACE, dtype=np.int32)))
    first = filled[hashes] == filled[line_start]  # nothing but white space before it on its line
    if not first.any():
        return
    line_end = np.append(newlines, raw.size)[line[first]]
    cover = np.zeros(raw.size + 1, dtype=np.int32)
    np.add.at(cover, hashes[first], 1)
    np.add.at(cover, line_end, -1)
    kinds[np.cumsum(cover[:-1]) > 0] = scan.SPACE
