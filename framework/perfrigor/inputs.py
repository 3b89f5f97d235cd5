"""One input path: files, DataFrames, samples and suites -> the one Suite a pipeline runs on.

``perfrigor compare``/``run``/``demo`` (cli.py), ``Pipeline.run`` and ``examples.load``
all assemble their input here (:func:`as_suite`, also ``Suite.from_inputs``: :func:`from_inputs`), so the
same inputs give the same suite, with the same system names, wherever they come from:

- each path (a file or directory) and each DataFrame is read with ``pr.read(path, **options)``;
- one Suite is itself; one ``{benchmark: {system: values}}`` mapping is that suite; one sample
  (or array-like) is a one-benchmark suite with one system, ``"sample"``;
- two ``{benchmark: values}`` mappings are paired by benchmark (``Suite.from_pairs``);
- samples and array-likes are the systems of one benchmark (the benchmark their readers named,
  when they agree);
- one-system suites, and samples that know their benchmark (``metadata["benchmark"]``), are
  joined by benchmark: the benchmarks every input holds are compared, the others listed in
  ``Suite.only_in``; nothing in common is a DataError, and so is a suite of several systems
  given with other inputs.

System names (:func:`labels`): ``names=`` when given; else the samples' own names when each
has a different one (hyperfine's commands, criterion's baselines, a tidy table's system); else
each file's name (whole paths when two files share a name); else ``baseline``/``candidate`` for
two inputs and ``system1``, ``system2``... for more. Names that would clash fall back to those.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .data import Sample, Suite, benchmark_name
from .errors import DataError
from .readers import is_frame, read
from .readers.frame import suite_from_frame


def is_path(obj: Any) -> bool:
    """Whether an input is a file or directory to read."""
    return isinstance(obj, str | os.PathLike)


def load(obj: Any, options: Mapping[str, Any] | None = None) -> Any:
    """An input as data: a path or DataFrame read (``format`` among ``options`` names the reader); else itself."""
    if is_path(obj) or is_frame(obj):
        opts = dict(options or {})
        return read(obj, opts.pop("format", None), **opts)
    return obj


def labels(inputs: Sequence[Any], items: Sequence[Any] | None = None, names: Sequence[str] | None = None) -> list[str]:
    """The system name of each input (``items``: the inputs as read; the rules in the module's docstring)."""
    n = len(inputs)
    items = list(inputs) if items is None else list(items)
    defaults = ["baseline", "candidate"] if n == 2 else [f"system{i + 1}" for i in range(n)]
    if names is not None:
        if len(names) != n or len(set(names)) != n or not all(isinstance(x, str) and x for x in names):
            raise DataError(f"names= needs {n} different names, one per input, got {list(names)!r}")
        return list(names)
    own = [i.name if isinstance(i, Sample) and i.name else None for i in items]
    if all(own) and len(set(own)) == n:  # samples named by their files' tools (hyperfine's commands...)
        return [str(x) for x in own]
    if n and all(is_path(o) for o in inputs):
        for candidates in ([Path(o).name for o in inputs], [str(o) for o in inputs]):
            if len(set(candidates)) == n:
                return candidates
        return defaults
    chosen = [Path(o).name if is_path(o) else (x or d) for o, x, d in zip(inputs, own, defaults, strict=True)]
    return chosen if len(set(chosen)) == n else defaults


def as_suite(*inputs: Any, options: Mapping[str, Any] | None = None, names: Sequence[str] | None = None) -> Suite:
    """One Suite from paths, DataFrames, Samples, array-likes, mappings and Suites (module docstring)."""
    if not inputs:
        raise DataError("nothing to analyse: give a suite, samples, or files")
    items = [load(o, options) for o in inputs]
    if len(items) == 1:
        return _one(items[0])
    systems = labels(inputs, items, names)
    if len(items) == 2 and all(isinstance(i, Mapping) and not isinstance(i, Suite) for i in items):
        return Suite.from_pairs(items[0], items[1], names=tuple(systems) if names else ("baseline", "candidate"))
    joined = [i for i in items if isinstance(i, Suite) or isinstance(i, Mapping)
              or (isinstance(i, Sample) and "benchmark" in i.metadata)]
    if any(isinstance(i, Suite | Mapping) for i in items):
        return _join(inputs, items, systems, joined)
    return Suite({benchmark_name(items): dict(zip(systems, items, strict=True))}, systems=tuple(systems))


def from_inputs(*inputs: Any, names: Sequence[str] | None = None, **options: Any) -> Suite:
    """One suite from files, DataFrames, Samples, array-likes, mappings or suites: the one input path.

    What ``Pipeline.run``, the CLI and ``perfrigor demo`` build their suite with
    (:func:`as_suite`): files are read with ``pr.read(path, **options)`` (``format=`` names a
    reader); ``names`` names the systems (default: the samples' own names, else the files'
    names, else baseline/candidate). Also ``pr.Suite.from_inputs``.
    """
    return as_suite(*inputs, options=options, names=names)


def from_frame(frame: Any, **options: Any) -> Suite:
    """A suite from a tidy pandas DataFrame, one row per measurement (benchmark, system, levels, value).

    Columns are found as in a tidy CSV file; ``options`` name them (``value="t"``,
    ``levels=["fork"]``, ``unit="ms"`` ..., see docs/input-formats.md). pandas is optional:
    perfrigor imports it nowhere. Also ``pr.Suite.from_frame``.
    """
    return suite_from_frame(frame, **options)


# Suite's constructors from files and frames, kept under their public names: they belong to this
# layer (they read files), and the data layer below imports nothing above it
Suite.from_inputs = staticmethod(from_inputs)  # type: ignore[attr-defined]
Suite.from_frame = staticmethod(from_frame)  # type: ignore[attr-defined]


def _one(item: Any) -> Suite:
    if isinstance(item, Suite):
        return item
    if isinstance(item, Mapping):
        return Suite(item)
    return Suite({benchmark_name([item]): {"sample": item}})


def _join(inputs: Sequence[Any], items: list[Any], systems: list[str], joined: list[Any]) -> Suite:
    """One-system suites (and samples that know their benchmark) joined by benchmark."""
    shown = [str(o) if is_path(o) else (getattr(i, "source", None) or f"input {k + 1}")
             for k, (o, i) in enumerate(zip(inputs, items, strict=True))]
    for where, item in zip(shown, items, strict=True):
        if isinstance(item, Suite) and len(item.systems) > 1:
            raise DataError(f"{where} holds several systems ({', '.join(item.systems)}); give it alone and "
                            "choose the systems to compare (CLI: --baseline/--candidate)")
        if isinstance(item, Mapping) and not isinstance(item, Suite):
            raise DataError(f"{where}: a mapping of benchmarks is paired only with another one (give two)")
    if len(joined) != len(items):
        kinds = ", ".join(f"{w}: {'one unnamed benchmark' if not isinstance(i, Suite) else f'{len(i)} benchmarks'}"
                          for w, i in zip(shown, items, strict=True))
        raise DataError(f"the inputs do not hold the same benchmarks ({kinds})")
    per_input = [{str(i.metadata["benchmark"]): i} if isinstance(i, Sample) else i.system(i.systems[0])
                 for i in items]
    info = dict(items[0].info) if isinstance(items[0], Suite) else {}
    sources = [str(o) if is_path(o) else (getattr(i, "source", None) or "?") for o, i in zip(inputs, items,
                                                                                           strict=True)]
    source = ", ".join(sources)
    excluded = {b: why for i in items if isinstance(i, Suite) for b, why in i.excluded.items()}
    if len(items) == 2:
        excluded = {b: why for b, why in excluded.items() if b not in per_input[0] or b not in per_input[1]}
        return Suite.from_pairs(per_input[0], per_input[1], names=(systems[0], systems[1]), info=info, source=source,
                                excluded=excluded)
    common = [b for b in per_input[0] if all(b in m for m in per_input[1:])]
    if not common:
        raise DataError(f"{source}: no benchmark is in every input ("
                        + "; ".join(f"{s}: {len(m)} benchmark(s)" for s, m in zip(systems, per_input,
                                                                                     strict=True)) + ")")
    only_in = {s: [b for b in m if b not in common] for s, m in zip(systems, per_input, strict=True)}
    data = {b: {s: m[b] for s, m in zip(systems, per_input, strict=True)} for b in common}
    return Suite(data, systems=tuple(systems), info={b: i for b, i in info.items() if b in data}, source=source,
                 only_in={s: b for s, b in only_in.items() if b},
                 excluded={b: why for b, why in excluded.items() if b not in data})


def data_files(folder: Path) -> list[Path]:
    """The data files of a folder of examples: ``baseline.*`` and ``candidate.*`` when both exist, else all.

    Notes and scripts (``.md``, ``.py``, ``.toml``) and hidden files are not data.
    """
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith((".", "_"))
                   and p.suffix.lower() not in (".md", ".py", ".toml"))
    pair = [next((p for p in files if p.stem == role), None) for role in ("baseline", "candidate")]
    if all(pair):
        return [p for p in pair if p is not None]
    if not files:
        raise DataError(f"{folder}: holds no data file")
    return files
