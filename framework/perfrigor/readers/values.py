"""One measurement per line (the Speedup-Test's sample files, ``perf stat`` dumps...)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..data import Sample
from ..errors import DataError
from ._common import read_text


class ValuesReader:
    """Plain text or CSV with one number per line; blank lines and '#' comments are skipped.

    A trailing comma (a one-column CSV) is allowed. Anything else on a line is an
    error naming the file and the line: nothing is skipped silently.
    """

    name = "values"
    suffixes = (".txt", ".dat", ".data", ".csv", "")
    priority = 90  # the fallback: tried after formats with a recognisable header

    def sniff(self, path: Path, head: str) -> bool:
        for line in head.splitlines():
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            try:
                float(s.rstrip(",").strip())
                return True
            except ValueError:
                return False
        return False

    def read(self, path: Path, lower_is_better: bool = True, unit: str = "s", **options: Any) -> Sample:
        if options:
            raise DataError(f"{path}: the one-value-per-line format takes only unit= and lower_is_better=, "
                            f"not {sorted(options)}")
        values: list[float] = []
        lines: list[int] = []
        for lineno, line in enumerate(read_text(path).split("\n"), 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            s = s.rstrip(",").strip()
            try:
                v = float(s)
            except ValueError:
                what = "several values" if len(s.replace(",", " ").split()) > 1 else "not a number"
                raise DataError(f"{path}, line {lineno}: {s[:40]!r} is {what} "
                                "(expected one number per line)") from None
            if not math.isfinite(v):
                raise DataError(f"{path}, line {lineno}: {s[:40]!r} is not a finite number")
            values.append(v)
            lines.append(lineno)
        if not values:
            raise DataError(f"{path}: no measurements")
        return Sample(values, unit=unit, lower_is_better=lower_is_better, name=path.name, source=str(path),
                      positions=lines)
