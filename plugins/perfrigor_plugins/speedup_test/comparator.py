"""``speedup-test``: is the observed speedup of the mean (or median) statistically significant?

Touati, Worms & Briais (2013), P§3.1 (mean: Shapiro-Wilk, F, Student/Welch) and P§3.2
(median: Kolmogorov-Smirnov location-shift check, Wilcoxon-Mann-Whitney). Three outcomes:
significant, not significant, cannot conclude (``significant=None``, the reason as a warning).
Its ``summarize`` gives the suite's weighted overall speedup and gain (P§2 eqs. 1-2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .hypothesis_tests import flat_values
from .procedure import (
    CANNOT_CONCLUDE,
    SIGNIFICANT,
    Decision,
    Options,
    decide,
    max_confidence,
    pvalues,
)

STATISTICS = ("min", "mean", "median")
_TEST_NAMES = {"student-t": "one-sided Student t test", "welch-t": "one-sided Welch t test",
               "wilcoxon-mann-whitney": "one-sided Wilcoxon-Mann-Whitney test"}


def summary_value(values: np.ndarray, statistic: str, lower_is_better: bool) -> float:
    """ExecutionTime(C, I) of P§2: the sample's min (its best value), mean or median."""
    if statistic == "min":
        return float(values.min() if lower_is_better else values.max())
    return float(values.mean() if statistic == "mean" else np.median(values))


def observed_speedups(x: np.ndarray, y: np.ndarray, lower_is_better: bool) -> dict[str, float]:
    """spmin, spmean, spmedian (P§2): baseline/candidate for times, candidate/baseline otherwise."""
    out = {}
    for stat in STATISTICS:
        b, c = summary_value(x, stat, lower_is_better), summary_value(y, stat, lower_is_better)
        out[f"sp{stat}"] = b / c if lower_is_better else c / b
    return out


@attrs.define(repr=False)
class SpeedupTest(pr.Comparator):
    """The Speedup-Test: is the speedup of the mean or of the median significant at ``confidence``?

    Parameters: ``statistic`` ("mean" or "median"), ``confidence`` (1 - alpha, used by every
    auxiliary test too), ``large`` (samples are large when both have more runs than this),
    ``large_variance_check`` (F test also for large samples), ``small_shift``
    (Kolmogorov-Smirnov rejects on small samples: "cannot-conclude" or "warn"), ``weight``
    (overall speedup of a suite: "custom" = the suite's weights, "equal", or "fraction" =
    the baseline's own statistic, as the original tool).
    """

    name: ClassVar[str] = "speedup-test"
    shorthands: ClassVar[tuple[str, ...]] = ("weight",)
    one_sided: ClassVar[bool] = True  # tests "the candidate is faster" only
    statistic: str = pr.choice_param("mean", "median",
                                     help="whose speedup is tested: the mean's or the median's")
    confidence: float = pr.confidence_param(help="level of the decision and of every auxiliary test (1 - "
                                                 "alpha)")
    large: int = pr.int_param(30, minimum=2,
                              help="samples are large when both have more runs than this (the t test is "
                                   "then admitted)")
    large_variance_check: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool), metadata={
        "help": "run the F test of equal variances for large samples too"})
    small_shift: str = pr.choice_param("cannot-conclude", "warn",
                                       help="what a Kolmogorov-Smirnov rejection on small samples does: "
                                            "'cannot-conclude' or 'warn'")
    weight: str = pr.choice_param("custom", "equal", "fraction",
                                  help="suite's overall speedup: 'custom' (the suite's weights), 'equal', "
                                       "or 'fraction' (the baseline's own statistic, as the original tool)")
    #: where ``confidence`` came from: "parameter", or "benchmark" (a suite row's own level)
    confidence_source: str = attrs.field(default="parameter", init=False, eq=False)

    @property
    def options(self) -> Options:
        return Options(large=self.large, large_variance_check=self.large_variance_check,
                       small_shift=self.small_shift)

    def for_benchmark(self, info: Any) -> SpeedupTest:
        level = getattr(info, "confidence", None)
        if level is None:
            return self
        twin = attrs.evolve(self, confidence=level)
        twin.confidence_source = "benchmark"
        return twin

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        bs, cs = pr.as_sample(baseline, what="baseline"), pr.as_sample(candidate, what="candidate")
        if bs.lower_is_better != cs.lower_is_better:
            raise pr.DataError(f"{bs.label} and {cs.label} disagree on the metric's direction (lower_is_better)")
        for s, who in ((bs, "baseline"), (cs, "candidate")):
            s.require_positive(who)
            s.require_size(2, who)
        lower = bs.lower_is_better
        x, y = flat_values(bs), flat_values(cs)
        n, m = x.size, y.size
        alpha = 1.0 - self.confidence
        p = pvalues(x, y, self.statistic, lower)
        decision = decide(p, n, m, alpha, self.statistic, self.options)
        best = max_confidence(lambda a: decide(p, n, m, a, self.statistic, self.options).status == SIGNIFICANT)
        speedups = observed_speedups(x, y, lower)
        estimate = speedups[f"sp{self.statistic}"]
        details = {
            "procedure": "speedup-test",
            "statistic": self.statistic,
            "status": decision.status,
            "branch": decision.branch,
            "test": decision.test,
            "n_baseline": int(n), "n_candidate": int(m),
            **speedups,
            "pvalues": {k: v for k, v in p.items() if k not in ("errors", "wmw_warnings")},
            "failed_checks": dict(p["errors"]),
            "max_confidence": best,
            "confidence_source": self.confidence_source,
            "lower_is_better": lower,
        }
        warnings = list(decision.warnings)
        nested = [f"{who} {s.shape}" for s, who in ((bs, "baseline"), (cs, "candidate")) if s.is_hierarchical]
        if nested:  # the Speedup-Test's runs are i.i.d.: pooled nested runs overstate the evidence
            warnings.append(f"hierarchical samples ({', '.join(nested)}) pooled into independent runs: the "
                            "Speedup-Test ignores the variance between builds/invocations, so its p-values are "
                            "too small; read fieller or bootstrap-ratio (Kalibera & Jones) for this data")
        if self.statistic == "median" and decision.significant:
            details["prob_candidate_faster_gt_half"] = True  # P§3.2: the same test shows P[X > Y] > 1/2
        return pr.Comparison(estimate=estimate, ci_low=None, ci_high=None, confidence=self.confidence,
                             pvalue=decision.pvalue, significant=decision.significant,
                             verdict=self._verdict(decision, estimate, best), details=details,
                             warnings=tuple(warnings))

    def _verdict(self, d: Decision, estimate: float, best: float | None) -> str:
        of = f"speedup of the {self.statistic} {estimate:.3f}"
        level = f"{self.confidence:.0%} confidence"
        if estimate < 1.0 and d.status != SIGNIFICANT:
            # a one-sided test for a speedup says nothing about a slowdown: more runs would not make
            # this a speedup, so never advise them; say which way it looks and who answers that
            if d.status == CANNOT_CONCLUDE:
                why = (d.warnings[0] if d.warnings else "a check failed").split(": collect")[0].split("; collect")[0]
                said = f"and cannot conclude here: {why}"
            else:
                said = f"and it is not: {_TEST_NAMES.get(d.test or '', d.test)} p = {d.pvalue:.3g}"
            return (f"the candidate looks slower: {of} < 1 (the Speedup-Test only asks whether the candidate is "
                    f"faster, {said}); whether it is significantly slower is the verdict's two-sided answer")
        if d.status == CANNOT_CONCLUDE:
            return f"{of}: cannot conclude at {level}: {d.warnings[0] if d.warnings else 'a check failed'}"
        test = f"{_TEST_NAMES.get(d.test or '', d.test)} p = {d.pvalue:.3g}"
        if d.status == SIGNIFICANT:
            extra = " (and a run of the candidate is more likely faster than one of the baseline)" \
                if self.statistic == "median" else ""
            return f"{of} is significant at {level} ({test}){extra}"
        hint = (f"; highest level where it holds: {best:.0%}" if best is not None
                else "; no confidence level above 50% makes it significant")
        return f"{of} is NOT significant at {level} ({test}){hint}: do not claim it, or collect more runs"

    # ------------------------------------------------------------------ suite summary
    def summarize(self, suite: pr.Suite, results: Mapping[str, Mapping[str, pr.Result]]) -> pr.SuiteSummary | None:
        """Weighted overall speedup and gain of the min, mean and median (P§2 eqs. 1-2)."""
        rows = []
        for bench, by_key in results.items():
            for key, res in by_key.items():
                if isinstance(key, pr.PairKey) and isinstance(res, pr.Comparison):
                    rows.append((bench, suite[bench][key.baseline], suite[bench][key.candidate], res))
        if not rows:
            return None
        return overall(rows, suite, self.weight, self.statistic)


def overall(rows: list[tuple[str, pr.Sample, pr.Sample, pr.Comparison]], suite: pr.Suite | None,
            weight: str, statistic: str) -> pr.SuiteSummary:
    """Overall speedup S and gain G = 1 - 1/S with one weight per benchmark (spec §1.2).

    G = sum w (x - y) / sum w x with x, y the baseline's and candidate's ExecutionTime
    (min, mean or median); for higher-is-better data S = sum w y / sum w x.
    """
    warnings: list[str] = []
    custom = {b: (suite.weight(b) if suite is not None else None) for b, *_ in rows}
    mode = weight
    if weight == "custom":
        given = [w for w in custom.values() if w is not None]
        if not given:
            mode = "equal"
        elif len(given) < len(custom) or any(w < 0 for w in given) or sum(given) <= 0:
            warnings.append("custom weights are missing, negative or sum to zero for some benchmarks: "
                            "equal weights used instead (as the original tool)")
            mode = "equal"
    by_stat: dict[str, dict[str, float]] = {}
    weights: dict[str, dict[str, float]] = {}
    for stat in STATISTICS:
        num = den = 0.0
        for bench, bs, cs, _res in rows:
            lower = bs.lower_is_better
            xb = summary_value(flat_values(bs), stat, lower)
            yc = summary_value(flat_values(cs), stat, lower)
            w = {"equal": 1.0, "custom": custom[bench], "fraction": xb}[mode]
            weights.setdefault(bench, {})[stat] = float(w)
            if lower:
                num, den = num + w * xb, den + w * yc
            else:
                num, den = num + w * yc, den + w * xb
        speedup = num / den
        by_stat[stat] = {"speedup": speedup, "gain": 1.0 - 1.0 / speedup}
    significant = sum(1 for *_, r in rows if r.significant)
    head = by_stat[statistic]
    words = {"equal": "equal weights", "custom": "the suite's weights",
             "fraction": "weights = the baseline's own statistic"}[mode]
    text = (f"overall speedup of the {statistic} {head['speedup']:.3f} (gain {head['gain']:.1%}) over "
            f"{len(rows)} benchmark(s), {words}; {significant} of {len(rows)} speedups significant")
    values = {"statistic": statistic, "weight": mode, "overall_speedup": head["speedup"],
              "overall_gain": head["gain"], "by_statistic": by_stat, "weights": weights,
              "significant": significant, "total": len(rows),
              "benchmarks": [b for b, *_ in rows]}
    return pr.SuiteSummary(title=f"Overall speedup (ExecutionTime={statistic})", values=values, text=text,
                           warnings=tuple(warnings))
