"""JSON of plain numbers: an array, nested arrays (hierarchical), or ``{benchmark: {system: [...]}}``.

- ``[1.2, 1.3, ...]`` gives a flat Sample; ``[[...], [...]]`` a hierarchical one
  (balanced; levels named as in :data:`perfrigor.data.DEFAULT_LEVELS`).
- ``{"fib": [...], "sort": [...]}`` gives one system's samples per benchmark
  (a Suite with one system, named after the file), as suite comparators take them.
- ``{"fib": {"old": [...], "new": [...]}, ...}`` gives a Suite.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from . import _jsonlines
from ._common import at, lines_of, number, numbers, positions, sample_or_suite
from ._jsonlines import line_of, value_line
from .options import LOWER_IS_BETTER, UNIT
from .tidy_json import TidyJsonReader


def _values(node: Any, path: Path, what: str, line: int | None = None) -> tuple[Any, Any]:
    """Validated nested lists of floats and of their lines (errors name the line of the bad element)."""
    if not isinstance(node, list):
        return number(node, at(path, line), what), line or 0
    if not node:
        raise DataError(f"{at(path, line_of(node))}: {what}: empty array")
    lines = lines_of(node)
    if not any(isinstance(child, list) for child in node):
        return numbers(node, path, what), lines
    out, where = [], []
    shape = None
    for i, (child, ln) in enumerate(zip(node, lines, strict=True)):
        v, w = _values(child, path, f"{what}[{i}]", ln)
        s = _shape(v)
        if shape is None:
            shape = s
        elif s != shape:
            raise DataError(f"{at(path, ln)}: {what}: unbalanced: element {i} has shape {s} where element 0 "
                            f"has {shape} (hierarchical samples must be balanced; nothing is trimmed)")
        out.append(v)
        where.append(w)
    return out, where


def _shape(v: Any) -> tuple[int, ...]:
    return (len(v), *_shape(v[0])) if isinstance(v, list) else ()


class JsonValuesReader:
    """JSON arrays of numbers, nested arrays, or ``{benchmark: {system: [...]}}`` mappings."""

    name = "json"
    suffixes = (".json",)
    priority = 40
    options = {"unit": UNIT, "lower_is_better": LOWER_IS_BETTER}

    def sniff(self, path: Path, head: str) -> bool:
        s = head.lstrip()
        return path.suffix.lower() == ".json" or s.startswith("[") or s.startswith("{")

    def read(self, path: Path, unit: str = "s", lower_is_better: bool = True) -> Sample | Suite:
        return _jsonlines.read_with_lines(path, lambda data: self._convert(data, path, unit, lower_is_better))

    @staticmethod
    def _convert(data: Any, path: Path, unit: str, lower_is_better: bool) -> Sample | Suite:
        def sample(node: Any, what: str, name: str, line: int | None = None) -> Sample:
            values, lines = _values(node, path, what, line)
            if not isinstance(values, list):
                raise DataError(f"{at(path, line)}: {what}: expected an array of measurements, got one number")
            return Sample(values, unit=unit, lower_is_better=lower_is_better,
                          name=name, source=str(path), positions=positions(lines))

        if isinstance(data, list):
            if data and all(isinstance(d, dict) for d in data):
                return TidyJsonReader.from_records(data, path, unit=unit, lower_is_better=lower_is_better)
            return sample(data, "values", path.name)
        if not isinstance(data, dict) or not data:
            raise DataError(f"{path}: expected an array of numbers or an object {{benchmark: ...}}")
        out: dict[str, dict[str, Sample]] = {}
        for bench, node in data.items():
            if isinstance(node, dict):
                if not node:
                    raise DataError(f"{at(path, line_of(node))}: benchmark {bench!r} has no systems")
                out[bench] = {system: sample(v, f"{bench}/{system}", system, value_line(node, system))
                              for system, v in node.items()}
            elif isinstance(node, list):
                out[bench] = {path.name: sample(node, bench, path.name, value_line(data, bench))}
            else:
                raise DataError(f"{at(path, line_of(data))}: benchmark {bench!r}: expected an array or "
                                f"{{system: array}}, got {type(node).__name__}")
        return sample_or_suite(out, path)
