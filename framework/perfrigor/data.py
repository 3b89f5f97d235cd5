"""Sample and Suite: measurements, validated once on construction.

A :class:`Sample` holds the measurements of one system (one program version on
one benchmark): flat (1-D) or hierarchical and balanced, shape
``(n_top, ..., n_lowest)`` with one name per level. A :class:`Suite` maps
benchmarks to systems to samples.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from . import units
from .errors import DataError

#: Default level names by number of dimensions (outermost first).
DEFAULT_LEVELS: dict[int, tuple[str, ...]] = {
    1: ("run",),
    2: ("invocation", "iteration"),
    3: ("build", "invocation", "iteration"),
}


def _default_levels(ndim: int) -> tuple[str, ...]:
    return DEFAULT_LEVELS.get(ndim, tuple(f"level{i + 1}" for i in range(ndim)))


class _Ragged(Exception):
    """Where a nested list is unbalanced: index path of the unit, depth, its count and the expected count."""

    def __init__(self, path: tuple[int, ...], depth: int, got: int, expected: int, mixed: bool = False) -> None:
        super().__init__(path, depth, got, expected, mixed)
        self.path, self.depth, self.got, self.expected, self.mixed = path, depth, got, expected, mixed


def _shape_of(nested: Any, path: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Shape of a nested list; raises _Ragged at the first unit whose count differs from its siblings'."""
    if isinstance(nested, np.ndarray):
        if nested.dtype == object:
            return _shape_of(nested.tolist(), path)
        return nested.shape
    if isinstance(nested, str | bytes) or not isinstance(nested, Sequence):
        return ()
    shapes = [_shape_of(child, (*path, i)) for i, child in enumerate(nested)]
    if not shapes:
        return (0,)
    first = shapes[0]
    for i, s in enumerate(shapes):
        if len(s) != len(first):
            raise _Ragged((*path, i), 0, len(s), len(first), mixed=True)
        for depth, (a, b) in enumerate(zip(s, first, strict=True)):
            if a != b:
                raise _Ragged((*path, i), depth, a, b)
    return (len(shapes), *first)


def _describe_ragged(r: _Ragged, what: str, levels: Sequence[str] | None) -> str:
    """One sentence naming the unbalanced unit with level names (``build 2, invocation 3``)."""
    if r.mixed:
        return (f"{what}: element {list(r.path)} mixes numbers and lists (every unit of a hierarchical "
                "sample must have the same depth)")
    ndim = len(r.path) + r.depth + 1
    names = tuple(levels) if levels is not None and len(levels) >= ndim else _default_levels(max(ndim, 2))
    unit = ", ".join(f"{names[d]} {i + 1}" for d, i in enumerate(r.path))
    sibling = ", ".join(f"{names[d]} {i + 1}" for d, i in enumerate((*r.path[:-1], 0)))
    inner = names[len(r.path) + r.depth] if len(r.path) + r.depth < len(names) else "value"
    where = "" if r.depth == 0 else " (in each of its sub-units)"
    return (f"{what}: unbalanced hierarchy: {unit} has {r.got} {inner}(s){where} where {sibling} has "
            f"{r.expected} (hierarchical samples must be balanced; nothing is trimmed)")


def _balanced_shape(nested: Any, where: str) -> tuple[int, ...]:
    """Shape of a nested list, or a DataError naming the unit whose count differs."""
    try:
        return _shape_of(nested)
    except _Ragged as r:
        raise DataError(_describe_ragged(r, where, None)) from None


def as_array(values: Any, what: str = "sample", levels: Sequence[str] | None = None) -> np.ndarray:
    """Convert array-likes (lists, nested lists, arrays, Samples) to a float array, validated.

    Raises DataError naming ``what`` (and the level names, for unbalanced data) when the
    values are not numbers, empty, ragged or not finite (NaN, inf).
    """
    if isinstance(values, Sample):
        return values.values
    if isinstance(values, str | bytes):
        raise DataError(f"{what}: expected numbers, got the string {values!r} (use a reader for files)")
    if isinstance(values, Mapping):
        raise DataError(f"{what}: expected a sequence of measurements, got a mapping "
                        f"(keys {list(values)[:3]}...); a mapping of benchmarks is a suite")
    if not isinstance(values, np.ndarray) or values.dtype == object:
        try:
            _shape_of(values)
        except _Ragged as r:
            raise DataError(_describe_ragged(r, what, levels)) from None
        if isinstance(values, np.ndarray):
            values = values.tolist()
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
        raise DataError(f"{what}: value {float(arr[idx])!r} at index {pos} is not a finite number "
                        f"({int(bad.sum())} non-finite value(s) in all; nothing is dropped)")
    return arr


def _frozen(arr: Any, dtype: Any) -> np.ndarray:
    """A read-only copy of ``arr`` as ``dtype``; an array already so (owning its data, read-only) as it is.

    Readers hand their arrays over frozen: a sample of 10⁸ values is not copied again.
    """
    if (isinstance(arr, np.ndarray) and arr.dtype == dtype and arr.flags.owndata and not arr.flags.writeable
            and arr.flags.c_contiguous):
        return arr
    arr = np.array(arr, dtype=dtype, copy=True)
    arr.setflags(write=False)
    return arr


def _freeze(arr: np.ndarray) -> np.ndarray:
    return _frozen(arr, np.float64)


def line_type(largest: int) -> Any:
    """The integer type a sample keeps its lines in: 32 bits when they fit (a file of under 2**31 lines),
    which halves what a large sample holds beside its values; 64 bits otherwise."""
    return np.int32 if largest <= np.iinfo(np.int32).max else np.int64


def _frozen_lines(positions: Any) -> np.ndarray:
    """``positions`` read-only in :func:`line_type` (an int32 array handed over frozen is not copied)."""
    arr = positions if isinstance(positions, np.ndarray) and positions.dtype == np.int32 else np.asarray(
        positions, dtype=np.int64)
    if arr.dtype == np.int64 and arr.size and int(arr.min()) < np.iinfo(np.int32).min:
        return _frozen(arr, np.int64)
    return _frozen(arr, line_type(int(arr.max()) if arr.size else 0))


@attrs.frozen(eq=False, repr=False)
class Sample:
    """Measurements of one system, flat or hierarchical (balanced).

    ``values`` has shape ``(n_top, ..., n_lowest)``; ``levels`` names each
    dimension, outermost first (e.g. ``("build", "invocation", "iteration")``).
    ``lower_is_better`` is True for times, False for throughput or scores.
    ``np.asarray(sample)`` gives the values.
    """

    values: np.ndarray = attrs.field()
    levels: tuple[str, ...] | None = attrs.field(default=None)
    unit: str = "s"
    lower_is_better: bool = True
    name: str | None = None
    source: str | None = None
    #: what the reader recorded about the measurements (e.g. warmups excluded), shown in reports
    metadata: Mapping[str, Any] = attrs.field(factory=dict)
    #: where each value came from: its line in ``source`` (same shape as ``values``), set by readers;
    #: int32 when every line fits, else int64 (:func:`line_type`)
    positions: np.ndarray | None = attrs.field(default=None)

    def __attrs_post_init__(self) -> None:
        # Validated here rather than in converters so that messages can name the sample and its levels.
        for attr in ("name", "source"):
            value = getattr(self, attr)
            if value is not None and not isinstance(value, str):
                raise DataError(f"sample {attr} must be a string, got {value!r}")
        levels = self.levels
        if levels is not None:
            if isinstance(levels, str):
                levels = (levels,)
            try:
                levels = tuple(levels)
            except TypeError:
                raise DataError(f"{self.label}: levels must be a sequence of names, got {levels!r}") from None
            if not all(isinstance(n, str) and n for n in levels):
                raise DataError(f"{self.label}: level names must be non-empty strings, got {levels}")
        values = _freeze(as_array(self.values, self.label, levels))
        object.__setattr__(self, "values", values)
        if levels is None:
            levels = _default_levels(values.ndim)
        elif len(levels) != values.ndim:
            raise DataError(
                f"{self.label}: {len(levels)} level name(s) {levels} for data with "
                f"{values.ndim} dimension(s) {values.shape}"
            )
        if len(set(levels)) != len(levels):
            raise DataError(f"{self.label}: level names must be distinct, got {levels}")
        object.__setattr__(self, "levels", levels)
        if not isinstance(self.lower_is_better, bool | np.bool_):
            raise DataError(f"{self.label}: lower_is_better must be True or False, got {self.lower_is_better!r}")
        object.__setattr__(self, "lower_is_better", bool(self.lower_is_better))
        if not isinstance(self.unit, str):
            raise DataError(f"{self.label}: unit must be a string, got {self.unit!r}")
        if not isinstance(self.metadata, Mapping):
            raise DataError(f"{self.label}: metadata must be a mapping, got {type(self.metadata).__name__}")
        if self.positions is not None:
            positions = _frozen_lines(self.positions)
            if positions.shape != values.shape:
                raise DataError(f"{self.label}: positions of shape {positions.shape} for values of shape "
                                f"{values.shape}")
            object.__setattr__(self, "positions", positions)

    # Pickling (process pools, dask): restore the fields as they are, values read-only again.
    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in attrs.fields(type(self))}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        for key, value in state.items():
            if key == "values":
                value = np.asarray(value, dtype=float)
                value.setflags(write=False)
            object.__setattr__(self, key, value)

    @classmethod
    def coerce(cls, obj: Any, what: str = "sample", **kwargs: Any) -> Sample:
        """Return ``obj`` if it is a Sample, else build one from an array-like."""
        if isinstance(obj, Sample):
            return obj
        return cls(as_array(obj, what, kwargs.get("levels")), **kwargs)

    @property
    def label(self) -> str:
        return self.name or self.source or "sample"

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if dtype is None or np.dtype(dtype) == self.values.dtype:
            return self.values.copy() if copy else self.values
        return self.values.astype(dtype)

    def __len__(self) -> int:
        """The number of measurements (all levels together)."""
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

    def locate(self, index: int | tuple[int, ...]) -> str:
        """Where the value at ``index`` came from: ``"FILE, line N"`` when a reader recorded it,
        else ``"<label>, index i"``."""
        idx = (index,) if isinstance(index, int | np.integer) else tuple(int(i) for i in index)
        if self.positions is not None and self.source:
            return f"{self.source}, line {int(self.positions[idx])}"
        pos = idx[0] if len(idx) == 1 else idx
        return f"{self.label}, index {pos}"

    def require_positive(self, what: str | None = None) -> None:
        """Raise DataError when a value is not > 0 (speedups and ratios need positive values)."""
        bad = self.values <= 0
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            where = self.locate(idx) if what is None else f"{what}: {self.locate(idx)}"
            raise DataError(f"{where}: value {float(self.values[idx])!r} is not positive; "
                            "times, rates and scores must be > 0 to form a speedup")

    def require_size(self, minimum: int, what: str | None = None) -> None:
        if self.values.size < minimum:
            raise DataError(f"{what or self.label}: {self.values.size} measurement(s), at least {minimum} needed")

    def to_unit(self, unit: str) -> Sample:
        """The same measurements expressed in ``unit`` (exact conversion, see :mod:`perfrigor.units`).

        Returns the sample itself when it is already in that unit; raises DataError when the
        units measure different things or one of them is unknown. Positions are kept, and
        ``metadata["converted_from"]`` records the original unit.
        """
        if units.canonical(self.unit) == units.canonical(unit):
            return self if self.unit == unit else attrs.evolve(self, unit=unit)
        try:
            values = units.convert(self.values, self.unit, unit)
        except DataError as exc:
            raise DataError(f"{self.label}: {exc}") from None
        metadata = {**self.metadata, "converted_from": self.metadata.get("converted_from", self.unit)}
        return attrs.evolve(self, values=values, unit=unit, metadata=metadata)

    def with_values(self, values: Any, levels: Iterable[str] | None = None) -> Sample:
        """A copy with new values (same unit, direction, name)."""
        return attrs.evolve(self, values=values, levels=None if levels is None else tuple(levels), positions=None)

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
            # times, rates and scores are positive: a report must say when some are not
            **({"n_nonpositive": int((v <= 0).sum())} if (v <= 0).any() else {}),
        }


def benchmark_name(samples: Iterable[Any], default: str = "benchmark") -> str:
    """The benchmark several one-benchmark samples measure: the name their readers recorded
    (``metadata["benchmark"]``) when they agree, else ``default``.

    A file holding one benchmark gives a Sample, not a Suite; the benchmark's name
    travels in its metadata so that reports show it rather than "benchmark".
    """
    names = {s.metadata.get("benchmark") for s in samples if isinstance(s, Sample)} - {None}
    return str(names.pop()) if len(names) == 1 else default


def _some(names: Sequence[str], limit: int = 5) -> str:
    """A short list of names for a message: the first ``limit`` and how many more."""
    shown = ", ".join(repr(n) for n in names[:limit]) or "none"
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _check_weight(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float | np.number) or not (0 < value < float("inf")):
        raise DataError(f"benchmark weight must be a finite number > 0, got {value!r}")


def _check_level(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float | np.number) or not (0 < value < 1):
        raise DataError(f"benchmark confidence must lie strictly between 0 and 1 (e.g. 0.95), got {value!r}")


@attrs.frozen(eq=False)
class BenchmarkInfo:
    """Per-benchmark settings read with a suite (weights, confidence levels), validated."""

    weight: float | None = attrs.field(default=None, validator=_check_weight)
    confidence: float | None = attrs.field(default=None, validator=_check_level)
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    @classmethod
    def coerce(cls, obj: Any, benchmark: str) -> BenchmarkInfo:
        """A BenchmarkInfo from itself or a mapping ``{"weight": ..., "confidence": ..., other: ...}``."""
        if isinstance(obj, BenchmarkInfo):
            return obj
        if not isinstance(obj, Mapping):
            raise DataError(f"benchmark {benchmark!r}: info must be a mapping or BenchmarkInfo, got {obj!r}")
        known = {k: obj[k] for k in ("weight", "confidence") if k in obj}
        extra = {k: v for k, v in obj.items() if k not in known}
        try:
            return cls(**known, extra=extra)
        except DataError as exc:
            raise DataError(f"benchmark {benchmark!r}: {exc}") from None


@attrs.frozen(eq=False)
class Suite:
    """Many benchmarks x several systems: ``{benchmark: {system: Sample}}``.

    ``systems`` gives the order of systems (the first is the baseline by default);
    systems found in the data but not listed are appended in order of appearance.
    Every benchmark must have every system, and the systems of one benchmark must
    agree on the unit and the direction (``lower_is_better``). ``info`` carries
    per-benchmark settings (weights, confidence levels) as BenchmarkInfo or mappings.

    From files and DataFrames: ``Suite.from_inputs(*paths)`` and ``Suite.from_frame(df)``, which
    the input layer (:mod:`perfrigor.inputs`) gives this class: the data layer reads no file.
    """

    data: Mapping[str, Mapping[str, Sample]]
    systems: tuple[str, ...] = attrs.field(default=None)
    info: Mapping[str, BenchmarkInfo] = attrs.field(factory=dict)
    source: str | None = None
    #: benchmarks measured by one system only, ``{system: [benchmark, ...]}``: not in ``data``, listed
    #: so reports can say what was not compared (filled when files with different benchmark sets are paired)
    only_in: Mapping[str, list[str]] = attrs.field(factory=dict)
    #: benchmarks of the input with nothing to compare, ``{benchmark: why}`` (a Go benchmark that does not
    #: report the chosen metric): not in ``data``, listed so that reports name them
    excluded: Mapping[str, str] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        where = self.source or "suite"
        if not isinstance(self.only_in, Mapping):
            raise DataError(f"{where}: only_in must be a mapping {{system: [benchmark, ...]}}")
        only_in = {str(sys): [str(b) for b in benches] for sys, benches in self.only_in.items() if benches}
        overlap = sorted({b for benches in only_in.values() for b in benches} & {str(b) for b in self.data}) \
            if isinstance(self.data, Mapping) else []
        if overlap:
            raise DataError(f"{where}: benchmark(s) {overlap} are listed in only_in but have data for every system")
        object.__setattr__(self, "only_in", only_in)
        if not isinstance(self.excluded, Mapping):
            raise DataError(f"{where}: excluded must be a mapping {{benchmark: why}}")
        excluded = {str(b): str(why) for b, why in self.excluded.items()}
        both = sorted(set(excluded) & {str(b) for b in self.data}) if isinstance(self.data, Mapping) else []
        if both:
            raise DataError(f"{where}: benchmark(s) {both} are listed as excluded but have data")
        object.__setattr__(self, "excluded", excluded)
        if not isinstance(self.data, Mapping):
            raise DataError(f"{where}: a suite is a mapping {{benchmark: {{system: sample}}}}, "
                            f"got {type(self.data).__name__}")
        if not self.data:
            raise DataError(f"{where}: no benchmarks")
        data: dict[str, dict[str, Sample]] = {}
        for bench, systems in self.data.items():
            key = str(bench)
            if key in data:
                raise DataError(f"{where}: benchmark {key!r} appears twice")
            if not isinstance(systems, Mapping):
                raise DataError(f"{where}: benchmark {key!r}: expected a mapping {{system: sample}}, "
                                f"got {type(systems).__name__}")
            if not systems:
                raise DataError(f"{where}: benchmark {key!r}: no systems")
            data[key] = {
                str(sys): Sample.coerce(s, what=f"benchmark {key!r}, system {sys!r}", name=f"{key}/{sys}")
                for sys, s in systems.items()
            }
            samples = list(data[key].items())
            for sys, s in samples[1:]:
                first, ref = samples[0]
                if s.lower_is_better != ref.lower_is_better:
                    raise DataError(f"{where}: benchmark {key!r}: systems {first!r} and {sys!r} disagree on "
                                    f"the direction (lower_is_better {ref.lower_is_better} vs {s.lower_is_better})")
                if s.unit != ref.unit:  # the same quantity in another unit: converted to the first system's
                    try:
                        units.factor(s.unit, ref.unit)
                    except DataError as exc:
                        raise DataError(f"{where}: benchmark {key!r}: systems {first!r} and {sys!r}: {exc}") from None
                    data[key][sys] = s.to_unit(ref.unit)
        object.__setattr__(self, "data", data)
        seen: dict[str, None] = {}
        for systems in data.values():
            for s in systems:
                seen.setdefault(s, None)
        order = self.systems
        if order is None:
            order = tuple(seen)
        else:
            if isinstance(order, str):
                order = (order,)
            order = tuple(str(s) for s in order)
            if len(set(order)) != len(order):
                raise DataError(f"{where}: systems listed twice in {list(order)}")
            order = order + tuple(s for s in seen if s not in order)
        object.__setattr__(self, "systems", order)
        for bench, systems in data.items():
            missing = [s for s in self.systems if s not in systems]
            if missing:
                raise DataError(f"{where}: benchmark {bench!r} has no measurements for system(s) {missing} "
                                f"(systems: {list(self.systems)})")
        if not isinstance(self.info, Mapping):
            raise DataError(f"{where}: info must be a mapping {{benchmark: BenchmarkInfo}}")
        unknown = [b for b in self.info if str(b) not in data]
        if unknown:
            raise DataError(f"{where}: info given for unknown benchmark(s) {unknown}")
        object.__setattr__(self, "info", {str(b): BenchmarkInfo.coerce(i, str(b)) for b, i in self.info.items()})

    @classmethod
    def from_pairs(cls, baseline: Mapping[str, Any], candidate: Mapping[str, Any],
                   names: tuple[str, str] = ("baseline", "candidate"), **kwargs: Any) -> Suite:
        """A two-system suite from two ``{benchmark: sample}`` mappings.

        The benchmarks both mappings hold are compared (in the baseline's order); those only
        one holds are listed in ``only_in`` (and so in the report). DataError when they have
        no benchmark in common.
        """
        if not isinstance(baseline, Mapping) or not isinstance(candidate, Mapping):
            raise DataError("a suite comparison needs two mappings {benchmark: sample}")
        if len(names) != 2 or names[0] == names[1]:
            raise DataError(f"the two systems need two different names, got {names!r}")
        common = [b for b in baseline if b in candidate]
        only = {names[0]: [str(b) for b in baseline if b not in candidate],
                names[1]: [str(b) for b in candidate if b not in baseline]}
        if not common:
            raise DataError(f"{kwargs.get('source') or 'the two systems'}: no benchmark in common "
                            f"(only in {names[0]}: {_some(only[names[0]])}; only in {names[1]}: "
                            f"{_some(only[names[1]])})")
        data = {b: {names[0]: baseline[b], names[1]: candidate[b]} for b in common}
        info = kwargs.pop("info", None) or {}
        info = {b: i for b, i in info.items() if b in data}
        only_in = {**{s: b for s, b in only.items() if b}, **(kwargs.pop("only_in", None) or {})}
        return cls(data, systems=names, info=info, only_in=only_in, **kwargs)

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

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __contains__(self, benchmark: object) -> bool:
        return benchmark in self.data

    def __getitem__(self, benchmark: str) -> Mapping[str, Sample]:
        try:
            return self.data[benchmark]
        except KeyError:
            raise KeyError(f"no benchmark {benchmark!r} in {self.source or 'the suite'}") from None

    def __repr__(self) -> str:
        return (f"Suite({len(self.data)} benchmark(s), systems={list(self.systems)}"
                + (f", source={self.source!r}" if self.source else "") + ")")

    def system(self, name: str) -> dict[str, Sample]:
        """``{benchmark: Sample}`` of one system."""
        if name not in self.systems:
            raise DataError(f"no system {name!r} in the suite (systems: {list(self.systems)})")
        return {b: s[name] for b, s in self.data.items()}

    def weight(self, benchmark: str) -> float | None:
        info = self.info.get(benchmark)
        return None if info is None else info.weight

    def weights(self) -> dict[str, float] | None:
        """``{benchmark: weight}`` when every benchmark has one, None when none has; DataError if only some do."""
        given = {b: self.weight(b) for b in self.data}
        if all(w is None for w in given.values()):
            return None
        missing = [b for b, w in given.items() if w is None]
        if missing:
            raise DataError(f"{self.source or 'suite'}: weights are given for some benchmarks but not for {missing}")
        return given  # type: ignore[return-value]

    def confidence(self, benchmark: str) -> float | None:
        """The benchmark's own confidence level, if the suite gives one."""
        info = self.info.get(benchmark)
        return None if info is None else info.confidence

    def summary(self) -> dict[str, Any]:
        return {b: {s: sample.summary() for s, sample in systems.items()} for b, systems in self.data.items()}
