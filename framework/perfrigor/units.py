"""Units of measurement: one registry of time, rate and size units, with exact conversion.

Tools write the same quantity in different units (Google Benchmark picks ``ns``
or ``s`` per benchmark, JMH ``ops/ms`` or ``ops/s``, Go ``ns/op`` and ``MB/s``).
Two samples of one benchmark in different units of the same kind are converted,
never refused; units of different kinds (``ns/op`` and ``B/op``), or units this
registry does not know, are compared by name only.

Each unit has a *kind* (``time``, ``time/op``, ``rate``, ``bytes``, ``bytes/op``,
``bytes/time``) and an exact factor to the kind's base unit (a Fraction: ``ms``
is 1/1000 ``s``). A conversion multiplies or divides by an integer wherever the
factor between the two units is one or its reciprocal is one (all time and rate
units), so the result is the correctly rounded value of the exact product.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs
import numpy as np

from .errors import DataError


@attrs.frozen
class Unit:
    """A registered unit: its kind, exact factor to the kind's base unit, and the usual direction."""

    name: str
    kind: str
    factor: Fraction
    #: True for times, False for rates of operations; None when the unit says nothing about it
    lower_is_better: bool | None
    description: str = ""


_TIME = {  # seconds per unit
    "ns": Fraction(1, 10**9), "us": Fraction(1, 10**6), "ms": Fraction(1, 1000), "s": Fraction(1),
    "min": Fraction(60), "h": Fraction(3600), "day": Fraction(86400),
}
_BYTES = {
    "B": Fraction(1), "kB": Fraction(10**3), "MB": Fraction(10**6), "GB": Fraction(10**9), "TB": Fraction(10**12),
    "KiB": Fraction(2**10), "MiB": Fraction(2**20), "GiB": Fraction(2**30), "TiB": Fraction(2**40),
}


def _build() -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for t, f in _TIME.items():
        units[t] = Unit(t, "time", f, True, "a duration")
        units[f"{t}/op"] = Unit(f"{t}/op", "time/op", f, True, "time per operation")
        units[f"ops/{t}"] = Unit(f"ops/{t}", "rate", 1 / f, False, "operations per unit of time")
    for b, f in _BYTES.items():
        units[b] = Unit(b, "bytes", f, True, "a size")
        units[f"{b}/op"] = Unit(f"{b}/op", "bytes/op", f, True, "bytes per operation")
        units[f"{b}/s"] = Unit(f"{b}/s", "bytes/time", f, False, "bytes per second")
    return units


#: every registered unit by its canonical name
UNITS: dict[str, Unit] = _build()

#: other spellings tools write, and the canonical name they stand for
ALIASES: dict[str, str] = {
    "second": "s", "seconds": "s", "sec": "s", "secs": "s",
    "millisecond": "ms", "milliseconds": "ms", "msec": "ms", "msecs": "ms",
    "microsecond": "us", "microseconds": "us", "usec": "us", "usecs": "us", "µs": "us", "μs": "us",
    "nanosecond": "ns", "nanoseconds": "ns", "nsec": "ns", "nsecs": "ns",
    "minute": "min", "minutes": "min", "hr": "h", "hour": "h", "hours": "h", "days": "day",
    "sec/op": "s/op", "µs/op": "us/op", "μs/op": "us/op", "hr/op": "h/op",
    "ops/sec": "ops/s", "ops/µs": "ops/us", "ops/μs": "ops/us", "ops/hr": "ops/h",
    "byte": "B", "bytes": "B", "KB": "kB", "bytes/op": "B/op", "KB/s": "kB/s",
    "MB/sec": "MB/s", "B/sec": "B/s", "integer": "",
}


def canonical(unit: str) -> str:
    """The registry's name for ``unit`` (``"seconds"`` -> ``"s"``); unknown units come back stripped."""
    text = unit.strip()
    return ALIASES.get(text, ALIASES.get(text.lower(), text)) if text not in UNITS else text


def lookup(unit: str) -> Unit | None:
    """The registered Unit of ``unit`` (any spelling), or None for a unit the registry does not know."""
    return UNITS.get(canonical(unit))


def kind(unit: str) -> str | None:
    """``"time"``, ``"rate"``, ... or None for an unknown unit."""
    u = lookup(unit)
    return None if u is None else u.kind


def lower_is_better(unit: str) -> bool | None:
    """The usual direction of a unit: True for times, False for rates; None when it does not say."""
    u = lookup(unit)
    if u is not None:
        return u.lower_is_better
    return False if unit.strip().endswith(("/s", "/sec")) else None


def factor(from_unit: str, to_unit: str) -> Fraction:
    """The exact number by which a value in ``from_unit`` is multiplied to express it in ``to_unit``.

    Raises DataError when the units are of different kinds or one is unknown (and they differ).
    """
    if canonical(from_unit) == canonical(to_unit):
        return Fraction(1)
    a, b = lookup(from_unit), lookup(to_unit)
    if a is None or b is None:
        unknown = from_unit if a is None else to_unit
        raise DataError(f"cannot convert {from_unit!r} to {to_unit!r}: unit {unknown!r} is not one perfrigor "
                        "knows (time, time per operation, operations per time, bytes, bytes per operation "
                        "or per second)")
    if a.kind != b.kind:
        raise DataError(f"cannot convert {from_unit!r} ({a.description}) to {to_unit!r} ({b.description}): "
                        "they measure different things")
    return a.factor / b.factor


def convertible(from_unit: str, to_unit: str) -> bool:
    """Whether values in ``from_unit`` can be expressed in ``to_unit``."""
    try:
        factor(from_unit, to_unit)
    except DataError:
        return False
    return True


def convert(values: Any, from_unit: str, to_unit: str) -> np.ndarray:
    """``values`` (array-like) expressed in ``to_unit``: one multiplication or division by an integer.

    When the factor is an integer n (``s`` -> ``ns``) the values are multiplied by n; when
    its reciprocal is (``ns`` -> ``s``) they are divided by n: either way each result is the
    correctly rounded value of the exact one. Other factors (``MB`` -> ``MiB``) multiply
    by the numerator and divide by the denominator.
    """
    arr = np.asarray(values, dtype=float)
    f = factor(from_unit, to_unit)
    if f == 1:
        return arr.copy()
    if f.denominator == 1:
        return arr * float(f.numerator)
    if f.numerator == 1:
        return arr / float(f.denominator)
    return arr * float(f.numerator) / float(f.denominator)


def common_unit(units: Iterable[str]) -> str:
    """The unit to which several units of one kind are converted: the first one given."""
    listed = list(units)
    if not listed:
        raise DataError("no units given")
    return listed[0]


def table() -> list[Mapping[str, Any]]:
    """Every registered unit (name, kind, factor to the kind's base unit, direction), for docs and listings."""
    return [{"name": u.name, "kind": u.kind, "factor": str(u.factor), "lower_is_better": u.lower_is_better}
            for u in UNITS.values()]
