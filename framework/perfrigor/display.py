"""Numbers for people: human units (ns/µs/ms/s, K/M/G) with 3–4 significant digits.

Formatting for display only: values stay in the sample's unit everywhere else, and the
JSON report keeps raw numbers. A column of numbers shares one scale (``column``) so a
reader compares them at a glance; one number alone takes the scale that suits it
(``quantity``). Plugins use these in their ``describe()`` sentences.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import attrs
import numpy as np

__all__ = ["Scale", "change", "column", "percent", "quantity", "scale_for", "signif", "time_factor", "time_per"]

#: time units a sample may carry, in seconds
_TIME_UNITS = {"s": 1.0, "sec": 1.0, "second": 1.0, "seconds": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6,
               "μs": 1e-6, "ns": 1e-9, "ps": 1e-12, "min": 60.0, "h": 3600.0}
#: the time scales shown, smallest first
_TIME_SCALES = (("ps", 1e-12), ("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0))
#: decimal prefixes for rates, counts and sizes (values below 1000 keep no prefix)
_PREFIXES = (("", 1.0), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("P", 1e15))


def time_factor(unit: str) -> float | None:
    """Seconds per ``unit`` for a time unit ("ms" -> 0.001), None for anything else."""
    return _TIME_UNITS.get(unit.strip())


def time_per(unit: str) -> tuple[float, str] | None:
    """A time, or a time per something (Go's ``ns/op``, JMH's ``us/op``): (seconds per unit, the rest).

    ``"ns/op"`` -> ``(1e-9, "/op")``, ``"ms"`` -> ``(0.001, "")``; None when the unit is not a time
    (``ops/s`` is a rate: its time is below the line).
    """
    text = unit.strip()
    head, slash, rest = text.partition("/")
    seconds = _TIME_UNITS.get(head.strip())
    if seconds is None or (slash and not rest.strip()):
        return None
    return seconds, slash + rest


def signif(value: float, digits: int = 4) -> str:
    """``value`` with ``digits`` significant digits, without an exponent between 1e-3 and 10**digits.

    Larger values are shown whole (12345, not 1.234e+04): a shared column scale may
    put a few values there, and dropping their digits would hide nothing useful.
    """
    if value is None:
        return "-"
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    mag = abs(value)
    if mag >= 10 ** digits:
        return f"{value:.0f}"
    if mag >= 1e-3:
        decimals = max(digits - 1 - math.floor(math.log10(mag)), 0)
        text = f"{value:.{decimals}f}"
        # rounding may have added a digit (9.9996 -> 10.000): show digits significant ones
        if len(text.replace("-", "").replace(".", "").lstrip("0")) > digits and decimals > 0:
            text = f"{value:.{decimals - 1}f}"
        return text
    return f"{value:.{digits}g}"


@attrs.frozen
class Scale:
    """How to show numbers of one unit: divide by ``factor``, write ``unit`` after them.

    ``prefix`` ("K", "M", ...) goes between number and unit for rates and counts.
    """

    factor: float = 1.0
    unit: str = ""
    prefix: str = ""

    def number(self, value: float | None, digits: int = 4) -> str:
        """The scaled number alone ("8.185", "1.25"), for a column whose header gives :attr:`label`."""
        if value is None:
            return "-"
        return signif(float(value) / self.factor, digits)

    def __call__(self, value: float | None, digits: int = 4) -> str:
        """The scaled number with its prefix and unit ("8.185 ms", "1.25M ops/s", "1.2K")."""
        if value is None:
            return "-"
        return self.number(value, digits) + self.prefix + (f" {self.unit}" if self.unit else "")

    @property
    def label(self) -> str:
        """The unit as a column header shows it ("ms", "M ops/s")."""
        return f"{self.prefix} {self.unit}".strip() if self.prefix else self.unit


def _reference(values: Iterable[float | None]) -> float | None:
    arr = np.array([abs(float(v)) for v in values if v is not None], dtype=float)
    arr = arr[np.isfinite(arr) & (arr > 0)]
    if arr.size == 1:  # one value (``quantity``): its own median, without np.median's ~20 us
        return float(arr[0])
    return float(np.median(arr)) if arr.size else None


def scale_for(values: Iterable[float | None], unit: str = "") -> Scale:
    """One scale for ``values`` of ``unit``: their median lands between 1 and 1000.

    Times become ps/ns/µs/ms/s, and so do times per operation (``ns/op`` -> ``ms/op``: a time
    never gets an SI prefix, as no benchmark tool writes "4.612M ns/op"); any other unit gets K/M/G/T when its values are in
    the thousands or more (rates, counts, bytes: "B/s" becomes "MB/s"). Scores and
    unitless values below 1000 are left as they are.
    """
    return _scale(_reference(values), unit or "")


def _scale(ref: float | None, unit: str) -> Scale:
    """:func:`scale_for` from the reference value (the values' median magnitude, None without one)."""
    timed = time_per(unit)
    if timed is not None:  # a time (per operation): a time scale, never an SI prefix (4.612 ms/op, not 4.612M ns/op)
        seconds, per = timed
        if ref is None:
            return Scale(1.0, unit)
        ref_s = ref * seconds
        name, size = _TIME_SCALES[0]
        for cand, cand_size in _TIME_SCALES:
            if ref_s >= cand_size * 0.99995:  # 0.99996 ms reads as 1.000 ms, not 1000 µs; 0.9995 ms as 999.5 µs
                name, size = cand, cand_size
        if ref_s >= 600 * 0.9995 and unit.partition("/")[0].strip() in ("min", "h"):
            return Scale(1.0, unit)  # keep minutes and hours as given
        return Scale(size / seconds, name + per)
    if ref is None or ref < 1e3:
        return Scale(1.0, unit)
    name, size = _PREFIXES[0]
    for cand, cand_size in _PREFIXES:
        if ref >= cand_size * 0.9995:
            name, size = cand, cand_size
    if unit.startswith("B"):  # bytes: "MB/s", as people write it
        return Scale(size, name + unit)
    return Scale(size, unit, prefix=name)


def quantity(value: float | None, unit: str = "", digits: int = 4) -> str:
    """One value with the unit that suits it: ``quantity(0.008185, "s")`` -> "8.185 ms"."""
    if value is None:
        return "-"
    ref = abs(float(value))  # _reference of one value, without building an array (reports ask for thousands)
    return _scale(ref if math.isfinite(ref) and ref > 0 else None, unit or "")(value, digits)


def column(values: Sequence[float | None], unit: str = "", digits: int = 4) -> tuple[list[str], Scale | None]:
    """Numbers of one column, with one shared scale when it reads well, else each its own.

    Returns the texts (with the unit when the scales differ, without when shared) and the
    shared scale (None when each value has its own): a shared scale goes in the header.
    One scale reads well when every value lands between 0.001 and 10**digits in it;
    a column spanning more decades than that (ns next to s) scales each value.
    """
    scale = scale_for(values, unit)
    shown = [abs(float(v)) / scale.factor for v in values if v is not None and math.isfinite(float(v)) and v != 0]
    if all(1e-3 <= v < 10 ** digits for v in shown):
        return [scale.number(v, digits) for v in values], scale
    return [quantity(v, unit, digits) for v in values], None


def percent(fraction: float | None, signed: bool = True) -> str:
    """A relative change as a percentage with 2–3 significant digits: +0.52%, -6.1%, -34%, +233%."""
    if fraction is None or not math.isfinite(float(fraction)):
        return "-"
    pct = 100.0 * float(fraction)
    mag = abs(pct)
    decimals = 2 if mag < 1 else 1 if mag < 100 else 0
    text = f"{pct:+.{decimals}f}%" if signed else f"{pct:.{decimals}f}%"
    if float(text.rstrip("%")) == 0:
        return "0%" if not signed else "±0%"
    return text


def change(speedup: float | None, lower_is_better: bool = True) -> float | None:
    """The metric's relative change for a speedup (> 1 = candidate better).

    For times (lower is better) 1/speedup − 1 (−6% = faster); for throughputs and
    scores speedup − 1 (+6% = better). None when there is no speedup.
    """
    if speedup is None or not math.isfinite(float(speedup)) or speedup <= 0:
        return None
    return 1.0 / float(speedup) - 1.0 if lower_is_better else float(speedup) - 1.0
