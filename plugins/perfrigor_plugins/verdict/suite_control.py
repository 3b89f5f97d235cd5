"""A suite's verdicts revised together: the dependence pooled over the benchmarks, the changes decided
together, and intervals that agree with the decisions.

1. **Pooled dependence** (``dependence = "suite"``): a suite measured by one harness shares its
   serial dependence; every benchmark's widening is re-estimated with the suite's evidence
   (:func:`.dependence.pooled`) and its answer recomputed (``Path.recipe``); with the dependence known, a
   short series' variance counts Bartlett's degrees of freedom, not the blocks count (:func:`bartlett_factor`).
2. **Decided together** (``suite_control``, :mod:`.multiplicity`): the p-values adjusted
   (Benjamini-Hochberg or Holm); a change counts only where its adjusted p-value reaches the level.
3. **Intervals that agree**: every interval is recomputed at the level that makes it the dual of
   the suite's decisions: Benjamini & Yekutieli's (2005) false-coverage-rate level 1 - R q / m
   under Benjamini-Hochberg (R changes found among m), 1 - q / (m - R) under Holm (the level of
   its last step). An interval then excludes no change exactly when the change was found, and
   the selected intervals cover their speedups but for a share q of them on average. An answer
   that cannot be recomputed (a third-party comparison) is rescaled on the log scale, and says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import perfrigor as pr

from . import dependence, multiplicity, paths, steady
from .reasons import answer_reason, disagreement_sentences
from .rules import FASTER, SAME, SLOWER, UNCLEAR, Answer, band, outcome

if TYPE_CHECKING:
    from .component import VerdictStep


def _samples(suite: pr.Suite, benchmark: str, pair: pr.PairKey, offsets: tuple[int, int]
             ) -> tuple[pr.Sample, pr.Sample]:
    """The steady runs a verdict compared (its offsets: warm-up left out)."""
    systems = suite[benchmark]
    old, new = systems[pair.baseline], systems[pair.candidate]
    return (old.with_values(old.values[offsets[0]:]) if offsets[0] else old,
            new.with_values(new.values[offsets[1]:]) if offsets[1] else new)


def recompute(recipe: Mapping[str, Any] | None, suite: pr.Suite, benchmark: str, pair: pr.PairKey,
              confidence: float) -> tuple[Answer | None, dict[str, Any] | None]:
    """A verdict's answer recomputed from its recipe at ``confidence`` (None when it cannot be), and the recipe
    as it now stands (a part whose statistic was "auto" records the one chosen)."""
    if recipe is None:
        return None, None
    if recipe["kind"] == "shift":
        offsets = _steady_offsets(recipe)
        old, new = _samples(suite, benchmark, pair, offsets)
        if recipe.get("top"):  # Kalibera & Jones: the top-level units' means (over their steady iterations)
            kept = recipe.get("kept") or (None, None)
            old, new = (pr.Sample(steady.top_means(s, k), unit=s.unit, lower_is_better=s.lower_is_better)
                        for s, k in zip((old, new), kept, strict=True))
        answer, results = paths.recompute_shift(recipe, old, new, offsets, confidence)
        parts = [{**p, "statistic": r.statistic} for p, r in zip(recipe["parts"], results, strict=True)]
        return answer, {**recipe, "parts": parts}
    if recipe["kind"] == "ratio":
        name = recipe["component"]
        registry = pr.get_registry().components
        if name not in registry or "confidence" not in registry[name].obj.param_names():
            return None, recipe
        old, new = _samples(suite, benchmark, pair, tuple(recipe.get("offsets", (0, 0))))
        try:
            res = pr.get(name, confidence=confidence).compare(old, new)
        except pr.DataError:
            return None, recipe
        return paths.answer_of(res), recipe
    return None, recipe


def _steady_offsets(recipe: Mapping[str, Any]) -> tuple[int, int]:
    """The leading runs (warm-up) every part of a shift recipe leaves out: its smallest starts."""
    parts = recipe["parts"]
    return (min(int(p["baseline"][0]) for p in parts), min(int(p["candidate"][0]) for p in parts))


def rescaled(verdict: pr.Verdict, level: float) -> Answer:
    """An interval that cannot be recomputed, rescaled on the log scale from its level to ``level``, with the p-value
    of that family of intervals (the test whose inversion it would be: normal quantiles)."""
    from scipy import special
    a = Answer(verdict.speedup, verdict.ci_low, verdict.ci_high, None, verdict.details.get("pvalue"))
    if a.speedup is None or a.ci_low is None or a.ci_high is None or a.speedup <= 0 or a.ci_low <= 0:
        return a
    centre = math.log(a.speedup)
    factor = float(special.ndtri(0.5 + level / 2) / special.ndtri(0.5 + (verdict.confidence or 0.95) / 2))
    low = math.exp(centre - factor * (centre - math.log(a.ci_low)))
    high = math.exp(centre + factor * (math.log(a.ci_high) - centre))
    return Answer(a.speedup, low, high, low > 1.0 or high < 1.0, a.pvalue)


def revise(step: VerdictStep, suite: pr.Suite, verdicts: Mapping[str, pr.Verdict],
           pairs: Mapping[str, pr.PairKey]) -> dict[str, pr.Verdict]:
    """Every verdict of the suite, revised (see the module docstring); ``pairs``: each one's systems."""
    answers: dict[str, Answer | None] = {}
    widenings: dict[str, dependence.Widening] = {}
    recipes: dict[str, dict] = {}
    if step.dependence == "suite":
        widenings, answers, recipes = _pool(suite, verdicts, pairs, step.confidence)
    names = list(verdicts)
    pvalues = []
    for b in names:
        a = answers.get(b)
        p = a.pvalue if a is not None else verdicts[b].details.get("pvalue")
        pvalues.append(float(p) if isinstance(p, int | float) and np.isfinite(p) else 1.0)
    method, m = step.suite_control, len(names)
    adjusted = multiplicity.adjusted_pvalues(pvalues, method)
    alpha = 1.0 - step.confidence
    level, found = multiplicity.interval_level(method, step.confidence, pvalues)
    out = {}
    for b, p_raw, p_adj in zip(names, pvalues, adjusted, strict=True):
        v = verdicts[b]
        recipe = recipes.get(b, v.details.get("recipe"))
        pooled = answers.get(b)
        base = pooled if pooled is not None else _answer(v)
        if abs(level - step.confidence) > 1e-12:
            at_level, _ = recompute(recipe, suite, b, pairs[b], level)
            interval_kind = "recomputed" if at_level is not None else "rescaled"
            if at_level is None:
                at_level = rescaled(attrs.evolve(v, speedup=base.speedup, ci_low=base.ci_low, ci_high=base.ci_high),
                                    level)
        else:
            at_level, interval_kind = base, "recomputed"
        control = {"method": method, "benchmarks": m, "pvalue": p_adj, "level": alpha, "interval_level": level,
                   "interval": interval_kind, "found": found}
        out[b] = _rebuilt(step, v, base, at_level, p_raw, p_adj < alpha, control, widenings.get(b), recipe)
    return out


def _answer(v: pr.Verdict) -> Answer:
    return Answer(v.speedup, v.ci_low, v.ci_high, v.details.get("significant"), v.details.get("pvalue"))


def _level_text(confidence: float, control: Mapping[str, Any]) -> str | None:
    """How the reasons name an interval at the suite's level: "95% over 14 benchmarks" (the report's legend
    and ``details["suite_control"]["interval_level"]`` give each interval's own level)."""
    if control["method"] == "none" or abs(control["interval_level"] - confidence) <= 1e-12:
        return None
    return f"{confidence:.0%} over {control['benchmarks']} benchmarks"


def _pool(suite: pr.Suite, verdicts: Mapping[str, pr.Verdict], pairs: Mapping[str, pr.PairKey], confidence: float
          ) -> tuple[dict[str, dependence.Widening], dict[str, Answer], dict[str, dict]]:
    """Every poolable verdict's widening with the suite's evidence, its answer recomputed with it (the statistic
    chosen anew: with less widening the ranks may reach the level where they could not), and its new recipe."""
    poolable = {b: v for b, v in verdicts.items()
                if (v.details.get("recipe") or {}).get("pool") and v.details.get("dependence")}
    if not poolable:
        return {}, {}, {}
    names = list(poolable)
    observations = [dependence.Observation.from_dict(poolable[b].details["dependence"]) for b in names]
    widenings = dict(zip(names, dependence.pooled(observations), strict=True))
    answers, recipes = {}, {}
    for b, o in zip(names, observations, strict=True):
        old = poolable[b].details["recipe"]
        w = widenings[b]
        answers[b], recipes[b] = recompute(_widened(old, w, o.n), suite, b, pairs[b], confidence)
        ratio = dependence.tail_ratio(answers[b].pvalue, w.mixture) if answers[b] is not None else 1.0
        if ratio > 1.0:  # the suite cannot place this benchmark's dependence: the tails of its posterior
            w = widenings[b] = attrs.evolve(w, taus=tuple(t * ratio for t in w.taus), tails=ratio)
            answers[b], recipes[b] = recompute(_widened(old, w, o.n), suite, b, pairs[b], confidence)
    return widenings, answers, recipes


def _widened(recipe: Mapping[str, Any], w: dependence.Widening, n: Sequence[int]) -> dict[str, Any]:
    """A verdict's recipe with the suite's widening (the statistic chosen anew)."""
    return {**recipe, "taus": list(w.taus), "precision": w.precision,
            "df_taus": [bartlett_factor(t, k) for t, k in zip(w.taus, n, strict=True)] if w.pooled else None,
            "parts": [{**p, "statistic": "auto"} for p in recipe["parts"]]}


def bartlett_factor(tau: float, n: int) -> float:
    """What a dependent series' run count is divided by for the degrees of freedom of its variance, once its
    dependence is known (pooled over the suite): Bartlett's (1946) Var s² ~ 2 sigma⁴ kappa / n, kappa = sum of
    the squared autocorrelations over all lags.

    Below 20 runs the verdict's long-run factor is an AR(1)'s (rho_k = phi^k, tau = (1 + phi)/(1 - phi)),
    whose kappa = (1 + phi²)/(1 - phi²) = (tau² + 1)/(2 tau): about half of tau for strong dependence, so
    n runs give a variance worth 2n/(tau + 1/tau) of them, not n/tau (the blocks count a benchmark alone
    keeps). From 20 runs the lag window reads dependence beyond lag 2 (runs grouped in invocations), for
    which Bartlett's large-sample formula overstates the degrees of freedom (30 runs in 3 invocations
    hold a variance of about 2): the blocks count, tau.
    """
    tau = max(1.0, float(tau))
    return tau if n >= 20 else (tau * tau + 1.0) / (2.0 * tau)


def _spread_note(n: Mapping[str, int], df_taus: Sequence[float] | None, taus: Sequence[float]) -> str:
    """The end of the widening's sentence over a suite: how many runs' worth each side's spread counts, where
    Bartlett's count (:func:`bartlett_factor`) gives more than the blocks count would."""
    if not df_taus or len(n) != len(df_taus) or all(k >= t - 1e-12 for k, t in zip(df_taus, taus, strict=True)):
        return ""
    sides = list(dict.fromkeys(f"{c / k:.0f} of {c}" for c, k in zip(n.values(), df_taus, strict=True)))
    worth = " and ".join(sides) + (" runs each" if len(sides) < len(n) else " runs")
    return f"; their spread is known as from {worth} (Bartlett's degrees of freedom)"


def _rebuilt(step: VerdictStep, v: pr.Verdict, base: Answer, at_level: Answer, p_raw: float, found: bool,
             control: dict, widening: dependence.Widening | None, recipe: dict | None) -> pr.Verdict:
    """The verdict with its pooled answer, its suite decision and its interval at the suite's level."""
    details = dict(v.details)
    details["recipe"] = recipe
    if widening is not None and recipe is not None and len(recipe["parts"]) == 1:  # the typical run, chosen anew
        details["statistic"] = recipe["parts"][0]["statistic"]
    notes = list(details.get("notes", []))
    if widening is not None:
        notes = [n for n in notes if not n.startswith((paths.WIDENING_NOTE, paths.OSCILLATION_NOTE))]
        note = paths.widening_note(widening)
        if note:
            notes.append(note + _spread_note(details.get("n") or {}, (recipe or {}).get("df_taus"), widening.taus))
        details["tau"] = list(widening.taus)
        details["widening"] = {"tau": widening.tau, "pooled": True, "tails": widening.tails}
    alone = UNCLEAR if details.get("unclear") else outcome(base, step.threshold)
    low_band, high_band = band(step.threshold)
    if details.get("unclear") or at_level.ci_low is None or at_level.ci_high is None:
        result = UNCLEAR
    elif low_band <= at_level.ci_low and at_level.ci_high <= high_band:
        result = SAME
    elif control["method"] == "none":
        result = outcome(at_level, step.threshold)
    elif found and (at_level.ci_low > 1.0 or at_level.ci_high < 1.0):
        result = FASTER if base.speedup > 1.0 else SLOWER
    else:
        result = UNCLEAR
    details.update(pvalue=p_raw, significant=base.significant, suite_control=control,
                   unadjusted={"outcome": alone, "ci_low": base.ci_low, "ci_high": base.ci_high,
                               "confidence": step.confidence})
    path = paths.Path(v.method, base, details.get("statistic", ""), details.get("baseline"),
                      details.get("candidate"), tuple(details.get("flags", ())), tuple(notes),
                      unclear=details.get("unclear"), details=details)
    n = min(details.get("n", {}).values() or [0])
    shown = attrs.evolve(path, answer=at_level)  # the interval the report shows, at the suite's level
    level = _level_text(step.confidence, control)
    if result == UNCLEAR and alone in (FASTER, SLOWER):
        first = answer_reason(path, alone, step.threshold, step.confidence, n)
    else:
        first = answer_reason(shown, result, step.threshold, step.confidence, n, level)
    flags = list(details.get("flags", []))
    if alone in (FASTER, SLOWER, SAME) and result != alone and control["method"] != "none":
        m, p_adj = control["benchmarks"], control["pvalue"]
        if alone == SAME:
            first = (f"not within ±{100 * step.threshold:.3g}% over the {m} benchmarks (the interval adjusted for "
                     f"the suite reaches beyond): {answer_reason(path, SAME, step.threshold, step.confidence, n)}")
        elif result == UNCLEAR:
            first = (f"not significant over the {m} benchmarks (adjusted p = {p_adj:.2g}, "
                     f"{multiplicity.SHORT[control['method']]}): {first}")
        flags.append("suite")
        details["unadjusted_outcome"] = alone
    details["flags"] = list(dict.fromkeys(flags))
    details["notes"] = notes
    if base.speedup is not None:
        details["change"] = pr.display.change(base.speedup, details.get("lower_is_better", True))
    reasons = tuple(dict.fromkeys([first, *notes, *disagreement_sentences(details.get("disagreements", []), result)]))
    return attrs.evolve(v, outcome=result, speedup=base.speedup, ci_low=at_level.ci_low, ci_high=at_level.ci_high,
                        reasons=reasons, details=details)
