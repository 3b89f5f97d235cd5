"""Histories: benchmarks measured over an ordered series of commits (what detectors analyse).

A :class:`History` holds, per benchmark, every measured value with the commit it belongs to and
its replication unit within that commit (a run, or a fork whose iterations are averaged), in
columns: a history of 1,000 commits x 100 benchmarks x 10 runs is three arrays per benchmark,
not 100,000 Samples. It is read from

- a tidy table (CSV/TSV): columns benchmark, commit, optionally ``order`` (a number) or ``date``
  (ISO 8601) to sort the commits by (else the order of first appearance), optional level columns
  (run, fork, invocation, iteration ...: the outermost one is the replication unit) and a value;
- result files in any format ``pr.read`` reads, one per commit, ordered by a manifest (a CSV with
  columns ``commit,file``, files relative to it) or by their names (``commit`` = the file's stem);
- Python data: ``as_history`` takes a History, a Suite (its systems are the commits), a Sample or
  array whose top level is the commit (``(commits, runs)``), or ``{benchmark: such an array}``.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from .data import Sample, Suite
from .errors import DataError

__all__ = ["BenchmarkHistory", "History", "as_history"]

ORDER_NAMES = ("order", "position", "index", "seq", "sequence")
DATE_NAMES = ("date", "time_stamp", "timestamp", "datetime", "committed", "commit_date")


@attrs.frozen(eq=False)
class BenchmarkHistory:
    """One benchmark over the commits: each value, its commit (an index into ``History.commits``)
    and its replication unit (numbered within the commit)."""

    name: str
    commit: np.ndarray
    unit_id: np.ndarray
    values: np.ndarray
    unit: str = "s"
    lower_is_better: bool = True

    @property
    def commits(self) -> np.ndarray:
        """Indices of the commits this benchmark was measured at, in order."""
        return np.unique(self.commit)

    def units(self) -> tuple[np.ndarray, np.ndarray]:
        """``(commit, mean)`` of every replication unit (a run, or a fork's mean), commits in order."""
        key = self.commit.astype(np.int64) * (int(self.unit_id.max(initial=0)) + 1) + self.unit_id
        keys, inverse = np.unique(key, return_inverse=True)
        sums = np.bincount(inverse, weights=self.values)
        counts = np.bincount(inverse)
        return keys // (int(self.unit_id.max(initial=0)) + 1), sums / counts

    def per_commit(self) -> dict[int, np.ndarray]:
        """``{commit index: values}`` (flat), for detectors that want them one commit at a time."""
        order = np.argsort(self.commit, kind="stable")
        c = self.commit[order]
        cut = np.flatnonzero(np.diff(c)) + 1
        return {int(part[0]): self.values[order][idx] for part, idx in
                zip(np.split(c, cut), np.split(np.arange(c.size), cut), strict=True)}


@attrs.frozen(eq=False)
class History:
    """Benchmarks over commits. ``commits``: the commit names in order; ``order``: the order or date
    each was given (None when the order is that of first appearance); ``benchmarks``: per name, a
    :class:`BenchmarkHistory`."""

    commits: tuple[str, ...] = attrs.field(converter=tuple)
    benchmarks: Mapping[str, BenchmarkHistory]
    order: tuple[Any, ...] | None = None
    source: str | None = None

    def __attrs_post_init__(self) -> None:
        if not self.benchmarks:
            raise DataError(f"{self.source or 'history'}: no benchmarks")
        if len(set(self.commits)) != len(self.commits):
            raise DataError(f"{self.source or 'history'}: a commit is named twice")

    def __len__(self) -> int:
        return len(self.commits)

    def __repr__(self) -> str:
        return f"History({len(self.benchmarks)} benchmarks x {len(self.commits)} commits)"

    def head(self, count: int) -> History:
        """The history up to (not including) commit ``count``: what it was before the later ones."""
        keep = {}
        for name, b in self.benchmarks.items():
            m = b.commit < count
            if m.any():
                keep[name] = attrs.evolve(b, commit=b.commit[m], unit_id=b.unit_id[m], values=b.values[m])
        return History(self.commits[:count], keep, None if self.order is None else self.order[:count], self.source)

    def samples(self, benchmark: str) -> dict[str, Sample]:
        """``{commit: Sample}`` of one benchmark (its values per commit, flat), for convenience."""
        b = self.benchmarks[benchmark]
        return {self.commits[c]: Sample(v, unit=b.unit, lower_is_better=b.lower_is_better, name=self.commits[c])
                for c, v in b.per_commit().items()}

    def to_dict(self) -> dict[str, Any]:
        return {"commits": list(self.commits), "benchmarks": sorted(self.benchmarks),
                "values": int(sum(b.values.size for b in self.benchmarks.values())), "source": self.source}

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_suite(cls, suite: Suite, commits: Sequence[str] | None = None, order: Sequence[Any] | None = None
                   ) -> History:
        """A history whose commits are the suite's systems (in ``commits`` order, else as they appear)."""
        names = list(commits) if commits is not None else list(dict.fromkeys(
            s for systems in suite.data.values() for s in systems))
        index = {c: i for i, c in enumerate(names)}
        out = {}
        for bench, systems in suite.data.items():
            unknown = [s for s in systems if s not in index]
            if unknown:
                raise DataError(f"{suite.source or 'suite'}: benchmark {bench!r} has commit(s) {unknown} "
                                "that the order does not list")
            parts = [(index[s], sample) for s, sample in systems.items()]
            out[bench] = _from_samples(bench, parts, suite.source)
        return cls(names, out, None if order is None else tuple(order), suite.source)

    @classmethod
    def read(cls, *paths: str | Path, manifest: str | Path | None = None, **options: Any) -> History:
        """A history from a tidy table (one path), or from result files one per commit (several
        paths, a directory, or a ``manifest``); ``options`` go to the reader (``benchmark=``,
        ``commit=``, ``value=``, ``levels=``, ``unit=``, ``lower_is_better=``, ``order=``)."""
        if manifest is not None:
            if paths:
                raise DataError("give either a manifest or data files, not both")
            return _from_files(_manifest(Path(manifest)), str(manifest), options)
        if not paths:
            raise DataError("no data: give a tidy table, result files (one per commit) or a manifest")
        if len(paths) == 1 and Path(paths[0]).is_dir():
            directory = Path(paths[0])
            found = directory / "manifest.csv"
            if found.is_file():
                return _from_files(_manifest(found), str(found), options)
            files = sorted((p for p in directory.iterdir() if p.is_file() and not p.name.startswith(".")),
                           key=_natural)
            if not files:
                raise DataError(f"{directory}: no files")
            return _from_files([(p.stem, p) for p in files], str(directory), options)
        if len(paths) == 1:
            return _from_table(Path(paths[0]), options)
        files = [Path(p) for p in paths]
        return _from_files([(p.stem, p) for p in files], f"{len(files)} files", options)


def _natural(path: Path) -> list[Any]:
    """Sort key: names with numbers in numeric order (run2 before run10)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]


def _from_samples(bench: str, parts: Iterable[tuple[int, Sample]], source: str | None) -> BenchmarkHistory:
    """A benchmark's history from ``(commit index, Sample)`` pairs: a Sample's top level is the unit."""
    commit, unit_id, values = [], [], []
    units: set[tuple[str, bool]] = set()
    for c, sample in parts:
        v = np.asarray(sample, dtype=float)
        per = v.reshape(v.shape[0], -1) if v.ndim > 1 else v.reshape(-1, 1)
        commit.append(np.full(per.size, c, dtype=np.int64))
        unit_id.append(np.repeat(np.arange(per.shape[0]), per.shape[1]))
        values.append(per.ravel())
        units.add((sample.unit, sample.lower_is_better))
    if len(units) > 1:
        raise DataError(f"{source or 'history'}: benchmark {bench!r} is measured in different units or directions "
                        f"across commits: {sorted(units)}")
    unit, lower = units.pop()
    return BenchmarkHistory(bench, np.concatenate(commit), np.concatenate(unit_id), np.concatenate(values),
                            unit, lower)


def as_history(obj: Any, what: str = "history") -> History:
    """A History from a History, a Suite (systems = commits), a Sample or array whose top level is
    the commit, or ``{benchmark: Sample or array}`` (each with the same number of commits)."""
    if isinstance(obj, History):
        return obj
    if isinstance(obj, Suite):
        return History.from_suite(obj)
    if isinstance(obj, Mapping):
        if not obj:
            raise DataError(f"{what}: no benchmarks")
        samples = {str(k): Sample.coerce(v, what=f"{what}, benchmark {k!r}") for k, v in obj.items()}
        counts = {k: s.shape[0] for k, s in samples.items()}
        if len(set(counts.values())) > 1:
            raise DataError(f"{what}: benchmarks have different numbers of commits: {counts}")
        n = next(iter(counts.values()))
        out = {k: _commit_rows(k, s) for k, s in samples.items()}
        return History([str(i + 1) for i in range(n)], out, source=what)
    sample = Sample.coerce(obj, what=what)
    name = sample.name or "benchmark"
    return History([str(i + 1) for i in range(sample.shape[0])], {name: _commit_rows(name, sample)}, source=what)


def _commit_rows(name: str, sample: Sample) -> BenchmarkHistory:
    """A benchmark whose Sample has one top-level unit per commit: flat, one value per commit;
    ``(commits, runs)``, each run a unit; ``(commits, forks, ...)``, each fork a unit."""
    v = np.asarray(sample, dtype=float)
    per = v.reshape(v.shape[0], 1, 1) if v.ndim == 1 else v.reshape(v.shape[0], v.shape[1], -1)
    c, u, _ = np.indices(per.shape)
    return BenchmarkHistory(name, c.ravel(), u.ravel(), per.ravel(), sample.unit, sample.lower_is_better)


# ---------------------------------------------------------------- files one per commit


def _manifest(path: Path) -> list[tuple[str, Path]]:
    """``(commit, file)`` rows of a manifest CSV (header ``commit,file``), files relative to it."""
    from .readers._common import read_text

    rows = list(csv.reader(io.StringIO(read_text(path))))
    if not rows:
        raise DataError(f"{path}: empty manifest")
    header = [h.strip().lower() for h in rows[0]]
    if "commit" not in header or "file" not in header:
        raise DataError(f"{path}, line 1: a manifest needs the columns commit and file, got {rows[0]}")
    ci, fi = header.index("commit"), header.index("file")
    out = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(ci, fi) or not row[ci].strip() or not row[fi].strip():
            raise DataError(f"{path}, line {line}: needs a commit and a file")
        file = Path(row[fi].strip())
        out.append((row[ci].strip(), file if file.is_absolute() else path.parent / file))
    if not out:
        raise DataError(f"{path}: the manifest lists no files")
    return out


def _from_files(entries: list[tuple[str, Path]], source: str, options: Mapping[str, Any]) -> History:
    from .readers import read

    names = [c for c, _ in entries]
    seen: dict[str, int] = {}
    for i, c in enumerate(names):
        if c in seen:
            raise DataError(f"{source}: commit {c!r} is listed twice ({entries[seen[c]][1]} and {entries[i][1]})")
        seen[c] = i
    per_bench: dict[str, list[tuple[int, Sample]]] = {}
    options = {k: v for k, v in options.items() if k not in ("order", "commit")}
    fmt = options.pop("format", None)
    for i, (_, path) in enumerate(entries):
        data = read(path, fmt, **options)
        if isinstance(data, Sample):
            per_bench.setdefault("benchmark", []).append((i, data))
            continue
        for bench, systems in data.data.items():
            if len(systems) > 1:
                raise DataError(f"{path}: benchmark {bench!r} holds several systems ({', '.join(systems)}); a "
                                "history takes one commit per file")
            per_bench.setdefault(bench, []).append((i, next(iter(systems.values()))))
    return History(names, {b: _from_samples(b, parts, source) for b, parts in per_bench.items()}, source=source)


# ---------------------------------------------------------------- a tidy table


def _from_table(path: Path, options: Mapping[str, Any]) -> History:
    """A tidy CSV/TSV read in columns (fast: no Sample per commit); roles as the tidy reader finds them."""
    from .readers._common import at, read_text
    from .readers.tidy import ColumnMap

    options = dict(options)
    commit_col = options.pop("commit", None) or options.pop("system", None)
    order_col = options.pop("order", None)
    options.pop("format", None)
    text = read_text(path)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if first.count("\t") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise DataError(f"{path}: empty file") from None
    m = ColumnMap(header, str(path), system=commit_col, **options)
    if m.system is None:
        raise DataError(f"{path}: no commit column (columns: {header}); name it with commit=...")
    lower_names = {h.lower(): h for h in header}
    if order_col is None:
        order_col = next((lower_names[n] for n in (*ORDER_NAMES, *DATE_NAMES) if n in lower_names
                          and lower_names[n] not in (m.value, m.benchmark, m.system, *m.levels)), None)
    elif order_col not in header:
        raise DataError(f"{path}: no column {order_col!r}; columns are {header}")
    col = {h: i for i, h in enumerate(header)}
    rows = [r for r in reader]
    width = len(header)
    bad = next((i for i, r in enumerate(rows) if len(r) != width and any(c.strip() for c in r)), None)
    if bad is not None:
        raise DataError(f"{at(path, bad + 2)}: {len(rows[bad])} cells where the header has {width}")
    keep = [i for i, r in enumerate(rows) if len(r) == width]
    if not keep:
        raise DataError(f"{path}: no measurements (only a header)")
    if len(keep) < len(rows):
        rows = [rows[i] for i in keep]
    columns = list(zip(*rows, strict=True))
    lines = np.array(keep) + 2

    def column(name: str | None) -> np.ndarray | None:
        return None if name is None else np.char.strip(np.array(columns[col[name]]))

    values = _numbers(column(m.value), lines, path, m.value)
    bench = column(m.benchmark) if m.benchmark else np.full(values.size, path.stem)
    commits = column(m.system)
    for name, cells in (("benchmark", bench), ("commit", commits)):
        empty = np.flatnonzero(cells == "")
        if empty.size:
            raise DataError(f"{at(path, int(lines[empty[0]]))}: missing {name}")
    commit_names, commit_idx = _first_appearance(commits)
    order = None
    if order_col is not None:
        commit_names, commit_idx, order = _ordered(commit_names, commit_idx, column(order_col), lines, path,
                                                   order_col)
    level = column(m.levels[0]) if m.levels else None
    unit = m.unit
    lower, _ = m.direction(unit)
    out = {}
    bench_names, bench_idx = _first_appearance(bench)
    for b, name in enumerate(bench_names):
        sel = np.flatnonzero(bench_idx == b)
        c = commit_idx[sel]
        if level is None:  # every row its own unit
            order_in = np.argsort(c, kind="stable")
            u = np.empty(sel.size, dtype=np.int64)
            starts = np.r_[0, np.flatnonzero(np.diff(c[order_in])) + 1]
            counts = np.diff(np.r_[starts, sel.size])
            u[order_in] = np.arange(sel.size) - np.repeat(starts, counts)
        else:
            u = _renumber(c, level[sel])
        out[name] = BenchmarkHistory(name, c, u, values[sel], unit, lower)
    return History(commit_names, out, order, str(path))


def _renumber(commit: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Each value's unit (its ``level`` cell) numbered 0.. within its commit."""
    _, code = np.unique(level, return_inverse=True)
    pairs, inverse = np.unique(commit.astype(np.int64) * (int(code.max()) + 1) + code, return_inverse=True)
    owner = pairs // (int(code.max()) + 1)
    first = np.r_[0, np.flatnonzero(np.diff(owner)) + 1]
    rank = np.arange(pairs.size) - np.repeat(first, np.diff(np.r_[first, pairs.size]))
    return rank[inverse]


def _first_appearance(cells: np.ndarray) -> tuple[list[str], np.ndarray]:
    names, first, inverse = np.unique(cells, return_index=True, return_inverse=True)
    rank = np.argsort(np.argsort(first))
    ordered = [str(n) for n in names[np.argsort(first)]]
    return ordered, rank[inverse]


def _numbers(cells: np.ndarray, lines: np.ndarray, path: Path, what: str) -> np.ndarray:
    from .readers._common import at

    try:
        values = cells.astype(float)
    except ValueError:
        for i, cell in enumerate(cells):
            try:
                float(cell)
            except ValueError:
                raise DataError(f"{at(path, int(lines[i]))}: {what} {str(cell)!r} is not a number") from None
        raise
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise DataError(f"{at(path, int(lines[bad[0]]))}: {what} is {str(cells[bad[0]])!r} (NaN and infinities are "
                        "not measurements)")
    return values


def _ordered(names: list[str], idx: np.ndarray, cells: np.ndarray, lines: np.ndarray, path: Path, column: str
             ) -> tuple[list[str], np.ndarray, tuple[Any, ...]]:
    """Commits sorted by their ``column`` value (a number, or an ISO date); one value per commit."""
    from .readers._common import at

    keys: list[Any] = [None] * len(names)
    shown: list[Any] = [None] * len(names)
    for i, (c, cell) in enumerate(zip(idx.tolist(), cells.tolist(), strict=True)):
        key = _order_key(cell)
        if key is None:
            raise DataError(f"{at(path, int(lines[i]))}: {column} {cell!r} is neither a number nor an ISO date")
        if keys[c] is None:
            keys[c], shown[c] = key, cell
        elif keys[c] != key:
            raise DataError(f"{at(path, int(lines[i]))}: commit {names[c]!r} has {column} {cell!r}, but "
                            f"{shown[c]!r} before")
    kinds = {type(k) for k in keys}
    if len(kinds) > 1:
        raise DataError(f"{path}: column {column!r} mixes numbers and dates")
    perm = sorted(range(len(names)), key=lambda i: keys[i])
    new = np.empty(len(names), dtype=np.int64)
    new[perm] = np.arange(len(names))
    return [names[i] for i in perm], new[idx], tuple(shown[i] for i in perm)


def _order_key(cell: str) -> Any:
    try:
        f = float(cell)
        return f if math.isfinite(f) else None
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(cell.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)  # naive: UTC
