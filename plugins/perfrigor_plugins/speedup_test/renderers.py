"""The original SpeedupTest tool's outputs from a report of the ``speedup-test`` preset.

``speedup-test-out``: its ``.out`` CSV (speedups, significance and confidence level per
benchmark, weights); ``speedup-test-report``: its ``.report`` text (overall gains and
speedups, proportion of accelerated benchmarks); ``speedup-test-warning``: its ``.warning``
text (why speedups are not significant, by benchmark).

As the tool: a benchmark whose configuration row gives a ConfLevel is judged at that
level; otherwise the tool searches the highest level at which the speedup is significant
(``details["max_confidence"]``), prints it, and counts the benchmark as accelerated when
such a level (above 50%) exists.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import perfrigor as pr

OUT_HEADER = ("Name", "SpeedupMin", "SpeedupMean", "IsMeanSignificant", "MeanConfLevel", "SpeedupMedian",
              "IsMedianSignificant", "MedianConfLevel", "CoefMin", "CoefMean", "CoefMedian")


def r_number(value: float | None, digits: int = 3) -> str:
    """A number as the tool prints it: round(x * 10^digits) / 10^digits, R's shortest form; NA for None."""
    if value is None:
        return "NA"
    scale = 10 ** digits
    return f"{float(np.round(value * scale) / scale):.15g}"


def _step(report: pr.Report, component: str, statistic: str) -> str | None:
    for step in report.steps:
        if step.component == component and step.params.get("statistic") == statistic:
            return step.id
    return None


def _steps(report: pr.Report) -> dict[str, str]:
    found = {stat: _step(report, "speedup-test", stat) for stat in ("mean", "median")}
    missing = [s for s, step in found.items() if step is None]
    if missing:
        raise pr.ConfigError(f"the speedup-test renderers need speedup-test steps for the mean and the median "
                             f"(missing: {', '.join(missing)}); run the 'speedup-test' preset")
    return found  # type: ignore[return-value]


def _comparison(report: pr.Report, bench: str, step: str) -> pr.Comparison | None:
    key = pr.pair_key(report.baseline, report.candidate or "")
    res = report.benchmark_results.get(bench, {}).get(step, {}).get(key)
    return res if isinstance(res, pr.Comparison) else None


def tool_verdict(res: pr.Comparison) -> tuple[bool, float | None]:
    """(IsSignificant, ConfLevel) as the tool prints them for one benchmark."""
    if res.details.get("confidence_source") == "benchmark":
        return bool(res.significant), res.confidence
    best = res.details.get("max_confidence")
    return best is not None, best


def _tool_rows(report: pr.Report) -> list[tuple[str, dict[str, pr.Comparison]]]:
    steps = _steps(report)
    rows = []
    for bench in report.benchmarks:
        found = {stat: _comparison(report, bench, step) for stat, step in steps.items()}
        if all(found.values()):
            rows.append((bench, found))
    return rows


def _weights(report: pr.Report, bench: str, step: str) -> dict[str, float]:
    summary = report.suite_results.get(step)
    values: Any = getattr(summary, "values", {}) or {}
    return values.get("weights", {}).get(bench, {"min": 1.0, "mean": 1.0, "median": 1.0})


def _q(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class SpeedupTestOutRenderer:
    """The SpeedupTest tool's ``.out`` CSV."""

    name = "speedup-test-out"

    def render(self, report: pr.Report) -> str:
        steps = _steps(report)
        lines = [",".join(_q(h) for h in OUT_HEADER)]
        for bench, res in _tool_rows(report):
            mean_sig, mean_level = tool_verdict(res["mean"])
            median_sig, median_level = tool_verdict(res["median"])
            w = _weights(report, bench, steps["mean"])
            d = res["mean"].details
            cells = [_q(bench), r_number(d["spmin"]), r_number(d["spmean"]), str(mean_sig).upper(),
                     r_number(mean_level, 2), r_number(d["spmedian"]), str(median_sig).upper(),
                     r_number(median_level, 2), r_number(w["min"]), r_number(w["mean"]), r_number(w["median"])]
            lines.append(",".join(cells))
        return "\n".join(lines) + "\n"


class SpeedupTestReportRenderer:
    """The SpeedupTest tool's ``.report`` text."""

    name = "speedup-test-report"

    def render(self, report: pr.Report) -> str:
        # here, not at import: registering the renderer imports no method module (perfrigor list)
        from .proportion import needed_benchmarks, proportion_interval

        steps = _steps(report)
        rows = _tool_rows(report)
        out = [f"Analysis report of {report.source or 'the suite'}", ""]
        summary = report.suite_results.get(steps["mean"])
        by_stat = (getattr(summary, "values", {}) or {}).get("by_statistic")
        if by_stat:
            for stat in ("min", "mean", "median"):
                out.append(f"Overall gain (ExecutionTime={stat}) = {r_number(by_stat[stat]['gain'])}")
                out.append(f"Overall speedup (ExecutionTime={stat}) = {r_number(by_stat[stat]['speedup'])}")
            out.append("")
        params = self._proportion_params(report)
        for stat in ("mean", "median"):
            a = sum(1 for _, res in rows if tool_verdict(res[stat])[0])
            b = len(rows)
            if b == 0:
                continue
            level, precision, method = params[stat]
            low, high = proportion_interval(a, b, level, method)
            out += [f"The observed proportion of accelerated benchmarks (speedup of the {stat})",
                    f"a/b = {a}/{b} = {r_number(a / b)}",
                    f"The confidence level for computing proportion confidence interval is {r_number(level, 4)}.",
                    f"Proportion confidence interval (speedup of the {stat}) = [{r_number(low)}; {r_number(high)}]"]
            if a * (1 - a / b) <= 5:
                out += ["Warning: this confidence interval of the proportion may not be accurate because",
                        "the validity condition {a(1-a/b) > 5} is not satisfied."]
            needed = needed_benchmarks(a / b, precision, level)
            if needed > 0:
                out += [f"The minimal needed number of randomly selected benchmarks is {needed}",
                        f"(in order to have a precision r={r_number(precision, 4)})."]
            out.append("")
        out.append("Remark: the proportion confidence interval is valid only if the benchmarks were selected at "
                   "random from a large representative set, not hand-picked.")
        return "\n".join(out) + "\n"

    @staticmethod
    def _proportion_params(report: pr.Report) -> dict[str, tuple[float, float, str]]:
        out = {}
        for stat in ("mean", "median"):
            step = _step(report, "accelerated-proportion", stat)
            params = next((s.params for s in report.steps if s.id == step), {}) if step else {}
            out[stat] = (float(params.get("confidence", 0.95)), float(params.get("precision", 0.05)),
                         str(params.get("method", "wilson-cc")))
        return out


class SpeedupTestWarningRenderer:
    """The SpeedupTest tool's ``.warning`` file: why a speedup is not (shown) significant, by benchmark."""

    name = "speedup-test-warning"

    def render(self, report: pr.Report) -> str:
        steps = _steps(report)
        out: list[str] = []
        count = 0
        for bench, res in _tool_rows(report):
            lines = []
            for stat in ("mean", "median"):
                r = res[stat]
                if r.significant is not True:
                    lines.append(f"  {r.verdict}")
                lines += [f"  {stat}: {w}" for w in r.warnings]
            if lines:  # a name on one line: a line break in it must not start a line of the file's own
                out += [f"Benchmark {pr.textsafe.one_line(bench)}:", *lines]
                count += len(lines)
        for err in report.errors:
            if err.step in steps.values():
                out.append(f"Benchmark {pr.textsafe.one_line(err.benchmark)}: not analysed: {err.message}")
                count += 1
        out.append(f"{count} warning(s).")
        return "\n".join(out) + "\n"
