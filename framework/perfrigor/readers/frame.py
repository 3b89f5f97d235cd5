"""pandas DataFrames as tidy tables: ``pr.read(df)`` and ``pr.Suite.from_frame(df)``.

A DataFrame with one row per measurement (benchmark, system, level columns,
value) is read exactly like a tidy CSV file (:mod:`perfrigor.readers.tidy`):
the same column detection, the same options (``value=``, ``levels=[...]``,
``unit=`` ...), the same errors, which name the row (counting from 1).
pandas stays optional: nothing here imports it; a DataFrame is recognised by
its type's module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from .options import check_options
from .tidy import TIDY, ColumnMap, from_columns

#: how errors and sources name a DataFrame
FRAME_SOURCE = "<DataFrame>"


def is_frame(obj: Any) -> bool:
    """Whether ``obj`` is a pandas DataFrame (checked without importing pandas)."""
    kind = type(obj)
    return kind.__name__ == "DataFrame" and kind.__module__.split(".")[0] == "pandas"


def read_frame(frame: Any, **options: Any) -> Sample | Suite:
    """A tidy DataFrame -> Sample or Suite (the rule of every reader)."""
    columns = [str(c) for c in frame.columns]
    if len(set(columns)) != len(columns):
        dup = sorted({c for c in columns if columns.count(c) > 1})
        raise DataError(f"{FRAME_SOURCE}: duplicate column name(s) {dup}")
    if len(frame) == 0:
        raise DataError(f"{FRAME_SOURCE}: no rows")
    check_options(TIDY, options)
    m = ColumnMap(columns, FRAME_SOURCE, **options)
    path = Path(FRAME_SOURCE)
    cells = {}
    for j, column in enumerate(columns):
        if column in (m.benchmark, m.system, m.value, *m.levels, m.unit_column):
            series = frame.iloc[:, j]
            numeric = column == m.value and isinstance(series.dtype, np.dtype) and series.dtype.kind in "fiu"
            cells[column] = series.to_numpy() if numeric else series.tolist()
    return from_columns(m, path, range(1, len(frame) + 1), cells, positioned=False, text=True)


def suite_from_frame(frame: Any, **options: Any) -> Suite:
    """Always a Suite (a one-benchmark, one-system frame gives a Suite of one sample)."""
    if not is_frame(frame):
        raise DataError(f"Suite.from_frame takes a pandas DataFrame, got {type(frame).__name__}")
    data = read_frame(frame, **options)
    if isinstance(data, Suite):
        return data
    bench = str(data.metadata.get("benchmark", "benchmark"))
    return Suite({bench: {data.name or "sample": data}}, source=FRAME_SOURCE)
