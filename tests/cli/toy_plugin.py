"""A small plugin for the I/O and CLI tests, independent of the method plugins.

Register it for a block with ``pr.registry.temporary(allow=["core"], extra_plugins=[toy_plugin])``
(the ``toy`` fixture of tests/conftest.py does).
"""

from __future__ import annotations

import sys
from typing import ClassVar

import attrs
import numpy as np
import perfrigor as pr


@attrs.define(repr=False)
class ToyRatio(pr.Comparator):
    """Ratio of means baseline/candidate, 'significant' when it leaves [1 - tolerance, 1 + tolerance]."""

    name: ClassVar[str] = "toy-ratio"
    confidence: float = pr.confidence_param()
    tolerance: float = pr.float_param(0.05, minimum=0.0)
    random_state: object = pr.random_state_param()

    def compare(self, baseline, candidate):
        b, c = pr.as_sample(baseline), pr.as_sample(candidate)
        mb, mc = float(np.mean(b.values)), float(np.mean(c.values))
        s = mb / mc if b.lower_is_better else mc / mb
        low, high = s * (1 - self.tolerance), s * (1 + self.tolerance)
        significant = bool(low > 1 or high < 1)
        warnings = ("fewer than 5 measurements <b>&",) if min(b.values.size, c.values.size) < 5 else ()
        return pr.Comparison(estimate=s, ci_low=low, ci_high=high, confidence=self.confidence, pvalue=0.01,
                             significant=significant, verdict=f"toy speedup {s:.3f} | ratio", details={},
                             warnings=warnings)

    def summarize(self, suite, results):
        if not results:
            return None
        ests = [next(iter(r.values())).estimate for r in results.values() if r]
        return pr.SuiteSummary(title="toy overall", values={"mean speedup": float(np.mean(ests)),
                                                            "benchmarks": len(ests)},
                               text=f"mean of {len(ests)} toy speedups")


@attrs.define(repr=False)
class ToyMean(pr.Estimator):
    """Mean of one system's values."""

    name: ClassVar[str] = "mean-ci"
    describes: ClassVar[bool] = True
    confidence: float = pr.confidence_param()

    def estimate(self, sample):
        s = pr.as_sample(sample)
        if s.values.size < 2:
            raise pr.DataError(f"{s.label}: toy-mean needs 2 values")
        m = float(s.values.mean())
        return pr.Estimate(estimate=m, ci_low=m - 1, ci_high=m + 1, confidence=self.confidence)



@attrs.define(repr=False)
class ToySuite(pr.Comparator):
    """Suite-level toy: share of benchmarks whose mean dropped."""

    name: ClassVar[str] = "toy-suite"
    scope: ClassVar[str] = "suite"
    shorthands: ClassVar[tuple[str, ...]] = ("weight", "precision")
    weight: str = pr.choice_param("equal", "custom", "fraction")
    precision: float = pr.float_param(0.05, minimum=0.0, maximum=1.0, strict=True)

    def compare(self, baseline, candidate):
        b = pr.as_sample_mapping(baseline, "baseline")
        c = pr.as_sample_mapping(candidate, "candidate")
        share = float(np.mean([c[k].values.mean() < b[k].values.mean() for k in b]))
        return pr.Comparison(estimate=share, ci_low=None, ci_high=None, confidence=None, pvalue=None,
                             significant=None, verdict=f"{share:.0%} of benchmarks faster", details={})


@attrs.define(repr=False)
class ToyPlan(pr.Estimator):
    """Toy experiment plan: repetitions proportional to costs."""

    name: ClassVar[str] = "experiment-plan"
    costs: tuple = attrs.field(default=(1.0,), converter=tuple)
    budget: float | None = pr.float_param(None, minimum=0.0, optional=True)
    confidence: float = pr.confidence_param()

    def estimate(self, sample):
        s = pr.as_sample(sample)
        if s.n_levels < 2:
            raise pr.DataError(f"{s.label}: an experiment plan needs hierarchical data")
        return ToyPlanResult(repetitions=[int(c) for c in self.costs], text="plan line 1\nplan line 2")


@attrs.frozen(kw_only=True)
class ToyPlanResult(pr.Result):
    repetitions: list
    text: str


@attrs.define(repr=False)
class ToyVerdict(pr.Comparator):
    """A verdict from the ratio of medians, its interval ± tolerance (no statistics: for renderer tests).

    ``flags`` go into every verdict's details, as the diagnostics would put them.
    """

    name: ClassVar[str] = "toy-verdict"
    confidence: float = pr.confidence_param()
    tolerance: float = pr.float_param(0.05, minimum=0.0)
    threshold: float = pr.float_param(0.01, minimum=0.0)
    flags: tuple = attrs.field(default=(), converter=tuple)

    def compare(self, baseline, candidate):
        b, c = pr.as_sample(baseline), pr.as_sample(candidate)
        mb, mc = float(np.median(b.values)), float(np.median(c.values))
        s = mb / mc if b.lower_is_better else mc / mb
        low, high = s * (1 - self.tolerance), s * (1 + self.tolerance)
        if low > 1 + self.threshold:
            outcome = "faster"
        elif high < 1 - self.threshold:
            outcome = "slower"
        elif low >= 1 - self.threshold and high <= 1 + self.threshold:
            outcome = "same"
        else:
            outcome = "unclear"
        word = "better" if s > 1 else "worse"
        return pr.Verdict(outcome=outcome, speedup=s, ci_low=low, ci_high=high, confidence=self.confidence,
                          method="toy-verdict", reasons=(f"median {abs(s - 1):.1%} {word}", "toy second reason <b>"),
                          threshold=self.threshold,
                          details={"baseline": mb, "candidate": mc, "statistic": "median", "flags": list(self.flags)})

    def summarize(self, suite, results):
        verdicts = {b: next(iter(r.values())) for b, r in results.items() if r}
        if len(verdicts) < 2:
            return None
        counts = {o: sum(v.outcome == o for v in verdicts.values()) for o in pr.OUTCOMES}
        names = {o: tuple(b for b, v in verdicts.items() if v.outcome == o) for o in pr.OUTCOMES}
        gm = float(np.exp(np.mean([np.log(v.speedup) for v in verdicts.values()])))
        return pr.SuiteVerdict(counts=counts, benchmarks=names, speedup=gm, ci_low=gm * (1 - self.tolerance),
                               ci_high=gm * (1 + self.tolerance), confidence=self.confidence,
                               reasons=("HPT: toy suite line",))


@pr.hookimpl
def perfrigor_components():
    return [ToyRatio, ToyMean, ToySuite, ToyPlan, ToyVerdict]


@pr.hookimpl
def perfrigor_pipelines():
    return [{"name": "toy", "description": "toy pipeline for the tests",
             "steps": [{"component": "mean-ci"}, {"component": "toy-ratio"}, {"component": "toy-suite"}]},
            {"name": "toy-verdict", "description": "toy pipeline ending with a verdict step",
             "steps": [{"component": "mean-ci"}, {"component": "toy-ratio"}, {"component": "toy-verdict"}]}]


def _count_args(parser):
    parser.add_argument("data", metavar="DATA")
    parser.add_argument("--times", type=int, default=1, help="how often to say it")


def _count(args, context):
    """Say how many values the file holds (read with the command line's input options)."""
    data = context.read(args.data)
    n = int(data.flat.size) if isinstance(data, pr.Sample) else sum(
        s.flat.size for systems in data.data.values() for s in systems.values())
    if n > 10_000:
        raise pr.DataError(f"{args.data}: the toy counts up to 10000 values")
    context.stdout.write(f"{n} values\n" * args.times)
    return 0 if n else 1


@pr.hookimpl
def perfrigor_commands():
    return [pr.Command(name="toy-count", help="count the values of a data file (a toy plugin's command)",
                       add_arguments=_count_args, run=_count, input_options=True)]


plugin = sys.modules[__name__]
