"""The ``verdict`` step: one calibrated answer per benchmark, and one for the suite.

It reads what the data look like (levels, serial dependence, steps, modes) and the earlier
steps' evidence by type, picks the method whose assumptions hold (:func:`.paths.choose`, top
to bottom), and reconciles the others in its reasons. Over a suite (:mod:`.suite_control`) it
pools the serial dependence over the benchmarks, decides the changes together and gives
intervals that agree with the decisions. Its false-alarm rate and power are measured by
simulation (benchmarks/calibration.py; docs/methods/verdict.md shows the table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import perfrigor as pr

from . import dependence, multiplicity, paths, steady, suite_control
from .evidence import comparisons
from .reasons import answer_reason, disagreement_sentences, disagreements
from .rules import UNCLEAR, band, outcome
from .suite import suite_verdict


def _check_threshold(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value < 1.0:
        raise ValueError(f"threshold must be a relative change in [0, 1) (0.01 = changes under 1% do not "
                         f"matter), got {value!r}")


@attrs.define(repr=False)
class VerdictStep(pr.Comparator):
    """One calibrated answer per benchmark (faster, slower, same, unclear) and for the suite.

    The rule (one, everywhere): "same" when the speedup's interval lies within ±``threshold``;
    else "faster"/"slower" when the interval excludes no change (the test is significant at
    ``confidence``); else "unclear". ``statistic``: what flat, independent runs are compared
    on: "median" (the typical run: Hodges-Lehmann with a studentised rank interval), "mean"
    (Fieller's interval) or "auto" (the pipeline's speedup-test step's statistic, else the
    median); ``suite_control``: how a suite's changes are decided together (see
    :mod:`.multiplicity`): "benjamini-hochberg" (the default: the false discovery rate at
    1 - confidence, with false-coverage-rate adjusted intervals), "holm" (the family-wise error
    rate) or "none" (each benchmark on its own); ``dependence``: how serial dependence is
    estimated in a suite: "suite" (pooled over the benchmarks, empirical Bayes) or "benchmark"
    (each from its own runs); ``steady``: compare the steady parts, each series' warm-up left
    out as the pipeline's steady-state check (``pr.SteadyStateCheck``), else the registered
    ``steady-state``, finds it (:mod:`.steady`).
    """

    name: ClassVar[str] = "verdict"
    confidence: float = pr.confidence_param(help="level of the intervals and tests behind each verdict")
    threshold: float = attrs.field(metadata={"help": "the smallest relative change that matters (0.01: an "
                                                        "interval within ±1% is 'same')"},
                                   default=0.01, converter=lambda v: float(v) if isinstance(v, int) and not
                                   isinstance(v, bool) else v, validator=_check_threshold)
    statistic: str = pr.choice_param("auto", "median", "mean",
                                     help="what flat, independent runs are compared on: 'median', 'mean', "
                                          "or 'auto' (the speedup-test step's, else the median)")
    suite_control: str = pr.choice_param("benjamini-hochberg", *multiplicity.METHODS,
                                         help="how a suite's faster/slower verdicts are decided together "
                                              "(multiple testing): Benjamini-Hochberg, Holm, or none")
    dependence: str = pr.choice_param("suite", "benchmark",
                                      help="how serial dependence is estimated in a suite: 'suite' (pooled over "
                                           "its benchmarks) or 'benchmark' (each from its own runs)")
    steady: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool),
                               metadata={"help": "compare the steady parts: leave out each series' warm-up (forks, "
                                                 "invocations, a flat run order) as a steady-state check finds it",
                                         "type": "bool"})

    def compare(self, baseline: Any, candidate: Any) -> pr.Verdict:
        samples = {"baseline": pr.as_sample(baseline, what="baseline"),
                   "candidate": pr.as_sample(candidate, what="candidate")}
        return self.judge(samples, "baseline", "candidate", pr.Previous())

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """What the task's verdicts will compute, together: the default steady-state checks (:func:`.steady.prepare`)
        and the segments' factors of dependent-looking runs (:func:`.dependence.prepare`)."""
        steady.prepare(jobs)
        dependence.prepare(jobs)

    def run_benchmark(self, samples, baseline, candidate, previous):
        if candidate is None:
            return {}
        return {pr.pair_key(baseline, candidate): self.judge(samples, baseline, candidate, previous)}

    def revise(self, suite: pr.Suite, results: Mapping[str, Mapping[str, pr.Result]]
               ) -> dict[str, dict[str, pr.Result]] | None:
        """The suite's verdicts with the dependence pooled over it and the changes decided together."""
        where = {b: k for b, res in results.items() for k, r in res.items() if isinstance(r, pr.Verdict)}
        if len(where) < 2:
            return None
        verdicts = {b: results[b][k] for b, k in where.items()}
        revised = suite_control.revise(self, suite, verdicts, where)
        return {b: {**results[b], where[b]: v} for b, v in revised.items()}

    def summarize(self, suite: pr.Suite, results: Mapping[str, Mapping[str, pr.Result]],
                  previous: pr.Previous | None = None) -> pr.SuiteVerdict | None:
        verdicts = {b: r for b, res in results.items() for r in res.values() if isinstance(r, pr.Verdict)}
        if len(verdicts) < 2:
            return None
        return suite_verdict(verdicts, self.confidence, previous)

    # ------------------------------------------------------------------ one benchmark
    def settings(self, previous: pr.Previous, pair: str) -> paths.Settings:
        return paths.Settings(self.confidence, self.threshold, self._statistic(previous, pair), self.steady)

    def judge(self, samples: Mapping[str, pr.Sample], baseline: str, candidate: str,
              previous: pr.Previous) -> pr.Verdict:
        """The verdict on ``candidate`` against ``baseline``; never raises DataError (it answers "unclear")."""
        old, new = samples[baseline], samples[candidate]
        pair = pr.pair_key(baseline, candidate)
        try:
            for who, s in (("baseline", old), ("candidate", new)):
                s.require_positive(f"{who} {s.label}")
            if old.lower_is_better != new.lower_is_better:
                raise pr.DataError(f"baseline {old.label} and candidate {new.label} disagree on lower_is_better")
            path = paths.choose(old, new, samples, baseline, candidate, previous, self.settings(previous, pair))
        except pr.DataError as exc:
            return pr.Verdict(outcome=UNCLEAR, confidence=self.confidence, threshold=self.threshold,
                              method=self.name, reasons=(str(exc),), details={"flags": ["error"]})
        result = UNCLEAR if path.unclear else outcome(path.answer, self.threshold)
        theirs = disagreements(path, result, comparisons(previous, pair), old, len(old), self.threshold)
        a = path.answer
        details = {"flags": list(path.flags), "statistic": path.statistic, "baseline": path.baseline,
                   "candidate": path.candidate, "unit": old.unit, "lower_is_better": old.lower_is_better,
                   "pvalue": a.pvalue, "significant": a.significant, "band": list(band(self.threshold)),
                   "n": {"baseline": int(len(old)), "candidate": int(len(new))}, **path.details,
                   "notes": list(path.notes), "disagreements": theirs, "unclear": path.unclear,
                   "recipe": path.recipe}
        if a.speedup is not None:
            details["change"] = pr.display.change(a.speedup, old.lower_is_better)
        return pr.Verdict(outcome=result, speedup=a.speedup, ci_low=a.ci_low, ci_high=a.ci_high,
                          confidence=self.confidence, method=path.method,
                          reasons=self.reasons(path, result, min(len(old), len(new)), theirs),
                          threshold=self.threshold, details=details)

    def reasons(self, path: paths.Path, result: str, n: int, theirs: list[dict]) -> tuple[str, ...]:
        """The answer first, what the diagnostics saw, why other steps answer otherwise."""
        first = answer_reason(path, result, self.threshold, self.confidence, n)
        return tuple(dict.fromkeys([first, *path.notes, *disagreement_sentences(theirs, result)]))

    def _statistic(self, previous: pr.Previous, pair: str) -> str:
        if self.statistic != "auto":
            return self.statistic
        found = previous.find("speedup-test", pair) if isinstance(previous, pr.Previous) else None
        stat = found[1].details.get("statistic") if found is not None and hasattr(found[1], "details") else None
        return "mean" if stat == "mean" else "median"
