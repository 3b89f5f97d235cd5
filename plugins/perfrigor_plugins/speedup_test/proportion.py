"""``accelerated-proportion``: confidence interval of the proportion of accelerated benchmarks (P§4).

a of b benchmarks have a statistically significant speedup (Speedup-Test, mean or median);
the interval says how likely a benchmark outside the suite is accelerated, valid only if
the b benchmarks were drawn at random from a large pool (never a hand-picked suite).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .comparator import SpeedupTest

METHODS = ("wilson-cc", "wald", "clopper-pearson")
CAVEAT = ("the interval holds for benchmarks drawn at random from a large representative pool; for a "
          "hand-picked suite (SPEC...) it describes nothing beyond the suite (P§4)")


def proportion_interval(a: int, b: int, confidence: float, method: str = "wilson-cc") -> tuple[float, float]:
    """(low, high) for the proportion a/b.

    "wilson-cc" is R's ``prop.test(a, b, conf.level)``: Wilson score with Yates' continuity
    correction min(0.5, |a - b/2|) (the paper's printed numbers, spec §7.3); "wald" is the
    formula printed in P§4, C -+ z sqrt(C(1-C)/b), clipped to [0, 1]; "clopper-pearson" is
    R's ``binom.test`` exact interval.
    """
    from scipy import stats as sps
    est = a / b
    z = float(sps.norm.ppf((1 + confidence) / 2))
    if method == "wald":
        r = z * math.sqrt(est * (1 - est) / b)
        return max(0.0, est - r), min(1.0, est + r)
    if method == "clopper-pearson":
        tail = (1 - confidence) / 2
        low = 0.0 if a == 0 else float(sps.beta.ppf(tail, a, b - a + 1))
        high = 1.0 if a == b else float(sps.beta.ppf(1 - tail, a + 1, b - a))
        return low, high
    yates = min(0.5, abs(a - b * 0.5))
    z22n = z * z / (2 * b)

    def bound(pc: float, sign: float) -> float:
        return (pc + z22n + sign * z * math.sqrt(pc * (1 - pc) / b + z22n / (2 * b))) / (1 + 2 * z22n)

    pc = est + yates / b
    high = 1.0 if pc >= 1 else bound(pc, +1)
    pc = est - yates / b
    low = 0.0 if pc <= 0 else bound(pc, -1)
    return max(low, 0.0), min(high, 1.0)


def needed_benchmarks(proportion: float, precision: float, confidence: float = 0.95) -> int:
    """Benchmarks to draw at random for a half-width ``precision`` (P§4, Jain): ceil(z^2 C(1-C)/r^2)."""
    from scipy import stats as sps
    if not 0 <= proportion <= 1:
        raise pr.ConfigError(f"proportion must lie in [0, 1], got {proportion!r}")
    if not precision > 0:
        raise pr.ConfigError(f"precision must be > 0, got {precision!r}")
    z = float(sps.norm.ppf((1 + confidence) / 2))
    return math.ceil(z * z * proportion * (1 - proportion) / precision ** 2 - 1e-9)


@attrs.define(repr=False)
class AcceleratedProportion(pr.Comparator):
    """Confidence interval of the proportion of benchmarks with a significant speedup (P§4).

    ``confidence`` is the interval's level; ``test_confidence`` the level of the per-benchmark
    Speedup-Tests it runs itself when no earlier ``speedup-test`` step (``step``, or the last
    one with the same ``statistic``) is in the pipeline.
    """

    name: ClassVar[str] = "accelerated-proportion"
    shorthands: ClassVar[tuple[str, ...]] = ("precision",)
    scope: ClassVar[str] = "suite"
    estimate_kind: ClassVar[str] = "probability"
    one_sided: ClassVar[bool] = True  # a share of accelerated benchmarks: a low one is no slowdown
    confidence: float = pr.confidence_param(help="level of the interval of the proportion")
    method: str = pr.choice_param("wilson-cc", *METHODS, help="binomial interval: Wilson with continuity "
                                  "correction, Wald or Clopper-Pearson")
    #: half-width wanted for the proportion's interval (its square divides: 1e-9 keeps it finite)
    precision: float = pr.float_param(0.05, minimum=1e-9, maximum=1.0, strict=True, help="wanted half-width of "
                                      "the interval, for the needed number of benchmarks")
    statistic: str = pr.choice_param("mean", "median", help="which Speedup-Test decides that a benchmark is "
                                     "accelerated: of the mean or of the median")
    test_confidence: float = pr.confidence_param(help="level of the per-benchmark Speedup-Tests this step runs "
                                                 "itself (without an earlier speedup-test step)")
    step: str | None = attrs.field(metadata={"help": "id of the speedup-test step whose decisions are counted "
                                             "(default: the last with the same statistic)"},
                                   default=None, validator=attrs.validators.optional(
        attrs.validators.instance_of(str)))

    def check_steps(self, step_id: str, earlier: Sequence[Any]) -> None:
        """``step`` must name an earlier Speedup-Test step with this step's ``statistic``: only its
        significance flags mean "accelerated" (a two-sided interval's flag also marks slowdowns)."""
        if self.step is None:
            return
        found = next((s for s in earlier if s.id == self.step), None)
        if found is None:
            ids = ", ".join(repr(s.id) for s in earlier) or "none"
            raise pr.ConfigError(f"step {step_id!r}: step = {self.step!r} is not an earlier step of the pipeline "
                                 f"(earlier steps: {ids})")
        if not isinstance(found.component, SpeedupTest):
            raise pr.ConfigError(f"step {step_id!r}: step = {self.step!r} runs {found.component.name!r}, not "
                                 f"{SpeedupTest.name!r}; the proportion counts the Speedup-Test's accelerated "
                                 "benchmarks (leave 'step' out to run the tests itself)")
        if found.component.statistic != self.statistic:
            raise pr.ConfigError(f"step {step_id!r}: step {self.step!r} tests the {found.component.statistic}, "
                                 f"this step's statistic is {self.statistic!r}; make them agree")

    def interval(self, accelerated: int, total: int) -> pr.Comparison:
        """The proportion accelerated/total with its interval, validity warning and needed benchmarks."""
        for value, what in ((accelerated, "accelerated"), (total, "total")):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise pr.ConfigError(f"{what} must be a non-negative integer, got {value!r}")
        accelerated, total = int(accelerated), int(total)
        if total == 0 or accelerated > total:
            raise pr.DataError(f"accelerated-proportion: need 0 <= accelerated <= total and total > 0, "
                               f"got {accelerated}/{total}")
        a, b = accelerated, total
        est = a / b
        low, high = proportion_interval(a, b, self.confidence, self.method)
        validity = a - a * a / b
        warnings = []
        if validity <= 5:
            warnings.append(f"the interval may not be accurate: the validity condition a(1-a/b) > 5 fails "
                            f"({a}(1-{a}/{b}) = {validity:.3g})")
        warnings.append(CAVEAT)
        needed = needed_benchmarks(est, self.precision, self.confidence)
        verdict = (f"{a} of {b} benchmarks accelerated ({est:.1%}); {self.confidence:.0%} interval of the "
                   f"proportion [{low:.3f}, {high:.3f}]")
        if needed > 0:
            verdict += f"; {needed} randomly drawn benchmarks would give a precision of +-{self.precision:g}"
        details = {"accelerated": a, "total": b, "method": self.method, "validity": validity,
                   "valid": validity > 5, "needed_benchmarks": needed if needed > 0 else None,
                   "precision": self.precision, "statistic": self.statistic}
        return pr.Comparison(estimate=est, ci_low=low, ci_high=high, confidence=self.confidence, pvalue=None,
                             significant=None, verdict=verdict, details=details, warnings=tuple(warnings))

    def needed_benchmarks(self, proportion: float, precision: float | None = None) -> int:
        """Benchmarks needed for a half-width ``precision`` (default: the ``precision`` parameter)."""
        return needed_benchmarks(proportion, self.precision if precision is None else precision, self.confidence)

    def _tester(self) -> SpeedupTest:
        return SpeedupTest(statistic=self.statistic, confidence=self.test_confidence)

    def _count(self, results: Mapping[str, pr.Result], source: str) -> pr.Comparison:
        flags = [r.significant for r in results.values()]
        res = self.interval(sum(1 for f in flags if f), len(flags))
        inconclusive = [b for b, r in results.items() if r.significant is None]
        extra = []
        if inconclusive:
            extra.append(f"{len(inconclusive)} benchmark(s) where the Speedup-Test cannot conclude count as not "
                         f"accelerated: {', '.join(inconclusive)}")
        details = {**res.details, "source": source,
                   "accelerated_benchmarks": [b for b, r in results.items() if r.significant]}
        return attrs.evolve(res, details=details, warnings=(*extra, *res.warnings))

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        base = pr.as_sample_mapping(baseline, "baseline")
        cand = pr.as_sample_mapping(candidate, "candidate")
        if set(base) != set(cand):
            raise pr.DataError(f"accelerated-proportion: the two systems do not have the same benchmarks "
                               f"(only baseline: {sorted(set(base) - set(cand))}, "
                               f"only candidate: {sorted(set(cand) - set(base))})")
        tester = self._tester()
        return self._count({b: tester.compare(base[b], cand[b]) for b in base}, "computed")

    def run_suite(self, suite: pr.Suite, baseline: str, candidate: str | None,
                  previous: Mapping[str, Any]) -> pr.Comparison:
        if candidate is None:
            raise pr.ConfigError(f"{self.name} compares two systems; {suite.source or 'the data'} holds only "
                                 f"{', '.join(map(repr, suite.systems))}")
        key = pr.pair_key(baseline, candidate)
        per_bench = previous.get("benchmarks", {})
        step = self.step or self._find_step(per_bench, key)
        if step is not None:
            found = {b: steps[step][key] for b, steps in per_bench.items() if key in steps.get(step, {})}
            missing = [b for b in suite.benchmarks if b not in found]
            if not found:  # the step failed on every benchmark (its errors say why): nothing to count
                raise pr.DataError(f"{self.name}: step {step!r} has no result for {str(key)!r} on any of the "
                                   f"{len(suite.benchmarks)} benchmark(s); nothing to count")
            res = self._count(found, f"step {step}")
            if missing:
                res = attrs.evolve(res, warnings=(f"{len(missing)} benchmark(s) without a result in step {step!r} "
                                                  f"left out: {', '.join(missing)}", *res.warnings))
            return res
        tester = self._tester()
        results = {b: tester.for_benchmark(suite.info.get(b)).compare(suite[b][baseline], suite[b][candidate])
                   for b in suite.benchmarks}
        return self._count(results, "computed")

    def _find_step(self, per_bench: Mapping[str, Mapping[str, Mapping[str, pr.Result]]], key: str) -> str | None:
        found = None
        for steps in per_bench.values():
            for step_id, by_key in steps.items():
                res = by_key.get(key)
                if (isinstance(res, pr.Comparison) and res.details.get("procedure") == "speedup-test"
                        and res.details.get("statistic") == self.statistic):
                    found = step_id  # dicts keep step order: the last matching step wins
        return found
