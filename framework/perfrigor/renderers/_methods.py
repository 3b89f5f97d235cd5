"""The method details of a report: what each step concluded, its results, the inputs, warnings.

Generic over result types: it uses ``describe()``, the Comparison / TestResult / Estimate
fields, and ``to_dict()`` for anything else. Measurements (the inputs table) are shown in
human units; the results' own numbers as their ``describe()`` and key numbers give them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..keys import PairKey
from ..results import Comparison, Estimate, Result, SuiteSummary, TestResult
from ._blocks import Block, Cell, Column, Heading, Item, Items, Para, Table, plain_table
from ._format import fmt, key_numbers, listed, row_cells, unit_columns
from ._outcome import NO_CHANGE, SPLIT, estimate_kind, is_one_sided, outcome


def method_summary(report, title: str = "Summary") -> list[Block]:
    """One line per comparison step: what it concluded (counts over a suite)."""
    pair = PairKey(report.baseline, report.candidate) if report.candidate else None
    lines = []
    for step in report.steps:
        kind, sided = estimate_kind(step), is_one_sided(step)
        found = [(b, res) for b, steps in report.benchmark_results.items()
                 for key, res in steps.get(step.id, {}).items() if key == pair and isinstance(res, Comparison)]
        if found and len(report.benchmarks) == 1:
            lines.append(f"{step.id}: {found[0][1].describe()}")
        elif found and kind in NO_CHANGE and all(outcome(r, kind, sided) == "unclear" for _, r in found):
            # methods that draw no conclusion (I1, I2): where their estimates lie, not "14 unclear"
            values = np.array([r.estimate for _, r in found if r.estimate is not None], dtype=float)
            if values.size:
                limit = NO_CHANGE[kind]
                what = {"probability": "P(a candidate run is faster)", "speedup": "speedup"}.get(kind, "gain")
                lines.append(f"{step.id}: {len(found)} benchmarks: {what} above {SPLIT[kind]} on "
                             f"{int((values > limit).sum())}, below on {int((values < limit).sum())} "
                             f"(median {np.median(values):.3g}, range {values.min():.3g} to {values.max():.3g})")
        elif found:
            counts: dict[str, list[str]] = {}
            for b, res in found:
                counts.setdefault(outcome(res, kind, sided) or "unclear", []).append(b)
            parts = [f"{len(counts[o])} {o}" for o in ("faster", "slower", "no change", "not faster", "unclear")
                     if o in counts]
            slow = f" (slower: {listed(counts['slower'])})" if "slower" in counts else ""
            lines.append(f"{step.id}: {len(found)} benchmarks: {', '.join(parts)}{slow}")
        suite_res = report.suite_results.get(step.id)
        if isinstance(suite_res, Comparison):
            lines.append(f"{step.id} (suite): {suite_res.describe()}")
    return [Heading(title), Items([Item(line) for line in lines])] if lines else []


def _step_title(step) -> str:
    return step.id if step.id == step.component else f"{step.id} ({step.component})"


def _step_table(per_bench: Mapping[str, Mapping[str, Result]], kind: str, one_sided: bool = False) -> Table:
    """One row per benchmark (and key); columns nobody fills are left out."""
    keys = {k for results in per_bench.values() for k in results}
    show_key = len(keys) > 1
    rows: list[list[Cell]] = []
    comparisons = False
    for bench, results in per_bench.items():
        for key, res in results.items():
            comparisons |= isinstance(res, Comparison)
            *numbers, significant, verdict = row_cells(res)
            tone = outcome(res, kind, one_sided) or ""
            rows.append([Cell(bench), *([Cell(str(key))] if show_key else []), *map(Cell, numbers),
                         Cell(significant, tone if tone in ("faster", "slower") else ""), Cell(verdict)])
    headers = ["benchmark", *(["for"] if show_key else []), "estimate", "CI", "p-value", "significant",
               "verdict" if comparisons else "summary"]
    first = 2 if show_key else 1
    keep = [i for i in range(len(headers))
            if i < first or i == len(headers) - 1 or any(r[i].text != "-" for r in rows)]
    return Table([Column(headers[i]) for i in keep], [[r[i] for i in keep] for r in rows])


def _suite_result(step, res: Result) -> list[Block]:
    """A suite-level result: a step's SuiteSummary (title, text, values) or a suite comparator's."""
    where = _step_title(step)
    if isinstance(res, SuiteSummary):
        one_line = res.text and "\n" not in res.text
        out: list[Block] = [Para(f"{where}: {res.title}" + (f". {res.text}" if one_line else ""))]
        if res.text and not one_line:
            out.append(Items([Item(ln) for ln in res.text.splitlines() if ln.strip()]))
    else:
        out = [Para(f"{where}: {res.describe()}")]
    nums = [(k, v) for k, v in key_numbers(res) if v != "-"]
    if nums:
        out.append(plain_table(["quantity", "value"], [[k, v] for k, v in nums]))
    return out


def inputs_table(report) -> Table:
    """One row per benchmark and system: size, shape, levels, and mean/median/sd in human units."""
    meta_rows, values, units = [], [], []
    for bench, systems in report.inputs.items():
        for system, s in systems.items():
            meta = s.get("metadata") or {}
            note = ", ".join(f"{k}: {fmt(v)}" for k, v in meta.items() if k != "format")
            # a reader that guessed the direction says how ("direction" in the notes); else say it is higher
            higher = "" if s.get("lower_is_better", True) or "direction" in meta else "higher is better"
            meta_rows.append(([bench, system, str(s.get("n")), "x".join(str(d) for d in s.get("shape", [])),
                               ", ".join(s.get("levels", []))], "; ".join(x for x in (higher, note) if x) or "-"))
            values.append([s.get("mean"), s.get("median"), s.get("sd")])
            units.append(s.get("unit", ""))
    texts, label = unit_columns(values, units)
    suffix = f" ({label})" if label else ""
    rows = [[*head, *cells, note] for (head, note), cells in zip(meta_rows, texts, strict=True)]
    headers = ["benchmark", "system", "n", "shape", "levels", f"mean{suffix}", f"median{suffix}", f"sd{suffix}",
               "notes"]
    return plain_table(headers, rows, numeric=[False, False, True, False, False, True, True, True, False])


def step_sections(report, level: int = 2) -> list[Block]:
    """One section per per-benchmark step: its results (one benchmark) or a table (a suite)."""
    blocks: list[Block] = []
    single = len(report.benchmarks) == 1
    for step in report.steps:
        per_bench = {b: steps.get(step.id, {}) for b, steps in report.benchmark_results.items()}
        if not any(per_bench.values()):
            continue
        blocks.append(Heading(_step_title(step), level))
        if single:
            items = []
            for results in per_bench.values():
                for key, res in results.items():
                    # an Estimate's or a test's describe() already states its numbers
                    plain = isinstance(res, Estimate | TestResult)
                    nums = "" if plain else "; ".join(f"{k} {v}" for k, v in key_numbers(res) if v != "-")
                    items.append(Item(f"{key}: {res.describe()}", [nums] if nums else []))
            blocks.append(Items(items))
        else:
            blocks.append(_step_table(per_bench, estimate_kind(step), is_one_sided(step)))
    return blocks


def suite_sections(report) -> list[Block]:
    """The suite-level results in step order (SuiteSummary values, suite comparators)."""
    blocks: list[Block] = []
    for step in report.steps:
        if step.id in report.suite_results:
            blocks += _suite_result(step, report.suite_results[step.id])
    return blocks


def steps_list(report, verbose: bool) -> list[Block]:
    """Each step: id, component, kind, scope, (verbose) parameters, and why it did not run."""
    why_skipped = {s.step: s.reason for s in getattr(report, "skipped", [])}
    return [Items([Item(f"{s.id}: {s.component} ({s.kind}, {s.scope})"
                        + (f" {fmt(dict(s.params))}" if verbose and s.params else "")
                        + (f" — not run: {why_skipped[s.id]}" if s.id in why_skipped else ""))
                   for s in report.steps])]


def steps_line(report) -> Para:
    """The steps in one line, for reports that leave their parameters out."""
    names = ", ".join(s.id for s in report.steps)
    skipped = [s.step for s in getattr(report, "skipped", [])]
    reasons = {s.reason for s in getattr(report, "skipped", [])}
    if report.steps and len(skipped) == len(report.steps) and len(reasons) == 1:  # nothing ran: say why
        return Para(f"Steps: none ran ({names}): {reasons.pop()}.")
    extra = f"; not run on this input: {', '.join(skipped)}" if skipped else ""
    return Para(f"Steps: {names}{extra} (their parameters: verbose report, --verbose).")


def warning_blocks(report) -> list[Block]:
    """The analysis warnings, grouped by benchmark (then "(suite)")."""
    grouped: dict[str, list[str]] = {}
    for w in report.analysis_warnings:  # the step errors have a section of their own
        where = w.step + (f" ({w.key})" if w.key else "")
        grouped.setdefault(w.benchmark, []).append(f"{where}: {w.message}")
    out: list[Block] = []
    for bench, items in grouped.items():
        out += [Para(f"{bench}:"), Items([Item(i) for i in items])]
    return out


def error_items(report) -> Items:
    """The steps that could not run on a benchmark, and why."""
    return Items([Item(f"{e.step} on {e.benchmark}: {e.message}") for e in report.errors])
