"""The forest plot: every benchmark's speedup with its interval, coloured by outcome, sorted."""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs
import numpy as np

from ..textsafe import shortened
from ._mpl import new_figure, styled, text_width
from .style import OUTCOME_COLOURS

#: benchmark names longer than this are cut in the middle on the plot (the whole name on hover)
NAME_CHARS = 40
#: the plotting area's least width, inches: the intervals must stay readable whatever the names
PLOT_WIDTH = 4.5


@attrs.frozen
class Row:
    """One benchmark: speedup (> 1 = candidate better) and interval, outcome, and the change as text."""

    name: str
    speedup: float
    low: float | None
    high: float | None
    outcome: str
    note: str = ""


@styled
def forest(rows: Sequence[Row], suite: Row | None = None, threshold: float = 0.0,
           title: str = "", width: float = 9.0, note_label: str = "") -> object:
    """A Figure: rows sorted by speedup (largest gain on top), 1 marked, the suite's mean below.

    The x axis is logarithmic (a 2x speedup and a 2x slowdown are as far from 1);
    ``threshold`` shades the band within which a change counts as "same". ``note_label``
    heads the notes on the right (their scale is not the axis': "time change [95% CI]").
    """
    rows = sorted(rows, key=lambda r: -r.speedup)
    n = len(rows) + (2 if suite is not None else 0)
    # long benchmark names are cut in the middle (whole on hover), and the figure widens with its texts
    # so that the plotting area keeps at least PLOT_WIDTH inches: 100-character names once left it 190 px
    names = [shortened(r.name, NAME_CHARS) for r in rows]
    width = max(width, PLOT_WIDTH + text_width(names + [suite.name if suite else ""]) + text_width(
        [r.note for r in rows] + [suite.note if suite else ""]) + 0.6)
    fig = new_figure(width, 1.1 + 0.24 * n, layout="constrained")
    ax = fig.add_subplot()
    ys = np.arange(len(rows))[::-1] + (2 if suite is not None else 0)
    ends = [r.speedup for r in rows] + [x for r in rows for x in (r.low, r.high) if x is not None]
    if suite is not None:
        ends += [x for x in (suite.speedup, suite.low, suite.high) if x is not None]
    ends = [x for x in ends if x is not None and math.isfinite(x) and x > 0]
    # at least ±5% (and 3 bands) around 1: one benchmark without an interval must not fill the axis
    reach = max(1.05, 1.0 + 3.0 * threshold)
    lo, hi = (min(ends + [1.0 / reach]), max(ends + [reach])) if ends else (0.5, 2.0)
    pad = (hi / lo) ** 0.06
    lo, hi = lo / pad, hi * pad
    if threshold > 0:
        ax.axvspan(1 / (1 + threshold), 1 + threshold, color="#e2e8f0", zorder=0, lw=0)
    ax.axvline(1.0, color="#2d3748", lw=0.9, zorder=1)
    for r, y in zip(rows, ys, strict=True):
        colour = OUTCOME_COLOURS.get(r.outcome, "#4a5568")
        if r.low is not None and r.high is not None:
            ax.plot([max(r.low, lo), min(r.high, hi)], [y, y], color=colour, lw=2.2, solid_capstyle="butt", zorder=2)
        ax.plot([r.speedup], [y], "o", color=colour, ms=5.5, zorder=3)
    if suite is not None:
        ax.axhline(1.0, color="#cbd5e0", lw=0.8)
        if suite.low is not None and suite.high is not None:
            ax.plot([suite.low, suite.high], [0, 0], color="#1a202c", lw=2.2, zorder=2)
        ax.plot([suite.speedup], [0], "D", color="#1a202c", ms=7, zorder=3)
    ax.set_xscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.7, (ys.max() if len(ys) else 0) + 0.7)
    labels = names + ([suite.name] if suite is not None else [])
    ax.set_yticks(list(ys) + ([0] if suite is not None else []), labels)
    titles = {}
    for i, (tick, r, name) in enumerate(zip(ax.get_yticklabels()[:len(rows)], rows, names, strict=True)):
        tick.set_color(OUTCOME_COLOURS.get(r.outcome, "#1a202c"))
        if name != r.name:
            tick.set_gid(f"name-{i}")
            titles[f"name-{i}"] = r.name
    fig.perfrigor_titles = titles  # the full names, shown on hover in the SVG (perfrigor.plots.svg)
    _speedup_ticks(ax, lo, hi)
    ax.set_xlabel("speedup (> 1: candidate better), log scale")
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="x", color="#edf2f7", lw=0.8, zorder=0)
    right = ax.secondary_yaxis("right")
    right.set_yticks(list(ys) + ([0] if suite is not None else []),
                     [r.note for r in rows] + ([suite.note] if suite is not None else []))
    right.tick_params(length=0)
    right.spines["right"].set_visible(False)
    if note_label:
        ax.annotate(note_label, xy=(1, 1), xycoords="axes fraction", xytext=(4, 2), textcoords="offset points",
                    ha="left", va="bottom", color="#4a5568", fontsize="small")
    for tick, r in zip(right.get_yticklabels()[:len(rows)], rows, strict=True):
        tick.set_color(OUTCOME_COLOURS.get(r.outcome, "#1a202c"))
    counts: dict[str, int] = {}
    for r in rows:
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=OUTCOME_COLOURS.get(o, "#4a5568"), marker="o", lw=2.2, label=f"{o} ({c})")
               for o, c in counts.items()]
    fig.legend(handles=handles, loc="outside lower center", ncol=len(handles))
    if title:
        ax.set_title(title, loc="left")
    return fig


def _speedup_ticks(ax, lo: float, hi: float) -> None:
    """Readable speedup ticks on a log axis (0.5, 0.8, 1, 1.25, 2 ...)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    candidates = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 0.67, 0.8, 0.9, 0.95, 1.0, 1.05, 1.1, 1.25, 1.5, 2.0,
                  3.0, 4.0, 5.0, 10.0, 20.0, 50.0, 100.0]
    inside = [t for t in candidates if lo <= t <= hi]
    # keep ticks apart on the log axis (at least ~5% of the span between neighbours)
    span = math.log(hi / lo)
    kept: list[float] = []
    for t in sorted(inside, key=lambda t: (t != 1.0, abs(math.log(t)))):
        if all(abs(math.log(t / k)) > 0.09 * span for k in kept):
            kept.append(t)
    ax.xaxis.set_major_locator(FixedLocator(sorted(kept)))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
