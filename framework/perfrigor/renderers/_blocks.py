"""A report laid out once, as format-neutral blocks that each renderer draws.

The layout (what a person reads, in order): the header (pipeline, systems), a
summary of what each comparison concluded, the steps, the inputs per
benchmark, then one section per per-benchmark step (for one benchmark, each
result's ``describe()`` and key numbers; for a suite, a table with estimate,
CI, p-value, significance and verdict), the suite-level results, the warnings
grouped by benchmark, and the steps that could not run. Generic over
result types: it uses ``describe()``, the Comparison / TestResult / Estimate
fields, and ``to_dict()`` for anything else.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from ..results import NO_CHANGE, Comparison, Estimate, Result, SuiteSummary, TestResult, conclusion


@attrs.frozen
class Heading:
    text: str
    level: int = 2


@attrs.frozen
class Para:
    text: str


@attrs.frozen
class Table:
    """Rows of text cells; ``tones`` optionally marks cells ("faster", "slower") for renderers that colour."""

    headers: Sequence[str]
    rows: Sequence[Sequence[str]]
    tones: Sequence[Sequence[str]] | None = None


@attrs.frozen
class Items:
    """A bulleted list; each item is a line of text."""

    items: Sequence[str]


Block = Heading | Para | Table | Items

# ------------------------------------------------------------------ formatting


def fmt(value: Any, digits: int = 4) -> str:
    """Numbers for people: 4 significant digits, '-' for missing, yes/no for booleans."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return f"{value:.{digits}g}"
    if isinstance(value, list | tuple):
        if len(value) > 8:
            return "[" + ", ".join(fmt(v, digits) for v in value[:8]) + f", ... ({len(value)} items)]"
        return "[" + ", ".join(fmt(v, digits) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {fmt(v, digits)}" for k, v in value.items()) + "}"
    return str(value)


def fmt_p(p: Any) -> str:
    if p is None:
        return "-"
    p = float(p)
    return "< 1e-16" if p < 1e-16 else f"{p:.3g}"


def fmt_ci(low: Any, high: Any, confidence: Any) -> str:
    if low is None and high is None:
        return "-"
    level = f"{float(confidence):.0%} " if isinstance(confidence, int | float) else ""
    return f"{level}[{fmt(low)}, {fmt(high)}]"


_SKIP = {"warnings", "type", "details", "verdict", "text", "title"}


def key_numbers(res: Result) -> list[tuple[str, str]]:
    """The numbers a person looks at first, as (label, text) pairs."""
    if isinstance(res, Comparison):
        out = [("estimate", fmt(res.estimate)), ("CI", fmt_ci(res.ci_low, res.ci_high, res.confidence)),
               ("p-value", fmt_p(res.pvalue)), ("significant", fmt(res.significant))]
        return out
    if isinstance(res, TestResult):
        return [("statistic", fmt(res.statistic)), ("p-value", fmt_p(res.pvalue)),
                ("H0 rejected", fmt(res.reject)), ("confidence", fmt(1 - res.alpha))]
    if isinstance(res, Estimate):
        return [("estimate", fmt(res.estimate)), ("CI", fmt_ci(res.ci_low, res.ci_high, res.confidence))]
    if isinstance(res, SuiteSummary):
        return [(str(k), fmt(v)) for k, v in res.values.items()]
    data = res.to_dict()
    out = []
    for k, v in data.items():
        if k in _SKIP or isinstance(v, dict):
            continue
        if isinstance(v, list) and (len(v) > 4 or any(isinstance(x, list | dict) for x in v)):
            continue  # long lists belong to the JSON report, not to the line a person reads
        out.append((k, fmt(v)))
    return out


def row_cells(res: Result) -> tuple[str, str, str, str, str]:
    """(estimate, CI, p-value, significant, verdict) of a result, for suite tables."""
    if isinstance(res, Comparison):
        return (fmt(res.estimate), fmt_ci(res.ci_low, res.ci_high, res.confidence), fmt_p(res.pvalue),
                fmt(res.significant), res.describe())
    if isinstance(res, TestResult):
        return (fmt(res.statistic), "-", fmt_p(res.pvalue), fmt(res.reject), res.describe())
    if isinstance(res, Estimate):
        return (fmt(res.estimate), fmt_ci(res.ci_low, res.ci_high, res.confidence), "-", "-", res.describe())
    est = getattr(res, "estimate", None)
    return (fmt(est) if isinstance(est, int | float) else "-", "-", fmt_p(getattr(res, "pvalue", None)),
            fmt(getattr(res, "significant", None)), res.describe())


# ------------------------------------------------------------------ outcomes

_SPLIT = {"speedup": "1", "probability": "1/2", "gain": "0"}


def estimate_kind(component: str) -> str:
    """The registered comparator's ``estimate_kind`` ("speedup" when unknown)."""
    from ..registry import get_registry

    rec = get_registry().components.get(component)
    return getattr(rec.obj, "estimate_kind", "speedup") if rec is not None else "speedup"


def is_one_sided(component: str) -> bool:
    """Whether the registered comparator only tests for an improvement (``Comparator.one_sided``)."""
    from ..registry import get_registry

    rec = get_registry().components.get(component)
    return bool(getattr(rec.obj, "one_sided", False)) if rec is not None else False


outcome = conclusion  # what a comparison concludes (perfrigor.results.conclusion)


def _summary(report) -> list[Block]:
    """One line per comparison step: what it concluded (counts over a suite)."""
    pair = f"{report.baseline} -> {report.candidate}" if report.candidate else None
    lines = []
    for step in report.steps:
        kind, sided = estimate_kind(step.component), is_one_sided(step.component)
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
                lines.append(f"{step.id}: {len(found)} benchmarks: {what} above {_SPLIT[kind]} on "
                             f"{int((values > limit).sum())}, below on {int((values < limit).sum())} "
                             f"(median {np.median(values):.3g}, range {values.min():.3g} to {values.max():.3g})")
        elif found:
            counts: dict[str, list[str]] = {}
            for b, res in found:
                counts.setdefault(outcome(res, kind, sided) or "unclear", []).append(b)
            parts = [f"{len(counts[o])} {o}" for o in ("faster", "slower", "no change", "not faster", "unclear")
                     if o in counts]
            slow = f" (slower: {', '.join(counts['slower'])})" if "slower" in counts else ""
            lines.append(f"{step.id}: {len(found)} benchmarks: {', '.join(parts)}{slow}")
        suite_res = report.suite_results.get(step.id)
        if isinstance(suite_res, Comparison):
            lines.append(f"{step.id} (suite): {suite_res.describe()}")
    return [Heading("Summary"), Items(lines)] if lines else []


# ------------------------------------------------------------------ layout


def _inputs(report) -> Block:
    rows = []
    for bench, systems in report.inputs.items():
        for system, s in systems.items():
            meta = s.get("metadata") or {}
            note = ", ".join(f"{k}: {fmt(v)}" for k, v in meta.items() if k != "format")
            rows.append([bench, system, str(s.get("n")), "x".join(str(d) for d in s.get("shape", [])),
                         ", ".join(s.get("levels", [])), fmt(s.get("mean")), fmt(s.get("median")),
                         fmt(s.get("sd")), s.get("unit", "") + ("" if s.get("lower_is_better", True) else " (higher is better)"),
                         note or "-"])
    return Table(["benchmark", "system", "n", "shape", "levels", "mean", "median", "sd", "unit", "notes"], rows)


def layout(report) -> list[Block]:
    """The report as blocks, in reading order."""
    blocks: list[Block] = [Heading(f"perfrigor report: pipeline {report.pipeline}", 1)]
    who = report.baseline if report.candidate is None else f"baseline {report.baseline}, candidate {report.candidate}"
    head = [f"Systems: {who}.", f"Benchmarks: {len(report.benchmarks)}."]
    if report.source:
        head.append(f"Source: {report.source}.")
    blocks.append(Para(" ".join(head)))
    why_skipped = {s["step"]: s["reason"] for s in getattr(report, "skipped", [])}
    steps = [f"{s.id}: {s.component} ({s.kind}, {s.scope})"
             + (f" {fmt(dict(s.params))}" if s.params else "")
             + (f" — not run: {why_skipped[s.id]}" if s.id in why_skipped else "") for s in report.steps]
    blocks += _summary(report)
    blocks += [Heading("Steps"), Items(steps), Heading("Inputs"), _inputs(report)]
    single = len(report.benchmarks) == 1
    for step in report.steps:
        per_bench = {b: steps.get(step.id, {}) for b, steps in report.benchmark_results.items()}
        has_bench = any(per_bench.values())
        if not has_bench:
            continue
        blocks.append(Heading(_step_title(step)))
        if single:
            items = []
            for results in per_bench.values():
                for key, res in results.items():
                    # an Estimate's or a test's describe() already states its numbers
                    plain = isinstance(res, Estimate | TestResult)
                    nums = "" if plain else "; ".join(f"{k} {v}" for k, v in key_numbers(res) if v != "-")
                    items.append(f"{key}: {res.describe()}" + (f"\n{nums}" if nums else ""))
            blocks.append(Items(items))
        else:
            blocks.append(_step_table(per_bench, estimate_kind(step.component), is_one_sided(step.component)))
    suite_steps = [s for s in report.steps if s.id in report.suite_results]
    if suite_steps:
        blocks.append(Heading("Suite results"))
        for step in suite_steps:
            blocks += _suite_result(step, report.suite_results[step.id])
    warnings = _warnings(report)
    if warnings:
        blocks.append(Heading("Warnings"))
        blocks += warnings
    if report.errors:
        blocks.append(Heading("Not run"))
        blocks.append(Items([f"{e['step']} on {e['benchmark']}: {e['message']}" for e in report.errors]))
    return blocks


def _step_title(step) -> str:
    return step.id if step.id == step.component else f"{step.id} ({step.component})"


def _step_table(per_bench: Mapping[str, Mapping[str, Result]], kind: str, one_sided: bool = False) -> Table:
    """One row per benchmark (and key); columns nobody fills are left out."""
    keys = {k for results in per_bench.values() for k in results}
    show_key = len(keys) > 1
    rows, tones = [], []
    comparisons = False
    for bench, results in per_bench.items():
        for key, res in results.items():
            comparisons |= isinstance(res, Comparison)
            rows.append([bench, *([key] if show_key else []), *row_cells(res)])
            tone = outcome(res, kind, one_sided) or ""
            tones.append([""] * (len(rows[-1]) - 2) + [tone if tone in ("faster", "slower") else "", ""])
    headers = ["benchmark", *(["for"] if show_key else []), "estimate", "CI", "p-value", "significant",
               "verdict" if comparisons else "summary"]
    first = 2 if show_key else 1
    keep = [i for i in range(len(headers)) if i < first or i == len(headers) - 1 or any(r[i] != "-" for r in rows)]
    return Table([headers[i] for i in keep], [[r[i] for i in keep] for r in rows],
                 [[t[i] for i in keep] for t in tones])


def _suite_result(step, res: Result) -> list[Block]:
    """A suite-level result: a step's SuiteSummary (title, text, values) or a suite comparator's."""
    where = _step_title(step)
    if isinstance(res, SuiteSummary):
        one_line = res.text and "\n" not in res.text
        out: list[Block] = [Para(f"{where}: {res.title}" + (f". {res.text}" if one_line else ""))]
        if res.text and not one_line:
            out.append(Items([ln for ln in res.text.splitlines() if ln.strip()]))
    else:
        out = [Para(f"{where}: {res.describe()}")]
    nums = [(k, v) for k, v in key_numbers(res) if v != "-"]
    if nums:
        out.append(Table(["quantity", "value"], [[k, v] for k, v in nums]))
    return out


def _warnings(report) -> list[Block]:
    grouped: dict[str, list[str]] = {}
    for w in report.analysis_warnings:  # the step errors have a section of their own
        where = w["step"] + (f" ({w['key']})" if w["key"] else "")
        grouped.setdefault(w["benchmark"], []).append(f"{where}: {w['message']}")
    out: list[Block] = []
    for bench, items in grouped.items():
        out += [Para(f"{bench}:"), Items(items)]
    return out
