"""One measurement per line (the Speedup-Test's sample files, ``perf stat`` dumps...)."""

from __future__ import annotations

from pathlib import Path

from ..data import Sample
from ..errors import DataError
from ._common import read_text
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
        values: list[float] = []
        lines: list[int] = []
        for lineno, line in enumerate(read_text(path).split("\n"), 1):
            s = line.strip(ASCII_SPACE)
            if not s or s.startswith("#"):
                continue
            s = s.rstrip(",").strip(ASCII_SPACE)
            if len(s.replace(",", " ").split()) > 1:
                raise DataError(f"{path}, line {lineno}: {shown(s)} is several values (expected one number per line)")
            values.append(parse_number(s, f"{path}, line {lineno}"))
            lines.append(lineno)
        if not values:
            raise DataError(f"{path}: no measurements")
        return Sample(values, unit=unit, lower_is_better=lower_is_better, name=path.name, source=str(path),
                      positions=lines)
