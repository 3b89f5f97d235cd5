"""The report's plots, drawn with matplotlib (imported only when a plot is drawn).

Each module draws one kind of plot from plain data (the core's result types and the
drawing layers of :mod:`perfrigor.drawing`) and returns a matplotlib Figure; the HTML
report inlines them as SVG (:func:`svg`), ``perfrigor describe --plot`` saves them
(:func:`save`). Nothing here names a statistical method: what a plugin's result adds to
a plot it says itself, through ``plot_layers(sample)``.
"""

from __future__ import annotations

from ._mpl import save, svg

__all__ = ["save", "svg"]
