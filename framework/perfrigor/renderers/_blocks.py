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
class Column:
    """A table column: its header, and whether it holds numbers (right-aligned where the format can)."""

    header: str
    numeric: bool = False


@attrs.frozen
class Cell:
    """One table cell: its text and, for renderers that colour, its tone ("faster", "slower", "same",
    "unclear" or "" for none)."""

    text: str
    tone: str = ""


def _check_rows(table: Table, attribute: attrs.Attribute, rows: Sequence[Sequence[Cell]]) -> None:
    for i, row in enumerate(rows):
        if len(row) != len(table.columns):
            raise ValueError(f"table row {i} has {len(row)} cells for {len(table.columns)} columns")
        if not all(isinstance(cell, Cell) for cell in row):
            raise TypeError(f"table row {i}: cells must be Cell records, got {row!r:.200}")


@attrs.frozen
class Table:
    """Rows of cells under columns (every row one cell per column)."""

    columns: Sequence[Column] = attrs.field(converter=tuple)
    rows: Sequence[Sequence[Cell]] = attrs.field(converter=lambda rows: tuple(tuple(r) for r in rows),
                                                 validator=_check_rows)

    @property
    def headers(self) -> list[str]:
        return [c.header for c in self.columns]


@attrs.frozen
class Item:
    """One bullet: its line, and further lines (its key numbers, reasons) shown quieter beneath it."""

    text: str
    more: Sequence[str] = attrs.field(default=(), converter=tuple)


@attrs.frozen
class Items:
    """A bulleted list."""

    items: Sequence[Item] = attrs.field(converter=tuple,
                                        validator=attrs.validators.deep_iterable(attrs.validators.instance_of(Item)))


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


def plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                numeric: Sequence[bool] | None = None) -> Table:
    """A table of plain text cells (no tones)."""
    numeric = numeric or [False] * len(headers)
    return Table([Column(h, n) for h, n in zip(headers, numeric, strict=True)],
                 [[Cell(text) for text in row] for row in rows])
