"""The ``hpt`` suite comparator: HPT confidence, r-Speedup, and the GM-Speedup beside them."""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from . import levels
from .engine import BASELINE, CANDIDATE, Engine, Evaluation
from .scores import NORMALIZATIONS, Scores, prepare

WINNERS = {CANDIDATE: "candidate", BASELINE: "baseline", 0: "tie"}
#: the largest ``max_speedup``: the r-Speedup search holds a grid of 100 points per unit of speedup
MAX_SEARCH = 10_000.0


def _check_benchmark_confidence(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.5 < value < 1:
        raise ValueError(f"{attribute.name} must be None (the paper's 0.95 for >= 5 runs, else 0.90) "
                         f"or a level in (0.5, 1), got {value!r}")


def _conf(value: float) -> str:
    """A confidence with 4 decimals, or more when that would round it to 1 or 0."""
    text = f"{value:.4f}"
    return f"{value:.6g}" if text in ("1.0000", "0.0000") else text


def _names(items: list[str], limit: int = 5) -> str:
    return ", ".join(items[:limit]) + (f" and {len(items) - limit} more" if len(items) > limit else "")


@attrs.define(repr=False)
class HPT(pr.Comparator):
    """Hierarchical Performance Testing (Chen et al.): confidence and r-Speedup over a suite.

    ``compare(baseline, candidate)`` takes two mappings ``{benchmark: sample}`` and asks whether
    the candidate outperforms the baseline across the suite. Level 1: per benchmark, one-sided
    rank-sum tests both ways at ``benchmark_confidence``; a benchmark nobody wins gives d = 0,
    else d = difference of median scores. Level 2: signed-rank test on the d's (zeros split).
    ``pvalue`` is level 2's p-value with the candidate's scores divided by ``speedup``;
    ``estimate`` is the r-Speedup: the largest speedup (hundredths, from 1) still supported
    with ``confidence``; when even speedup 1 is not, the largest supported speedup below 1
    (0.99, 0.98, ...; None if there is none), with a warning saying so.
    """

    name: ClassVar[str] = "hpt"
    one_sided: ClassVar[bool] = True  # does the candidate outperform the baseline?
    scope: ClassVar[str] = "suite"

    confidence: float = pr.confidence_param()
    speedup: float = pr.float_param(1.0, minimum=0.0, strict=True)
    benchmark_confidence: float | None = attrs.field(default=None, validator=_check_benchmark_confidence)
    exact_rule: str = pr.choice_param("p-value", *levels.RULES)
    normalize: str = pr.choice_param("baseline-median", *NORMALIZATIONS)
    #: the search walks a grid of hundredths up to here: 10^4 (a million points) is far past any real speedup
    max_speedup: float = pr.float_param(100.0, minimum=1.0, maximum=MAX_SEARCH)

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        scores = prepare(baseline, candidate, self.normalize)
        engine = Engine(scores, self.benchmark_confidence, self.exact_rule)
        at = engine.evaluate(self.speedup)
        r_speedup, capped = engine.r_speedup(self.confidence, self.max_speedup)
        below = None if r_speedup is not None else engine.speedup_below_one(self.confidence)
        estimate = r_speedup if r_speedup is not None else below
        gm = engine.gm_speedup()
        at_gm = engine.evaluate(gm)
        reverse = self._reverse(scores) if r_speedup is None else None
        significant = at.confidence >= self.confidence - levels.EPS
        warnings = [*scores.notes, *self._limits(engine)]
        if capped:
            warnings.append(f"the search stopped at max_speedup = {self.max_speedup:g} with every step passing: "
                            f"the {self.confidence:g}-Speedup is at least that")
        if r_speedup is None:
            warnings.append(
                f"even at speedup 1 the HPT confidence that the candidate outperforms the baseline is "
                f"{_conf(engine.evaluate(1.0).confidence)} < {self.confidence:g}: no r-Speedup (>= 1) exists; "
                + (f"the estimate {below:.2f} is the largest speedup below 1 that HPT supports with that confidence"
                   if below is not None else "no speedup down to 0.01 is supported either, so there is no estimate"))
        details = self._details(scores, engine, at, r_speedup, capped, gm, at_gm, reverse)
        details["speedup_below_one"] = below
        return pr.Comparison(estimate=estimate, ci_low=None, ci_high=None, confidence=self.confidence,
                             pvalue=at.pvalue, significant=bool(significant),
                             verdict=self._verdict(scores, at, r_speedup, capped, below, gm, at_gm, reverse, significant),
                             details=details, warnings=tuple(warnings))

    # ------------------------------------------------------------------ pieces
    def _reverse(self, scores: Scores) -> dict[str, Any]:
        """Does the baseline outperform the candidate? (Reported when the candidate is not shown better.)"""
        engine = Engine(scores.swapped(), self.benchmark_confidence, self.exact_rule)
        r, capped = engine.r_speedup(self.confidence, self.max_speedup)
        return {"confidence": engine.evaluate(1.0).confidence, "r_speedup": r, "search_limit_reached": capped}

    def _limits(self, engine: Engine) -> list[str]:
        """Warnings when a level can never reach its significance level."""
        out = []
        cases = sorted({(int(a), int(b), float(al)) for a, b, al in zip(engine.m_c, engine.m_b, engine.alpha,
                                                                      strict=True)})
        for m_c, m_b, alpha in cases:
            if levels.min_level1_pvalue(m_c, m_b) > alpha + levels.EPS:
                names = [engine.scores.benchmarks[i] for i in np.flatnonzero(
                    (engine.m_c == m_c) & (engine.m_b == m_b) & (engine.alpha == alpha))]
                needed = next((m for m in range(1, levels.EXACT_RUNS + 1)
                               if levels.min_level1_pvalue(m, m) <= alpha + levels.EPS), None)
                takes = (f"at least {needed} runs per system" if needed is not None
                         else f"more than {levels.EXACT_RUNS} runs per system")
                out.append(f"benchmark(s) {_names(names)}: with {m_c} candidate and {m_b} baseline run(s) the "
                           f"rank-sum test can never reach confidence {1 - alpha:g}, so they always count as "
                           f"ties (d = 0); that takes {takes}")
        if levels.min_level2_pvalue(engine.n) > 1 - self.confidence + levels.EPS:
            out.append(f"with {engine.n} benchmark(s) the signed-rank test can never reach confidence "
                       f"{self.confidence:g} (at most {1 - levels.min_level2_pvalue(engine.n):.4g})")
        return out

    def _details(self, scores: Scores, engine: Engine, at: Evaluation, r_speedup: float | None, capped: bool,
                 gm: float, at_gm: Evaluation, reverse: dict | None) -> dict[str, Any]:
        tied = np.empty(engine.n, dtype=int)
        for g in engine.groups:
            tied[g.index] = levels.tied_values(np.concatenate([g.candidate / at.gamma, g.baseline], axis=1))
        per_bench = {}
        for i, name in enumerate(scores.benchmarks):
            m_c, m_b, u = int(engine.m_c[i]), int(engine.m_b[i]), float(at.u[i])
            per_bench[name] = {
                "runs": {"candidate": m_c, "baseline": m_b},
                "rank_sum_candidate": u + m_c * (m_c + 1) / 2,
                "rank_sum_baseline": m_c * m_b - u + m_b * (m_b + 1) / 2,
                "pvalue_candidate_better": float(at.pvalue_candidate[i]),
                "pvalue_baseline_better": float(at.pvalue_baseline[i]),
                "level1_method": "exact" if levels.is_exact_level1(m_c, m_b) else "normal",
                "benchmark_confidence": float(1 - engine.alpha[i]),
                "winner": WINNERS[int(at.winner[i])],
                "median_candidate": float(engine.med_candidate[i] / at.gamma),
                "median_baseline": float(engine.med_baseline[i]),
                "d": float(at.d[i]),
                "rank": float(at.ranks[i]),
                "median_speedup": float(engine.med_candidate[i] / engine.med_baseline[i]),
                "tied_runs": int(tied[i]),
            }
        wins = {name: int(np.sum(at.winner == code)) for code, name in WINNERS.items()}
        exact2 = engine.n < levels.EXACT_BENCHMARKS
        return {
            "speedup": at.gamma,
            "confidence_at_speedup": at.confidence,
            "r_speedup": r_speedup,
            "search_limit_reached": capped,
            "R_A": at.r_a,
            "R_B": at.r_b,
            "n_benchmarks": engine.n,
            "level2_method": "exact" if exact2 else "normal",
            "z_B": None if exact2 else float(levels.level2_z(at.r_b, engine.n)),
            "wins": wins,
            "gm_speedup": gm,
            "gm_speedup_confidence": at_gm.confidence,
            "reverse": reverse,
            "scores": ("reference / time" if scores.lower_is_better else "value / reference")
            + {"baseline-median": ", reference = the baseline's median of each benchmark",
               "baseline-first": ", reference = the baseline's first run of each benchmark",
               "none": " with reference 1"}[self.normalize],
            "exact_rule": self.exact_rule,
            "benchmarks": per_bench,
        }

    def _verdict(self, scores: Scores, at: Evaluation, r_speedup: float | None, capped: bool, below: float | None,
                 gm: float, at_gm: Evaluation, reverse: dict | None, significant: bool) -> str:
        n = len(scores)
        w = [int(np.sum(at.winner == c)) for c in (CANDIDATE, BASELINE, 0)]
        tally = (f"{n} benchmark{'s' * (n != 1)} at speedup {at.gamma:g}: {w[0]} candidate win{'s' * (w[0] != 1)}, "
                 f"{w[1]} baseline win{'s' * (w[1] != 1)}, {w[2]} tie{'s' * (w[2] != 1)}")
        claim = ("the candidate outperforms the baseline" if at.gamma == 1
                 else f"the candidate is more than {at.gamma:g} times "
                      f"{'faster than' if at.gamma > 1 else 'as fast as'} the baseline")
        r = f"{self.confidence:g}"
        if significant:
            head = f"HPT: {claim} with confidence {_conf(at.confidence)} (>= {r}; {tally})."
        else:
            head = f"HPT cannot conclude that {claim}: confidence {_conf(at.confidence)} < {r} ({tally})."
        if capped:
            speed = f" {r}-Speedup at least {r_speedup:.2f} (the search limit max_speedup)."
        elif r_speedup is not None:
            speed = f" {r}-Speedup {r_speedup:.2f}: the largest speedup HPT supports with confidence >= {r}."
        else:
            speed = f" No {r}-Speedup: even speedup 1 is not supported with confidence {r}."
            if below is not None:
                speed += (f" Below 1, HPT supports 'the candidate is more than {below:.2f} times as fast' "
                          f"with confidence {r} (the estimate).")
            if reverse and reverse["r_speedup"] is not None:
                speed += (f" The baseline outperforms the candidate with confidence {_conf(reverse['confidence'])}; "
                          f"it is at least {reverse['r_speedup']:.2f} times faster with confidence {r}.")
        gm_text = (f" Geometric-mean speedup {gm:.3f} (the usual single number, which the paper criticises): "
                   f"HPT confidence {_conf(at_gm.confidence)} that the candidate is that much faster.")
        return head + speed + gm_text
