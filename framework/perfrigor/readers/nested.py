"""Tables written unit after unit: their samples found from runs of rows, without sorting them.

Harnesses write a tidy table in nested loops: every row of a sample together, within it every
row of a level's unit together (an invocation's iterations), and so on. In such a table a unit
is a run of rows and a sample is a slice of the values as they were read; its shape follows
from the length of its first unit at each level. :func:`layout` recognises that layout,
checking it a slice of rows at a time, and :func:`build` makes the samples from slices of the
values: the only arrays as long as the table are the values and the lines written into the
samples, where :func:`perfrigor.readers.table.group` sorts and counts with several. For any
other layout (samples or units interleaved, a unit written in two places, an unbalanced
sample, several units in a sample) ``layout`` is None, and ``group`` groups the rows (and names
what is wrong).

The layout is checked exactly: within each sample, a unit of level ``d`` starts at every
multiple of the length of its first unit (and only there), each level's length divides its
parent's, a unit's name differs from its predecessor's within the same parent by a larger code
(names are coded in order of first appearance, so the units of a parent are distinct), no two
samples have one benchmark and system, and a unit column changes only where a sample starts.
Then every unit at a level has as many children, and the order of first appearance that
``group`` uses is the order of the runs: the two give the same samples (tests/io/test_io_scan.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from ..data import Sample, Suite, line_type
from ._common import Growing, sample_or_suite
from .table import LineRuns, Names, make_sample

#: rows checked at a time (the temporary arrays are a few times this many integers)
SLICE = 1 << 14
#: rows of samples written out at a time: their lines computed together, the values read let go behind them
BATCH = 1 << 16


@attrs.frozen
class Layout:
    """Where each sample's rows are and how they nest: what :func:`build` needs once the codes are let go.

    ``starts``/``ends``: each sample's rows; ``strides[d]``: the length of its units of level ``d``
    (``strides[0]``: the sample); ``bench``, ``system``, ``unit``: its codes in those columns.
    """

    starts: np.ndarray
    ends: np.ndarray
    strides: list[np.ndarray]
    bench: np.ndarray | None
    system: np.ndarray | None
    unit: np.ndarray | None


def layout(bench: np.ndarray | None, system: np.ndarray | None, levels: Sequence[np.ndarray],
           unit: np.ndarray | None, n: int) -> Layout | None:
    """The layout of a table of ``n`` rows written unit after unit (codes of each role's column); else None."""
    if n == 0:
        return None
    keys = [codes for codes in (bench, system) if codes is not None]
    depths = [keys] + [[codes] for codes in levels]
    starts = _sample_starts(keys, n)
    ends = np.append(starts[1:], n)
    if keys and not _distinct(keys, starts):
        return None  # a sample written in two places
    strides = [ends - starts, *_first_unit_lengths(depths, starts, ends)]
    if any((outer % inner).any() for outer, inner in zip(strides[:-1], strides[1:], strict=True)):
        return None  # a level's units do not fill their parent's evenly
    if not _periodic(depths, unit, starts, strides, n):
        return None
    return Layout(starts, ends, strides, *(None if codes is None else codes[starts] for codes in (bench, system, unit)))


def _changes(depths: Sequence[Sequence[np.ndarray]], lo: int, hi: int) -> list[np.ndarray]:
    """For rows lo..hi-1 and each depth: whether a unit of it starts there (a column of it or above changes)."""
    changed = np.zeros(hi - lo, dtype=bool)
    if lo == 0:
        changed[0] = True
    before = max(lo - 1, 0)
    found = []
    for columns in depths:
        changed = changed.copy()
        for codes in columns:
            part = codes[before:hi]
            changed[before + 1 - lo:] |= part[1:] != part[:-1]
        found.append(changed)
    return found


def _sample_starts(keys: Sequence[np.ndarray], n: int) -> np.ndarray:
    """The first row of each run of rows of one benchmark and system."""
    return np.concatenate([np.flatnonzero(_changes([keys], lo, min(lo + SLICE, n))[0]) + lo
                           for lo in range(0, n, SLICE)])


def _sample_of(starts: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """The sample of each row lo..hi-1."""
    first = int(np.searchsorted(starts, lo, side="right")) - 1
    step = np.zeros(hi - lo, dtype=np.intp)
    step[starts[first + 1:int(np.searchsorted(starts, hi))] - lo] = 1
    return first + np.cumsum(step)


def _distinct(keys: Sequence[np.ndarray], starts: np.ndarray) -> bool:
    """Whether no two runs of samples have the same benchmark and system."""
    combined = np.zeros(starts.size, dtype=np.int64)
    for codes in keys:
        combined = combined * (int(codes.max(initial=0)) + 1) + codes[starts]
    return np.unique(combined).size == starts.size


def _first_unit_lengths(depths: Sequence[Sequence[np.ndarray]], starts: np.ndarray,
                        ends: np.ndarray) -> list[np.ndarray]:
    """For each level (depth 1 on): the length of each sample's first unit (the sample's, when it has one)."""
    n = int(ends[-1])
    lengths = [ends - starts for _ in depths[1:]]
    open_ = [np.ones(starts.size, dtype=bool) for _ in depths[1:]]  # samples whose first unit goes on
    for lo in range(0, n, SLICE):
        hi = min(lo + SLICE, n)
        sample = _sample_of(starts, lo, hi)
        for changed, length, waiting in zip(_changes(depths, lo, hi)[1:], lengths, open_, strict=True):
            at = np.flatnonzero(changed)
            owner = sample[at]
            at = at + lo
            later = at != starts[owner]  # a unit starting where its sample does is its first unit
            at, owner = at[later], owner[later]
            first = np.flatnonzero(np.diff(owner, prepend=-1) != 0)  # each sample's first later unit here
            at, owner = at[first], owner[first]
            mine = waiting[owner]
            length[owner[mine]] = at[mine] - starts[owner[mine]]
            waiting[owner[mine]] = False
    return lengths


def _periodic(depths: Sequence[Sequence[np.ndarray]], unit: np.ndarray | None, starts: np.ndarray,
              strides: Sequence[np.ndarray], n: int) -> bool:
    """Whether, within each sample, units start exactly every stride rows at each level, with rising codes.

    Also that a unit column changes only where a sample starts.
    """
    for lo in range(0, n, SLICE):
        hi = min(lo + SLICE, n)
        sample = _sample_of(starts, lo, hi)
        offset = np.arange(lo, hi) - starts[sample]
        changes = _changes(depths, lo, hi)
        if unit is not None:
            part = unit[max(lo - 1, 0):hi]
            if (part[1:] != part[:-1])[~changes[0][hi - lo - part.size + 1:]].any():
                return False
        for depth in range(1, len(depths)):
            changed, parent = changes[depth], changes[depth - 1]
            if not np.array_equal(changed, offset % strides[depth][sample] == 0):
                return False
            (codes,) = depths[depth]
            inner = np.flatnonzero(changed & ~parent) + lo  # a unit after a sibling: its code must be larger
            if inner.size and not (codes[inner] > codes[inner - 1]).all():
                return False
    return True


def build(path: Path, m: Any, plan: Layout, values: Growing, lines: LineRuns, bench: Names | None,
          system: Names | None, levels: Sequence[str], unit: Names | None) -> Sample | Suite:
    """The samples of a table of that layout, in the order of ``group`` (benchmarks by first appearance,
    then systems within each); the names of each role's column.

    ``values``: the values in the file's order, taken over (the samples' values are moved out of
    it from the end, and its memory let go behind them); ``lines``: each row's line.
    """
    starts, ends, strides = plan.starts, plan.ends, plan.strides
    b_of = plan.bench if plan.bench is not None else np.zeros(starts.size, dtype=np.int64)
    s_of = plan.system if plan.system is not None else np.zeros(starts.size, dtype=np.int64)
    order = np.lexsort((starts, b_of)).tolist()
    units = [unit.names[code] for code in plan.unit.tolist()] if unit is not None and plan.unit is not None else [
        m.unit] * starts.size
    for unit_text in dict.fromkeys(units[s] for s in order):  # a direction that cannot be told: named as group does
        m.direction(unit_text)
    built: dict[int, Sample] = {}
    batch_lo, line_batch = values.size + 1, np.empty(0, dtype=np.int64)
    for s in range(starts.size - 1, -1, -1):  # from the end, so that the values read are let go behind
        a, b = int(starts[s]), int(ends[s])
        if a < batch_lo:  # the next rows' lines, computed together
            values.shrink(b)
            batch_lo = a if b - a >= BATCH else max(b - BATCH, 0)
            line_batch = lines.fill(np.empty(b - batch_lo, dtype=np.int64), batch_lo)
        shape = [int(strides[d - 1][s] // strides[d][s]) for d in range(1, len(strides))]
        per_unit = int(strides[-1][s])
        names_of_levels = list(levels)
        if not levels or per_unit > 1:
            shape.append(per_unit)
            if levels:  # several rows per deepest unit: an implicit innermost level
                names_of_levels.append("iteration" if "iteration" not in names_of_levels else "repetition")
        built[s] = make_sample(m, path, _owned(values.data[a:b], shape), names_of_levels, units[s],
                               system.names[s_of[s]] if system is not None else None,
                               _owned(line_batch[a - batch_lo:b - batch_lo], shape, lines=True))
    values.shrink(0)
    b_names = bench.names if bench is not None else [path.stem]
    s_names = system.names if system is not None else [path.name]
    result: dict[str, dict[str, Sample]] = {}
    for s in order:
        result.setdefault(b_names[b_of[s]], {})[s_names[s_of[s]]] = built[s]
    return sample_or_suite(result, path, named=bench is not None)


def _owned(part: np.ndarray, shape: Sequence[int], lines: bool = False) -> np.ndarray:
    """A read-only copy of ``part`` in ``shape`` owning its memory (a Sample takes it without another copy).

    ``lines``: line numbers, copied into the type a Sample keeps them in (:func:`perfrigor.data.line_type`).
    """
    out = np.empty(shape, dtype=line_type(int(part.max(initial=0))) if lines else part.dtype)
    out.reshape(-1)[:] = part
    out.setflags(write=False)
    return out
