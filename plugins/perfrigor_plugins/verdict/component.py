"""The ``verdict`` step: one calibrated answer per benchmark, and one for the suite.

It reads what the data look like (levels, serial dependence, modes) and the earlier steps'
results, picks the method whose assumptions hold (see :mod:`.paths`), and reconciles the
others in its reasons. Its false-alarm rate and power are measured by simulation
(benchmarks/calibration.py; docs/methods/verdict.md shows the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs
import perfrigor as pr

from . import multiplicity, paths
from .evidence import comparisons, gather
from .reasons import answer_reason, disagreements
from .rules import UNCLEAR, band, outcome
from .suite import suite_verdict


def _check_threshold(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value < 1.0:
        raise ValueError(f"threshold must be a relative change in [0, 1) (0.01 = changes under 1% do not "
                         f"matter), got {value!r}")


@attrs.define(repr=False)
class VerdictStep(pr.Comparator):
    """One calibrated answer per benchmark (faster, slower, same, unclear) and for the suite.

    ``threshold``: the smallest relative change that matters (0.01: an interval within ±1% is
    "same"); ``confidence``: the level of the interval and tests; ``statistic``: what flat,
    independent runs are compared on: "median" (rank-based: the Wilcoxon-Mann-Whitney test and
    the Hodges-Lehmann interval), "mean" (Fieller's interval) or "auto" (the pipeline's
    speedup-test step's statistic, else the median); ``suite_control``: how a suite's changes are
    decided together (see :mod:`.multiplicity`): "benjamini-hochberg" (the default: the false
    discovery rate at 1 - confidence, and at most that chance of any false change on an unchanged
    suite), "holm" (the family-wise error rate) or "none" (each benchmark on its own).
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

    def compare(self, baseline: Any, candidate: Any) -> pr.Verdict:
        samples = {"baseline": pr.as_sample(baseline, what="baseline"),
                   "candidate": pr.as_sample(candidate, what="candidate")}
        return self.judge(samples, "baseline", "candidate", pr.Previous())

    def run_benchmark(self, samples, baseline, candidate, previous):
        if candidate is None:
            return {}
        return {pr.pair_key(baseline, candidate): self.judge(samples, baseline, candidate, previous)}

    def revise(self, suite: pr.Suite, results: Mapping[str, Mapping[str, pr.Result]]
               ) -> dict[str, dict[str, pr.Result]] | None:
        """The suite's verdicts decided together: p-values adjusted by ``suite_control`` (one benchmark: unchanged)."""
        where = {b: k for b, res in results.items() for k, r in res.items() if isinstance(r, pr.Verdict)}
        if len(where) < 2:
            return None
        adjusted = multiplicity.adjust({b: results[b][k] for b, k in where.items()}, self.suite_control,
                                       self.confidence)
        return {b: {**results[b], where[b]: v} for b, v in adjusted.items()}

    def summarize(self, suite: pr.Suite, results: Mapping[str, Mapping[str, pr.Result]],
                  previous: pr.Previous | None = None) -> pr.SuiteVerdict | None:
        verdicts = {b: r for b, res in results.items() for r in res.values() if isinstance(r, pr.Verdict)}
        if len(verdicts) < 2:
            return None
        return suite_verdict(verdicts, self.confidence, previous)

    # ------------------------------------------------------------------ one benchmark
    def judge(self, samples: Mapping[str, pr.Sample], baseline: str, candidate: str,
              previous: pr.Previous) -> pr.Verdict:
        """The verdict on ``candidate`` against ``baseline``; never raises DataError (it answers "unclear")."""
        old, new = samples[baseline], samples[candidate]
        try:
            path = self._path(old, new, samples, baseline, candidate, previous)
        except pr.DataError as exc:
            return pr.Verdict(outcome=UNCLEAR, confidence=self.confidence, threshold=self.threshold,
                              method=self.name, reasons=(str(exc),), details={"flags": ["error"]})
        result = UNCLEAR if path.unclear else outcome(path.answer, self.threshold)
        n = min(len(old), len(new))
        reasons = [answer_reason(path, result, self.threshold, self.confidence, n), *path.notes]
        reasons += disagreements(path, result, comparisons(previous, pr.pair_key(baseline, candidate)), old, len(old),
                                 self.threshold)
        a = path.answer
        details = {"flags": list(path.flags), "statistic": path.statistic, "baseline": path.baseline,
                   "candidate": path.candidate, "unit": old.unit, "lower_is_better": old.lower_is_better,
                   "pvalue": a.pvalue, "significant": a.significant, "band": list(band(self.threshold)),
                   "n": {"baseline": int(len(old)), "candidate": int(len(new))}, **path.details}
        if a.speedup is not None:
            details["change"] = pr.display.change(a.speedup, old.lower_is_better)
        return pr.Verdict(outcome=result, speedup=a.speedup, ci_low=a.ci_low, ci_high=a.ci_high,
                          confidence=self.confidence, method=path.method, reasons=tuple(dict.fromkeys(reasons)),
                          threshold=self.threshold, details=details)

    def _path(self, old: pr.Sample, new: pr.Sample, samples: Mapping[str, pr.Sample], baseline: str,
              candidate: str, previous: pr.Previous) -> paths.Path:
        for who, s in (("baseline", old), ("candidate", new)):
            s.require_positive(f"{who} {s.label}")
        if min(len(old), len(new)) < 2:
            return paths.lonely(old, new)
        if old.lower_is_better != new.lower_is_better:
            raise pr.DataError(f"baseline {old.label} and candidate {new.label} disagree on lower_is_better")
        hierarchical = old.is_hierarchical and new.is_hierarchical
        statistic = self._statistic(previous, pr.pair_key(baseline, candidate))
        ev = gather(samples, baseline, candidate, previous, self.confidence, need_modes=not hierarchical,
                    need_fieller=hierarchical or statistic == "mean")
        if hierarchical:
            return paths.hierarchical(old, new, ev)
        steady, warm_notes = paths.without_warmup({baseline: old, candidate: new}, ev)
        if warm_notes:  # the comparison is of the steady state: every diagnostic again, on those runs
            old, new = steady[baseline], steady[candidate]
            ev = gather(steady, baseline, candidate, pr.Previous(), self.confidence, need_modes=True,
                        need_fieller=statistic == "mean")
        taus, flags, notes, dependent = paths.widening(ev)
        if warm_notes:
            flags.insert(0, "warmup")
            notes[:0] = warm_notes
        if old.is_hierarchical or new.is_hierarchical:
            notes.append("one system is hierarchical and the other flat: all runs are compared as flat samples")
        found = ev.modes
        kind = getattr(found.result, "kind", "unimodal") if found is not None else "unimodal"
        if kind == "different":
            notes.append(found.result.verdict)
        elif kind != "unimodal" and found.result.dominant is not None:
            path = paths.modes(old, new, found, self.confidence, list(flags), list(notes))
            if not dependent:
                return path
            # modes that persist over time may be invocations or sessions rather than strata: the
            # dominant mode's shift stands only where the typical run's (widened) answer agrees
            typical = paths.ranks(old, new, self.confidence, self._method(ev, previous, True), taus,
                                  list(flags), list(notes))
            if outcome(path.answer, self.threshold) == outcome(typical.answer, self.threshold) or path.unclear:
                return path
            return attrs.evolve(path, unclear=(f"the runs are serially dependent and multimodal, and the answers "
                                               f"disagree: {self._said(path)} within the {path.statistic}, but "
                                               f"{self._said(typical)} over all runs"))
        if statistic == "mean" and not dependent:
            return attrs.evolve(paths.means(old, new, ev), flags=tuple(flags), notes=tuple(notes))
        return paths.ranks(old, new, self.confidence, self._method(ev, previous, dependent), taus, flags, notes)

    def _said(self, path: paths.Path) -> str:
        """A path's answer in a few words, as the first reason would give it."""
        return answer_reason(path, outcome(path.answer, self.threshold), self.threshold, self.confidence, 0)

    @staticmethod
    def _method(ev, previous: pr.Previous, dependent: bool) -> str:
        """Whose answer the rank interval is: the independence step's when it widened it, else the Speedup-Test's."""
        if dependent:
            return next((f.source for f in ev.independence if f is not None), "independence")
        found = previous.find("speedup-test") if isinstance(previous, pr.Previous) else None
        return found[0] if found is not None else "speedup-test"

    def _statistic(self, previous: pr.Previous, pair: str) -> str:
        if self.statistic != "auto":
            return self.statistic
        found = previous.find("speedup-test", pair) if isinstance(previous, pr.Previous) else None
        stat = found[1].details.get("statistic") if found is not None and hasattr(found[1], "details") else None
        return "mean" if stat == "mean" else "median"
