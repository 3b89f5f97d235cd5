"""One system's measurements in detail (``perfrigor describe --plot``): histogram, fitted densities,
their components and marks, intervals; beside it the empirical against each fitted CDF."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..drawing import Density, Interval, Layer, Marks
from ._mpl import human_axis, log_axis, new_figure, styled
from .style import BASELINE_COLOUR, DENSITY_COLOUR, MARK_COLOUR


@styled
def describe_figure(values: np.ndarray, unit: str, layers: Sequence[Layer] = (), title: str = "") -> object:
    """A Figure for one sample: left its histogram with what the layers add, right (when a density
    offers its CDF) the empirical CDF against the fitted one, with the largest gap (KS distance)."""
    x = np.sort(np.asarray(values, dtype=float).ravel())
    densities = [d for d in layers if isinstance(d, Density)]
    cdfs = [d for d in densities if d.cdf is not None]
    factor, xlabel = human_axis(x, unit)
    lo, hi = float(x[0]), float(x[-1])
    for d in densities:
        if d.span is not None:
            lo, hi = min(lo, d.span[0]), max(hi, d.span[1])
    spread = (hi - lo) or abs(hi) or 1.0
    log = bool(x[0] > 0 and x[-1] / x[0] > 20)
    lo, hi = (max(lo, x[0] / 1.5), hi * 1.1) if log else (lo - 0.05 * spread, hi + 0.05 * spread)
    fig = new_figure(11.0 if cdfs else 7.5, 4.0, layout="constrained")
    axes = fig.subplots(1, 2) if cdfs else [fig.add_subplot()]
    left = axes[0]
    grid = np.geomspace(max(lo, 1e-300), hi, 1500) if log else np.linspace(lo, hi, 1500)
    # Freedman-Diaconis bins (narrow clusters stay visible), between 10 and 100 of them
    bins = int(np.clip(len(np.histogram_bin_edges(x, "fd")) - 1, 10, 100)) if x[-1] > x[0] else 10
    edges = np.geomspace(x[0], x[-1], bins + 1) if log else bins
    left.hist(x / factor, bins=edges / factor if log else edges, density=True, color="#cbd5e0", edgecolor="#a0aec0",
              label=f"data (n = {x.size})")
    for d in densities:
        left.plot(grid / factor, np.asarray(d.pdf(grid)) * factor, color=DENSITY_COLOUR, lw=2.0, label=d.label)
        if d.components is not None:
            comps = np.asarray(d.components(grid), dtype=float) * factor
            for k in range(comps.shape[-1]):
                left.plot(grid / factor, comps[..., k], lw=1.1, ls="--", label=f"component {k + 1}")
        for m in layers:
            if isinstance(m, Marks):
                at = np.asarray(m.at, dtype=float)
                left.plot(at / factor, np.asarray(d.pdf(at)) * factor, "v", color=MARK_COLOUR, ms=8, label=m.label)
    if not densities:
        for m in layers:
            if isinstance(m, Marks):
                left.plot(np.asarray(m.at) / factor, np.zeros(len(m.at)), "v", color=MARK_COLOUR, ms=8, label=m.label)
    for iv in layers:
        if isinstance(iv, Interval):
            low = iv.low if iv.low is not None else iv.estimate
            high = iv.high if iv.high is not None else iv.estimate
            top = left.get_ylim()[1]
            left.errorbar([iv.estimate / factor], [0.92 * top], xerr=[[(iv.estimate - low) / factor],
                                                                     [(high - iv.estimate) / factor]],
                          fmt="s", ms=5, color=BASELINE_COLOUR, capsize=3, label=iv.label)
    left.plot(x / factor, np.zeros_like(x), "|", color="k", alpha=0.4, ms=8)
    left.set_xlim(lo / factor, hi / factor)
    left.set_xlabel(xlabel + (", log scale" if log else ""))
    left.set_ylabel(f"density (per {xlabel.split('(')[-1].rstrip(')')})" if "(" in xlabel else "density")
    if log:
        log_axis(left)
    left.legend(loc="upper right")
    if title:
        left.set_title(title, loc="left")
    if cdfs:
        right = axes[1]
        edf = np.arange(1, x.size + 1) / x.size
        right.step(x / factor, edf, where="post", color="#4a5568", label="empirical CDF")
        for d in cdfs:
            right.plot(grid / factor, d.cdf(grid), color=DENSITY_COLOUR, lw=1.5, label=f"{d.label}: CDF")
            fitted = np.asarray(d.cdf(x), dtype=float)
            gap = np.maximum(edf - fitted, fitted - (edf - 1.0 / x.size))
            i = int(np.argmax(gap))
            right.axvline(x[i] / factor, color=MARK_COLOUR, lw=0.9, ls=":", label=f"largest gap (KS) {gap[i]:.3f}")
        right.set_xlim(lo / factor, hi / factor)
        right.set_ylim(0, 1.02)
        if log:
            log_axis(right)
        right.set_xlabel(xlabel)
        right.set_ylabel("P[X <= x]")
        right.set_title("empirical vs fitted CDF", loc="left")
        right.legend(loc="lower right")
    return fig
