"""What a result adds to the report's plots, as data: the drawing protocol for plugins.

The core draws what it knows by type (a Verdict's speedup and interval in the forest
plot, its central values on the distributions). Anything else a result knows how to
show, it says by implementing ``plot_layers(sample)``, returning layers from this module;
the HTML report and ``perfrigor describe --plot`` draw them, whoever wrote the result::

    @attrs.frozen(kw_only=True)
    class KernelDensity(pr.Result):
        bandwidth: float
        def plot_layers(self, sample):
            x = np.asarray(sample, dtype=float).ravel()
            pdf = lambda grid: scipy.stats.gaussian_kde(x, self.bandwidth)(grid)
            return [pr.drawing.Density(pdf, label="kernel density")]

``plot_layers`` is called with the sample the result was computed from (a result of an
estimator for one system). Values are in the sample's unit; the plots convert them.
Layers are built when a report is drawn or saved, and drawn as data (:func:`layers`), the
same data a saved report (``report.to_dict()``) keeps (:func:`layer_to_dict`), so that it is
drawn without the plugin and exactly as the live report was: marks, intervals and level
variances as they are, densities made of normal components (:meth:`Density.of_normals`) as
those, a density given as plain functions tabulated at ``TABULATED_POINTS`` points over its
span, a run-order curve at the runs the plot draws; numbers that are not finite as NaN.

Above ``PLOTTED_VALUES`` values a sample's plots draw a fixed subsample of it (:func:`plotted`:
the same in every rendering, live or saved), so that a saved report of a million runs stays
small (the measurements' summaries and every result come from all of them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from .results import to_jsonable

__all__ = ["PLOTTED_VALUES", "Density", "Interval", "Layer", "LevelVariances", "Marks", "Normals", "RunOrderLine",
           "RunOrderMarks", "RunOrderSpans", "Tabulated", "layer_from_dict", "layer_to_dict", "layers", "plotted",
           "plotted_runs"]

Curve = Callable[[np.ndarray], np.ndarray]

#: where a density given as plain functions is evaluated (for the plots, and when a report is saved)
TABULATED_POINTS = 1025
#: the most values of one sample the plots draw (and a saved report keeps); above, a fixed subsample
PLOTTED_VALUES = 10_000


def _number(value: Any) -> float:
    """A float; None (how JSON writes a number that is not finite) as NaN."""
    return math.nan if value is None else float(value)


def _floats(values: Any) -> tuple[float, ...]:
    return tuple(_number(v) for v in values)


#: a layer's label is a legend entry: text (a plugin's mistake shows when the layer is made, not when drawn)
_text = attrs.validators.instance_of(str)


@attrs.frozen
class Normals:
    """Weighted normal densities as data: ``sum_k weights[k] N(means[k], sds[k])`` (e.g. a fitted mixture).

    Its curves (``pdf``, the weighted ``components``, ``cdf``) are what :meth:`Density.of_normals`
    draws; being data, a saved report keeps them exactly.
    """

    weights: tuple[float, ...] = attrs.field(converter=_floats)
    means: tuple[float, ...] = attrs.field(converter=_floats)
    sds: tuple[float, ...] = attrs.field(converter=_floats)

    def __attrs_post_init__(self) -> None:
        if not len(self.weights) == len(self.means) == len(self.sds) >= 1:
            raise ValueError(f"Normals: {len(self.weights)} weights, {len(self.means)} means and {len(self.sds)} sds; "
                             "one or more of each, as many")

    def components(self, x: Any) -> np.ndarray:
        """Each weighted normal density at ``x``, shape ``x.shape + (K,)``."""
        z = (np.asarray(x, dtype=float)[..., None] - np.asarray(self.means)) / np.asarray(self.sds)
        return np.asarray(self.weights) * np.exp(-0.5 * z * z) / (np.asarray(self.sds) * np.sqrt(2.0 * np.pi))

    def pdf(self, x: Any) -> np.ndarray:
        return self.components(x).sum(axis=-1)

    def cdf(self, x: Any) -> np.ndarray:
        from scipy.special import ndtr  # drawing only: start-up imports no scipy

        z = (np.asarray(x, dtype=float)[..., None] - np.asarray(self.means)) / np.asarray(self.sds)
        return (np.asarray(self.weights) * ndtr(z)).sum(axis=-1)


def _float_array(values: Any) -> np.ndarray:
    """Floats from JSON data, where null stands for a value that was not finite."""
    arr = np.array(values, dtype=object)
    arr[np.equal(arr, None)] = np.nan
    return arr.astype(float)


@attrs.frozen(eq=False)
class Tabulated:
    """A curve known at points ``x`` (increasing), linear in between: a saved function. ``y`` may have
    a last axis (one column per component)."""

    x: np.ndarray = attrs.field(converter=lambda v: _float_array(v))
    y: np.ndarray = attrs.field(converter=lambda v: _float_array(v))

    def __attrs_post_init__(self) -> None:
        if self.x.ndim != 1 or not self.x.size or self.y.ndim not in (1, 2) or self.y.shape[0] != self.x.size:
            raise ValueError(f"Tabulated: points x of shape {self.x.shape} and values y of shape {self.y.shape}; "
                             "y needs one row per point")

    def __call__(self, at: Any) -> np.ndarray:
        at = np.asarray(at, dtype=float)
        if self.y.ndim == 1:
            return np.interp(at, self.x, self.y)
        return np.stack([np.interp(at, self.x, col) for col in self.y.T], axis=-1)


@attrs.frozen
class Density:
    """A fitted density over the measurement axis, drawn over the sample's distribution.

    ``pdf(grid)`` gives the density at the values of ``grid``; ``components(grid)``
    (optional) the weighted component densities, shape ``grid.shape + (K,)``, drawn
    dashed; ``cdf(grid)`` (optional) the fitted distribution function, which ``describe
    --plot`` draws against the empirical one; ``span`` (optional) the range where the
    density has mass, so the axis shows all of it.
    """

    pdf: Curve
    label: str = attrs.field(validator=_text)
    components: Curve | None = None
    cdf: Curve | None = None
    span: tuple[float, float] | None = None
    #: the normal components the curves come from, when they do (:meth:`of_normals`): kept exactly when saved
    normals: Normals | None = None

    @classmethod
    def of_normals(cls, normals: Normals, label: str, components: bool | None = None,
                   span: tuple[float, float] | None = None) -> Density:
        """The density of ``normals``: its components dashed (by default when there are several), its CDF."""
        shown = len(normals.weights) > 1 if components is None else components
        return cls(normals.pdf, label, components=normals.components if shown else None, cdf=normals.cdf,
                   span=span, normals=normals)


@attrs.frozen
class Marks:
    """Points on the measurement axis (e.g. the modes of a density), drawn as markers."""

    at: tuple[float, ...] = attrs.field(converter=_floats)
    label: str = attrs.field(validator=_text)


@attrs.frozen
class Interval:
    """A value with its interval on the measurement axis (e.g. the mean and its CI)."""

    estimate: float
    low: float | None
    high: float | None
    label: str = attrs.field(validator=_text)


@attrs.frozen
class LevelVariances:
    """The variance each level of a hierarchical sample adds (top level first), in the unit squared."""

    levels: tuple[str, ...] = attrs.field(converter=tuple)
    variances: tuple[float, ...] = attrs.field(converter=_floats)
    label: str = attrs.field(default="variance per level", validator=_text)

    def __attrs_post_init__(self) -> None:
        if len(self.levels) != len(self.variances):
            raise ValueError(f"LevelVariances: {len(self.levels)} levels but {len(self.variances)} variances")


@attrs.frozen
class RunOrderLine:
    """A curve over run order (``values(index)``, index 0..n-1 of the flattened sample), e.g. a trend."""

    values: Curve
    label: str = attrs.field(validator=_text)


@attrs.frozen
class RunOrderSpans:
    """Ranges of run order ``[start, end)`` (indices of the flattened sample) to shade, e.g. a
    warm-up; ``hatched`` for ranges that are worse than shaded (e.g. no steady state)."""

    spans: tuple[tuple[int, int], ...] = attrs.field(converter=lambda v: tuple((int(a), int(b)) for a, b in v))
    label: str = attrs.field(validator=_text)
    hatched: bool = False


@attrs.frozen
class RunOrderMarks:
    """Positions in run order to mark with a vertical line (e.g. where a steady state starts)."""

    at: tuple[int, ...] = attrs.field(converter=lambda v: tuple(int(a) for a in v))
    label: str = attrs.field(validator=_text)


Layer = Density | Marks | Interval | LevelVariances | RunOrderLine | RunOrderSpans | RunOrderMarks
LAYER_TYPES = (Density, Marks, Interval, LevelVariances, RunOrderLine, RunOrderSpans, RunOrderMarks)
RUN_ORDER_TYPES = (RunOrderLine, RunOrderSpans, RunOrderMarks)


def layers(result: Any, sample: Any) -> list[Layer]:
    """What ``result`` adds to the plots of ``sample``: its ``plot_layers(sample)``, [] if it offers none,
    each as data (as a saved report keeps it: :func:`layer_to_dict`), so that a report draws the same
    live and saved.

    Anything that is not a layer is refused with a TypeError naming the result, so a
    plugin's mistake shows when its author first draws a report.
    """
    method = getattr(result, "plot_layers", None)
    if not callable(method):
        return []
    found: Sequence[Any] = method(sample) or ()
    bad = [type(x).__name__ for x in found if not isinstance(x, LAYER_TYPES)]
    if bad:
        raise TypeError(f"{type(result).__name__}.plot_layers returned {', '.join(bad)}: expected layers of "
                        "perfrigor.drawing (Density, Marks, Interval, LevelVariances, RunOrderLine, RunOrderSpans, "
                        "RunOrderMarks)")
    return [layer_from_dict(layer_to_dict(layer, sample)) for layer in found]


# ---------------------------------------------------------------- what the plots draw of a sample


def plotted_index(shape: Sequence[int]) -> tuple[np.ndarray, ...] | None:
    """Per axis, the indices (increasing) of the values the plots draw of a sample of ``shape``;
    None when they draw all of them (at most ``PLOTTED_VALUES``).

    Above that, axes are thinned from the innermost out (runs before invocations before builds,
    so the runs drawn spread over the whole measurement and every level keeps at least two
    units where it had them), each to a random subset in order, from a generator seeded 0:
    every rendering of a sample of this shape draws the same values. The subset is balanced
    (a hierarchy stays one) and holds at most ``PLOTTED_VALUES`` values.
    """
    shape = tuple(int(s) for s in shape)
    if math.prod(shape) <= PLOTTED_VALUES:
        return None
    keep = list(shape)
    for least in (2, 1):  # first keep two units a level where there are; then, if still too many, one
        for axis in reversed(range(len(shape))):
            rest = math.prod(keep) // keep[axis]
            keep[axis] = max(min(least, shape[axis]), min(keep[axis], PLOTTED_VALUES // rest))
            if math.prod(keep) <= PLOTTED_VALUES:
                break
        if math.prod(keep) <= PLOTTED_VALUES:
            break
    rng = np.random.default_rng(0)
    return tuple(np.sort(rng.choice(size, k, replace=False)) if k < size else np.arange(size)
                 for size, k in zip(shape, keep, strict=True))


def plotted(sample: Any) -> Any:
    """The sample as its plots draw it: itself, or above ``PLOTTED_VALUES`` values the fixed
    subsample of :func:`plotted_index` (a Sample of the same levels, unit and direction)."""
    index = plotted_index(np.shape(sample.values))
    if index is None:
        return sample
    at = np.ix_(*index)
    positions = None if sample.positions is None else sample.positions[at]
    return attrs.evolve(sample, values=np.asarray(sample.values)[at], positions=positions)


def plotted_runs(shape: Sequence[int]) -> np.ndarray:
    """Where in run order (the flat index, 0 first) each value :func:`plotted` keeps of a sample of
    ``shape`` was measured: ``0 .. n-1`` when it keeps them all."""
    index = plotted_index(shape)
    if index is None:
        return np.arange(math.prod(int(s) for s in shape))
    return np.ravel_multi_index(np.ix_(*index), tuple(int(s) for s in shape)).ravel()


# ---------------------------------------------------------------- layers saved as data


def _tabulate(curve: Curve | None, grid: np.ndarray) -> dict[str, Any] | None:
    """A curve as data: its points when it is a Tabulated one already, else its values at ``grid``."""
    if curve is None:
        return None
    if isinstance(curve, Tabulated):
        return {"x": curve.x.tolist(), "y": curve.y.tolist()}
    return {"x": grid.tolist(), "y": np.asarray(curve(grid), dtype=float).tolist()}


def _density_grid(layer: Density, sample: Any) -> np.ndarray:
    values = np.asarray(sample, dtype=float).ravel()
    lo, hi = float(values.min()), float(values.max())
    if layer.span is not None:  # (an end that is not finite: none)
        lo = min(lo, layer.span[0]) if math.isfinite(layer.span[0]) else lo
        hi = max(hi, layer.span[1]) if math.isfinite(layer.span[1]) else hi
    pad = 0.5 * (hi - lo) or abs(lo) or 1.0  # the plots reach beyond the data by less than this
    return np.linspace(lo - pad, hi + pad, TABULATED_POINTS)


def layer_to_dict(layer: Layer, sample: Any) -> dict[str, Any]:
    """A layer as JSON-ready data (``sample``: the one it was drawn for, where functions are evaluated;
    numbers that are not finite as None)."""
    return to_jsonable(_layer_data(layer, sample))


def _layer_data(layer: Layer, sample: Any) -> dict[str, Any]:
    if isinstance(layer, Density):
        out: dict[str, Any] = {"layer": "density", "label": layer.label,
                               "span": None if layer.span is None else list(layer.span)}
        if layer.normals is not None:
            n = layer.normals
            return {**out, "normals": {"weights": list(n.weights), "means": list(n.means), "sds": list(n.sds)},
                    "components": layer.components is not None}
        grid = _density_grid(layer, sample)
        return {**out, "pdf": _tabulate(layer.pdf, grid), "components": _tabulate(layer.components, grid),
                "cdf": _tabulate(layer.cdf, grid)}
    if isinstance(layer, Marks):
        return {"layer": "marks", "at": list(layer.at), "label": layer.label}
    if isinstance(layer, Interval):
        return {"layer": "interval", "estimate": layer.estimate, "low": layer.low, "high": layer.high,
                "label": layer.label}
    if isinstance(layer, LevelVariances):
        return {"layer": "level-variances", "levels": list(layer.levels), "variances": list(layer.variances),
                "label": layer.label}
    if isinstance(layer, RunOrderLine):  # at the runs the plot draws (:func:`plotted_runs`): exactly
        runs = plotted_runs(np.shape(np.asarray(sample))).astype(float)
        return {"layer": "run-order", "values": _tabulate(layer.values, runs), "label": layer.label}
    if isinstance(layer, RunOrderSpans):
        return {"layer": "run-order-spans", "spans": [list(s) for s in layer.spans], "label": layer.label,
                "hatched": layer.hatched}
    if isinstance(layer, RunOrderMarks):
        return {"layer": "run-order-marks", "at": list(layer.at), "label": layer.label}
    raise TypeError(f"not a drawing layer: {type(layer).__name__}")


def _curve(data: Mapping[str, Any] | None) -> Curve | None:
    return None if data is None else Tabulated(data["x"], data["y"])


def layer_from_dict(data: Mapping[str, Any]) -> Layer:
    """The layer :func:`layer_to_dict` saved."""
    kind = data.get("layer")
    if kind == "density":
        span = None if data.get("span") is None else (_number(data["span"][0]), _number(data["span"][1]))
        if "normals" in data:
            return Density.of_normals(Normals(**data["normals"]), data["label"], bool(data.get("components")),
                                      span)
        return Density(_curve(data["pdf"]), data["label"], components=_curve(data.get("components")),
                       cdf=_curve(data.get("cdf")), span=span)
    if kind == "marks":
        return Marks(data["at"], data["label"])
    if kind == "interval":  # (a bound of None: none)
        low, high = (None if data[k] is None else float(data[k]) for k in ("low", "high"))
        return Interval(_number(data["estimate"]), low, high, data["label"])
    if kind == "level-variances":
        return LevelVariances(data["levels"], data["variances"], data["label"])
    if kind == "run-order":
        return RunOrderLine(_curve(data["values"]), data["label"])
    if kind == "run-order-spans":
        return RunOrderSpans(data["spans"], data["label"], bool(data.get("hatched")))
    if kind == "run-order-marks":
        return RunOrderMarks(data["at"], data["label"])
    raise ValueError(f"unknown drawing layer {kind!r}")
