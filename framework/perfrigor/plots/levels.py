"""Where the variance comes from: each level's share of a hierarchical sample's variance."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..display import quantity
from ..drawing import LevelVariances
from ._mpl import new_figure, styled


@styled
def level_variances(parts: Sequence[tuple[str, str, LevelVariances]], unit: str, title: str = "",
                    width: float = 9.0) -> object:
    """A Figure: per level (top level first), one bar per system: its share of the variance,
    labelled with the standard deviation the level adds (in human units).

    ``parts``: (system label, colour, layer). Negative variance estimates count as 0.
    """
    levels = list(parts[0][2].levels)
    fig = new_figure(width, 0.9 + 0.45 * len(levels) * len(parts), layout="constrained")
    ax = fig.add_subplot()
    height = 0.8 / len(parts)
    for j, (label, colour, layer) in enumerate(parts):
        var = np.clip(np.asarray(layer.variances, dtype=float), 0, None)
        total = var.sum()
        share = var / total if total > 0 else np.zeros_like(var)
        ys = np.arange(len(levels))[::-1] + 0.4 - (j + 0.5) * height
        ax.barh(ys, share * 100, height=height * 0.9, color=colour, alpha=0.85, label=label)
        for y, s, v in zip(ys, share, var, strict=True):
            ax.text(s * 100 + 1, y, f"{s:.0%}  (sd {quantity(float(np.sqrt(v)), unit, 3)})", va="center", fontsize=8)
    ax.set_yticks(np.arange(len(levels))[::-1], levels)
    ax.set_xlim(0, 125)
    ax.set_xticks([0, 25, 50, 75, 100])
    ax.set_xlabel("share of the variance of one measurement (%)")
    ax.tick_params(axis="y", length=0)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if title:
        ax.set_title(title, loc="left")
    return fig
