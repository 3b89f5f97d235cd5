"""Issue 24 item 5: a benchmark name is shown as itself in every format, never as report structure
(a forged verdict row, a link, a heading, a table cell)."""

from __future__ import annotations

import re

import numpy as np
import perfrigor as pr
import pytest

FORGED_ROW = "fake\n  evil  1.000  2.000  -50.0%  faster  forged"
NAMES = [FORGED_ROW, "[click](javascript:alert(1))", "# Heading", "a|b|c", "<b>x</b>", "1. item", "- item",
         "`code`", "**bold**", "[x] task", "![img](http://evil/x.png)", "[ref]: http://evil", "---",
         "@octocat look", "#123 fixed", "org/repo#45", "GH-67 again", "me@example.com"]


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


def test_markdown_mentions_nobody_and_references_no_issue(report):
    """A report posted as a GitHub comment: an @name in a benchmark name notifies nobody, a #123 (GH-123,
    owner/repo#123) links to no issue (GitHub would cross-reference it); the name still reads the same."""
    md = _render(report, "markdown")
    assert not re.search(r"@\w", md), "an @mention could form"
    assert not re.search(r"(?<!&)#\d|\bGH-\d", md, re.I), "an issue reference could form"
    assert "@&#8203;octocat look" in md and "#&#8203;123 fixed" in md and "org/repo#&#8203;45" in md
    assert "GH-&#8203;67 again" in md and "me@&#8203;example.com" in md


def test_html_shows_a_line_break_in_a_name_as_an_escape(report):
    pytest.importorskip("matplotlib")
    page = pr.registry.get_registry().renderer("html").render(report, plots=False)
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "fake\\n  evil" in page and "fake\n" not in page


def test_a_dollar_in_a_name_is_drawn_as_written_not_as_tex():
    """matplotlib reads "$...$" as TeX: a name "$\\foo$" crashed the HTML report (an internal error), and
    "price $5 vs $6" was drawn as math without its dollars."""
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(4)
    names = ["$\\foo$ bad", "price $5 vs $6"]
    suite = pr.Suite({name: {"old $\\bar$": rng.lognormal(0, 0.1, 20), "new": rng.lognormal(-0.1, 0.1, 20)}
                      for name in names})
    page = pr.pipeline("speedup-test").run(suite).render("html")
    plots = page.split("<svg", 1)[1]
    assert "price $5 vs $6" in plots and "$\\foo$ bad" in plots and "old $\\bar$" in plots


def test_the_speedup_test_tools_files_keep_a_name_on_its_line():
    """The plugin formats too: the .warning text put a name's line break into the file (a forged line)."""
    rng = np.random.default_rng(5)
    suite = pr.Suite({FORGED_ROW: {"old": rng.normal(10.0, 0.5, 12), "new": rng.normal(10.0, 0.5, 12)}})
    report = pr.pipeline("speedup-test").run(suite)
    warning = _render(report, "speedup-test-warning")
    assert "Benchmark fake\\n  evil" in warning and not any(line.lstrip().startswith("evil")
                                                            for line in warning.splitlines())


def test_the_command_line_lets_no_control_sequence_of_a_plugin_renderer_through(tmp_path, capsys):
    """Whatever a plugin's renderer writes, the command line shows control characters and bidirectional
    overrides from names as escapes (as the built-in formats do), on standard output and in -o files."""
    from perfrigor.cli import main

    data = tmp_path / "s.json"
    data.write_text('{"\\u001b[2Jwiped\\r\\u202eevil": {"old": [10, 11, 10.5, 10.2, 9.9, 10.1], '
                    '"new": [10, 11.1, 10.4, 10.3, 9.8, 10.1]}}')
    assert main(["run", "--pipeline", "speedup-test", str(data), "--format", "speedup-test-out"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\u202e" not in out and "\\x1b[2Jwiped\\x0d\\u202eevil" in out
    assert main(["run", "--pipeline", "speedup-test", str(data), "-f", "speedup-test-out", "-o",
                 str(tmp_path / "r.out")]) == 0
    assert "\x1b" not in (tmp_path / "r.out").read_text()
