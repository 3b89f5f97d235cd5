"""The one number parser of every reader: the text of a measurement -> a finite float, or a DataError.

Every reader turns text into numbers here (a line of a values file, a CSV/TSV
cell, a Go result's value, a Speedup-Test ``.cfg`` field), so one file format
cannot accept what another refuses. The syntax is the decimal and scientific
forms that C (``printf %g``), Python (``repr``), Go (``strconv``), Java
(``Double.toString``) and spreadsheets write, in ASCII only::

    [+-] digits [. digits] [(e|E) [+-] digits]      1  -2.5  1.  .5  1e-05  1.0E10  +3

Python's ``float()`` accepts more, and those are refused here because no
benchmark tool writes them and each has been a silent misread: digit
separators (``1_000``), digits of other scripts (``١٢٣``), hexadecimal
(``0x1p-3``), and surrounding Unicode spaces. Infinity and NaN, in any
spelling (``inf``, ``Infinity``, ``NaN``, ``1.#INF``), are not measurements
and are refused; so is a number too large for a float (``1e400``). A number
too small for one (``1e-400``) is read as its nearest float, 0.0 or a
subnormal, as every tool's parser does.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..errors import DataError

_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: spellings of infinity and NaN that C, Python, Go, Java, .NET and spreadsheets write
_NOT_FINITE = re.compile(r"[+-]?(?:inf(?:inity)?|nan(?:\(.*\))?|1\.#(?:inf|ind|qnan|snan)0*|#num!|#div/0!)",
                         re.IGNORECASE)
#: white space around a number that a file may hold (ASCII only; the BOM is removed when a file is decoded)
ASCII_SPACE = " \t\r\n\v\f"
#: the most characters of a bad token shown in an error
SHOWN = 40


def is_number(text: str) -> bool:
    """Whether ``text`` (white space around it allowed) is a number in the syntax above, finite or not."""
    s = text.strip(ASCII_SPACE)
    return _DECIMAL.fullmatch(s) is not None


def parse_number(text: str, where: str, what: str = "value") -> float:
    """``text`` as a finite float; else a DataError ``"WHERE: WHAT 'TEXT' is ..."`` saying what is wrong.

    ``where`` names the place (``"FILE, line N"``); ``what`` the quantity (``"value"``,
    ``"benchmark 'fib' time"``).
    """
    s = text.strip(ASCII_SPACE)
    if _DECIMAL.fullmatch(s) is None:
        raise DataError(f"{where}: {_describe(s, what)}")
    v = float(s)
    if not math.isfinite(v):
        raise DataError(f"{where}: {what} {shown(s)} is too large for a floating-point number")
    return v


def _describe(s: str, what: str) -> str:
    """Why ``s`` is not a number in the syntax: the part of the message after ``WHERE: ``."""
    if not s:
        return f"missing {what}"
    if _NOT_FINITE.fullmatch(s):
        return f"{what} {shown(s)} is not a finite number (infinity and NaN are not measurements)"
    if not s.isascii():
        bad = next(c for c in s if not c.isascii())
        return (f"{what} {shown(s)} is not a number (character {bad!r}, U+{ord(bad):04X}, is not ASCII; "
                "numbers are written with the digits 0-9)")
    if "_" in s and _DECIMAL.fullmatch(s.replace("_", "")):
        return f"{what} {shown(s)} is not a number (no digit separators: write {s.replace('_', '')})"
    return f"{what} {shown(s)} is not a number"


def shown(text: Any) -> str:
    """A token as an error shows it: quoted, at most SHOWN characters."""
    s = str(text)
    return repr(s if len(s) <= SHOWN else s[:SHOWN] + "...")
