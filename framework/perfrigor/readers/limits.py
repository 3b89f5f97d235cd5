"""How much input a read may take: a size limit (``--max-input-size``) and a gzip ratio limit.

A benchmark file of a few gigabytes is a mistake more often than a measurement, and a
small gzip file can unpack to gigabytes (a "gzip bomb": deflate packs up to about 1000:1).
:func:`perfrigor.read` therefore refuses, with a one-line DataError before the memory is
spent:

- a file larger than ``max_input_size`` (default :data:`DEFAULT_MAX_INPUT_SIZE`, 1 GiB);
- gzip data that unpacks to more than ``max_input_size``;
- gzip data that unpacks to more than :data:`MAX_GZIP_RATIO` times its packed size, once it
  has unpacked past :data:`RATIO_FLOOR` (benchmark JSON packs 3-30:1; small files are never
  refused for their ratio).

``max_input_size`` is set from Python (``pr.read(path, max_input_size="4G")``), the CLI
(``--max-input-size 4G``) or a config's ``[input]`` table (``max_input_size = "4G"``); ``"none"``
lifts both limits. Sizes are bytes, or a number with a unit: ``K``, ``M``, ``G``, ``T`` and
``KiB``... are powers of 1024, ``KB``, ``MB``, ``GB``, ``TB`` powers of 1000 (as GNU tools read them).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator
from typing import Any

import attrs

from ..errors import ConfigError

#: the default largest input (on disk, and unpacked): 1 GiB
DEFAULT_MAX_INPUT_SIZE = 1 << 30
#: the largest unpacked-to-packed ratio of gzip data past RATIO_FLOOR
MAX_GZIP_RATIO = 100
#: gzip data is not refused for its ratio before it has unpacked this far (16 MiB)
RATIO_FLOOR = 16 << 20

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
          "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
          "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
_SIZE = re.compile(r"(?P<number>[0-9]+(?:\.[0-9]+)?)\s*(?P<unit>[a-z]*)", re.IGNORECASE)
OPTION = "max_input_size"


@attrs.frozen
class Limits:
    """The limits of one read: ``max_size`` bytes (None: no limit) and ``max_ratio`` for gzip data."""

    max_size: int | None = DEFAULT_MAX_INPUT_SIZE
    max_ratio: float | None = MAX_GZIP_RATIO


_DEFAULT = Limits()
_current: contextvars.ContextVar[Limits | None] = contextvars.ContextVar("perfrigor_input_limits", default=None)


def parse_size(value: Any) -> int | None:
    """``max_input_size`` as bytes: an integer, ``"500M"``, ``"2 GB"``, ``"1.5GiB"``; None for ``"none"``.

    ConfigError for anything else (a negative or zero size, an unknown unit).
    """
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "unlimited")):
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if value > 0:
            return value
    elif isinstance(value, str):
        m = _SIZE.fullmatch(value.strip())
        if m and m.group("unit").lower() in _UNITS:
            size = int(float(m.group("number")) * _UNITS[m.group("unit").lower()])
            if size > 0:
                return size
    raise ConfigError(f"{OPTION} {value!r} is not a size: give bytes, or a number with K, M, G, T (powers of "
                      "1024), KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB; 'none' for no limit")


def shown_size(size: int) -> str:
    """A size for a message: ``1.5 GiB (1,610,612,736 bytes)``."""
    for unit, factor in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor:
            return f"{size / factor:.3g} {unit} ({size:,} bytes)"
    return f"{size:,} bytes"


def current() -> Limits:
    """The limits of the read in progress (the defaults outside :func:`perfrigor.read`)."""
    return _current.get() or _DEFAULT


@contextlib.contextmanager
def limits(max_input_size: Any = DEFAULT_MAX_INPUT_SIZE) -> Iterator[Limits]:
    """Apply ``max_input_size`` to every file read in the ``with`` block (``None``/``"none"``: no limits)."""
    size = parse_size(max_input_size)
    chosen = Limits(size, MAX_GZIP_RATIO if size is not None else None)
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


HOW_TO_RAISE = "raise it with --max-input-size SIZE (a config's [input] max_input_size; pr.read(..., max_input_size=))"
