"""Numbers and results as short texts for the report's cells and lines."""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from ..display import column, quantity
from ..results import Comparison, Estimate, Result, SuiteSummary, TestResult


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
    if isinstance(p, bool) or not isinstance(p, numbers.Real):  # a plugin's result may hold anything there
        return fmt(p)
    p = float(p)
    return "< 1e-16" if p < 1e-16 else f"{p:.3g}"


def fmt_ci(low: Any, high: Any, confidence: Any) -> str:
    if low is None and high is None:
        return "-"
    level = f"{float(confidence):.0%} " if isinstance(confidence, int | float) else ""
    return f"{level}[{fmt(low)}, {fmt(high)}]"


_SKIP = {"warnings", "type", "description", "base", "layers", "details", "verdict", "text", "title"}


def key_numbers(res: Result) -> list[tuple[str, str]]:
    """The numbers a person looks at first, as (label, text) pairs."""
    if isinstance(res, Comparison):
        return [("estimate", fmt(res.estimate)), ("CI", fmt_ci(res.ci_low, res.ci_high, res.confidence)),
                ("p-value", fmt_p(res.pvalue)), ("significant", fmt(res.significant))]
    if isinstance(res, TestResult):
        return [("statistic", fmt(res.statistic)), ("p-value", fmt_p(res.pvalue)),
                ("H0 rejected", fmt(res.reject)), ("confidence", fmt(1 - res.alpha))]
    if isinstance(res, Estimate):
        return [("estimate", fmt(res.estimate)), ("CI", fmt_ci(res.ci_low, res.ci_high, res.confidence))]
    if isinstance(res, SuiteSummary):  # a summary's small tables stay; one entry per benchmark does not
        return [(str(k), fmt(v)) for k, v in res.values.items() if not _too_long(v)]
    data = res.to_dict()
    out = []
    for k, v in data.items():
        if k in _SKIP or isinstance(v, dict):
            continue
        if isinstance(v, list) and (len(v) > 4 or any(isinstance(x, list | dict) for x in v) or _too_long(v)):
            continue  # long lists belong to the JSON report, not to the line a person reads
        out.append((k, fmt(v)))
    return out


def _too_long(value: Any) -> bool:
    """A list or table too long for a cell (more than 4 entries; a list past 120 characters written):
    the JSON report holds it; the text would be one line of thousands of characters."""
    if isinstance(value, dict):
        return len(value) > 4
    return isinstance(value, list | tuple) and (len(value) > 4 or len(fmt(value)) > 120)


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


def unit_columns(values: list[list[float | None]], units: list[str]) -> tuple[list[list[str]], str]:
    """Measurement cells (rows of values, one unit per row) in human units, one scale for them all.

    Returns the texts and the shared scale's label for the headers ("ms"); when rows have
    different units, or the values span too many decades for one scale, each cell carries
    its own unit and the label is "".
    """
    if not values:
        return [], ""
    if len(set(units)) == 1:
        flat = [v for row in values for v in row]
        texts, scale = column(flat, units[0])
        width = len(values[0])
        rows = [texts[i * width:(i + 1) * width] for i in range(len(values))]
        if scale is not None:
            return rows, scale.label
        return rows, ""
    return [[quantity(v, unit) for v in row] for row, unit in zip(values, units, strict=True)], ""


def listed(names: Sequence[str], limit: int = 6) -> str:
    """The first ``limit`` names, then "and N more": a list read in one line."""
    return ", ".join(names[:limit]) + (f" and {len(names) - limit} more" if len(names) > limit else "")
