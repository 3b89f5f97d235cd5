"""The report as a pull-request comment: the answer first, the whole within a size limit.

GitHub refuses a comment over 65,536 characters, and a suite of thousands of benchmarks drawn
whole runs to megabytes. So the Markdown report is laid out for a reviewer with ten seconds: the
suite's line, one row per benchmark that changed or is unclear (slower first), the unchanged in
one line and a folded table, the method details folded. :class:`Budget` hands the room out in
order of importance (every slower benchmark's row, else its name, before anything else); a
shortened list says how many it left out, and a closing note says what was left out and where the
whole report is. Long lists are built only as far as the room could hold, so a comment on 10⁵
benchmarks costs little more than one on 10³.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..results import OUTCOMES
from ._blocks import Block, Details, Heading, Item, Items, Para, Table
from ._layout import Options, head, layout, steps
from ._methods import (
    error_items,
    inputs_table,
    method_summary,
    step_sections,
    suite_sections,
    warning_blocks,
)
from ._verdicts import legend, only_in, reasons, suite_line, verdict_rows

Draw = Callable[[Sequence[Block]], str]
Make = Callable[[Sequence[Any]], list[Block]]


class Budget:
    """The characters left for a drawing, handed out piece by piece; it remembers what did not fit."""

    def __init__(self, draw: Draw, room: int) -> None:
        self.draw, self.room = draw, room
        self.left_out: list[str] = []

    @property
    def most(self) -> int:
        """The most rows or items the room left could hold (each draws as 20 characters or more):
        a long list need not be built further."""
        return max(self.room, 0) // 20 + 1

    def need(self, blocks: Sequence[Block]) -> list[Block]:
        """Blocks shown whatever their size (the header, the suite's line: a few hundred characters)."""
        self.room -= self.size(blocks)
        return list(blocks)

    def give_back(self, blocks: Sequence[Block]) -> None:
        """Return the room of blocks taken before (to take them again, grown)."""
        self.room += self.size(blocks)

    def fit(self, blocks: Sequence[Block], what: str, total: int | None = None, noun: str = "") -> list[Block]:
        """``blocks`` whole if they fit; else shortened (the first rows, items or sections that fit,
        and a line saying how many more ``noun`` there are); else nothing. ``what`` names them in
        the closing note; ``total``: how many units the whole has when ``blocks`` hold the first few."""
        if not blocks:
            return []
        make, units = shortened(blocks, total, noun)
        total = len(units) if total is None else total
        if total == len(units) and self.size(blocks) <= self.room:
            self.room -= self.size(blocks)
            return list(blocks)
        frame, costs = self.costs(make, units)
        k, used = 0, frame
        for cost in costs:
            used += cost
            if used > self.room:
                break
            k += 1
        while k > 0 and self.size(make(units[:k])) > self.room:
            k -= 1  # a line more than counted: drop units until it fits
        if k == 0:
            self.left_out.append(what)
            return []
        kept = make(units[:k])
        self.room -= self.size(kept)
        if k < total:
            self.left_out.append(f"{what} ({total - k:,} of {total:,})")
        return kept

    def costs(self, make: Make, units: Sequence[Any]) -> tuple[int, list[int]]:
        """What ``make`` draws around its units, and what each unit adds: sizes add up unit by unit
        (a table row, a list item is a line), so each unit is drawn once."""
        frame = self.size(make([]))
        return frame, [self.size(make([unit])) - frame for unit in units]

    def size(self, blocks: Sequence[Block]) -> int:
        """Characters the blocks take, with the blank line that separates them from the next."""
        return len(self.draw(blocks)) + 1


def shortened(blocks: Sequence[Block], total: int | None = None, noun: str = "") -> tuple[Make, Sequence[Any]]:
    """How to shorten ``blocks``: ``(make, units)``, ``make(units[:k])`` drawing the first k units.

    A table shortens by rows and a list by items when the blocks before it are only headings and
    lines; a ``<details>`` block by what it holds; anything else by whole blocks, a heading (or a
    line ending with ":") kept with the block under it. ``make`` adds a line saying how many of
    the ``total`` units (default: those in ``blocks``) are not shown.
    """
    if len(blocks) == 1 and isinstance(blocks[0], Details):
        box = blocks[0]
        inner, units = shortened(box.blocks, total, noun)
        return (lambda kept: [Details(box.summary, inner(kept), open=box.open)]), units
    *lead, last = blocks
    if all(isinstance(b, Heading | Para) for b in lead):
        if isinstance(last, Table):
            whole = total or len(last.rows)
            return (lambda rows: [*lead, Table(last.columns, rows), *_more(len(rows), whole, noun or "rows")]), \
                last.rows
        if isinstance(last, Items):
            whole = total or len(last.items)
            return (lambda items: [*lead, Items(items), *_more(len(items), whole, noun or "items")]), last.items
    units: list[list[Block]] = []
    for block in blocks:
        if units and _label(units[-1][-1]):
            units[-1].append(block)
        else:
            units.append([block])
    whole = total or len(units)
    return (lambda kept: [b for unit in kept for b in unit] + _more(len(kept), whole, noun or "parts")), units


def _label(block: Block) -> bool:
    """Whether a block names the block after it (a heading, "benchmark:")."""
    return isinstance(block, Heading) or (isinstance(block, Para) and block.text.endswith(":"))


def _more(shown: int, total: int, noun: str) -> list[Block]:
    """The line under a shortened list: how many are not shown."""
    return [Para(f"… and {total - shown:,} more {noun}, in the whole report.")] if shown < total else []


def comment(report, draw: Draw, limit: int | None, options: Options, full_report: str = "") -> list[Block]:
    """The report's blocks for a comment of at most ``limit`` characters once drawn (None or 0: no limit)."""
    budget = Budget(draw, limit or 1 << 62)
    budget.room -= budget.size(_note(["x" * 100] * 12, full_report, limit or 0))  # the note at its longest
    if report.verdicts:
        blocks = _with_verdicts(report, budget, options)
    else:  # a custom pipeline: the method view, section by section in reading order
        first, *rest = _sections(layout(report, options))
        blocks = budget.need(first) + [b for section in rest for b in budget.fit(section, _title(section))]
    return blocks + _note(budget.left_out, full_report, limit or 0)


def _sections(blocks: Sequence[Block]) -> list[list[Block]]:
    """Blocks cut before each heading below the title: a section is a heading and what follows it."""
    out: list[list[Block]] = [[]]
    for block in blocks:
        if isinstance(block, Heading) and block.level > 1 and out[-1]:
            out.append([])
        out[-1].append(block)
    return out


def _title(section: Sequence[Block]) -> str:
    """A section's name for the note: its heading (or its first line, cut)."""
    first = section[0]
    text = first.summary if isinstance(first, Details) else getattr(first, "text", "a section")
    return text if len(text) <= 60 else text[:59] + "…"


def _with_verdicts(report, budget: Budget, options: Options) -> list[Block]:
    """Room in order of importance: the header and the suite's line; the slower benchmarks' rows
    (else their names); the short lines; the other changed and unclear rows; the unchanged; the
    method details. Put back in reading order at the end."""
    verdicts = report.verdicts
    by_outcome: dict[str, list[str]] = {o: [] for o in OUTCOMES}
    for bench, verdict in verdicts.items():
        by_outcome[verdict.outcome].append(bench)
    same, slower = by_outcome["same"], by_outcome["slower"]
    shown = [*slower, *by_outcome["faster"], *by_outcome["unclear"], *(b for b in report.benchmarks if b not in verdicts)]
    changed = "the rows of changed and unclear benchmarks"

    top = budget.need([*head(report), *suite_line(report)[:1], Heading("Verdicts"),
                       _unchanged_line(len(same), len(report.benchmarks), {verdicts[b].threshold for b in same})])
    rows = _slower_rows(budget, report, slower)
    table = budget.fit([verdict_rows(report, slower[:rows])] if rows else [], changed, len(shown),
                       "changed or unclear benchmarks")
    named = sum(len(b.rows) for b in table if isinstance(b, Table))
    if named < len(slower):  # their rows did not all fit: every slower benchmark is still named
        table += budget.fit(_also_slower(slower[named:][:budget.most]), "the names of slower benchmarks",
                            len(slower) - named, "slower benchmarks")
    key = budget.fit([legend(report)] if shown else [], "the legend of the table")
    left = budget.fit(only_in(report), "the benchmarks not compared")
    errors = error_items(report).items
    errors = budget.fit([Details(f"Not run ({len(errors):,})", [Items(errors[:budget.most])])]
                        if errors else [], "the steps that could not run", len(errors), "failures")
    tail = budget.fit(steps(report, options), "the steps")
    if named == len(slower) and len(shown) > named:  # room for the faster and unclear rows too
        budget.give_back(table)
        budget.left_out = [w for w in budget.left_out if not w.startswith(changed)]
        table = budget.fit([verdict_rows(report, shown[:max(budget.most, named)])], changed, len(shown),
                           "changed or unclear benchmarks")
    unchanged = [Details(f"Unchanged ({len(same):,})", [verdict_rows(report, same[:budget.most])])] if same else []
    unchanged = budget.fit(unchanged, "the rows of unchanged benchmarks", len(same), "unchanged benchmarks")
    why = reasons(_first(report, [*shown, *same][:budget.most]))
    why = budget.fit([Details("Reasons, per benchmark", why)] if why else [], "the reasons per benchmark",
                     len(verdicts), "benchmarks' reasons")
    methods = budget.fit(_methods(report), "what each method says")
    warnings = warning_blocks(report)  # a line naming the benchmark, then its warnings: two blocks each
    warnings = budget.fit([Details(f"Warnings ({len(report.analysis_warnings):,})", warnings[:2 * budget.most])]
                          if warnings else [], "the warnings", len(warnings) // 2, "benchmarks' warnings")
    inputs = inputs_table(_first(report, [*shown, *same][:budget.most]))
    inputs = budget.fit([Details("Inputs", [inputs])], "the inputs", len(report.inputs), "benchmarks' inputs")
    if len(report.benchmarks) * len(report.steps) < budget.most:
        results = step_sections(report, level=3)
        results = budget.fit([Details("Results of each step", results)] if results else [], "the results of each step")
    else:  # a row per benchmark and step cannot fit: not even drawn
        results = []
        budget.left_out.append("the results of each step")
    *lead, verdicts_heading, unchanged_line = top
    return [*lead, *left, verdicts_heading, *table, *key, unchanged_line, *unchanged, *errors, *why, *methods,
            *warnings, *inputs, *results, *tail]


def _slower_rows(budget: Budget, report, slower: Sequence[str]) -> int:
    """How many slower benchmarks get a row: all if they fit; else as many as leave room to name the
    others (a name takes a third of a row's room); none if not even the names fit."""
    most = list(slower[:budget.most])
    row_frame, rows = budget.costs(*shortened([verdict_rows(report, most)]))
    if len(most) == len(slower) and row_frame + sum(rows) <= budget.room:
        return len(slower)
    name_frame, names = budget.costs(_also_slower, most)
    k, used = 0, name_frame + sum(names)
    while k < len(most):  # one more row, one name fewer
        step = rows[k] - names[k] + (row_frame if k == 0 else 0)
        if used + step > budget.room:
            break
        used, k = used + step, k + 1
    return k


def _also_slower(names: Sequence[str]) -> list[Block]:
    return [Para("Also slower (their rows did not fit):"), Items([Item(b) for b in names])]


def _first(report, benches: Sequence[str]):
    """The report of ``benches`` only, in that order: for the sections of which only the first can fit."""
    return attrs.evolve(report, benchmark_results={b: report.benchmark_results[b] for b in benches},
                        inputs={b: report.inputs[b] for b in benches if b in report.inputs})


def _unchanged_line(same: int, total: int, thresholds: set[float]) -> Para:
    """One line for the benchmarks whose verdict is "same" (their rows are folded below it)."""
    within = f" within ±{min(thresholds):.1%}" if len(thresholds) == 1 else ""
    if not same:
        return Para(f"Unchanged: none of the {total:,} benchmarks.")
    if same == total:
        return Para(f"Unchanged: all {total:,} benchmarks, the same{within}.")
    return Para(f"Unchanged: {same:,} of the {total:,} benchmarks, the same{within}.")


def _methods(report) -> list[Block]:
    """What each method says: the suite verdict's reasons, one line per comparison step, the suite results."""
    blocks = [*suite_line(report)[1:], *method_summary(report)[1:], *suite_sections(report)]
    return [Details("What each method says", blocks)] if blocks else []


def _note(left_out: Sequence[str], full_report: str, limit: int) -> list[Block]:
    """What was left out to fit, and where the whole report is."""
    if not left_out:
        return []
    where = (f"The whole report: {full_report}." if full_report else
             "For the whole report, render it as HTML or JSON, or as Markdown without a limit (--max-chars 0).")
    return [Para(f"Left out to fit {limit:,} characters (a pull-request comment): {'; '.join(left_out)}. {where}")]
