"""Toy components for the framework's tests: tiny, deterministic, importable by worker processes.

Registered with ``pr.registry.temporary(allow=["core"], extra_plugins=[toys])`` so the tests
do not depend on the statistical plugins.
"""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr


def _speedup(old: pr.Sample, new: pr.Sample, a: float, b: float) -> float:
    return a / b if old.lower_is_better else b / a


@attrs.define(repr=False)
class ToyRatio(pr.Comparator):
    """Ratio of means as a speedup (no interval)."""

    name = "toy-ratio"
    confidence: float = pr.confidence_param()

    def compare(self, baseline, candidate):
        old, new = pr.as_sample(baseline, "baseline"), pr.as_sample(candidate, "candidate")
        if old.flat.max() > 1000:
            raise pr.DataError(f"{old.label}: a value is above 1000 (the toy refuses it)")
        s = _speedup(old, new, old.flat.mean(), new.flat.mean())
        return pr.Comparison(estimate=s, ci_low=None, ci_high=None, confidence=self.confidence, pvalue=None,
                             significant=None, verdict=f"toy speedup {s:.3f}")

    def for_benchmark(self, info):
        """A benchmark's own confidence level (from the suite's info) replaces the step's."""
        if info is not None and info.confidence is not None:
            return self.with_params(confidence=info.confidence)
        return self


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
    """Suite scope: the fraction of benchmarks whose mean went down (and what earlier steps said)."""

    name = "toy-suite"
    scope = "suite"
    estimate_kind = "probability"

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


@pr.hookimpl
def perfrigor_components():
    return [ToyRatio, ToyBoot, ToyMean, ToyBatchMean, ToyLevels, ToyReader, ToySuite, ToyCrash]


@pr.hookimpl
def perfrigor_pipelines():
    return [{"name": "toy", "description": "two toy steps", "steps": [
        {"component": "toy-ratio"}, {"component": "toy-boot", "random_state": 1, "n_bootstrap": 50}]}]
