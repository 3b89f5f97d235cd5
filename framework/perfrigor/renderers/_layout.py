"""A report laid out once, in reading order, as format-neutral blocks.

With verdicts (the ``verdict`` step ran) the answer comes first: the verdict table, the
suite's line (before the table when a long suite's table fills more than a screen), what
was not compared; then (in formats that draw) the plots; then the
method details, each in a group a reader opens on demand: the reasons per benchmark,
what each method says, warnings, steps that could not run, the inputs, every step's
results; the steps' parameters last, and only in the verbose report.

Without verdicts (a custom pipeline): the methods' summary, the inputs, each step's
results, the suite results, warnings and errors, in that order.
"""

from __future__ import annotations

import attrs

from ._blocks import Block, Details, Heading, Para
from ._methods import (
    error_items,
    inputs_table,
    method_summary,
    step_sections,
    steps_line,
    steps_list,
    suite_sections,
    warning_blocks,
)
from ._verdicts import only_in, reasons, suite_line, verdict_table


@attrs.frozen
class Options:
    """How much a report shows.

    ``verbose``: the steps' parameters too. ``figures``: plots (set by the formats that
    show pictures; the HTML renderer's ``plots=False`` turns them off). ``max_plots``: how
    many benchmarks get plots (the changed and unclear ones first).
    """

    verbose: bool = False
    figures: bool = False
    max_plots: int = 60


def layout(report, options: Options | None = None) -> list[Block]:
    """The report as blocks, in reading order."""
    options = options or Options()
    blocks: list[Block] = head(report)
    if report.verdicts:
        blocks += _with_verdicts(report, options)
    else:
        blocks += _without_verdicts(report, options)
    return blocks + steps(report, options)


def head(report) -> list[Block]:
    """The title and the line naming the systems, the number of benchmarks and the source."""
    return [Heading(f"perfrigor report: pipeline {report.pipeline}", 1), Para(_header(report))]


def steps(report, options: Options) -> list[Block]:
    """The steps: one line, or (verbose) each with its parameters."""
    if options.verbose:
        return [Heading("Steps"), *steps_list(report, verbose=True)]
    return [steps_line(report)] if report.steps else []


def _header(report) -> str:
    who = report.baseline if report.candidate is None else f"baseline {report.baseline}, candidate {report.candidate}"
    head = [f"Systems: {who}.", f"Benchmarks: {len(report.benchmarks)}."]
    if report.source:
        head.append(f"Source: {report.source}.")
    return " ".join(head)


#: a suite with more benchmarks than this leads with its line (and, in HTML, the forest plot):
#: its verdict table no longer fits a screen
LONG_SUITE = 40


def _overview(report, options: Options) -> list[Block]:
    if not options.figures:
        return []
    # imported here, not at the top: the figure modules cost ~15 ms of every start-up (perfrigor
    # list, --help) and of every text or JSON report, which draw nothing
    from ._figures import overview_figures

    return overview_figures(report)


def _benchmark_plots(report, options: Options) -> list[Block]:
    if not options.figures:
        return []
    from ._figures import benchmark_figures  # not at the top: start-up (see _overview)

    return benchmark_figures(report, options.max_plots)


def _figures(report, options: Options) -> list[Block]:
    return _overview(report, options) + _benchmark_plots(report, options)


def _with_verdicts(report, options: Options) -> list[Block]:
    if len(report.benchmarks) > LONG_SUITE:
        blocks: list[Block] = [*suite_line(report), *_overview(report, options), *verdict_table(report)]
    else:
        blocks = [*verdict_table(report), *suite_line(report), *_overview(report, options)]
    blocks += only_in(report)
    blocks += _benchmark_plots(report, options)
    blocks.append(Details("Reasons, per benchmark", reasons(report)))
    summary = method_summary(report)[1:]  # its items, without its heading
    suite = suite_sections(report)
    if summary or suite:
        blocks.append(Details("What each method says", [*summary, *suite]))
    warnings = warning_blocks(report)
    if warnings:
        count = len(report.analysis_warnings)
        blocks.append(Details(f"Warnings ({count})", warnings))
    if report.errors:
        blocks.append(Details(f"Not run ({len(report.errors)})", [error_items(report)], open=True))
    blocks.append(Details("Inputs", [inputs_table(report)]))
    steps = step_sections(report, level=3)
    if steps:
        blocks.append(Details("Results of each step", steps))
    return blocks


def _without_verdicts(report, options: Options) -> list[Block]:
    blocks: list[Block] = [*method_summary(report), *only_in(report)]
    blocks += _figures(report, options)
    blocks += [Heading("Inputs"), inputs_table(report)]
    blocks += step_sections(report, level=2)
    suite = suite_sections(report)
    if suite:
        blocks += [Heading("Suite results"), *suite]
    warnings = warning_blocks(report)
    if warnings:
        blocks += [Heading("Warnings"), *warnings]
    if report.errors:
        blocks += [Heading("Not run"), error_items(report)]
    return blocks
