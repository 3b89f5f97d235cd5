"""Helpers shared by the readers: text of a file, numbers with a place, Sample-or-Suite results."""

from __future__ import annotations

import gzip
import math
import os
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from ..data import BenchmarkInfo, Sample, Suite
from ..errors import DataError
from .limits import HOW_TO_RAISE, RATIO_FLOOR, shown_size
from .limits import current as current_limits
from .numbers import is_number, parse_number, shown

#: unit names tidy tables use in column names, and the short form perfrigor reports
#: (the full registry of units and their spellings is perfrigor.units)
UNIT_ALIASES = {
    "second": "s", "seconds": "s", "sec": "s", "secs": "s", "s": "s",
    "millisecond": "ms", "milliseconds": "ms", "ms": "ms", "msec": "ms",
    "microsecond": "us", "microseconds": "us", "us": "us", "usec": "us", "µs": "us",
    "nanosecond": "ns", "nanoseconds": "ns", "ns": "ns", "nsec": "ns",
    "byte": "B", "bytes": "B", "integer": "", "cycles": "cycles",
}

GZIP_MAGIC = b"\x1f\x8b"
UTF8_BOM = b"\xef\xbb\xbf"
#: bytes read at a time from a file or a gzip stream
CHUNK = 1 << 22
#: bytes of whole lines parsed together by the readers of text (the temporary arrays take ~15x that)
LINE_CHUNK = 1 << 18


def input_chunks(path: Path, size: int = CHUNK) -> Iterator[bytes]:
    """The file's bytes in chunks of about ``size``, gunzipped when gzip-compressed (pyperf writes ``.json.gz``).

    The limits of :mod:`perfrigor.readers.limits` hold: a larger file, or gzip data unpacking past
    the size or ratio limit, is a DataError before its bytes are kept.
    """
    limit = current_limits()
    try:
        with path.open("rb") as fh:
            check_size(path, os.fstat(fh.fileno()).st_size)
            head = fh.read(2)
            fh.seek(0)
            if head != GZIP_MAGIC:
                while chunk := fh.read(size):
                    yield chunk
                return
            yield from _gunzipped(fh, path, size, limit)
    except OSError as exc:
        raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None


#: deflate's largest ratio (a run of one byte): a gzip trailer stating more is not believed
DEFLATE_MAX_RATIO = 1032


def data_size(path: Path) -> int:
    """The bytes a read of ``path`` will see, as a hint: its size, or the unpacked size a gzip trailer states.

    For choosing a reader and reserving room only (never trusted otherwise): the trailer gives the
    last member's size modulo 4 GiB, and is bounded by deflate's largest ratio and the input limits.
    """
    try:
        size = path.stat().st_size
        if size < 18:
            return size
        with path.open("rb") as fh:
            if fh.read(2) != GZIP_MAGIC:
                return size
            fh.seek(-4, os.SEEK_END)
            stated = int.from_bytes(fh.read(4), "little")
    except OSError:
        return 0  # the read itself says what is wrong
    limit = current_limits()
    bounds = [stated, DEFLATE_MAX_RATIO * size]
    if limit.max_size is not None:
        bounds.append(limit.max_size)
    if limit.max_ratio is not None:
        bounds.append(max(RATIO_FLOOR, int(limit.max_ratio * size)))
    return max(size, min(bounds))


def check_size(path: Path, size: int | None = None) -> None:
    """DataError when a file is larger than the input size limit of the read in progress."""
    limit = current_limits().max_size
    if limit is None:
        return
    if size is None:
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise DataError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if size > limit:
        raise DataError(f"{path}: {shown_size(size)} is more than the input size limit of {shown_size(limit)}; "
                        f"{HOW_TO_RAISE}")


def _gunzipped(fh: Any, path: Path, size: int, limit: Any) -> Iterator[bytes]:
    """Chunks of gzip data unpacked, stopped at the size and ratio limits (a gzip bomb is one DataError)."""
    unpacked = 0
    try:
        with gzip.GzipFile(fileobj=fh) as gz:
            while chunk := gz.read(size):
                unpacked += len(chunk)
                if limit.max_size is not None and unpacked > limit.max_size:
                    raise DataError(f"{path}: gzip data unpacks to more than the input size limit of "
                                    f"{shown_size(limit.max_size)}; {HOW_TO_RAISE}")
                packed = max(fh.tell(), 1)
                if limit.max_ratio is not None and unpacked > RATIO_FLOOR and unpacked > limit.max_ratio * packed:
                    raise DataError(f"{path}: gzip data unpacks to more than {limit.max_ratio:g} times its size "
                                    f"({shown_size(unpacked)} from {shown_size(packed)} so far): refused as a "
                                    "decompression bomb; --max-input-size none (max_input_size='none') lifts "
                                    "the limits")
                yield chunk
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise DataError(f"{path}: damaged gzip file ({exc})") from None


def read_bytes(path: Path) -> bytes:
    """The file's bytes, gunzipped when it is gzip-compressed, within the input limits (:func:`input_chunks`)."""
    return b"".join(input_chunks(path))


def line_chunks(path: Path, size: int = LINE_CHUNK) -> Iterator[tuple[bytes, int, int]]:
    """``(bytes, number of its first line, offset of its first byte)``: the file in chunks of whole lines.

    Each chunk but the last ends with a newline, so a chunk's lines are the file's lines; a UTF-8
    byte-order mark is dropped (offsets count from after it, as :func:`decode`'s messages do).
    """
    line, offset = 1, 0
    tail = b""
    first = True
    for chunk in input_chunks(path, size):
        if first:
            first = False
            chunk = chunk.removeprefix(UTF8_BOM)
        data = tail + chunk if tail else chunk
        cut = data.rfind(b"\n") + 1
        if cut == 0:
            tail = data
            continue
        body, tail = (data[:cut], data[cut:]) if cut < len(data) else (data, b"")
        yield body, line, offset
        line += body.count(b"\n")
        offset += len(body)
    if tail:
        yield tail, line, offset


class Growing:
    """An array filled part by part, in room reserved ahead (grown by half when short, trimmed at the end).

    The numbers of a large file are written once into their final array, rather than kept in
    parts and joined (which holds them twice); :meth:`frozen` hands it over read-only, and a
    Sample takes a read-only array without copying it.
    """

    def __init__(self, dtype: Any) -> None:
        self.data = np.empty(0, dtype=dtype)
        self.size = 0

    def reserve(self, size: int) -> None:
        if not self.size:  # nothing to keep: fresh room, its pages touched only as they are written
            self.data = np.empty(max(size, self.data.size), dtype=self.data.dtype)
        elif size > self.data.size:
            self.data.resize(size, refcheck=False)

    def add(self, part: np.ndarray) -> None:
        end = self.size + part.size
        if end > self.data.size:
            self.reserve(max(end, self.data.size + self.data.size // 2))
        self.data[self.size:end] = part
        self.size = end

    def widen(self, dtype: Any) -> None:
        """Hold values of ``dtype`` from now on (codes that outgrow their integer type)."""
        if np.dtype(dtype) != self.data.dtype:
            self.data = self.data.astype(dtype)

    def filled(self) -> np.ndarray:
        """The values added so far (a view: valid until the next add)."""
        return self.data[:self.size]

    def shrink(self, size: int) -> None:
        """Let go of the values from ``size`` on (their memory goes back; no view of them may remain)."""
        self.size = min(self.size, size)
        self.data.resize(self.size, refcheck=False)

    def frozen(self) -> np.ndarray:
        self.data.resize(self.size, refcheck=False)
        self.data.setflags(write=False)
        return self.data


def not_utf8(chunk: bytes, exc: UnicodeDecodeError, path: Path, line: int, offset: int) -> DataError:
    """The DataError of :func:`decode` for a chunk of a file (its first line and byte offset given)."""
    line += chunk[:exc.start].count(b"\n")
    return DataError(f"{path}, line {line}: not UTF-8 text ({exc.reason} at byte {offset + exc.start})")


def decode(raw: bytes, path: Path) -> str:
    """UTF-8 text without a byte-order mark; DataError naming the byte that is not UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise DataError(f"{path}, line {line}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_text(path: Path) -> str:
    """The file as text: gunzipped if compressed, decoded as UTF-8, byte-order mark dropped."""
    return decode(read_bytes(path), path)


def head_text(path: Path, size: int = 4096) -> str:
    """The first ``size`` characters (after gunzipping), for sniffing; undecodable bytes replaced."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(size)
            if raw[:2] == GZIP_MAGIC:
                fh.seek(0)
                with gzip.open(fh) as gz:
                    raw = gz.read(size)
    except (OSError, EOFError, zlib.error) as exc:
        raise DataError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    return raw.decode("utf-8", errors="replace").lstrip("\ufeff")


def number(raw: Any, where: str, what: str = "value", text: bool = False) -> float:
    """A finite float from a parsed value; else a DataError naming ``where``.

    ``text``: the value comes from a text format (a CSV cell, a DataFrame of strings), where a
    string is parsed by :func:`~perfrigor.readers.numbers.parse_number`. In JSON a measurement
    is a JSON number: a string (``"1.5"``) is an error in every reader, never read as a number
    by some and refused by others.
    """
    kind = type(raw)
    if kind is float:
        if math.isfinite(raw):
            return raw
        raise DataError(f"{where}: {what} {raw!r} is not a finite number (infinity and NaN are not measurements)")
    if raw is None:
        raise DataError(f"{where}: missing {what}")
    if isinstance(raw, bool | np.bool_):
        raise DataError(f"{where}: {what} {bool(raw)!r} is not a number")
    if isinstance(raw, int):
        try:
            return float(raw)
        except OverflowError:
            raise DataError(f"{where}: {what} {_int_text(raw)} is too large for a floating-point "
                            "number") from None
    if isinstance(raw, float):  # a float subclass (numpy's float64)
        return number(float(raw), where, what)
    if isinstance(raw, np.integer):  # numpy's scalars (a DataFrame's object column): numbers, not junk
        return number(int(raw), where, what)
    if isinstance(raw, np.floating):  # float32, float16: exactly representable as a float
        return number(float(raw), where, what)
    if isinstance(raw, str):
        if text:
            return parse_number(raw, where, what)
        if not raw.strip():
            raise DataError(f"{where}: missing {what} (an empty string)")
        return_hint = " (write numbers without quotes)" if is_number(raw) else ""
        raise DataError(f"{where}: {what} {shown(raw)} is a string, not a JSON number{return_hint}")
    raise DataError(f"{where}: {what} is {json_type(raw)}, not a number")


def _int_text(value: int) -> str:
    """An integer's digits for a message, shortened (and never converting one beyond Python's digit limit)."""
    if value.bit_length() > 14_000:
        return f"an integer of about {int(value.bit_length() * 0.30103)} digits"
    text = str(value)
    return text if len(text) <= 20 else f"{text[:12]}... ({len(text)} digits)"


def json_type(raw: Any) -> str:
    """A parsed value as a message names its type: "an array", "an object", "true", "a string", "a number"."""
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return str(raw).lower()
    if isinstance(raw, list):
        return "an array"
    if isinstance(raw, dict):
        return "an object"
    if isinstance(raw, str):
        return "a string"
    if isinstance(raw, int | float):
        return "a number"
    return f"a {type(raw).__name__}"


def numbers(values: list, path: Path, what: str) -> list[float]:
    """A list of finite floats; the first bad element is named with its line (when known)."""
    if all(type(v) is float for v in values):
        if all(math.isfinite(v) for v in values):
            return list(values)
    elif all(type(v) in (int, float) for v in values):
        try:
            floats = [float(v) for v in values]
        except OverflowError:
            floats = []
        if len(floats) == len(values) and all(math.isfinite(v) for v in floats):
            return floats
    lines = getattr(values, "lines", None) or [getattr(values, "line", None)] * len(values)
    return [number(v, at(path, ln), what) for v, ln in zip(values, lines, strict=True)]


def lines_of(values: Sequence, default: int | None = None) -> list[int]:
    """The line of each element of a parsed JSON array (``default`` or the array's line when unknown)."""
    lines = getattr(values, "lines", None)
    if lines is not None and len(lines) == len(values):
        return list(lines)
    return [default or getattr(values, "line", 0) or 0] * len(values)


def at(path: Path, line: int | None) -> str:
    """``"FILE, line N"`` (or just the file when the line is unknown; ``row N`` of a DataFrame)."""
    if not line:
        return str(path)
    return f"{path}, row {line}" if str(path) == "<DataFrame>" else f"{path}, line {line}"


def positions(lines: Any) -> np.ndarray | None:
    """Line numbers as an int array for ``Sample(positions=...)``; None when any is unknown (0)."""
    arr = np.asarray(lines, dtype=np.int64)
    return None if arr.size == 0 or (arr <= 0).any() else arr


def sample_or_suite(data: Mapping[str, Mapping[str, Sample]], path: Path,
                    info: Mapping[str, BenchmarkInfo] | None = None, named: bool = True,
                    excluded: Mapping[str, str] | None = None) -> Sample | Suite:
    """One benchmark of one system gives its Sample; anything more gives a Suite.

    The same rule in every reader: ``perfrigor compare old new`` reads two
    Samples (or two one-system Suites, which the caller pairs by benchmark).
    When the benchmark has a name of its own (``named``: not made up from the
    file name), the Sample keeps it in ``metadata["benchmark"]`` so reports show it. ``excluded``:
    benchmarks of the file with nothing to compare, ``{benchmark: why}`` (the file then holds more
    than one benchmark: a Suite, which lists them).
    """
    if not data:
        raise DataError(f"{path}: no measurements")
    distinct_names(data, path, "benchmark")
    distinct_names({s: None for per in data.values() for s in per}, path, "system")
    if len(data) == 1 and not excluded:
        ((bench, systems),) = data.items()
        if len(systems) == 1:
            (sample,) = systems.values()
            if named and "benchmark" not in sample.metadata:
                sample = attrs.evolve(sample, metadata={**sample.metadata, "benchmark": bench})
            return sample
    data, only_in = split_one_sided(data, path)
    return Suite(data, info={b: i for b, i in (info or {}).items() if b in data}, source=str(path), only_in=only_in,
                 excluded=dict(excluded or {}))


def space_key(name: str) -> str:
    """A name with its white space (Unicode's too) collapsed: names of one key differ only in white space."""
    return " ".join(name.split())


def distinct_names(names: Iterable[str], path: Path, what: str) -> None:
    """DataError for two names that differ only in white space (``a`` and `` a``): which is meant is a guess.

    Every reader holds its names to this rule: two such names are neither pooled into one sample
    nor shown side by side as if they were different.
    """
    seen: dict[str, str] = {}
    for name in names:
        first = seen.setdefault(space_key(str(name)), name)
        if first != name:
            raise DataError(f"{path}: the {what} names {first!r} and {name!r} differ only in white space; which one "
                            "is meant is ambiguous (write each name one way)")


def split_one_sided(data: Mapping[str, Mapping[str, Sample]], path: Path
                    ) -> tuple[dict[str, Mapping[str, Sample]], dict[str, list[str]]]:
    """The benchmarks every system measured, and ``{system: [benchmarks only it measured]}``.

    A file may hold benchmarks measured by one system only (a benchmark added in the new
    version): they are listed, not compared. A benchmark measured by some of three or more
    systems stays in the data, where Suite says what is missing. DataError when no
    benchmark is measured by every system.
    """
    systems: dict[str, None] = {}
    for per in data.values():
        systems.update(dict.fromkeys(per))
    if len(systems) < 2:
        return dict(data), {}
    complete = {b: per for b, per in data.items() if len(per) > 1}
    only_in: dict[str, list[str]] = {}
    for bench, per in data.items():
        if len(per) == 1:
            only_in.setdefault(next(iter(per)), []).append(bench)
    if not complete:
        shown = "; ".join(f"{s}: {', '.join(map(repr, b[:5]))}" for s, b in only_in.items())
        raise DataError(f"{path}: no benchmark is measured by more than one system ({shown})")
    return complete, only_in
