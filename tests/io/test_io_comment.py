"""The Markdown report fits a pull-request comment whatever the size of the suite (issue 25, item 1).

GitHub refuses comments over 65,536 characters; ``--format markdown`` stays within 60,000 by default:
the changed and unclear benchmarks first (every slower one named), the unchanged in one line and a
folded table, the details folded, and a note saying what was left out.
"""

from __future__ import annotations

import re

import perfrigor as pr
import pytest
from perfrigor.renderers._blocks import Item, Items, Para
from perfrigor.renderers._comment import Budget, shortened
from perfrigor.renderers.markdown import MarkdownRenderer
from synthetic import name, verdict_report

LIMIT = 60_000


@pytest.fixture(scope="module")
def big():
    """10,000 benchmarks: 200 slower, 200 faster, 400 unclear, 9,200 same (built without a pipeline)."""
    with pr.registry.temporary(allow=["core"]):
        yield verdict_report(10_000)


def _table_names(md: str) -> list[str]:
    return [row.split(" | ")[0].removeprefix("| ").replace("\\_", "_") for row in md.splitlines()
            if row.startswith("| github.com/")]


def test_ten_thousand_benchmarks_fit_a_comment_and_name_every_slower_one(big):
    md = big.render("markdown")
    assert len(md) <= LIMIT
    slower = [b for b, v in big.verdicts.items() if v.outcome == "slower"]
    assert len(slower) == 200
    for bench in slower:
        assert bench.replace("_", "\\_") in md or bench in _table_names(md), bench
    rows = _table_names(md)
    assert rows[:200] == slower  # their rows first, in the suite's order
    assert "Unchanged: 9,200 of the 10,000 benchmarks, the same within ±1.0%." in md
    note = md.rstrip().splitlines()[-1]
    assert note.startswith("Left out to fit 60,000 characters (a pull-request comment): ")
    assert "For the whole report, render it as HTML or JSON" in note
    assert md.count("<details") == md.count("</details>")


def test_without_the_limit_it_would_not_fit():
    """The test above can fail: drawn whole, a fifth of that suite is already ten comments long."""
    with pr.registry.temporary(allow=["core"]):
        assert len(verdict_report(2_000).render("markdown", max_chars=0)) > 10 * LIMIT


@pytest.mark.parametrize("limit", [5_000, 12_345, 30_000, 60_000, 200_000])
def test_any_limit_is_kept(big, limit):
    md = big.render("markdown", max_chars=limit, full_report="https://example.org/run/1")
    assert len(md) <= limit
    assert md.rstrip().endswith("The whole report: https://example.org/run/1.")


def test_when_the_slower_rows_do_not_fit_the_others_are_named():
    with pr.registry.temporary(allow=["core"]):
        report = verdict_report(1_200, outcome=lambda i: "slower" if i % 2 else "same")
        md = report.render("markdown")
    assert len(md) <= LIMIT
    slower = [name(i) for i in range(1_200) if i % 2]
    shown = _table_names(md)
    listed = [line[2:].replace("\\_", "_") for line in md.splitlines() if line.startswith("- github.com/")]
    assert len(shown) > 100 and len(listed) > 100
    assert "Also slower (their rows did not fit):" in md
    assert shown + listed == slower  # 600 slower benchmarks: every one named, as many as can with its row
    assert "the rows of unchanged benchmarks" in md.splitlines()[-1]


def test_a_suite_too_large_to_name_says_how_many_are_left_out():
    with pr.registry.temporary(allow=["core"]):
        md = verdict_report(10_000, outcome=lambda i: "slower").render("markdown")
    assert len(md) <= LIMIT
    more = re.search(r"… and ([\d,]+) more slower benchmarks, in the whole report\.", md)
    listed = sum(1 for line in md.splitlines() if line.startswith("- github.com/"))
    assert more and len(_table_names(md)) + listed + int(more.group(1).replace(",", "")) == 10_000
    assert "the names of slower benchmarks (" in md.splitlines()[-1]


def test_a_small_suite_is_whole_with_its_unchanged_folded():
    with pr.registry.temporary(allow=["core"]):
        report = verdict_report(60, errors=2)
        md = report.render("markdown")
    assert "Left out" not in md and len(md) == len(report.render("markdown", max_chars=0))
    lines = md.splitlines()
    head = lines.index("## Verdicts")
    assert lines[head + 2].startswith("| benchmark | baseline (ms) | candidate (ms) | change [95% CI] | verdict |")
    rows = lines[head + 4:lines.index("", head + 4)]
    verdicts = [row.split(" | ")[4] for row in rows]
    assert verdicts == ["**slower**", "**slower**", "faster", "faster", "unclear", "unclear", "unclear", "unclear",
                        "-", "-"]
    assert "no verdict: too few runs" in md  # the 2 benchmarks without a verdict keep their row
    assert "Unchanged: 50 of the 60 benchmarks, the same within ±1.0%." in md
    assert md.index("<details><summary>Unchanged (50)</summary>") < md.index("Reasons, per benchmark")
    assert md.index("Reasons, per benchmark") < md.index("What each method says") < md.index("<summary>Inputs")


def test_every_benchmark_the_same_needs_no_table():
    with pr.registry.temporary(allow=["core"]):
        md = verdict_report(30, outcome=lambda i: "same").render("markdown")
    lines = md.splitlines()
    assert lines[lines.index("## Verdicts") + 2] == "Unchanged: all 30 benchmarks, the same within ±1.0%."
    assert "<details><summary>Unchanged (30)</summary>" in md


def test_without_verdicts_sections_are_kept_in_reading_order(toy):
    from perfrigor import examples

    report = pr.pipeline("toy").run(examples.path("suite") / "suite.csv")
    whole = report.render("markdown", max_chars=0)
    assert "Left out" not in whole
    md = report.render("markdown", max_chars=5_000)
    assert len(md) <= 5_000 < len(whole)
    assert md.startswith("# perfrigor report: pipeline toy") and "## Summary" in md
    assert md.rstrip().splitlines()[-1].startswith("Left out to fit 5,000 characters")


def test_the_limit_is_checked():
    renderer = MarkdownRenderer()
    for bad in (-1, 100, 4_999, 1.5e4, True):
        with pytest.raises(pr.ConfigError, match="max_chars must be 0 .no limit. or at least 5,000"):
            renderer.render(None, max_chars=bad)


def test_a_budget_shortens_a_list_and_says_so():
    renderer = MarkdownRenderer()
    items = [Para("Benchmarks:"), Items([Item(f"benchmark {i}") for i in range(100)])]
    budget = Budget(renderer.draw, 400)
    kept = budget.fit(items, "the benchmarks")
    text = renderer.draw(kept)
    assert len(text) + 1 <= 400 and budget.room >= 0
    shown = text.count("- benchmark ")
    assert 10 < shown < 100 and f"… and {100 - shown} more items, in the whole report." in text
    assert budget.left_out == [f"the benchmarks ({100 - shown} of 100)"]
    make, units = shortened(items)
    assert renderer.draw(make(units[:3])).count("- benchmark ") == 3


def test_a_saved_report_renders_the_same_comment():
    """``perfrigor render REPORT.json --format markdown``: the saved report alone makes the same comment."""
    with pr.registry.temporary(allow=["core"]):
        report = verdict_report(3_000, errors=5)
        again = pr.Report.from_dict(report.to_dict())
        assert again.render("markdown", max_chars=20_000) == report.render("markdown", max_chars=20_000)
