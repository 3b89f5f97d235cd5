"""The format-neutral blocks a report is laid out in; each renderer draws them its way.

``_layout.layout(report, options)`` produces them in reading order; text, Markdown and
HTML draw them (a ``Figure`` only in HTML, a ``Details`` as a collapsible block where
the format has one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs


@attrs.frozen
class Heading:
    text: str
    level: int = 2


@attrs.frozen
class Para:
    text: str


@attrs.frozen
class Table:
    """Rows of text cells.

    ``tones`` optionally marks cells ("faster", "slower", "same", "unclear") for renderers
    that colour; ``numeric`` marks columns of numbers (right-aligned where the format can).
    """

    headers: Sequence[str]
    rows: Sequence[Sequence[str]]
    tones: Sequence[Sequence[str]] | None = None
    numeric: Sequence[bool] | None = None


@attrs.frozen
class Items:
    """A bulleted list; each item is a line of text (further lines: its key numbers)."""

    items: Sequence[str]


@attrs.frozen
class Details:
    """A titled group of blocks that a reader opens on demand (``<details>`` in Markdown and HTML).

    ``open``: shown unfolded in HTML (the plots of changed benchmarks); text prints every
    group as a section.
    """

    summary: str
    blocks: Sequence[Block]
    open: bool = False


@attrs.frozen
class Figure:
    """A plot, drawn only by formats that show pictures: ``draw()`` returns an SVG document.

    ``alt`` says in words what the plot shows (for screen readers and when drawing fails);
    ``key`` names it in the page (an HTML id).
    """

    draw: Callable[[], str]
    alt: str
    key: str = ""


Block = Heading | Para | Table | Items | Details | Figure
