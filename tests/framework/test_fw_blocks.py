"""Renderers as pure layout: tables of Cell records under Column records, bullets as Item records (issue 15)."""

from __future__ import annotations

import perfrigor as pr
import pytest
from perfrigor.examples import path
from perfrigor.renderers._blocks import Cell, Column, Item, Items, Table, plain_table
from perfrigor.renderers._layout import layout
from perfrigor.renderers._verdicts import verdict_table


def test_a_table_is_cells_under_columns_and_refuses_ragged_or_untyped_rows():
    t = Table([Column("a"), Column("n", numeric=True)], [[Cell("x"), Cell("1", "faster")]])
    assert t.headers == ["a", "n"] and t.rows[0][1].tone == "faster"
    with pytest.raises(ValueError, match="row 0 has 1 cells for 2 columns"):
        Table([Column("a"), Column("n")], [[Cell("x")]])
    with pytest.raises(TypeError, match="Cell records"):
        Table([Column("a")], [["x"]])
    assert plain_table(["a"], [["x"]], numeric=[True]).columns[0].numeric


def test_items_are_item_records():
    assert Items([Item("head", ["more"])]).items[0].more == ("more",)
    with pytest.raises(TypeError):
        Items(["a bare string"])


@pytest.fixture(scope="module")
def report():
    return pr.pipeline("default").run(path("two-versions") / "baseline.txt", path("two-versions") / "candidate.txt")


def test_the_verdict_table_tones_its_verdict_cell_only(report):
    table = next(b for b in verdict_table(report) if isinstance(b, Table))
    (row,) = table.rows
    assert [c.tone for c in row] == ["", "", "", "", "faster", ""]
    assert [c.numeric for c in table.columns] == [False, True, True, True, False, False]


def test_a_reason_item_keeps_its_lines_apart_in_every_format(report):
    blocks = layout(report)
    reasons = next(b for b in blocks if getattr(b, "summary", "") == "Reasons, per benchmark").blocks[0]
    (item,) = reasons.items
    assert item.text.startswith("benchmark: faster") and len(item.more) >= 2
    html = report.render("html", plots=False)
    assert "<br>".join(item.more[:2]).replace("'", "&#x27;") in html  # each on its own line
    text = report.render("text")
    assert f"\n    {item.more[0]}\n    {item.more[1]}\n" in text
