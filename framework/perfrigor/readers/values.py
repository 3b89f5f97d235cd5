"""One measurement per line (the Speedup-Test's sample files, `perf stat` dumps...)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample
from ..errors import DataError


class ValuesReader:
    """Plain text or CSV with one number per line; blank lines and '#' comments are skipped."""

    name = "values"
    suffixes = (".txt", ".dat", ".data", ".csv", "")
    priority = 90  # the fallback: tried after formats with a recognisable header

    def sniff(self, path: Path, head: str) -> bool:
        for line in head.splitlines():
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            try:
                float(s.rstrip(","))
                return True
            except ValueError:
                return False
        return False

    def read(self, path: Path, lower_is_better: bool = True, unit: str = "s", **options: Any) -> Sample:
        if options:
            raise DataError(f"{path}: the one-value-per-line format takes no option(s) {sorted(options)}")
        values = []
        with open(path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                s = line.strip().rstrip(",")
                if not s or s.startswith("#"):
                    continue
                try:
                    v = float(s)
                except ValueError:
                    raise DataError(f"{path}, line {lineno}: {s[:40]!r} is not a number") from None
                if not np.isfinite(v):
                    raise DataError(f"{path}, line {lineno}: {s!r} is not a finite number")
                values.append(v)
        if not values:
            raise DataError(f"{path}: no measurements")
        return Sample(values, unit=unit, lower_is_better=lower_is_better, name=path.name, source=str(path))
