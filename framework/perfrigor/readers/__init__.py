"""Readers: files -> Sample or Suite. One module per input format.

``read(path)`` picks the format from ``format=`` or by asking each registered
reader, in order of ``priority`` (lowest first), whether it recognises the
file from its name and first 4 kB (``sniff``). Every reader follows one rule:
a file holding one benchmark of one system gives a :class:`~perfrigor.Sample`,
anything more a :class:`~perfrigor.Suite`. Every error is a ``DataError``
naming the file and, where it can, the line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from .gbench import GoogleBenchmarkReader
from .hyperfine import HyperfineReader
from .json_values import JsonValuesReader
from .pyperf import PyperfReader
from .tidy import TidyCsvReader, TidyJsonReader
from .values import ValuesReader

BUILTIN_READERS = [
    PyperfReader(),
    HyperfineReader(),
    GoogleBenchmarkReader(),
    TidyJsonReader(),
    JsonValuesReader(),
    TidyCsvReader(),
    ValuesReader(),
]


def read(path: str | os.PathLike, format: str | None = None, **options: Any) -> Sample | Suite:
    """Read a file into a Sample (one system) or a Suite (benchmarks x systems).

    ``format`` names a reader (``perfrigor list`` shows them); ``options`` go to
    the reader (e.g. column names of a tidy table).
    """
    from ..registry import get_registry

    p = Path(path)
    if not p.exists():
        raise DataError(f"{p}: no such file")
    if p.is_dir():
        raise DataError(f"{p}: is a directory, not a data file")
    registry = get_registry()
    if format is not None:
        return registry.reader(format).read(p, **options)
    return sniff(p).read(p, **options)


def sniff(path: Path) -> Any:
    """The registered reader that recognises ``path`` (DataError when none does)."""
    from ..registry import get_registry

    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    registry = get_registry()
    readers = [rec.obj for rec in registry.readers.values()]
    for reader in sorted(readers, key=lambda r: getattr(r, "priority", 50)):
        if reader.sniff(path, head):
            return reader
    if not head.strip():
        raise DataError(f"{path}: empty file")
    raise DataError(f"{path}: unrecognised input format (known: {', '.join(sorted(registry.readers))}); "
                    "name one with format=... (CLI: --input-format)")
