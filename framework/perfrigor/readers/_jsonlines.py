"""JSON parsing that remembers where things are, so readers can name the line of every value.

The standard ``json`` module forgets positions. Here every array and object
comes back as :class:`JList` / :class:`JDict`, subclasses of ``list``/``dict``
carrying the line they start on; arrays also know the line of each element and
objects the line of each key's value. Containers are walked in Python, but
scalars and whole arrays of numbers (the measurements, most of a benchmark
file) are parsed by the C scanner of the ``json`` module, and the lines of a
multi-line array's numbers are looked up in a per-character index built once
with numpy (numbers hold no commas: element k starts after the array's k-th
comma). The cost is a few times that of ``json.loads`` (about 5x on a
pretty-printed 1.5 MB pyperf file, less on a compact one: see
benchmarks/bench_readers.py), where a pure-Python parser costs 10-20x.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..errors import DataError
from ._common import read_text

T = TypeVar("T")


class JList(list):
    """A JSON array with ``line`` (where it starts) and ``lines`` (where each element starts)."""

    line: int = 0
    lines: list[int]


class JDict(dict):
    """A JSON object with ``line`` (where it starts) and ``key_lines`` (where each key's value starts)."""

    line: int = 0
    key_lines: dict[str, int]


def line_of(value: Any, default: int = 1) -> int:
    """The line a parsed array or object starts on (``default`` for other values)."""
    return getattr(value, "line", default) or default


def value_line(container: Any, key: Any, default: int | None = None) -> int:
    """The line of ``container[key]``: an array's element or an object's value (else the container's line)."""
    if isinstance(container, JList) and isinstance(key, int) and -len(container.lines) <= key < len(container.lines):
        return container.lines[key]
    if isinstance(container, JDict) and key in container.key_lines:
        return container.key_lines[key]
    return line_of(container, default or 1)


_WS = re.compile(r"[ \t\n\r]*")
_NEWLINE = re.compile("\n")
_NUMERIC_START = frozenset("-0123456789NI]")


class _Parser:
    """Recursive descent over containers; the C scanner for scalars and arrays of numbers."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.newlines = [m.start() for m in _NEWLINE.finditer(text)]
        self._commas: np.ndarray | None = None
        self.scan = json.scanner.make_scanner(json.JSONDecoder())
        self.scanstring = json.decoder.scanstring

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def skip(self, pos: int) -> int:
        return _WS.match(self.s, pos).end()

    def fail(self, message: str, pos: int) -> json.JSONDecodeError:
        return json.JSONDecodeError(message, self.s, pos)

    def value(self, pos: int) -> tuple[Any, int]:
        ch = self.s[pos:pos + 1]
        if ch == "[":
            return self.array(pos)
        if ch == "{":
            return self.object(pos)
        try:
            return self.scan(self.s, pos)
        except StopIteration as err:
            raise self.fail("Expecting value", err.value) from None
        except json.JSONDecodeError:
            raise
        except ValueError as exc:  # e.g. an integer of more digits than Python converts
            raise self.fail(f"bad number ({exc})", pos) from None

    def array(self, start: int) -> tuple[JList, int]:
        s = self.s
        out = JList()
        out.line = self.line(start)
        pos = self.skip(start + 1)
        if s[pos:pos + 1] in _NUMERIC_START:  # most likely an array of numbers: parse it whole, in C
            fast = self.numeric_array(start)
            if fast is not None:
                values, end = fast
                out.extend(values)
                out.lines = self.number_lines(start, end, len(values))
                return out, end
        out.lines = []
        if s[pos:pos + 1] == "]":
            return out, pos + 1
        while True:
            out.lines.append(self.line(pos))
            value, pos = self.value(pos)
            out.append(value)
            pos = self.skip(pos)
            ch = s[pos:pos + 1]
            if ch == "]":
                return out, pos + 1
            if ch != ",":
                raise self.fail("Expecting ',' delimiter", pos)
            pos = self.skip(pos + 1)

    def numeric_array(self, start: int) -> tuple[list, int] | None:
        try:
            values, end = self.scan(self.s, start)
        except (StopIteration, ValueError):
            return None  # a syntax error: the slow path says where
        for v in values:
            kind = type(v)
            if kind is not float and kind is not int:
                return None
        return values, end

    def number_lines(self, start: int, end: int, n: int) -> list[int]:
        first = self.line(start)
        if n == 0 or not self.newlines or self.line(end) == first:
            return [first] * n
        # numbers hold no commas: element k > 0 starts after the (k-1)-th comma of the array,
        # on the line of the first character that is not white space after it
        self.index_text()
        lo = bisect.bisect_left(self._comma_list, start)
        starts = np.empty(n, dtype=np.int64)
        starts[0] = start + 1
        starts[1:] = self._commas[lo:lo + n - 1] + 1
        return (self._line_at[self._next_solid[starts]]).tolist()

    def index_text(self) -> None:
        """For every character: its line and the next non-blank character; where the commas are (once)."""
        if self._commas is not None:
            return
        codes = np.frombuffer(self.s.encode("utf-32-le"), dtype=np.uint32)
        self._commas = np.flatnonzero(codes == ord(","))
        self._comma_list = self._commas.tolist()
        newline = codes == 10
        self._line_at = (np.cumsum(newline, dtype=np.int32) - newline + 1).astype(np.int32)
        blank = newline | (codes == 32) | (codes == 9) | (codes == 13)
        index = np.where(blank, len(codes) - 1, np.arange(len(codes), dtype=np.int32)).astype(np.int32)
        self._next_solid = np.minimum.accumulate(index[::-1])[::-1]

    def object(self, start: int) -> tuple[JDict, int]:
        s = self.s
        out = JDict()
        out.line = self.line(start)
        out.key_lines = {}
        pos = self.skip(start + 1)
        if s[pos:pos + 1] == "}":
            return out, pos + 1
        while True:
            if s[pos:pos + 1] != '"':
                raise self.fail("Expecting property name enclosed in double quotes", pos)
            key, pos = self.scanstring(s, pos + 1)
            pos = self.skip(pos)
            if s[pos:pos + 1] != ":":
                raise self.fail("Expecting ':' delimiter", pos)
            pos = self.skip(pos + 1)
            if key in out.key_lines:
                raise self.fail(f"key {key[:40]!r} appears twice in one object (lines {out.key_lines[key]} and "
                                f"{self.line(pos)}): which one holds the data is ambiguous", pos)
            out.key_lines[key] = self.line(pos)
            out[key], pos = self.value(pos)
            pos = self.skip(pos)
            ch = s[pos:pos + 1]
            if ch == "}":
                return out, pos + 1
            if ch != ",":
                raise self.fail("Expecting ',' delimiter", pos)
            pos = self.skip(pos + 1)

    def document(self) -> Any:
        pos = self.skip(0)
        value, end = self.value(pos)
        end = self.skip(end)
        if end != len(self.s):
            raise self.fail("Extra data", end)
        return value


def loads(text: str, where: str) -> Any:
    """Parse JSON text remembering lines; a syntax error becomes a DataError naming ``where`` and the line."""
    try:
        return _Parser(text).document()
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}, line {exc.lineno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise DataError(f"{where}: JSON nested too deeply") from None


def load(path: Path) -> Any:
    """Parse a JSON file (plain or gzip-compressed), remembering lines (see :func:`loads`)."""
    return loads(read_text(path), str(path))


def read_with_lines(path: Path, convert: Callable[[Any], T]) -> T:
    """``convert(parsed JSON)``, the document parsed with its lines (for positions and errors)."""
    return convert(load(path))
