"""Readers: files -> Sample or Suite. One module per input format.

``read(path)`` picks the format from ``format=`` or by asking each registered
reader whether it recognises the file (suffix, then a look at its head).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import DataError
from .values import ValuesReader

BUILTIN_READERS = [ValuesReader()]


def read(path: str | os.PathLike, format: str | None = None, **options: Any):
    """Read a file into a Sample (one system) or a Suite (benchmarks x systems)."""
    from ..registry import get_registry

    p = Path(path)
    if not p.exists():
        raise DataError(f"{p}: no such file")
    if p.is_dir():
        raise DataError(f"{p}: is a directory, not a data file")
    registry = get_registry()
    if format is not None:
        return registry.reader(format).read(p, **options)
    try:
        with p.open("r", encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError as exc:
        raise DataError(f"{p}: cannot read: {exc.strerror or exc}") from None
    readers = [rec.obj for rec in registry.readers.values()]
    for reader in sorted(readers, key=lambda r: getattr(r, "priority", 50)):
        if reader.sniff(p, head):
            return reader.read(p, **options)
    raise DataError(f"{p}: unrecognised input format (known: {', '.join(sorted(registry.readers))})")
