"""Readers: files -> Sample or Suite. One module per input format.

``read(path)`` picks the format from ``format=`` or by asking each registered
reader, in order of ``priority`` (lowest first), whether it recognises the
file from its name and first 4 kB (``sniff``; gzip-compressed files are
gunzipped first). A directory is offered to the readers that read directories
(criterion's ``target/criterion``), and a pandas DataFrame is read as a tidy
table. Every reader follows one rule: a file holding one benchmark of one
system gives a :class:`~perfrigor.Sample`, anything more a
:class:`~perfrigor.Suite`. Every error is a ``DataError`` naming the file and,
where it can, the line; every value a reader returns carries its line in
``Sample.positions``. Every number is parsed by one parser
(:func:`~perfrigor.readers.numbers.parse_number`), and a reader's options are
declared with their types (``options``, :class:`ReaderOption`): an unknown or
mistyped option is a ``ConfigError`` raised before the file is read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from ..registry import get_registry
from ..saved import looks_saved
from ._common import check_size, head_text
from .criterion import CriterionReader
from .frame import is_frame, read_frame
from .gbench import GoogleBenchmarkReader
from .gotest import GoBenchReader
from .hyperfine import HyperfineReader
from .jmh import JmhReader
from .json_values import JsonValuesReader
from .limits import DEFAULT_MAX_INPUT_SIZE, limits
from .numbers import parse_number
from .options import ReaderOption, check_options
from .pyperf import PyperfReader
from .pytest_benchmark import PytestBenchmarkReader
from .tidy_csv import TidyCsvReader
from .tidy_json import TidyJsonReader
from .values import ValuesReader

BUILTIN_READERS = [
    PyperfReader(),
    HyperfineReader(),
    GoogleBenchmarkReader(),
    JmhReader(),
    PytestBenchmarkReader(),
    CriterionReader(),
    GoBenchReader(),
    TidyJsonReader(),
    JsonValuesReader(),
    TidyCsvReader(),
    ValuesReader(),
]

__all__ = ["BUILTIN_READERS", "DEFAULT_MAX_INPUT_SIZE", "ReaderOption", "check_options", "is_frame", "parse_number",
           "read", "sniff"]


def read(path: str | os.PathLike | Any, format: str | None = None, *,
         max_input_size: int | str | None = DEFAULT_MAX_INPUT_SIZE, **options: Any) -> Sample | Suite:
    """Read a file, a directory or a pandas DataFrame into a Sample (one system) or a Suite.

    ``format`` names a reader (``perfrigor list`` shows them); ``options`` go to
    the reader (e.g. column names of a tidy table, ``metric=`` of a file with several).
    ``max_input_size`` bounds what the read may take, on disk and gunzipped (bytes, or
    ``"500M"``, ``"2G"``...; ``"none"``: no limit; see :mod:`perfrigor.readers.limits`).
    """
    if is_frame(path):
        if format not in (None, "tidy", "tidy-csv", "tidy-json", "dataframe"):
            raise DataError(f"a DataFrame is read as a tidy table, not with format {format!r}")
        return read_frame(path, **options)
    if not isinstance(path, str | os.PathLike):
        raise DataError(f"cannot read a {type(path).__name__}: give a file or directory path or a DataFrame")
    p = Path(path)
    if not p.exists():
        raise DataError(f"{p}: no such file")
    with limits(max_input_size):
        registry = get_registry()
        if format is not None:
            reader = registry.reader(format)
            if p.is_dir() and not callable(getattr(reader, "sniff_directory", None)):
                raise DataError(f"{p}: is a directory; the {format!r} format reads files")
        else:
            reader = sniff(p)
        check_options(reader, options)
        if p.is_file():
            check_size(p)  # a plugin's reader that reads the file itself is held to the limit too
        return reader.read(p, **options)


def sniff(path: Path) -> Any:
    """The registered reader that recognises ``path`` (DataError when none does)."""
    registry = get_registry()
    readers = sorted((rec.obj for rec in registry.readers.values()), key=lambda r: getattr(r, "priority", 50))
    if path.is_dir():
        for reader in readers:
            check = getattr(reader, "sniff_directory", None)
            if callable(check) and check(path):
                return reader
        takes = [r.name for r in readers if callable(getattr(r, "sniff_directory", None))]
        raise DataError(f"{path}: is a directory, and no reader recognises it"
                        + (f" (readers of directories: {', '.join(takes)})" if takes else "")
                        + "; give a data file")
    head = head_text(path)
    if looks_saved(head):  # JSON, but not measurements: say what it is and what to do with it
        raise DataError(f"{path}: a saved perfrigor report, not measurements: render it with 'perfrigor render "
                        f"{path}' (or load it with pr.load_report); analyse the data files it was made from")
    for reader in readers:
        if reader.sniff(path, head):
            return reader
    if not head.strip():
        raise DataError(f"{path}: empty file")
    raise DataError(f"{path}: unrecognised input format (known: {', '.join(sorted(registry.readers))}); "
                    "name one with format=... (CLI: --input-format)")
