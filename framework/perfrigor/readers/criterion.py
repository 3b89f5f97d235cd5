"""criterion.rs results: ``target/criterion/<benchmark>/<baseline>/sample.json``.

criterion saves each benchmark's measurements under ``target/criterion``, one
directory per benchmark (``<group>/<function>/<parameter>`` for groups), one
sub-directory per baseline: ``new`` (the last run), ``base`` (the run before,
what criterion compares ``new`` with) and any ``--save-baseline NAME``.
``sample.json`` is ``{"sampling_mode": "Linear", "iters": [...], "times":
[...]}``: sample i ran ``iters[i]`` iterations in ``times[i]`` nanoseconds, so
its time per iteration is ``times[i] / iters[i]`` (older criterion versions
write ``[[iters...], [times...]]``).

- A ``sample.json`` file gives a Sample (one benchmark of one baseline),
  named after its baseline directory; the benchmark keeps criterion's name.
- A directory (``target/criterion``, or one benchmark's directory) gives a
  Suite: benchmarks x baselines. The baseline (first system) is the baseline
  saved with ``--save-baseline NAME``, else ``base``; the candidate (second)
  is ``new``. After a plain ``cargo bench`` criterion copies ``new`` to
  ``base``, so the two hold the same values: the reader marks such a copy
  (``same_values_as`` in its metadata). The useful layout is criterion's own
  recipe: ``cargo bench -- --save-baseline before``, change the code,
  ``cargo bench -- --baseline before``. A benchmark that only one baseline
  measured is listed in ``Suite.only_in``.

Benchmarks are named by ``full_id`` of criterion's ``benchmark.json`` (what
criterion prints, e.g. ``fib/20``), else by their path under the directory.
Times are nanoseconds unless ``unit=`` says otherwise (custom measurements).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import at, lines_of, numbers, positions, read_text, sample_or_suite, split_one_sided
from ._jsonlines import line_of, value_line
from .options import ReaderOption

SAMPLE_FILE = "sample.json"
MAX_DEPTH = 8


class CriterionReader:
    """criterion.rs sample.json (iters, times -> time per iteration); a target/criterion directory as a suite."""

    name = "criterion"
    suffixes = (".json",)
    priority = 10
    options = {"unit": ReaderOption("str", "the unit of the times (ns unless a custom measurement)")}

    def sniff(self, path: Path, head: str) -> bool:
        return path.name == SAMPLE_FILE or ('"iters"' in head and '"times"' in head)

    def sniff_directory(self, path: Path) -> bool:
        return next(_sample_files(path, limit=1), None) is not None

    def read(self, path: Path, unit: str = "ns") -> Sample | Suite:
        if path.is_dir():
            return self._read_directory(path, unit)
        system = path.parent.name or path.name
        bench = _benchmark_name(path, path.parent.parent)
        sample = _read_sample(path, system, unit)
        return sample_or_suite({bench: {system: sample}}, path)

    def _read_directory(self, root: Path, unit: str) -> Suite:
        found: dict[str, dict[str, Sample]] = {}
        for file in _sample_files(root):
            system = file.parent.name
            bench = _benchmark_name(file, root)
            found.setdefault(bench, {})[system] = _read_sample(file, system, unit)
        if not found:
            raise DataError(f"{root}: no criterion results (no */{SAMPLE_FILE} below it)")
        systems = _order({s for per in found.values() for s in per})
        _note_copies(found)
        data, only_in = split_one_sided(found, root)
        return Suite(dict(sorted(data.items())), systems=tuple(systems), source=str(root),
                     only_in={s: sorted(b) for s, b in only_in.items()})


def _order(systems: set[str]) -> list[str]:
    """Baseline first, ``new`` (the last run) second: a saved baseline (``--save-baseline NAME``) if there
    is one, else ``base``; the others after, sorted."""
    named = sorted(systems - {"base", "new"})
    first = named[:1] or (["base"] if "base" in systems else [])
    rest = sorted(systems - set(first) - {"new"})
    return first + (["new"] if "new" in systems else []) + rest


def _note_copies(found: dict[str, dict[str, Sample]]) -> None:
    """Mark baselines that are byte-for-byte copies of ``new``: criterion copies new to base after each run."""
    for per in found.values():
        new = per.get("new")
        if new is None:
            continue
        for system, sample in list(per.items()):
            if system != "new" and np.array_equal(sample.values, new.values):
                per[system] = attrs.evolve(sample, metadata={**sample.metadata, "same_values_as": "new"})


def _sample_files(root: Path, limit: int | None = None):
    """``*/sample.json`` files below ``root`` (at most MAX_DEPTH levels down), in sorted order."""
    count = 0
    base_depth = len(root.parts)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        if len(Path(dirpath).parts) - base_depth >= MAX_DEPTH:
            dirnames.clear()
        if SAMPLE_FILE in filenames and Path(dirpath) != root:
            yield Path(dirpath) / SAMPLE_FILE
            count += 1
            if limit is not None and count >= limit:
                return


def _benchmark_name(file: Path, root: Path) -> str:
    """criterion's ``full_id`` from benchmark.json next to ``file``, else the benchmark's path under ``root``."""
    meta = file.parent / "benchmark.json"
    if meta.is_file():
        try:
            doc = json.loads(read_text(meta))
        except (DataError, ValueError):
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("full_id"), str) and doc["full_id"].strip():
            return doc["full_id"]
    bench_dir = file.parent.parent
    try:
        rel = bench_dir.relative_to(root)
    except ValueError:
        rel = Path(bench_dir.name)
    return rel.as_posix() if str(rel) not in ("", ".") else (bench_dir.name or str(bench_dir))


def _read_sample(path: Path, system: str, unit: str) -> Sample:
    return _jsonlines.read_with_lines(path, lambda doc: _convert(doc, path, system, unit))


def _convert(doc: Any, path: Path, system: str, unit: str) -> Sample:
    if isinstance(doc, dict):
        iters, times = doc.get("iters"), doc.get("times")
        iters_line, times_line = value_line(doc, "iters"), value_line(doc, "times")
        mode = doc.get("sampling_mode")
    elif isinstance(doc, list) and len(doc) == 2:  # criterion before 0.3.4: [iters, times]
        iters, times = doc
        iters_line, times_line = value_line(doc, 0), value_line(doc, 1)
        mode = None
    else:
        raise DataError(f"{at(path, line_of(doc))}: not a criterion sample.json (expected \"iters\" and \"times\")")
    for key, arr, ln in (("iters", iters, iters_line), ("times", times, times_line)):
        if not isinstance(arr, list) or not arr:
            raise DataError(f"{at(path, ln)}: \"{key}\" is not a non-empty array")
    if len(iters) != len(times):
        raise DataError(f"{at(path, times_line)}: {len(times)} times for {len(iters)} iteration counts")
    n_iters = numbers(iters, path, "iteration count")
    n_times = numbers(times, path, "time")
    for k, n in enumerate(n_iters):
        if n <= 0:
            raise DataError(f"{at(path, lines_of(iters, iters_line)[k])}: iteration count {n!r} of sample {k + 1} "
                            "is not positive")
    values = [t / n for t, n in zip(n_times, n_iters, strict=True)]
    metadata: dict[str, Any] = {"format": "criterion", "samples": len(values)}
    if all(n.is_integer() for n in n_iters):
        metadata["iterations"] = int(sum(n_iters))
    if mode is not None:
        metadata["sampling_mode"] = mode
    return Sample(values, unit=unit, lower_is_better=True, name=system, source=str(path), metadata=metadata,
                  positions=positions(lines_of(times, times_line)))
