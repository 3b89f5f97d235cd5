"""JSON parsing that remembers where things are, so reader errors can name a line.

The standard ``json`` module forgets positions. Here every array and object
comes back as :class:`JList` / :class:`JDict`, subclasses of ``list``/``dict``
carrying the line they start on (and, for arrays, the line of each element).
Built on the pure-Python scanner of ``json.scanner`` with our own array and
object hooks: the stdlib offers no other way to learn positions.
"""

from __future__ import annotations

import bisect
import json
import json.decoder
import json.scanner
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..errors import DataError

T = TypeVar("T")


class JList(list):
    """A JSON array with ``line`` (where it starts) and ``lines`` (one per element)."""

    line: int = 0
    lines: list[int]


class JDict(dict):
    """A JSON object with ``line`` (where it starts)."""

    line: int = 0


def line_of(value: Any, default: int = 1) -> int:
    return getattr(value, "line", default) or default


def _decoder(text: str) -> json.JSONDecoder:
    starts = [i for i, ch in enumerate(text) if ch == "\n"]

    def line(pos: int) -> int:
        return bisect.bisect_left(starts, pos) + 1

    ws = json.decoder.WHITESPACE.match
    ws_chars = json.decoder.WHITESPACE_STR

    def parse_array(s_and_end, scan_once, _w=ws, _ws=ws_chars):
        # mirrors json.decoder.JSONArray, recording the line of each element
        s, end = s_and_end
        values = JList()
        values.line = line(end - 1)
        values.lines = []
        nextchar = s[end:end + 1]
        if nextchar in _ws:
            end = _w(s, end + 1).end()
            nextchar = s[end:end + 1]
        if nextchar == "]":
            return values, end + 1
        while True:
            try:
                value, new_end = scan_once(s, end)
            except StopIteration as err:
                raise json.JSONDecodeError("Expecting value", s, err.value) from None
            values.lines.append(line(end))
            values.append(value)
            end = new_end
            nextchar = s[end:end + 1]
            if nextchar in _ws:
                end = _w(s, end + 1).end()
                nextchar = s[end:end + 1]
            end += 1
            if nextchar == "]":
                break
            if nextchar != ",":
                raise json.JSONDecodeError("Expecting ',' delimiter", s, end - 1)
            if s[end:end + 1] in _ws:
                end = _w(s, end + 1).end()
        return values, end

    def parse_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None, _w=ws, _ws=ws_chars):
        start = s_and_end[1] - 1
        obj, end = json.decoder.JSONObject(s_and_end, strict, scan_once, None, JDict, memo)
        obj.line = line(start)
        return obj, end

    dec = json.JSONDecoder()
    dec.parse_array = parse_array
    dec.parse_object = parse_object
    dec.scan_once = json.scanner.py_make_scanner(dec)
    return dec


def loads(text: str, where: str) -> Any:
    """Parse JSON text; a syntax error becomes a DataError naming ``where`` and the line."""
    try:
        return _decoder(text).decode(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}, line {exc.lineno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise DataError(f"{where}: JSON nested too deeply") from None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def load(path: Path) -> Any:
    """Parse a JSON file, remembering lines (see :func:`loads`)."""
    return loads(_text(path), str(path))


def read_with_lines(path: Path, convert: Callable[[Any], T]) -> T:
    """``convert(parsed JSON)``, parsed fast; on a DataError, again with lines so the error names one.

    The line-tracking parser is pure Python (about 20 times slower than the C
    one), so it runs only when there is an error to locate.
    """
    text = _text(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}, line {exc.lineno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise DataError(f"{path}: JSON nested too deeply") from None
    try:
        return convert(doc)
    except DataError:
        return convert(loads(text, str(path)))  # raises the same error, now with its line
