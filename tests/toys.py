"""The toy plugin of the framework, I/O and CLI tests: tiny, deterministic components, presets
and a command, independent of the method plugins and importable by worker processes.

Registered for a block with ``pr.registry.temporary(allow=["core"], extra_plugins=[toys])``: the
``toy`` fixture of tests/conftest.py (a whole module) and ``toy_registry`` of
tests/framework/conftest.py (one test) do it. ``mean-ci`` and ``experiment-plan`` stand in for the
random-effects plugin's components under their names.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np
import perfrigor as pr


def _speedup(old: pr.Sample, new: pr.Sample, a: float, b: float) -> float:
    return a / b if old.lower_is_better else b / a


@attrs.define(repr=False)
class ToyRatio(pr.Comparator):
    """Ratio of means as a speedup, 'significant' when speedup ± tolerance leaves 1.

    Refuses a baseline value above 1000 (a DataError, for the error paths); warns below 5
    measurements (with HTML-special characters, for the renderers' escaping); a benchmark's own
    confidence level replaces the step's; a suite summary (the mean speedup).
    """

    name: ClassVar[str] = "toy-ratio"
    confidence: float = pr.confidence_param()
    tolerance: float = pr.float_param(0.05, minimum=0.0)
    random_state: object = pr.random_state_param()

    def compare(self, baseline, candidate):
        old, new = pr.as_sample(baseline, "baseline"), pr.as_sample(candidate, "candidate")
        if old.flat.max() > 1000:
            raise pr.DataError(f"{old.label}: a value is above 1000 (the toy refuses it)")
        s = _speedup(old, new, float(old.flat.mean()), float(new.flat.mean()))
        low, high = s * (1 - self.tolerance), s * (1 + self.tolerance)
        significant = bool(low > 1 or high < 1)
        warnings = ("fewer than 5 measurements <b>&",) if min(old.flat.size, new.flat.size) < 5 else ()
        return pr.Comparison(estimate=s, ci_low=low, ci_high=high, confidence=self.confidence, pvalue=0.01,
                             significant=significant, verdict=f"toy speedup {s:.3f} | ratio", details={},
                             warnings=warnings)

    def for_benchmark(self, info):
        """A benchmark's own confidence level (from the suite's info) replaces the step's."""
        if info is not None and info.confidence is not None:
            return self.with_params(confidence=info.confidence)
        return self

    def summarize(self, suite, results):
        """The mean speedup over a suite (None for a single benchmark: nothing to summarise)."""
        if len(results) < 2:
            return None
        ests = [next(iter(r.values())).estimate for r in results.values() if r]
        return pr.SuiteSummary(title="toy overall", values={"mean speedup": float(np.mean(ests)),
                                                            "benchmarks": len(ests)},
                               text=f"mean of {len(ests)} toy speedups")


@attrs.define(repr=False)
class ToyBoot(pr.Comparator):
    """Bootstrap ratio of means: random, reproducible with random_state."""

    name = "toy-boot"
    confidence: float = pr.confidence_param()
    n_bootstrap: int = pr.int_param(500, minimum=10)
    random_state: int | None = pr.random_state_param()

    def compare(self, baseline, candidate):
        old, new = pr.as_sample(baseline, "baseline"), pr.as_sample(candidate, "candidate")
        rng = pr.check_random_state(self.random_state)
        a = rng.choice(old.flat, (self.n_bootstrap, old.flat.size)).mean(axis=1)
        b = rng.choice(new.flat, (self.n_bootstrap, new.flat.size)).mean(axis=1)
        boot = _speedup(old, new, a, b)
        low, high = np.quantile(boot, [(1 - self.confidence) / 2, (1 + self.confidence) / 2])
        est = _speedup(old, new, old.flat.mean(), new.flat.mean())
        return pr.Comparison(estimate=est, ci_low=float(low), ci_high=float(high), confidence=self.confidence,
                             pvalue=None, significant=bool(low > 1 or high < 1), verdict=f"toy boot {est:.3f}",
                             details={"first_draw": float(a[0])})


@attrs.define(repr=False)
class ToyMean(pr.Estimator):
    """Mean of one system."""

    name = "toy-mean"

    def estimate(self, sample):
        s = pr.as_sample(sample)
        return pr.Estimate(estimate=float(s.flat.mean()))


#: what ToyBatchMean.prepare saw (benchmarks of each call) and how often estimate found its value
#: in the workspace: serial runs only (worker processes have their own copies)
PREPARED: list[tuple[str, ...]] = []
HITS: list[str] = []


@attrs.define(repr=False)
class ToyBatchMean(pr.Estimator):
    """Mean of one system; ``prepare`` computes the means of a whole batch at once."""

    name = "toy-batch-mean"

    @classmethod
    def prepare(cls, jobs):
        PREPARED.append(tuple(job.benchmark for job in jobs))
        if any(s.flat.max() > 1000 for job in jobs for s in job.samples.values()):
            raise pr.DataError("toy-batch-mean: a value above 1000 (estimate will say where)")
        if any(s.flat.min() < -1000 for job in jobs for s in job.samples.values()):
            raise RuntimeError("toy-batch-mean: a bug")
        means = np.array([s.flat.mean() for job in jobs for s in job.samples.values()])
        keys = [("toy", s.flat.tobytes()) for job in jobs for s in job.samples.values()]
        ws = pr.current_workspace()
        for key, mean in zip(keys, means, strict=True):
            ws.put(key, float(mean))

    def estimate(self, sample):
        s = pr.as_sample(sample)
        if s.flat.max() > 1000:
            raise pr.DataError(f"{s.label}: a value is above 1000 (the toy refuses it)")
        ws = pr.current_workspace()
        found = None if ws is None else ws.get(("toy", s.flat.tobytes()))
        if found is not None:
            HITS.append(s.label)
        return pr.Estimate(estimate=float(s.flat.mean()) if found is None else found)


@attrs.define(repr=False)
class ToyLevels(pr.Estimator):
    """Needs hierarchical data: number of top-level units."""

    name = "toy-levels"
    min_levels = 2

    def estimate(self, sample):
        s = pr.as_sample(sample)
        if s.n_levels < 2:
            raise pr.DataError(f"{s.label}: toy-levels needs 2 levels")
        return pr.Estimate(estimate=float(s.shape[0]))


@attrs.define(repr=False)
class ToyReader(pr.Comparator):
    """Reads the toy-ratio result of an earlier step (via ``previous``) and doubles it."""

    name = "toy-reader"
    source: str = "toy-ratio"

    def compare(self, baseline, candidate):
        raise pr.DataError("toy-reader only runs in a pipeline")

    def run_benchmark(self, samples, baseline, candidate, previous):
        earlier = previous.get(self.source)
        if not earlier:
            raise pr.DataError(f"toy-reader: no earlier {self.source!r} result")
        (res,) = earlier.values()
        return {pr.pair_key(baseline, candidate): pr.Comparison(
            estimate=2 * res.estimate, ci_low=None, ci_high=None, confidence=None, pvalue=None,
            significant=None, verdict="twice the earlier estimate")}


@attrs.define(repr=False)
class ToySuite(pr.Comparator):
    """Suite scope: the fraction of benchmarks whose mean went down (and what earlier steps said).

    ``weight`` and ``precision`` do nothing but exist as shorthands (``--weight``, ``--precision``).
    """

    name: ClassVar[str] = "toy-suite"
    scope: ClassVar[str] = "suite"
    estimate_kind: ClassVar[str] = "probability"
    shorthands: ClassVar[tuple[str, ...]] = ("weight", "precision")
    weight: str = pr.choice_param("equal", "custom", "fraction")
    precision: float = pr.float_param(0.05, minimum=0.0, maximum=1.0, strict=True)

    def compare(self, baseline, candidate):
        old = pr.as_sample_mapping(baseline, "baseline")
        new = pr.as_sample_mapping(candidate, "candidate")
        faster = [b for b in old if _speedup(old[b], new[b], old[b].flat.mean(), new[b].flat.mean()) > 1]
        p = len(faster) / len(old)
        return pr.Comparison(estimate=p, ci_low=None, ci_high=None, confidence=None, pvalue=None,
                             significant=None, verdict=f"{p:.0%} of benchmarks faster")

    def run_suite(self, suite, baseline, candidate, previous):
        res = self.compare(suite.system(baseline), suite.system(candidate))
        seen = sorted({step for steps in previous["benchmarks"].values() for step in steps})
        return attrs.evolve(res, details={"earlier_steps": seen, "earlier_suite": sorted(previous["suite"])})


@attrs.define(repr=False)
class ToyCrash(pr.Estimator):
    """A buggy component: raises ZeroDivisionError."""

    name = "toy-crash"

    def estimate(self, sample):
        return 1 / 0


@attrs.define(repr=False)
class ToyMeanCI(pr.Estimator):
    """Mean of one system's values with a fixed ±1 interval; needs 2 values (stands in for mean-ci)."""

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
    return [ToyRatio, ToyBoot, ToyMean, ToyMeanCI, ToyBatchMean, ToyLevels, ToyReader, ToySuite, ToyCrash, ToyPlan,
            ToyVerdict]


@pr.hookimpl
def perfrigor_pipelines():
    return [{"name": "toy", "description": "toy pipeline for the tests",
             "steps": [{"component": "mean-ci"}, {"component": "toy-ratio"}, {"component": "toy-suite"}]},
            {"name": "toy-verdict", "description": "toy pipeline ending with a verdict step",
             "steps": [{"component": "mean-ci"}, {"component": "toy-ratio"}, {"component": "toy-verdict"}]},
            {"name": "toy-seeded", "description": "two toy steps, the second seeded", "steps": [
                {"component": "toy-ratio"}, {"component": "toy-boot", "random_state": 1, "n_bootstrap": 50}]}]


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

