"""Helpers shared by the readers: numbers with a place, and Sample-or-Suite results."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..data import BenchmarkInfo, Sample, Suite
from ..errors import DataError

#: unit names some tools write, and the short form perfrigor reports
UNIT_ALIASES = {
    "second": "s", "seconds": "s", "sec": "s", "secs": "s", "s": "s",
    "millisecond": "ms", "milliseconds": "ms", "ms": "ms", "msec": "ms",
    "microsecond": "us", "microseconds": "us", "us": "us", "usec": "us", "µs": "us",
    "nanosecond": "ns", "nanoseconds": "ns", "ns": "ns", "nsec": "ns",
    "byte": "B", "bytes": "B", "integer": "", "cycles": "cycles",
}


def number(raw: Any, where: str, what: str = "value") -> float:
    """A finite float from a cell or JSON value; else a DataError naming ``where``."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise DataError(f"{where}: missing {what}")
    if isinstance(raw, bool):
        raise DataError(f"{where}: {what} {raw!r} is not a number")
    if isinstance(raw, int | float):
        v = float(raw)
    elif isinstance(raw, str):
        try:
            v = float(raw.strip())
        except ValueError:
            text = raw.strip()
            raise DataError(f"{where}: {what} {text[:40]!r} is not a number") from None
    else:
        raise DataError(f"{where}: {what} is a {type(raw).__name__}, not a number")
    if not math.isfinite(v):
        raise DataError(f"{where}: {what} {raw!r} is not a finite number")
    return v


def numbers(values: list, path: Path, what: str) -> list[float]:
    """A list of finite floats; the first bad element is named with its line (when known)."""
    if all(type(v) in (int, float) for v in values):
        floats = [float(v) for v in values]
        if all(math.isfinite(v) for v in floats):
            return floats
    lines = getattr(values, "lines", None) or [getattr(values, "line", None)] * len(values)
    return [number(v, at(path, ln), what) for v, ln in zip(values, lines, strict=True)]


def at(path: Path, line: int | None) -> str:
    """``"FILE, line N"`` (or just the file when the line is unknown)."""
    return f"{path}, line {line}" if line else str(path)


def sample_or_suite(data: Mapping[str, Mapping[str, Sample]], path: Path,
                    info: Mapping[str, BenchmarkInfo] | None = None) -> Sample | Suite:
    """One benchmark of one system gives its Sample; anything more gives a Suite.

    The same rule in every reader: ``perfrigor compare old new`` reads two
    Samples (or two one-system Suites, which the caller pairs by benchmark).
    """
    if not data:
        raise DataError(f"{path}: no measurements")
    if len(data) == 1:
        (systems,) = data.values()
        if len(systems) == 1:
            (sample,) = systems.values()
            return sample
    return Suite(data, info=dict(info or {}), source=str(path))
