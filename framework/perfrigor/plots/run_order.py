"""Measurements in the order they were taken: where the runs drift or depend on each other."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np

from ..drawing import Layer, RunOrderLine, RunOrderMarks, RunOrderSpans
from ._mpl import human_axis, margins_axes, new_figure, styled


@attrs.frozen
class Series:
    """One system's values in run order (flattened), its top-level unit size, its layers, and where in
    run order each value was measured (``runs``; default 0, 1, ...: every run, e.g. not a subsample)."""

    label: str
    values: np.ndarray
    colour: str
    unit_size: int = 0
    layers: Sequence[Layer] = ()
    runs: np.ndarray | None = None


@styled
def run_order(series: Sequence[Series], unit: str, title: str = "", width: float = 9.0) -> object:
    """A Figure: value against run index per system; dotted lines between top-level units
    (invocations) of hierarchical samples; run-order curves, shaded ranges (a warm-up) and marked
    positions (where a steady state starts) from the layers."""
    all_values = np.concatenate([np.asarray(s.values, dtype=float).ravel() for s in series])
    factor, ylabel = human_axis(all_values, unit)
    fig = new_figure(width, 2.6)
    ax = margins_axes(fig, 0.85, right=2.4, top=0.35 if title else 0.12)
    for s in series:
        y = np.asarray(s.values, dtype=float).ravel()
        idx = np.arange(y.size) if s.runs is None else np.asarray(s.runs)
        ax.plot(idx, y / factor, "-o", color=s.colour, lw=0.7, ms=2.6, alpha=0.85, label=s.label,
                rasterized=y.size > 1000)  # thousands of runs: one embedded bitmap, not one element each
        end = int(idx[-1]) + 1 if idx.size else 0
        if s.unit_size and s.unit_size < end:
            for b in range(s.unit_size, end, s.unit_size):
                ax.axvline(b - 0.5, color=s.colour, lw=0.5, ls=":", alpha=0.5)
        for layer in s.layers:
            if isinstance(layer, RunOrderLine):
                ax.plot(idx, np.asarray(layer.values(idx), dtype=float) / factor, color=s.colour, lw=1.6,
                        ls="--", label=f"{s.label}: {layer.label}")
            elif isinstance(layer, RunOrderSpans):
                for i, (a, b) in enumerate(layer.spans):
                    ax.axvspan(a - 0.5, b - 0.5, color=s.colour, alpha=0.08 if layer.hatched else 0.15, lw=0,
                               hatch="//" if layer.hatched else None,
                               label=f"{s.label}: {layer.label}" if i == 0 else None)
            elif isinstance(layer, RunOrderMarks):
                for i, at in enumerate(layer.at):
                    ax.axvline(at - 0.5, color=s.colour, lw=1.2, ls="-.",
                               label=f"{s.label}: {layer.label}" if i == 0 else None)
    ax.set_xlabel("run (in the order measured)")
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", color="#edf2f7", lw=0.8)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title:
        ax.set_title(title, loc="left")
    return fig
