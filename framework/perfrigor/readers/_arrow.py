"""pyarrow's CSV parser for large inputs, held to the rules of the one number parser.

A values file or a tidy CSV of more than :data:`LARGE` bytes is read a chunk of whole lines
(:data:`CHUNK`, 1 MiB) at a time by ``pyarrow.csv`` (C++, numbers by fast_float: correctly rounded, so the floats
are the ones ``float()`` gives, bit for bit), several times as fast as numpy's conversion.
pyarrow reads more than the number parser accepts (``nan``, ``inf``, white space around a
number), so a chunk is taken only when what pyarrow read is what the strict parser reads:

- values: a chunk holding only the bytes a number is written with and line ends (checked
  with ``bytes.translate``: no letter, space, comma, ``#`` or blank line can be there), and
  every number finite (``1e400`` reads as infinity: refused);
- tidy CSV: the value column read as float64, every value finite (``nan``, ``inf`` in any
  spelling read as NaN or infinity: refused), no empty cell; label columns are read as
  dictionaries and their names go through :class:`~perfrigor.readers.table.Names` as the
  csv module's cells would.

Over the bytes a number may hold, fast_float's syntax is the number parser's (``[+-] digits
[. digits] [(e|E) [+-] digits]``); tests/io/test_io_scan.py holds the two to the same verdict.
Anything else (a pyarrow error, a chunk that breaks a rule) returns None: the caller reads the
chunk with numpy and the strict parser, which names the line. pyarrow is imported on the first
large read only (about 0.2 s): start-up and small files never load it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: a file (or gzip data, unpacked) of this many bytes or more is read with pyarrow
LARGE = 4 << 20
#: bytes of whole lines a large file is read in (pyarrow's fixed cost a call, and the readers' own
#: per chunk, are a sixth less than at 256 KiB; the work arrays are a few MB)
CHUNK = 1 << 20
#: what a line of a values file read by pyarrow may hold: a number, and a line end
_NUMBER_BYTES = b"0123456789.eE+-\r\n"

_modules: tuple[Any, Any] | None = None
_json_modules: tuple[Any, Any] | None = None


def _pyarrow() -> tuple[Any, Any] | None:
    """``(pyarrow, pyarrow.csv)``, imported on first use; None when pyarrow cannot be imported."""
    global _modules
    if _modules is None:
        try:
            import pyarrow
            import pyarrow.csv
        except ImportError:  # a dependency, but a platform without its wheel still reads (with numpy)
            return None
        _modules = pyarrow, pyarrow.csv
    return _modules


def json_module() -> Any | None:
    """``(pyarrow.json, pyarrow.compute)``, imported on the first large JSON read; None without pyarrow."""
    global _json_modules
    if _json_modules is None and _pyarrow() is not None:
        import pyarrow.compute  # a tenth of a second more, for the JSON reader's dictionary encoding alone
        import pyarrow.json

        _json_modules = pyarrow.json, pyarrow.compute
    return _json_modules


def lone_return(chunk: bytes) -> bool:
    """Whether a ``\\r`` of the chunk ends no line (pyarrow would end a line there; the strict reader does not)."""
    return b"\r" in chunk and chunk.count(b"\r") != chunk.count(b"\r\n")


def _read(chunk: bytes, columns: list[str], delimiter: str, types: dict[str, Any]) -> Any | None:
    """The table pyarrow reads from a chunk of data rows (no header), or None when it refuses it."""
    modules = _pyarrow()
    if modules is None:
        return None
    pa, csv = modules
    try:
        return csv.read_csv(
            pa.py_buffer(chunk),
            read_options=csv.ReadOptions(column_names=columns, block_size=len(chunk) + 1, use_threads=False),
            memory_pool=_pool(),
            parse_options=csv.ParseOptions(delimiter=delimiter, quote_char=False, escape_char=False,
                                           newlines_in_values=False, ignore_empty_lines=False),
            convert_options=csv.ConvertOptions(column_types=types, include_columns=list(types), null_values=[],
                                               true_values=[], false_values=[], strings_can_be_null=False,
                                               quoted_strings_can_be_null=False))
    except pa.ArrowException:  # a row of another width, a cell that is no number, bytes not UTF-8...
        return None


def _pool() -> Any:
    """malloc's memory pool: what pyarrow frees goes back to it. pyarrow's default (mimalloc) commits
    a few MiB of its own for the first allocation and keeps them: 0.7x the numbers of a 100 MB tidy JSON."""
    return _pyarrow()[0].system_memory_pool()  # type: ignore[index]


def _numpy(column: Any, dtype: Any) -> np.ndarray:
    """An arrow column without nulls as a numpy array on its memory (``to_numpy`` would import pandas)."""
    array = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks(memory_pool=_pool())
    return np.frombuffer(array.buffers()[1], dtype=dtype)[array.offset:array.offset + len(array)]


def _floats(column: Any) -> np.ndarray | None:
    """A float64 column as a numpy array when its values are all finite (None otherwise)."""
    if column.null_count:
        return None
    values = _numpy(column, np.float64)
    if not np.isfinite(values).all():
        return None  # nan, inf, 1e400: the strict parser says what is wrong
    return values


def numbers(chunk: bytes) -> np.ndarray | None:
    """The numbers of a chunk of lines holding one number each and nothing else; None for any other chunk.

    None also when pyarrow refuses the chunk (``1e``, ``1.2.3``) or a number is not finite: the
    caller reads such a chunk line by line.
    """
    if chunk.translate(None, _NUMBER_BYTES):
        return None  # a space, a comma, a comment, a letter: the numpy reader's rules
    if not chunk or lone_return(chunk):
        return None
    modules = _pyarrow()
    if modules is None:
        return None
    table = _read(chunk, ["value"], ",", {"value": modules[0].float64()})  # a blank line: an empty cell, refused
    return None if table is None else _floats(table.column(0))


def columns(chunk: bytes, names: list[str], delimiter: str, labels: list[str],
            value: str) -> tuple[dict[str, tuple[list[str], np.ndarray]], np.ndarray] | None:
    """The label and value columns of a chunk of CSV data rows, or None when the numpy reader must read it.

    ``{label column: (its distinct cells in order of first appearance, each row's index into them)}``
    and the values (finite floats). None for a chunk pyarrow refuses (a row with another number of
    fields, a value that is no number, bytes that are not UTF-8), one whose values are not all
    finite, or one with a blank line (the csv module skips it: the lines would not be the rows).
    """
    if not chunk or lone_return(chunk):
        return None
    modules = _pyarrow()
    if modules is None:
        return None
    pa = modules[0]
    label = pa.dictionary(pa.int32(), pa.string())
    table = _read(chunk, names, delimiter, {**{c: label for c in labels}, value: pa.float64()})
    if table is None:
        return None
    values = _floats(table.column(value))
    if values is None:
        return None
    found = {}
    for c in labels:
        column = table.column(c)
        if column.null_count or column.num_chunks != 1:
            return None  # one chunk read at once: one dictionary, in order of first appearance
        found[c] = column.chunk(0).dictionary.to_pylist(), _numpy(pa.chunked_array([column.chunk(0).indices]),
                                                                  np.int32)
    return found, values


# ---------------------------------------------------------------- JSON records


def json_records(text: bytes | bytearray) -> Any | None:
    """The table pyarrow reads from JSON objects separated by white space, or None when it refuses them."""
    modules = json_module()
    if modules is None:
        return None
    pa, json = _pyarrow()[0], modules[0]  # type: ignore[index]
    try:
        return json.read_json(pa.py_buffer(text), read_options=json.ReadOptions(use_threads=False,
                                                                              block_size=len(text) + 1),
                              parse_options=json.ParseOptions(newlines_in_values=True),
                              memory_pool=_pool())
    except pa.ArrowException:  # not JSON, a key twice in a record, a string not UTF-8 or a lone surrogate...
        return None


#: the largest integer a float64 holds with every integer below it: a name read as a float is exact below it
_EXACT = 2.0**53


def json_names(column: Any) -> tuple[list[Any], np.ndarray] | None:
    """A name column of JSON records: its distinct values (as the json module gives them) and each row's index.

    None for a column the json module would give other values (integers of 2**53 or more read as
    floats), or that holds something other than strings and numbers (null, true, an array...).
    """
    pa, compute = _pyarrow()[0], json_module()[1]  # type: ignore[index]
    kind = column.type
    if column.null_count or not (pa.types.is_string(kind) or pa.types.is_large_string(kind)
                                 or pa.types.is_int64(kind) or pa.types.is_float64(kind)):
        return None
    array = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks(memory_pool=_pool())
    if pa.types.is_float64(kind):
        values = _numpy(pa.chunked_array([array]), np.float64)
        if (np.abs(values) >= _EXACT).any():
            return None
    encoded = compute.dictionary_encode(array, memory_pool=_pool())
    return encoded.dictionary.to_pylist(), _numpy(pa.chunked_array([encoded.indices]), np.int32)


def json_values(column: Any) -> np.ndarray | None:
    """The value column of JSON records as finite floats, or None when the json module's reading differs.

    JSON integers are read as the json module reads them (an int, made a float); a float column
    holding a negative zero is refused: pyarrow reads ``-0`` as -0.0 there, the json module as 0.
    """
    pa = _pyarrow()[0]  # type: ignore[index]
    if column.null_count:
        return None
    if pa.types.is_int64(column.type):
        return _numpy(column, np.int64).astype(np.float64)
    if not pa.types.is_float64(column.type):
        return None  # strings, true/false: the slow way names them
    values = _floats(column)
    if values is None or (np.signbit(values) & (values == 0)).any():
        return None
    return values
