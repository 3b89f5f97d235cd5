"""Sample and Suite: measurements, validated once on construction.

A :class:`Sample` holds the measurements of one system (one program version on
one benchmark): flat (1-D) or hierarchical and balanced, shape
``(n_top, ..., n_lowest)`` with one name per level. A :class:`Suite` maps
benchmarks to systems to samples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from .errors import DataError

#: Default level names by number of dimensions (outermost first).
DEFAULT_LEVELS: dict[int, tuple[str, ...]] = {
    1: ("run",),
    2: ("invocation", "iteration"),
    3: ("build", "invocation", "iteration"),
}


def _default_levels(ndim: int) -> tuple[str, ...]:
    return DEFAULT_LEVELS.get(ndim, tuple(f"level{i + 1}" for i in range(ndim)))


def _balanced_shape(nested: Any, where: str) -> tuple[int, ...]:
    """Shape of a nested list, or a DataError naming the unit whose count differs."""
    if isinstance(nested, np.ndarray):
        return nested.shape
    if not isinstance(nested, Sequence) or isinstance(nested, str | bytes):
        return ()
    shapes = [_balanced_shape(child, f"{where}[{i}]") for i, child in enumerate(nested)]
    if not shapes:
        return (0,)
    first = shapes[0]
    for i, s in enumerate(shapes):
        if len(s) != len(first):
            raise DataError(f"unbalanced data: {where}[{i}] has depth {len(s)}, {where}[0] has {len(first)}")
        for depth, (a, b) in enumerate(zip(s, first, strict=True)):
            if a != b:
                raise DataError(
                    f"unbalanced hierarchy: unit {where}[{i}] has {a} elements at depth {depth + 1} "
                    f"where {where}[0] has {b} (hierarchical samples must be balanced; nothing is trimmed)"
                )
    return (len(shapes), *first)


def as_array(values: Any, what: str = "sample") -> np.ndarray:
    """Convert array-likes (lists, nested lists, arrays, Samples) to a float array, validated."""
    if isinstance(values, Sample):
        return values.values
    if isinstance(values, str | bytes):
        raise DataError(f"{what}: expected numbers, got the string {values!r} (use a reader for files)")
    if not isinstance(values, np.ndarray):
        _balanced_shape(values, what)
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DataError(f"{what}: values are not numbers ({exc})") from None
    if arr.ndim == 0:
        raise DataError(f"{what}: expected a sequence of measurements, got one number")
    if arr.size == 0:
        raise DataError(f"{what}: no measurements")
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        pos = idx[0] if len(idx) == 1 else idx
        raise DataError(f"{what}: value {float(arr[idx])!r} at index {pos} is not a finite number")
    return arr


def _freeze(arr: np.ndarray) -> np.ndarray:
    arr = np.array(arr, dtype=float, copy=True)
    arr.setflags(write=False)
    return arr


@attrs.frozen(eq=False, repr=False)
class Sample:
    """Measurements of one system, flat or hierarchical (balanced).

    ``values`` has shape ``(n_top, ..., n_lowest)``; ``levels`` names each
    dimension, outermost first (e.g. ``("build", "invocation", "iteration")``).
    ``lower_is_better`` is True for times, False for throughput or scores.
    ``np.asarray(sample)`` gives the values.
    """

    values: np.ndarray = attrs.field(converter=lambda v: _freeze(as_array(v)))
    levels: tuple[str, ...] | None = attrs.field(default=None, converter=lambda v: None if v is None else tuple(v))
    unit: str = "s"
    lower_is_better: bool = True
    name: str | None = None
    source: str | None = None
    #: what the reader recorded about the measurements (e.g. warmups excluded), shown in reports
    metadata: Mapping[str, Any] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        if self.levels is None:
            object.__setattr__(self, "levels", _default_levels(self.values.ndim))
        elif len(self.levels) != self.values.ndim:
            raise DataError(
                f"{self.label}: {len(self.levels)} level names {self.levels} for data with "
                f"{self.values.ndim} dimension(s) {self.values.shape}"
            )
        if len(set(self.levels)) != len(self.levels):
            raise DataError(f"{self.label}: level names must be distinct, got {self.levels}")

    @classmethod
    def coerce(cls, obj: Any, what: str = "sample", **kwargs: Any) -> Sample:
        """Return ``obj`` if it is a Sample, else build one from an array-like."""
        if isinstance(obj, Sample):
            return obj
        try:
            return cls(as_array(obj, what), **kwargs)
        except DataError:
            raise

    @property
    def label(self) -> str:
        return self.name or self.source or "sample"

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.values if dtype is None else self.values.astype(dtype)

    def __len__(self) -> int:
        return self.values.size

    def __repr__(self) -> str:
        return (f"Sample(shape={self.shape}, levels={self.levels}, unit={self.unit!r}, "
                f"lower_is_better={self.lower_is_better}" + (f", name={self.name!r}" if self.name else "") + ")")

    @property
    def shape(self) -> tuple[int, ...]:
        return self.values.shape

    @property
    def n_levels(self) -> int:
        return self.values.ndim

    @property
    def is_hierarchical(self) -> bool:
        return self.values.ndim > 1

    @property
    def flat(self) -> np.ndarray:
        """All measurements as one 1-D array (outermost level first)."""
        return self.values.reshape(-1)

    def top_means(self) -> np.ndarray:
        """Mean of each top-level unit (the values themselves for a flat sample)."""
        if self.values.ndim == 1:
            return self.values
        return self.values.reshape(self.values.shape[0], -1).mean(axis=1)

    def require_positive(self, what: str | None = None) -> None:
        """Raise DataError when a value is not > 0 (speedups and ratios need positive values)."""
        bad = self.values <= 0
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            pos = idx[0] if len(idx) == 1 else idx
            raise DataError(f"{what or self.label}: value {float(self.values[idx])!r} at index {pos} is not positive; "
                            "times, rates and scores must be > 0 to form a speedup")

    def require_size(self, minimum: int, what: str | None = None) -> None:
        if self.values.size < minimum:
            raise DataError(f"{what or self.label}: {self.values.size} measurement(s), at least {minimum} needed")

    def with_values(self, values: Any, levels: Iterable[str] | None = None) -> Sample:
        """A copy with new values (same unit, direction, name)."""
        return attrs.evolve(self, values=values, levels=None if levels is None else tuple(levels))

    def summary(self) -> dict[str, Any]:
        """Descriptive statistics of the flat values, for reports."""
        v = self.flat
        return {
            "n": int(v.size),
            "shape": list(self.shape),
            "levels": list(self.levels or ()),
            "unit": self.unit,
            "lower_is_better": self.lower_is_better,
            "mean": float(v.mean()),
            "median": float(np.median(v)),
            "sd": float(v.std(ddof=1)) if v.size > 1 else None,
            "min": float(v.min()),
            "max": float(v.max()),
            **({"metadata": dict(self.metadata)} if self.metadata else {}),
        }


@attrs.frozen(eq=False)
class BenchmarkInfo:
    """Per-benchmark settings read with a suite (weights, confidence levels)."""

    weight: float | None = None
    confidence: float | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)


@attrs.frozen(eq=False)
class Suite:
    """Many benchmarks x several systems: ``{benchmark: {system: Sample}}``.

    ``systems`` gives the order of systems (the first is the baseline by default).
    ``info`` carries per-benchmark settings such as weights.
    """

    data: Mapping[str, Mapping[str, Sample]]
    systems: tuple[str, ...] = attrs.field(default=None)
    info: Mapping[str, BenchmarkInfo] = attrs.field(factory=dict)
    source: str | None = None

    def __attrs_post_init__(self) -> None:
        if not self.data:
            raise DataError(f"{self.source or 'suite'}: no benchmarks")
        data = {}
        for bench, systems in self.data.items():
            if not systems:
                raise DataError(f"benchmark {bench!r}: no systems")
            data[str(bench)] = {
                str(sys): Sample.coerce(s, what=f"benchmark {bench!r}, system {sys!r}", name=f"{bench}/{sys}")
                for sys, s in systems.items()
            }
        object.__setattr__(self, "data", data)
        order = self.systems
        if order is None:
            seen: dict[str, None] = {}
            for systems in data.values():
                for s in systems:
                    seen.setdefault(s, None)
            order = tuple(seen)
        object.__setattr__(self, "systems", tuple(order))
        for bench, systems in data.items():
            missing = [s for s in self.systems if s not in systems]
            if missing:
                raise DataError(f"benchmark {bench!r} has no measurements for system(s) {missing}")

    @classmethod
    def from_pairs(cls, baseline: Mapping[str, Any], candidate: Mapping[str, Any],
                   names: tuple[str, str] = ("baseline", "candidate"), **kwargs: Any) -> Suite:
        """Build a two-system suite from two ``{benchmark: sample}`` mappings with the same benchmarks."""
        if not isinstance(baseline, Mapping) or not isinstance(candidate, Mapping):
            raise DataError("a suite comparison needs two mappings {benchmark: sample}")
        only_b = sorted(set(baseline) - set(candidate))
        only_c = sorted(set(candidate) - set(baseline))
        if only_b or only_c:
            raise DataError(f"the two systems do not have the same benchmarks: only in {names[0]}: {only_b}, "
                            f"only in {names[1]}: {only_c}")
        data = {b: {names[0]: baseline[b], names[1]: candidate[b]} for b in baseline}
        return cls(data, systems=names, **kwargs)

    @classmethod
    def single(cls, baseline: Any, candidate: Any | None = None, benchmark: str = "benchmark",
               names: tuple[str, str] = ("baseline", "candidate")) -> Suite:
        """A one-benchmark suite from one or two samples."""
        systems = {names[0]: baseline}
        if candidate is not None:
            systems[names[1]] = candidate
        return cls({benchmark: systems})

    @property
    def benchmarks(self) -> list[str]:
        return list(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, benchmark: str) -> Mapping[str, Sample]:
        return self.data[benchmark]

    def system(self, name: str) -> dict[str, Sample]:
        """``{benchmark: Sample}`` of one system."""
        if name not in self.systems:
            raise DataError(f"no system {name!r} in the suite (systems: {list(self.systems)})")
        return {b: s[name] for b, s in self.data.items()}

    def weight(self, benchmark: str) -> float | None:
        info = self.info.get(benchmark)
        return None if info is None else info.weight

    def summary(self) -> dict[str, Any]:
        return {b: {s: sample.summary() for s, sample in systems.items()} for b, systems in self.data.items()}
