"""Report: every result of a pipeline run, its warnings and a summary of the inputs.

One report object, many renderers (text, markdown, json, html, or a plugin's).
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from .errors import ConfigError, DataError
from .keys import PairKey, pair_key
from .records import ReportWarning, StepError, StepSkip
from .registry import get_registry
from .results import Result, SuiteVerdict, Verdict, conclusion, to_jsonable
from .saved import (
    MARKER,
    SCHEMA,
    check_drawn,
    check_layout,
    core_types,
    record_from_dict,
    result_from_dict,
    result_to_dict,
    suite_from_dict,
    suite_to_dict,
)

#: the result fields Report.to_frame() gives a column each (None where a result has no such field)
FRAME_FIELDS = ("outcome", "speedup", "estimate", "ci_low", "ci_high", "confidence", "pvalue", "significant",
                "statistic", "reject")


@attrs.frozen
class StepInfo:
    """What a step was: its id, component name, kind, scope and parameters, and how to read its results.

    ``estimate_kind`` and ``one_sided`` are the comparator's, recorded when the pipeline ran (a
    report is read the same way whichever plugins are loaded later): what its estimate is
    ("speedup", "probability", "gain", "other"; None for estimators and tests) and whether it
    only tests for an improvement.
    """

    id: str
    component: str
    kind: str
    scope: str
    params: Mapping[str, Any]
    estimate_kind: str | None = None
    one_sided: bool = False


@attrs.frozen(eq=False)
class Report:
    """Outcome of :meth:`Pipeline.run`.

    ``benchmark_results[benchmark][step_id][key]`` holds per-benchmark results
    (key: a system name or a :class:`PairKey`, written ``"baseline -> candidate"`` by
    ``to_dict``); ``suite_results[step_id]`` holds suite-level results; ``errors`` lists
    the steps that could not run on a benchmark and why (:class:`StepError`); ``skipped``
    the steps that do not apply to this input (a suite method given one benchmark) and why
    (:class:`StepSkip`).
    """

    pipeline: str
    steps: list[StepInfo]
    baseline: str
    candidate: str | None
    inputs: Mapping[str, Any]
    benchmark_results: Mapping[str, Mapping[str, Mapping[str, Result]]]
    suite_results: Mapping[str, Result]
    errors: list[StepError] = attrs.field(factory=list, validator=attrs.validators.deep_iterable(
        attrs.validators.instance_of(StepError)))
    source: str | None = None
    skipped: list[StepSkip] = attrs.field(factory=list, validator=attrs.validators.deep_iterable(
        attrs.validators.instance_of(StepSkip)))
    #: benchmarks measured by one system only, ``{system: [benchmark, ...]}``: not compared, listed
    only_in: Mapping[str, list[str]] = attrs.field(factory=dict)
    #: the analysed suite itself (``Suite``), for renderers that draw the measurements; ``to_dict`` keeps
    #: what the plots draw of it (``perfrigor.drawing.plotted``): a loaded report's ``data`` holds just that
    data: Any = attrs.field(default=None, repr=False)
    #: systems of the data that no pair step compared (three or more systems), ``{system: why}``
    not_compared: Mapping[str, str] = attrs.field(factory=dict)
    #: benchmarks of the input with nothing to compare (``Suite.excluded``), ``{benchmark: why}``
    excluded: Mapping[str, str] = attrs.field(factory=dict)

    @property
    def benchmarks(self) -> list[str]:
        return list(self.benchmark_results)

    def iter_results(self) -> Iterator[tuple[str | None, str, str | None, Result]]:
        """``(benchmark or None, step_id, key or None, result)`` for every result, in step order."""
        for step in self.steps:
            for bench, steps in self.benchmark_results.items():
                for key, res in steps.get(step.id, {}).items():
                    yield bench, step.id, key, res
            if step.id in self.suite_results:
                yield None, step.id, None, self.suite_results[step.id]

    def result(self, step: str, benchmark: str | None = None, key: str | PairKey | None = None) -> Result:
        """One result: a suite result by step id, or a benchmark's (first key unless given)."""
        if benchmark is None and step in self.suite_results:
            return self.suite_results[step]
        steps = [s.id for s in self.steps]
        if step not in steps:
            raise KeyError(f"no step {step!r} in this report (steps: {steps})")
        if benchmark is None:
            if len(self.benchmark_results) != 1:
                raise KeyError(f"step {step!r}: name the benchmark (one of {self.benchmarks})")
            benchmark = self.benchmarks[0]
        if benchmark not in self.benchmark_results:
            raise KeyError(f"no benchmark {benchmark!r} in this report (benchmarks: {self.benchmarks})")
        found = self.benchmark_results[benchmark].get(step)
        if not found:
            why = [e.message for e in self.errors if e.step == step and e.benchmark == benchmark]
            raise KeyError(f"step {step!r} has no result for benchmark {benchmark!r}"
                           + (f": it failed: {why[0]}" if why else ""))
        if key is None:
            return next(iter(found.values()))
        if not isinstance(key, PairKey):  # "baseline -> candidate" as written in to_dict()
            key = next((k for k in found if str(k) == key), key)
        if key not in found:
            raise KeyError(f"step {step!r}, benchmark {benchmark!r}: no result {key!r} (keys: {list(found)})")
        return found[key]

    @property
    def verdicts(self) -> dict[str, Verdict]:
        """``{benchmark: Verdict}`` of the baseline -> candidate comparison (the last verdict step's).

        Empty when the pipeline has no step that gives verdicts.
        """
        out: dict[str, Verdict] = {}
        for bench, steps in self.benchmark_results.items():
            for step in self.steps:
                for res in steps.get(step.id, {}).values():
                    if isinstance(res, Verdict):
                        out[bench] = res
        return out

    def step(self, step_id: str) -> StepInfo | None:
        """The step with this id, or None."""
        return next((s for s in self.steps if s.id == step_id), None)

    def conclusion(self, step_id: str, result: Result) -> str | None:
        """What a step's comparison concludes ("faster", "slower", "no change", "not faster", "unclear"),
        read with the estimate kind and sidedness the step recorded (``perfrigor.conclusion``)."""
        step = self.step(step_id)
        kind = (step.estimate_kind if step is not None else None) or "speedup"
        return conclusion(result, kind, bool(step.one_sided) if step is not None else False)

    def regressions(self) -> list[str]:
        """The regressions, one line each ("benchmark: ..."): what ``--fail-on-regression`` fails on.

        With verdicts (every preset ends with the verdict step), exactly the benchmarks whose verdict
        is "slower". Without (a custom pipeline), every two-sided comparison of the baseline with the
        candidate that concludes "slower" (``Report.conclusion``); one-sided ones cannot show a
        slowdown, and comparisons of k > 2 systems or of estimates of kind "other" are not judged.
        """
        return judge(self)[0]

    @property
    def suite_verdict(self) -> SuiteVerdict | None:
        """The suite's verdict (counts, geometric-mean speedup, suite test), when a step gave one."""
        found = [r for r in self.suite_results.values() if isinstance(r, SuiteVerdict)]
        return found[-1] if found else None

    @property
    def warnings(self) -> list[ReportWarning]:
        """The analysis warnings, then the step errors ("not run: ...")."""
        return self.analysis_warnings + [ReportWarning(err.step, err.benchmark, None, f"not run: {err.message}")
                                         for err in self.errors]

    @property
    def analysis_warnings(self) -> list[ReportWarning]:
        """Input warnings, then every warning of every result, with where it arose."""
        out = []
        for bench, systems in self.inputs.items():
            for system, summary in systems.items():
                bad = summary.get("n_nonpositive") if isinstance(summary, Mapping) else None
                if bad:
                    out.append(ReportWarning("(input)", bench, None,
                                             f"{system}: {bad} of {summary['n']} values are <= 0 (smallest "
                                             f"{summary['min']:g}); times, rates and scores must be positive: "
                                             "check the data (methods forming speedups refuse them)"))
        for bench, step, key, res in self.iter_results():
            for w in res.warnings:
                out.append(ReportWarning(step, bench or "(suite)", key, w))
        return out

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data: what ``--format json`` writes and :meth:`from_dict` reads back.

        It opens with ``"perfrigor_report"``, the version of its layout; every result carries its
        ``type``, ``description`` and (a plugin's type) ``base``, and, where it draws, its plot layers;
        ``data`` holds the measurements the plots draw: all of them, or of a sample of more than
        ``perfrigor.drawing.PLOTTED_VALUES`` values the fixed subsample its plots draw (``inputs``
        summarises every value; the results come from every value).
        """
        data = self.data.data if self.data is not None else {}

        def result(bench: str, key: Any, res: Result) -> dict[str, Any]:
            return result_to_dict(res, data.get(bench, {}).get(key) if isinstance(key, str) else None)

        return {
            MARKER: SCHEMA,
            "pipeline": self.pipeline,
            "source": self.source,
            "verdicts": {b: v.to_dict() for b, v in self.verdicts.items()},
            "suite_verdict": None if self.suite_verdict is None else self.suite_verdict.to_dict(),
            "baseline": self.baseline,
            "candidate": self.candidate,
            "steps": [to_jsonable(s) for s in self.steps],
            "inputs": to_jsonable(self.inputs),
            "benchmarks": {
                b: {step: {str(k): result(b, k, r) for k, r in res.items()} for step, res in steps.items()}
                for b, steps in self.benchmark_results.items()
            },
            "suite": {step: r.to_dict() for step, r in self.suite_results.items()},
            "warnings": [w.to_dict() for w in self.warnings],
            "errors": [e.to_dict() for e in self.errors],
            "skipped": [s.to_dict() for s in self.skipped],
            "only_in": {s: list(b) for s, b in self.only_in.items()},
            "not_compared": dict(self.not_compared),
            "excluded": dict(self.excluded),
            "data": None if self.data is None else suite_to_dict(self.data),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """The report :meth:`to_dict` wrote (a saved JSON report), with only the core.

        The core's result types come back as themselves; a plugin's as a stored result of its core
        base that keeps its fields, description and plot layers (:mod:`perfrigor.saved`): the
        report renders as it did, whichever plugins are installed. DataError when ``data`` is not
        a saved report, or one of a later layout.
        """
        if not isinstance(data, Mapping) or MARKER not in data:
            raise DataError(f"not a saved perfrigor report (no {MARKER!r} key; reports written before version "
                            f"{SCHEMA} of the layout cannot be read back: run the analysis again)")
        version = data[MARKER]
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= SCHEMA:
            raise DataError(f"a saved report of layout version {version!r}; this perfrigor reads up to {SCHEMA}: "
                            "upgrade perfrigor")
        try:
            return _report_from_dict(data)
        except DataError as exc:
            raise DataError(f"a damaged saved report: {exc}") from None
        except (LookupError, TypeError, ValueError, AttributeError) as exc:
            raise DataError(f"a damaged saved report: {type(exc).__name__}: {exc}") from None

    def to_frame(self) -> Any:
        """Every result as a pandas DataFrame, one row per (benchmark, step, key).

        Columns: benchmark (None for suite results), step, component, key, result (its type),
        then the result's numbers and conclusions where it has them: outcome, speedup,
        estimate, ci_low, ci_high, confidence, pvalue, significant, statistic, reject.
        Needs pandas (an optional dependency: ``pip install pandas``).
        """
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Report.to_frame() needs pandas, an optional dependency: pip install pandas") from None
        components = {s.id: s.component for s in self.steps}
        rows = []
        for bench, step, key, res in self.iter_results():
            doc = res.to_dict()
            row: dict[str, Any] = {"benchmark": bench, "step": step, "component": components.get(step),
                                   "key": None if key is None else str(key),
                                   "result": type(res).__name__}
            for field in FRAME_FIELDS:
                value = doc.get(field)
                row[field] = value if value is None or isinstance(value, bool | int | float | str) else str(value)
            rows.append(row)
        return pd.DataFrame(rows, columns=["benchmark", "step", "component", "key", "result", *FRAME_FIELDS])

    def render(self, format: str = "text", **options: Any) -> str:
        """The report as text, markdown, json, html (or a plugin's format).

        ``options`` go to the renderer: the built-in ones take ``verbose=True`` (the steps'
        parameters too), HTML also ``plots=False``. An option the renderer does not take
        is a ConfigError naming the ones it does.
        """
        renderer = get_registry().renderer(format)
        if not options:
            return renderer.render(self)
        check_render_options(renderer, format, options)
        return renderer.render(self, **options)

    def __str__(self) -> str:
        return self.render("text")


def load_report(path: str | os.PathLike) -> Report:
    """A report saved as JSON (``perfrigor compare ... -o report.json``, ``report.render("json")``)."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: not a saved perfrigor report (not JSON: {exc})") from None
    except RecursionError:  # (json's parser recurses: arrays nested thousands deep)
        raise DataError(f"{path}: not a saved perfrigor report (JSON nested too deeply)") from None
    try:
        return Report.from_dict(data)
    except DataError as exc:
        raise DataError(f"{path}: {exc}") from None


def _report_from_dict(data: Mapping[str, Any]) -> Report:
    check_layout(data)
    known = core_types()
    baseline, candidate = data["baseline"], data["candidate"]
    pair = pair_key(baseline, candidate) if candidate is not None else None

    def key(text: str) -> str | PairKey:  # the pair is written "baseline -> candidate"; systems are names
        return pair if pair is not None and text == str(pair) else text

    benchmarks = {bench: {step: {key(k): result_from_dict(r, known) for k, r in results.items()}
                          for step, results in steps.items()}
                  for bench, steps in data["benchmarks"].items()}
    only_in = {s: list(b) for s, b in (data.get("only_in") or {}).items()}
    excluded = {str(b): str(why) for b, why in (data.get("excluded") or {}).items()}
    suite = (None if data.get("data") is None
             else suite_from_dict(data["data"], data.get("source"), only_in, excluded))
    if suite is not None:
        check_drawn(suite, data["inputs"])
    return Report(
        pipeline=data["pipeline"],
        steps=[record_from_dict(StepInfo, step, "a step") for step in data["steps"]],
        baseline=baseline,
        candidate=candidate,
        inputs=data["inputs"],
        benchmark_results=benchmarks,
        suite_results={step: result_from_dict(r, known) for step, r in data["suite"].items()},
        errors=[record_from_dict(StepError, e, "an error") for e in data.get("errors", ())],
        source=data.get("source"),
        skipped=[record_from_dict(StepSkip, s, "a skipped step") for s in data.get("skipped", ())],
        only_in=only_in,
        data=suite,
        not_compared=dict(data.get("not_compared") or {}),
        excluded=excluded,
    )


def judge(report: Report) -> tuple[list[str], int]:
    """``report.regressions()``, and how many verdicts or two-sided comparisons could have shown one."""
    found, judged = findings(report)
    return [line for _, line in found], judged


def findings(report: Report) -> tuple[list[tuple[str | None, str]], int]:
    """:func:`judge` with each regression's benchmark: ``([(benchmark or None for the suite, line)], judged)``."""
    verdicts = report.verdicts
    if verdicts:
        found = [(bench, f"{bench}: {v.describe()}") for bench, v in verdicts.items() if v.outcome == "slower"]
        return found, len(verdicts)
    pair = pair_key(report.baseline, report.candidate) if report.candidate else None
    found, judged = [], 0
    for bench, step_id, key, res in report.iter_results():
        if key is not None and key != pair:
            continue
        step = report.step(step_id)
        verdict = report.conclusion(step_id, res)
        judged += not (step is not None and step.one_sided) and verdict in ("faster", "slower", "no change")
        if verdict == "slower":
            found.append((bench, f"{bench or 'suite'}: {step_id}: {res.describe()}"))
    return found, judged


def check_render_options(renderer: Any, format: str, options: Mapping[str, Any]) -> None:
    """Refuse options the renderer's ``render`` does not take, naming those it does."""
    try:
        params = inspect.signature(renderer.render).parameters
    except (TypeError, ValueError):  # a builtin or C callable: let the call decide
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    taken = [n for n, p in params.items() if p.kind is inspect.Parameter.KEYWORD_ONLY
             or (p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD and p.default is not inspect.Parameter.empty)]
    unknown = sorted(set(options) - set(taken))
    if unknown:
        raise ConfigError(f"the {format} renderer takes no option {', '.join(map(repr, unknown))} "
                          f"(its options: {', '.join(taken) or 'none'})")
