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
Layers hold callables and are built when a plot is drawn, never stored or pickled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

__all__ = ["Density", "Interval", "Layer", "LevelVariances", "Marks", "RunOrderLine", "RunOrderMarks", "RunOrderSpans",
           "layers"]

Curve = Callable[[np.ndarray], np.ndarray]


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
