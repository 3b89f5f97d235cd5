"""Which plots a report gets, in what order, as Figure blocks (drawn only when a format shows them).

- The overview: a forest plot of every benchmark's speedup and interval, coloured by
  outcome, with the suite's geometric mean (from the verdicts; without verdicts, from the
  first two-sided speedup comparison that gives intervals). Over many benchmarks the open
  plot shows the changed and unclear ones, all of them in a group opened on demand.
- Per benchmark: the systems' distributions side by side, with what each system's
  results add through the drawing protocol (``perfrigor.drawing``); the run order where
  the verdict noticed dependence or a trend (or a result offers a run-order curve); the
  variance per level where a result offers it. Changed and unclear benchmarks come first
  and open; the others are folded, drawn on demand.

The core recognises the Verdict, SuiteVerdict and Comparison types; anything else is
drawn only through ``plot_layers``. The plot modules are imported here at the top: they are
light (``perfrigor.plots`` imports matplotlib only inside the functions that draw).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import hierarchy
from ..display import change, percent
from ..drawing import RUN_ORDER_TYPES, LevelVariances, RunOrderMarks, layers, plotted, plotted_runs
from ..errors import DataError
from ..keys import PairKey
from ..plots import svg
from ..plots.distributions import Side, distributions
from ..plots.forest import Row, forest
from ..plots.levels import level_variances
from ..plots.run_order import Series, run_order
from ..plots.style import SYSTEM_COLOURS
from ..results import Comparison, Verdict
from ..textsafe import shortened
from ._blocks import Block, Details, Figure, Heading, Para
from ._outcome import estimate_kind, is_one_sided, outcome
from ._verdicts import change_text, direction, flags_of

#: forest rows drawn open; more benchmarks than this get a folded full forest as well
FOREST_ROWS = 60
#: benchmark plot groups drawn open (the changed and unclear ones first)
OPEN_PLOTS = 24
#: a benchmark name in a plot's title is cut in the middle beyond this (the group's heading has it whole)
TITLE_CHARS = 60
#: outcomes whose plots open first
NOTEWORTHY = ("slower", "faster", "unclear")
_TIME_FLAGS = ("dependence", "trend")


def _svg(make: Callable[[], Any], key: str) -> Callable[[], str]:
    def draw() -> str:
        fig = make()
        return svg(fig, prefix=f"{key}-")

    return draw


# ---------------------------------------------------------------- overview


def _rows(report) -> tuple[list[Any], Any, float, str]:
    """Forest rows (plots.forest.Row), the suite row, the threshold, and what the rows come from."""
    rows = []
    verdicts = report.verdicts
    if verdicts:
        for bench, v in verdicts.items():
            if v.speedup is None or not math.isfinite(v.speedup) or v.speedup <= 0:
                continue
            rows.append(Row(bench, v.speedup, v.ci_low, v.ci_high, v.outcome,
                            change_text(v, direction(report, bench)[0])))
        sv = report.suite_verdict
        suite = None
        if sv is not None and sv.speedup is not None:
            lowers = {direction(report, b)[0] for b in report.benchmarks}
            note = ""
            if len(lowers) == 1:
                note = percent(change(sv.speedup, lowers.pop()))
            suite = Row("geometric mean", sv.speedup, sv.ci_low, sv.ci_high, "suite", note)
        thresholds = [v.threshold for v in verdicts.values() if v.threshold]
        return rows, suite, (max(thresholds) if thresholds else 0.0), "verdicts"
    pair = PairKey(report.baseline, report.candidate) if report.candidate else None
    for step in report.steps:
        if estimate_kind(step) != "speedup" or is_one_sided(step):
            continue
        found = [(b, steps.get(step.id, {}).get(pair)) for b, steps in report.benchmark_results.items()]
        found = [(b, r) for b, r in found if isinstance(r, Comparison) and r.estimate and r.ci_low is not None]
        if not found:
            continue
        for b, r in found:
            o = outcome(r) or "unclear"
            note = percent(change(r.estimate, direction(report, b)[0]))
            rows.append(Row(b, r.estimate, r.ci_low, r.ci_high, o, note))
        return rows, None, 0.0, step.id
    return [], None, 0.0, ""


def _note_label(report, source: str) -> str:
    """What the notes beside the forest's rows are: the metric's change (the verdict table's column), not
    the axis' speedup."""
    lowers = {direction(report, b)[0] for b in report.benchmarks}
    what = "time change" if lowers == {True} else "change" if len(lowers) > 1 else "metric change"
    if source != "verdicts":
        return what
    levels = {v.confidence for v in report.verdicts.values() if v.confidence is not None}
    return f"{what} [{levels.pop():.0%} CI]" if len(levels) == 1 else f"{what} [CI]"


def overview_figures(report) -> list[Block]:
    """The forest plot (two when there are many benchmarks: the noteworthy ones open, all folded)."""
    rows, suite, threshold, source = _rows(report)
    if not rows:
        return []
    what = "verdict" if source == "verdicts" else f"{source}'s estimate"
    alt = (f"Forest plot: the speedup of each of {len(rows)} benchmarks with its interval ({what}), coloured by "
           "outcome, sorted from the largest gain to the largest loss" + (", and the suite's geometric mean"
                                                                          if suite is not None else ""))
    blocks: list[Block] = [Heading("Speedups")]
    label = _note_label(report, source)
    if len(rows) <= FOREST_ROWS:
        blocks.append(Figure(_svg(lambda: forest(rows, suite, threshold, note_label=label), "forest"), alt, "forest"))
        return blocks
    shown = [r for r in rows if r.outcome in NOTEWORTHY]
    shown = sorted(shown, key=lambda r: -abs(math.log(r.speedup)))[:FOREST_ROWS]
    blocks.append(Para(f"The {len(shown)} benchmarks that changed or are unclear"
                       + (" (the largest changes)" if len(shown) == FOREST_ROWS else "")
                       + f"; all {len(rows)} below."))
    if shown:
        blocks.append(Figure(_svg(lambda: forest(shown, suite, threshold, note_label=label), "forest"), alt,
                             "forest"))
    blocks.append(Details(f"All {len(rows)} benchmarks", [
        Figure(_svg(lambda: forest(rows, suite, threshold, note_label=label), "forest-all"), alt, "forest-all")]))
    return blocks


# ---------------------------------------------------------------- per benchmark


def _order(report) -> list[tuple[str, Verdict | None]]:
    """Benchmarks with data for two systems: noteworthy first (largest change first), then the rest."""
    data = report.data
    verdicts = report.verdicts
    benches = [b for b in report.benchmarks if data is not None and b in data.data and data.data[b]]

    def rank(b: str) -> tuple[int, float]:
        v = verdicts.get(b)
        if v is None:
            return (1, 0.0)
        size = abs(math.log(v.speedup)) if v.speedup and v.speedup > 0 else 0.0
        return (0 if v.outcome in NOTEWORTHY else 1, -size)

    return [(b, verdicts.get(b)) for b in sorted(benches, key=rank)]


def _systems(report, bench: str) -> list[tuple[str, Any]]:
    systems = report.data.data[bench]
    first = [s for s in (report.baseline, report.candidate) if s and s in systems]
    if report.candidate is not None:
        return [(s, systems[s]) for s in first]
    return [(s, systems[s]) for s in first] + [(s, x) for s, x in systems.items() if s not in first]


def _layers(report, bench: str, system: str, sample: Any) -> list[Any]:
    found = []
    for step in report.steps:
        res = report.benchmark_results.get(bench, {}).get(step.id, {}).get(system)
        if res is not None:
            found += layers(res, sample)
    return found


def _title(bench: str, v: Verdict | None, lower: bool) -> str:
    if v is None:
        return bench
    return f"{bench}: {v.outcome}" + (f", {change_text(v, lower)}" if v.speedup is not None else "")


def benchmark_figures(report, max_plots: int = 60) -> list[Block]:
    """Per benchmark, a folded group of plots; the noteworthy ones open.

    At most ``max_plots`` benchmarks get plots (noteworthy first): drawing costs about a
    tenth of a second each, and a page of 500 plot groups helps nobody; the others are
    named, with how to draw them.
    """
    order = _order(report)
    if not order:
        return []
    groups: list[Block] = []
    opened = 0
    for i, (bench, v) in enumerate(order[:max_plots]):
        figs = _benchmark_plots(report, bench, v, f"b{i}")
        is_open = (v is None or v.outcome in NOTEWORTHY) and opened < OPEN_PLOTS
        opened += is_open
        groups.append(Details(_title(bench, v, direction(report, bench)[0]), figs, open=is_open))
    head: list[Block] = [Heading("Benchmarks")]
    folded = len(groups) - opened
    if folded:
        head.append(Para(f"{opened} plot group(s) open (changed or unclear benchmarks first); "
                         f"{folded} folded: open them to see their plots."))
    undrawn = [b for b, _ in order[max_plots:]]
    if undrawn:
        groups.append(Details(f"{len(undrawn)} more benchmark(s), not drawn", [Para(
            f"Plots are drawn for {max_plots} benchmarks, the changed and unclear ones first; render with "
            f"max_plots={len(order)} (command line: --max-plots {len(order)}) to draw every one. Not drawn: "
            + ", ".join(undrawn) + ".")]))
    return head + groups


def _benchmark_plots(report, bench: str, v: Verdict | None, key: str) -> list[Block]:
    """One benchmark's plots: distributions always; run order and levels where there is reason to.

    A sample of more than ``PLOTTED_VALUES`` values is drawn from its fixed subsample
    (``perfrigor.drawing.plotted``; a saved report keeps just that), its runs at their place in
    the order measured; the captions say how many of how many are drawn.
    """
    unit = direction(report, bench)[1]
    systems = _systems(report, bench)
    role = {report.baseline: "baseline", report.candidate: "candidate"}
    sides, series, levels, thinned = [], [], [], []
    for j, (system, sample) in enumerate(systems):
        colour = SYSTEM_COLOURS[j % len(SYSTEM_COLOURS)]
        extra = _layers(report, bench, system, sample)
        shape = _measured_shape(report, bench, system, sample)  # (a saved report holds the drawn values only)
        drawn, runs = plotted(sample), plotted_runs(shape)
        if drawn.flat.size < math.prod(shape):
            thinned.append(f"{drawn.flat.size:,} of the {math.prod(shape):,} runs of {system}")
        name = shortened(system, TITLE_CHARS // 2)  # a file's path as a system's name: the axis keeps its room
        label = f"{name} ({role[system]})" if system in role and report.candidate else name
        central, central_label = _compared(v, role.get(system))
        sides.append(Side(label, drawn.flat, colour, extra, central, central_label))
        per_unit = math.prod(shape[1:]) if len(shape) > 1 else 0
        series.append(Series(label, drawn.flat, colour, per_unit, extra, runs))
        offered = [layer for layer in extra if isinstance(layer, LevelVariances)]
        levels += [(label, colour, layer) for layer in offered or _level_variances(drawn)]
    names = ", ".join(s for s, _ in systems)
    drawn_note = f" (drawn: {', '.join(thinned)})" if thinned else ""
    figs: list[Block] = [Figure(
        _svg(lambda: distributions(sides, unit), f"{key}-dist"),
        f"{bench}: the measurements of {names} side by side"
        + (", with fitted densities" if any(s.layers for s in sides) else "") + drawn_note, f"{key}-dist")]
    flags = flags_of(v) if v is not None else []
    if any(f in flags for f in _TIME_FLAGS) or any(isinstance(x, RUN_ORDER_TYPES) for s in sides for x in s.layers):
        why = ", ".join(f for f in flags if f in _TIME_FLAGS) or _run_order_why(sides)
        figs.append(Figure(_svg(lambda: run_order(series, unit, f"{shortened(bench, TITLE_CHARS)}: in run order ({why})"),
                                f"{key}-runs"),
                           f"{bench}: the measurements in the order they were taken ({why}){drawn_note}",
                           f"{key}-runs"))
    if thinned:
        figs.append(Para(f"Drawn: a fixed subsample, {', '.join(thinned)}, each where it was measured; the "
                         "results come from every run."))
    if levels:
        figs.append(Figure(_svg(lambda: level_variances(levels, unit, f"{shortened(bench, TITLE_CHARS)}: variance per level"),
                                f"{key}-levels"),
                           f"{bench}: each level's share of the variance", f"{key}-levels"))
    return figs


def _measured_shape(report, bench: str, system: str, sample: Any) -> tuple[int, ...]:
    """The shape of the sample as measured (the report's input summary), of which ``sample`` may be
    the drawn subsample only (a saved report)."""
    summary = report.inputs.get(bench, {}).get(system) if isinstance(report.inputs, dict) else None
    shape = summary.get("shape") if isinstance(summary, dict) else None
    return tuple(int(s) for s in shape) if shape else tuple(sample.shape)


def _run_order_why(sides: list[Side]) -> str:
    """What the results draw over run order, for the plot's title (their curves' and ranges' labels)."""
    labels = dict.fromkeys(x.label for s in sides for x in s.layers if isinstance(x, RUN_ORDER_TYPES)
                           and not isinstance(x, RunOrderMarks))
    return ", ".join(labels) or "run-order curves"


def _level_variances(sample: Any) -> list[LevelVariances]:
    """A hierarchical sample's variance per level when no result offers it: the core's
    ``hierarchy.variance_components`` (a data summary, like the quartiles of the box)."""
    if sample.n_levels < 2:
        return []
    try:
        t2 = hierarchy.variance_components(np.asarray(sample, dtype=float))
    except DataError:  # a level with one unit per parent has no variance to show
        return []
    return [LevelVariances(tuple(sample.levels), tuple(t2[::-1]), "variance per level")]


def _compared(v: Verdict | None, role: str | None) -> tuple[float | None, str]:
    """The value a side was compared on (``Verdict.details[role]``) and its label, if the verdict says."""
    if v is None or role is None or not hasattr(v.details, "get"):
        return None, ""
    value = v.details.get(role)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value), f"{v.details.get('statistic', 'value')} compared"
    return None, ""
