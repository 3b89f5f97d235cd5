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
Layers are built when a report is drawn or saved. A saved report (``report.to_dict()``)
keeps each result's layers as data (:func:`layer_to_dict`), so it is drawn without the
plugin: exactly for marks, intervals, level variances and run-order lines, and for densities
made of normal components (:meth:`Density.of_normals`); a density given as plain functions
is kept tabulated at ``TABULATED_POINTS`` points over its span and drawn from that.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

__all__ = ["Density", "Interval", "Layer", "LevelVariances", "Marks", "Normals", "RunOrderLine", "RunOrderMarks",
           "RunOrderSpans", "Tabulated", "layer_from_dict", "layer_to_dict", "layers"]

Curve = Callable[[np.ndarray], np.ndarray]

#: where a density given as plain functions is evaluated when a report is saved
TABULATED_POINTS = 1025


def _floats(values: Any) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


@attrs.frozen
class Normals:
    """Weighted normal densities as data: ``sum_k weights[k] N(means[k], sds[k])`` (e.g. a fitted mixture).

    Its curves (``pdf``, the weighted ``components``, ``cdf``) are what :meth:`Density.of_normals`
    draws; being data, a saved report keeps them exactly.
    """

    weights: tuple[float, ...] = attrs.field(converter=_floats)
    means: tuple[float, ...] = attrs.field(converter=_floats)
    sds: tuple[float, ...] = attrs.field(converter=_floats)

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
    label: str
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

    at: tuple[float, ...] = attrs.field(converter=lambda v: tuple(float(a) for a in v))
    label: str


@attrs.frozen
class Interval:
    """A value with its interval on the measurement axis (e.g. the mean and its CI)."""

    estimate: float
    low: float | None
    high: float | None
    label: str


@attrs.frozen
class LevelVariances:
    """The variance each level of a hierarchical sample adds (top level first), in the unit squared."""

    levels: tuple[str, ...] = attrs.field(converter=tuple)
    variances: tuple[float, ...] = attrs.field(converter=lambda v: tuple(float(a) for a in v))
    label: str = "variance per level"

    def __attrs_post_init__(self) -> None:
        if len(self.levels) != len(self.variances):
            raise ValueError(f"LevelVariances: {len(self.levels)} levels but {len(self.variances)} variances")


@attrs.frozen
class RunOrderLine:
    """A curve over run order (``values(index)``, index 0..n-1 of the flattened sample), e.g. a trend."""

    values: Curve
    label: str


@attrs.frozen
class RunOrderSpans:
    """Ranges of run order ``[start, end)`` (indices of the flattened sample) to shade, e.g. a
    warm-up; ``hatched`` for ranges that are worse than shaded (e.g. no steady state)."""

    spans: tuple[tuple[int, int], ...] = attrs.field(converter=lambda v: tuple((int(a), int(b)) for a, b in v))
    label: str
    hatched: bool = False


@attrs.frozen
class RunOrderMarks:
    """Positions in run order to mark with a vertical line (e.g. where a steady state starts)."""

    at: tuple[int, ...] = attrs.field(converter=lambda v: tuple(int(a) for a in v))
    label: str


Layer = Density | Marks | Interval | LevelVariances | RunOrderLine | RunOrderSpans | RunOrderMarks
LAYER_TYPES = (Density, Marks, Interval, LevelVariances, RunOrderLine, RunOrderSpans, RunOrderMarks)
RUN_ORDER_TYPES = (RunOrderLine, RunOrderSpans, RunOrderMarks)


def layers(result: Any, sample: Any) -> list[Layer]:
    """What ``result`` adds to the plots of ``sample``: its ``plot_layers(sample)``, [] if it offers none.

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
    return list(found)


# ---------------------------------------------------------------- layers saved as data


def _tabulate(curve: Curve | None, grid: np.ndarray) -> dict[str, Any] | None:
    if curve is None:
        return None
    return {"x": grid.tolist(), "y": np.asarray(curve(grid), dtype=float).tolist()}


def _density_grid(layer: Density, sample: Any) -> np.ndarray:
    values = np.asarray(sample, dtype=float).ravel()
    lo, hi = float(values.min()), float(values.max())
    if layer.span is not None:
        lo, hi = min(lo, layer.span[0]), max(hi, layer.span[1])
    pad = 0.5 * (hi - lo) or abs(lo) or 1.0  # the plots reach beyond the data by less than this
    return np.linspace(lo - pad, hi + pad, TABULATED_POINTS)


def layer_to_dict(layer: Layer, sample: Any) -> dict[str, Any]:
    """A layer as JSON-ready data (``sample``: the one it was drawn for, where functions are evaluated)."""
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
    if isinstance(layer, RunOrderLine):  # the plots evaluate it at every run's index: kept exactly
        index = np.arange(np.asarray(sample).size, dtype=float)
        return {"layer": "run-order", "values": _tabulate(layer.values, index), "label": layer.label}
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
        span = None if data.get("span") is None else (float(data["span"][0]), float(data["span"][1]))
        if "normals" in data:
            return Density.of_normals(Normals(**data["normals"]), data["label"], bool(data.get("components")),
                                      span)
        return Density(_curve(data["pdf"]), data["label"], components=_curve(data.get("components")),
                       cdf=_curve(data.get("cdf")), span=span)
    if kind == "marks":
        return Marks(data["at"], data["label"])
    if kind == "interval":
        return Interval(data["estimate"], data["low"], data["high"], data["label"])
    if kind == "level-variances":
        return LevelVariances(data["levels"], data["variances"], data["label"])
    if kind == "run-order":
        return RunOrderLine(_curve(data["values"]), data["label"])
    if kind == "run-order-spans":
        return RunOrderSpans(data["spans"], data["label"], bool(data.get("hatched")))
    if kind == "run-order-marks":
        return RunOrderMarks(data["at"], data["label"])
    raise ValueError(f"unknown drawing layer {kind!r}")
