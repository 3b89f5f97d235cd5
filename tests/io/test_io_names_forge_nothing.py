"""Issue 24 item 5: a benchmark name is shown as itself in every format, never as report structure
(a forged verdict row, a link, a heading, a table cell)."""

from __future__ import annotations

import re

import numpy as np
import perfrigor as pr
import pytest

FORGED_ROW = "fake\n  evil  1.000  2.000  -50.0%  faster  forged"
NAMES = [FORGED_ROW, "[click](javascript:alert(1))", "# Heading", "a|b|c", "<b>x</b>", "1. item", "- item",
         "`code`", "**bold**", "[x] task", "![img](http://evil/x.png)", "[ref]: http://evil", "---"]


@pytest.fixture(scope="module")
def report():
    rng = np.random.default_rng(3)
    data = {name: {"old": rng.normal(10.0, 0.1, 12), "new": rng.normal(9.0, 0.1, 12)} for name in NAMES}
    return pr.pipeline("default").run(pr.Suite(data))


def _render(report, fmt: str) -> str:
    return pr.registry.get_registry().renderer(fmt).render(report)


def test_text_shows_a_line_break_in_a_name_as_an_escape(report):
    text = _render(report, "text")
    assert "forged" in text
    assert not any(line.lstrip().startswith("evil") for line in text.splitlines())
    assert "fake\\n  evil" in text
    table = text.split("Verdicts\n--------\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(table) == 2 + len(NAMES)  # header, rule, one row per benchmark: nothing added


def test_markdown_forms_no_link_heading_list_or_cell_from_a_name(report):
    md = _render(report, "markdown")
    assert not re.search(r"(?<!\\)\]\(", md), "a link or image could form"
    assert not re.search(r"(?<!\\)\]:", md), "a link reference definition could form"
    assert "javascript:" in md  # the name is shown, escaped
    assert not re.search(r"^\s*(?:[-*+]\s+)?#{1,6}\s+Heading", md, re.M), "a name made a heading"
    assert "\\# Heading" in md
    assert not re.search(r"^\s*-\s+(?:[-*+]\s|\d+[.)]\s|\[[ x]\]\s|#|>)", md, re.M), "a nested list, task or quote"
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    widths = {len(re.findall(r"(?<!\\)\|", row)) for row in rows[:len(NAMES) + 2]}
    assert widths == {7}, widths  # the verdict table: 6 cells a row, whatever the names hold
    assert "<b>" not in md and "&lt;b>x&lt;/b>" in md
    assert "\n---\n" not in md and "fake\\\\n" in md


def test_html_shows_a_line_break_in_a_name_as_an_escape(report):
    pytest.importorskip("matplotlib")
    page = pr.registry.get_registry().renderer("html").render(report, plots=False)
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "fake\\n  evil" in page and "fake\n" not in page
