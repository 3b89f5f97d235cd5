"""Two (or more) systems' measurements side by side: strip, fitted densities and their marks."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from ..drawing import Density, Interval, Layer, Marks
from ._mpl import human_axis, log_axis, margins_axes, new_figure, styled, text_width
from .style import DENSITY_COLOUR, MARK_COLOUR

#: samples larger than this draw their points as an embedded bitmap
RASTER_ABOVE = 1000


@attrs.frozen
class Side:
    """One system's row: its values, what its results add (layers), the value it was compared on."""

    label: str
    values: np.ndarray
    colour: str
    layers: Sequence[Layer] = ()
    central: float | None = None
    central_label: str = ""


def _grid(lo: float, hi: float, log: bool, peaks: Sequence[float]) -> np.ndarray:
    """Points to draw a density at: even over the axis, and dense around its peaks (the marks), where a
    narrow component would otherwise fall between two points."""
    base = np.geomspace(lo, hi, 400) if log else np.linspace(lo, hi, 400)
    width = (np.log(hi / lo) if log else hi - lo) * 0.01
    near = [np.exp(np.linspace(np.log(p) - width, np.log(p) + width, 80)) if log and p > 0
            else np.linspace(p - width, p + width, 80) for p in peaks]
    grid = np.unique(np.concatenate([base, *near])) if near else base
    return grid[(grid >= lo) & (grid <= hi)]


def _trimmed(pdf: np.ndarray, top: float) -> np.ndarray:
    """The density with its flat tails (below 1/10000 of the peak, before the first and after the
    last point above it) left out, so a ridge ends where the distribution does."""
    above = np.flatnonzero(pdf >= 1e-4 * top)
    out = np.full_like(pdf, np.nan)
    if above.size:
        out[above[0]:above[-1] + 1] = pdf[above[0]:above[-1] + 1]
    return out


@styled
def distributions(sides: Sequence[Side], unit: str, title: str = "", title_colour: str = "#1a202c",
                  width: float = 9.0) -> object:
    """A Figure with one row per side (the first on top): jittered points, a box of the quartiles,
    each fitted density as a ridge above the points (its components dashed, its marks as
    triangles), intervals below, and the compared central value as a vertical bar."""
    all_values = np.concatenate([np.asarray(s.values, dtype=float).ravel() for s in sides])
    factor, xlabel = human_axis(all_values, unit)
    lo, hi = float(all_values.min()), float(all_values.max())
    log = bool(lo > 0 and hi / lo > 20)  # the data decide; a fitted tail does not make the axis logarithmic
    reach = (hi - lo) * 0.25 if not log else 0.0
    for s in sides:
        for layer in s.layers:
            if isinstance(layer, Density) and layer.span is not None:  # show the density's mass, within reason
                lo = min(lo, max(layer.span[0], lo - reach, lo / 1.5 if lo > 0 else -np.inf))
                hi = max(hi, min(layer.span[1], hi + reach, hi * 1.5 if hi > 0 else np.inf))
    if log:
        lo, hi = lo / 1.15, hi * 1.15
    else:
        pad = 0.04 * (hi - lo or abs(hi) or 1.0)
        lo, hi = lo - pad, hi + pad
    fig = new_figure(width, 0.75 + 1.0 * len(sides) + (0.2 if title else 0))
    ax = margins_axes(fig, 0.3 + text_width([s.label for s in sides]), right=2.4, top=0.35 if title else 0.12)
    rng = np.random.default_rng(0)  # the same jitter every time: reports are reproducible
    handles: dict[str, object] = {}
    for i, s in enumerate(sides):
        y0 = (len(sides) - 1 - i) * 1.0
        x = np.asarray(s.values, dtype=float).ravel()
        jitter = rng.uniform(-0.09, 0.09, x.size)
        alpha = 0.75 if x.size <= 200 else max(0.15, 0.75 * 200 / x.size)
        # thousands of points: one embedded bitmap (a data URI) instead of one SVG element each
        ax.plot(x / factor, y0 - 0.22 + jitter, "o", ms=3.2, color=s.colour, alpha=alpha, mew=0, zorder=3,
                rasterized=x.size > RASTER_ABOVE)
        q1, med, q3 = np.percentile(x, [25, 50, 75])
        ax.add_patch(_box(q1 / factor, q3 / factor, y0 - 0.36, 0.28, s.colour))
        ax.plot([med / factor] * 2, [y0 - 0.36, y0 - 0.08], color=s.colour, lw=1.6, zorder=4)
        for layer in s.layers:
            if isinstance(layer, Density):
                peaks = [a for m in s.layers if isinstance(m, Marks) for a in m.at]
                grid = _grid(lo, hi, log, peaks)
                pdf = np.asarray(layer.pdf(grid), dtype=float)
                top = float(pdf.max()) if pdf.size and np.isfinite(pdf).all() and pdf.max() > 0 else 0.0
                if top <= 0:
                    continue
                ridge = y0 - 0.02 + 0.5 * _trimmed(pdf, top) / top
                h = ax.fill_between(grid / factor, y0 - 0.02, ridge, where=np.isfinite(ridge), color=s.colour,
                                    alpha=0.18, lw=0, zorder=1)
                ax.plot(grid / factor, ridge, color=DENSITY_COLOUR, lw=1.2, zorder=2)
                handles.setdefault(layer.label, h)
                if layer.components is not None:
                    comps = np.asarray(layer.components(grid), dtype=float)
                    for k in range(comps.shape[-1]):
                        comp = y0 - 0.02 + 0.5 * _trimmed(comps[..., k], top) / top
                        ax.plot(grid / factor, comp, color=DENSITY_COLOUR, lw=0.8, ls="--", alpha=0.7, zorder=2)
                for mark in s.layers:
                    if isinstance(mark, Marks):
                        at = np.asarray(mark.at, dtype=float)
                        ys = y0 - 0.02 + 0.5 * np.asarray(layer.pdf(at), dtype=float) / top
                        m = ax.plot(at / factor, ys + 0.06, "v", color=MARK_COLOUR, ms=6, zorder=5)[0]
                        handles.setdefault(mark.label, m)
            elif isinstance(layer, Interval):
                low = layer.low if layer.low is not None else layer.estimate
                high = layer.high if layer.high is not None else layer.estimate
                h = ax.errorbar([layer.estimate / factor], [y0 - 0.44],
                                xerr=[[(layer.estimate - low) / factor], [(high - layer.estimate) / factor]],
                                fmt="s", ms=4, color=DENSITY_COLOUR, capsize=3, lw=1.1, zorder=5)
                handles.setdefault(layer.label, h)
        if not any(isinstance(layer, Density) for layer in s.layers):
            for mark in s.layers:
                if isinstance(mark, Marks):
                    m = ax.plot(np.asarray(mark.at) / factor, [y0 + 0.02] * len(mark.at), "v", color=MARK_COLOUR,
                                ms=6, zorder=5)[0]
                    handles.setdefault(mark.label, m)
        if s.central is not None:
            c = ax.plot([s.central / factor] * 2, [y0 - 0.46, y0 + 0.5], color="#1a202c", lw=1.4, ls=":",
                        zorder=4)[0]
            handles.setdefault(s.central_label or "compared value", c)
    if log:
        log_axis(ax)
    ax.set_xlim(lo / factor, hi / factor)
    ax.set_ylim(-0.55, len(sides) - 1 + 0.6)
    ax.set_yticks([(len(sides) - 1 - i) * 1.0 for i in range(len(sides))], [s.label for s in sides])
    for tick, s in zip(ax.get_yticklabels(), sides, strict=True):
        tick.set_color(s.colour)
    ax.tick_params(axis="y", length=0)
    ax.spines["left"].set_visible(False)
    ax.set_xlabel(xlabel + (", log scale" if log else ""))
    ax.grid(axis="x", color="#edf2f7", lw=0.8, zorder=0)
    if title:
        ax.set_title(title, loc="left", color=title_colour)
    if handles:
        ax.legend(list(handles.values()), list(handles), loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return fig


def _box(left: float, right: float, bottom: float, height: float, colour: str):
    from matplotlib.patches import Rectangle

    return Rectangle((left, bottom), max(right - left, 0.0), height, fill=False, ec=colour, lw=1.0, zorder=4)
