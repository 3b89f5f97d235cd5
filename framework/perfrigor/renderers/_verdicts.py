"""The answer first: one row per benchmark (as benchstat), the suite's line, what was not compared.

Reads ``report.verdicts`` ({benchmark: Verdict}), ``report.suite_verdict`` and
``report.only_in``. The "change" column is the metric's relative change (for times
1/speedup − 1, so −6% is faster; for higher-is-better metrics speedup − 1) with its
interval; baseline and candidate are the central values each verdict compared, in
human units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import units
from ..display import change, percent
from ..results import OUTCOMES, SuiteVerdict, Verdict
from ._blocks import Block, Cell, Column, Heading, Item, Items, Para, Table
from ._format import fmt, listed, unit_columns


def direction(report, bench: str) -> tuple[bool, str]:
    """(lower_is_better, unit) of a benchmark's measurements (times in seconds when unknown)."""
    systems = report.inputs.get(bench) or {}
    summary = systems.get(report.baseline) or next(iter(systems.values()), {})
    return bool(summary.get("lower_is_better", True)), str(summary.get("unit", ""))


def change_interval(v: Verdict, lower_is_better: bool) -> tuple[float | None, float | None, float | None]:
    """(change, low, high) of a verdict: the metric's relative change and its interval, ends ordered."""
    est = change(v.speedup, lower_is_better)
    ends = [change(v.ci_low, lower_is_better), change(v.ci_high, lower_is_better)]
    if None in ends:
        return est, None, None
    low, high = sorted(ends)  # for times the speedup's upper end is the largest drop
    return est, low, high


def change_text(v: Verdict, lower_is_better: bool) -> str:
    est, low, high = change_interval(v, lower_is_better)
    if est is None:
        return "-"
    return percent(est) + (f" [{percent(low)}, {percent(high)}]" if low is not None else "")


def _central(report, bench: str, v: Verdict | None, side: str) -> tuple[Any, str]:
    """The value a side was compared on and its statistic (the input's median when the verdict has none)."""
    details: Mapping[str, Any] = v.details if v is not None else {}
    value = details.get(side)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value), str(details.get("statistic", ""))
    system = report.baseline if side == "baseline" else report.candidate
    summary = (report.inputs.get(bench) or {}).get(system) or {}
    return summary.get("median"), "median"


def verdict_table(report) -> list[Block]:
    """The verdict table and a line saying what its numbers are."""
    verdicts = report.verdicts
    benches = [b for b in report.benchmarks if b in verdicts] + [b for b in report.benchmarks if b not in verdicts]
    return [Heading("Verdicts"), verdict_rows(report, benches), legend(report)]


def verdict_rows(report, benches: Sequence[str]) -> Table:
    """One row per benchmark of ``benches``, in that order: the central values, the change, the verdict, why."""
    verdicts = report.verdicts
    values, units = [], []
    for b in benches:
        v = verdicts.get(b)
        values.append([_central(report, b, v, "baseline")[0], _central(report, b, v, "candidate")[0]])
        units.append(direction(report, b)[1])
    texts, label = unit_columns(values, units)
    errors = {e.benchmark: e.message for e in report.errors}
    rows = []
    for b, (base, cand) in zip(benches, texts, strict=True):
        v = verdicts.get(b)
        if v is None:
            why = f"no verdict: {errors[b]}" if b in errors else "no verdict"
            rows.append([Cell(b), Cell(base), Cell(cand), Cell("-"), Cell("-"), Cell(why)])
            continue
        lower = direction(report, b)[0]
        why = short_why(v.reasons[0]) if v.reasons else v.method
        rows.append([Cell(b), Cell(base), Cell(cand), Cell(change_text(v, lower)), Cell(v.outcome, v.outcome),
                     Cell(why)])
    levels = {v.confidence for v in verdicts.values() if v.confidence is not None}
    level = f"{levels.pop():.0%} CI" if len(levels) == 1 else "CI"
    suffix = f" ({label})" if label else ""
    columns = [Column("benchmark"), Column(f"baseline{suffix}", numeric=True),
               Column(f"candidate{suffix}", numeric=True), Column(f"change [{level}]", numeric=True),
               Column("verdict"), Column("why")]
    return Table(columns, rows)


def legend(report) -> Para:
    """The line under a verdict table: which systems, which central value, how change reads."""
    verdicts = report.verdicts
    statistics: dict[str, list[str]] = {}
    for b in sorted(report.benchmarks, key=lambda b: b not in verdicts):  # those with a verdict first
        stat = _central(report, b, verdicts.get(b), "baseline")[1]
        statistics.setdefault(_kind(stat) or "central value", []).append(b)
    return Para(_legend(report, statistics))


def _kind(statistic: str | None) -> str | None:
    """A central value named with where it sits ("mode at 8.178 ms") by its kind ("mode"): the legend
    groups benchmarks by kind, and each row's reason says where."""
    return statistic.split(" at ", 1)[0] if statistic else statistic


def short_why(reason: str, limit: int = 90) -> str:
    """A reason short enough for the table: up to its first ": " (what follows is advice), else cut
    at the last clause (", ", " (") or word before ``limit`` characters, with an ellipsis. The full
    reason is in the details."""
    if len(reason) <= limit:
        return reason
    head = reason.split(": ", 1)[0]
    if 30 <= len(head) <= limit:
        return head
    room = reason[:limit - 1]
    clause = max(room.rfind(", "), room.rfind(" ("))
    cut = room[:clause] if clause >= limit // 2 else room.rsplit(" ", 1)[0]
    return cut.rstrip(",;: ") + "…"


def _legend(report, statistics: Mapping[str, list[str]]) -> str:
    """What the columns hold: which systems, which central value, how change reads."""
    common = max(statistics, key=lambda s: len(statistics[s]))
    others = "; ".join(f"the {s} for {listed(bs)}" for s, bs in statistics.items() if s != common)
    ways = [direction(report, b) for b in report.benchmarks]
    lowers = {lower for lower, _ in ways}
    times = all(units.kind(unit) in ("time", None) for _, unit in ways)  # no unit: times in seconds
    if lowers == {True}:
        how = "change: in time (negative = faster)" if times else "change: in the value (negative = better)"
    elif lowers == {False}:
        how = "change: in the metric (positive = better)"
    else:
        how = "change: in each metric (times: negative = faster; throughputs: positive = better)"
    # the median's change is the Hodges-Lehmann shift, not the ratio of the two medians shown: say so
    median = ", from the median of the ratios of all pairs of runs" if common == "median" and not others else ""
    return (f"baseline {report.baseline}, candidate {report.candidate}: the {common} each verdict compared"
            + (f" ({others})" if others else "") + f"; {how}{median}" + _adjusted(report) + ".")


def _adjusted(report) -> str:
    """The intervals' level when the suite's decisions adjusted them (they then agree with the verdicts)."""
    control = next((v.details.get("suite_control") for v in report.verdicts.values()
                    if isinstance(v.details.get("suite_control"), Mapping)), None)
    if not control or control.get("method") == "none" or "interval_level" not in control:
        return ""
    what = "false coverage rate" if control["method"] == "benjamini-hochberg" else "family-wise"
    return (f"; intervals adjusted for the {control['benchmarks']} benchmarks ({what}: each at "
            f"{control['interval_level']:.2%}), so that each excludes no change exactly where a change is claimed")


def suite_line(report) -> list[Block]:
    """The suite's answer: counts (naming the slower ones), geometric-mean speedup, the suite test."""
    sv: SuiteVerdict | None = report.suite_verdict
    if sv is None:
        return []
    total = sum(sv.counts.values())
    parts = [f"{sv.counts[o]} {o}" for o in OUTCOMES if sv.counts.get(o)]
    text = f"Suite: {total} benchmarks: {', '.join(parts) or 'none'}"
    text += "."
    if sv.speedup is not None:
        text += f" Geometric-mean speedup {fmt(sv.speedup)}"
        if sv.ci_low is not None and sv.ci_high is not None:
            level = f"{sv.confidence:.0%} CI " if sv.confidence else "CI "
            text += f" [{level}{fmt(sv.ci_low)}, {fmt(sv.ci_high)}]"
        lowers = {direction(report, b)[0] for b in report.benchmarks}
        if len(lowers) == 1:
            lower = lowers.pop()
            est = change(sv.speedup, lower)
            ends = sorted(c for c in (change(sv.ci_low, lower), change(sv.ci_high, lower)) if c is not None)
            what = "time" if lower else "metric"
            text += f", {what} {percent(est)}" + (f" [{percent(ends[0])}, {percent(ends[1])}]" if len(ends) == 2 else "")
        text += "."
    out: list[Block] = [Para(text)]
    if sv.reasons:
        out.append(Items([Item(r) for r in sv.reasons]))
    return out


def only_in(report) -> list[Block]:
    """Benchmarks measured by one system only, and systems no pair step compared: listed, not compared."""
    out: list[Block] = []
    left = getattr(report, "not_compared", None) or {}
    if left:
        total = len(left) + 2  # and the baseline and the candidate compared
        out.append(Para(f"Not compared: {len(left)} of the {total} systems in the data ({', '.join(left)})."))
        out.append(Items([Item(f"{system}: {why}") for system, why in left.items()]))
    found = {s: list(b) for s, b in (report.only_in or {}).items() if b}
    if found:
        parts = "; ".join(f"only in {system}: {listed(benches, 20)}" for system, benches in found.items())
        out.append(Para(f"Not compared (measured by one system only): {parts}."))
    why_not: dict[str, list[str]] = {}
    for bench, why in (getattr(report, "excluded", None) or {}).items():
        why_not.setdefault(why, []).append(bench)
    for why, benches in why_not.items():
        out.append(Para(f"Not compared ({why}): {listed(benches, 20)}."))
    return out


def reasons(report) -> list[Block]:
    """Every verdict in full: outcome, speedup and interval, method, every reason, what was noticed."""
    items = []
    for bench, v in report.verdicts.items():
        head = f"{bench}: {v.outcome}"
        if v.speedup is not None:
            head += f", speedup {fmt(v.speedup)}"
            if v.ci_low is not None and v.ci_high is not None:
                level = f"{v.confidence:.0%} CI " if v.confidence else "CI "
                head += f" [{level}{fmt(v.ci_low)}, {fmt(v.ci_high)}]"
        if v.method:
            head += f", from {v.method}"
        if v.threshold:  # the rule, not a finding: "faster (same within ±1%)" read as a contradiction
            head += f" (changes within ±{v.threshold:.1%} count as the same)"
        more = list(v.reasons)
        flags = flags_of(v)
        if flags:
            more.append(f"noticed: {', '.join(flags)}")
        items.append(Item(head, more))
    return [Items(items)] if items else []


def flags_of(v: Verdict) -> list[str]:
    """What the diagnostics noticed (``details["flags"]``), as strings."""
    flags = v.details.get("flags") if isinstance(v.details, Mapping) else None
    return [str(f) for f in flags] if isinstance(flags, list | tuple) else []
