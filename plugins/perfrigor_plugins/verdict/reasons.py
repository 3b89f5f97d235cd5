"""The sentences of a verdict: the answer first, then what the diagnostics saw, then why other steps differ."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import perfrigor as pr

from .rules import FASTER, SAME, SLOWER, UNCLEAR, outcome, runs_needed

if TYPE_CHECKING:
    from .paths import Path, Settings

#: components whose answer is about means (they move with a slow tail or with the modes' shares)
MEAN_BASED = ("fieller", "bootstrap-ratio", "mean-difference")


def pct(speedup: float) -> str:
    """A speedup as a factor, whichever way: "1.061x faster" (1.061), "1.11x slower" (0.9).

    A factor rather than a percentage: the report's change column gives the metric's relative
    change (time -5.8% for 1.061x faster), and two percentages of different bases side by side mislead.
    """
    if speedup == math.inf:  # an interval's end at a level near 1 on very few degrees of freedom
        return "any factor faster"
    if speedup >= 1.0:
        return f"{_num(speedup)}x faster"
    if speedup <= 0.0:  # an interval's end at confidence near 1 (e.g. 1 - 1e-16): no bound on the slowdown
        return "any factor slower"
    return f"{_num(1.0 / speedup)}x slower"


def _num(x: float) -> str:
    """4 significant digits (3 from 10x), more for a factor that would read as a bare "1" but is not 1."""
    if x >= 10:
        return f"{x:.3g}"
    digits = 4
    while f"{x:.{digits}g}" == "1" and x != 1.0 and digits < 10:
        digits += 1
    return f"{x:.{digits}g}"


def between(low: float, high: float) -> str:
    """An interval of speedups in words, its ends in reading order.

    "between 1.2x and 1.3x faster"; "between 1.217x and 1.233x slower" (not "1.233x slower
    to 1.217x slower"); "between 1.5x slower and 1.5x faster" when it holds both.
    """
    if low >= 1.0:
        return f"between {_num(low)}x and {pct(high)}"
    if high < 1.0 and low > 0.0:
        return f"between {_num(1.0 / high)}x and {pct(low)}"
    return f"between {pct(low)} and {pct(high)}"


def said(path: Path, settings: Settings) -> str:
    """A path's answer in a few words, as the first reason would give it."""
    return answer_reason(path, outcome(path.answer, settings.threshold), settings.threshold, settings.confidence, 0)


def answer_reason(path: Path, outcome: str, threshold: float, confidence: float, n: int,
                  level: str | None = None) -> str:
    """The first reason: the answer in a few words (the table's "why"); ``level`` names the interval's level
    (default: "95%")."""
    a = path.answer
    at = level or f"{confidence:.0%}"
    p = f" (p = {a.pvalue:.2g})" if a.pvalue is not None else ""
    if outcome in (FASTER, SLOWER):
        what = "typical run" if path.statistic == "median" else path.statistic
        return f"{what} {pct(a.speedup)}{p}"
    if outcome == SAME:
        return f"within ±{threshold:.3g}: {between(a.ci_low, a.ci_high)} at {at}".replace(
            f"±{threshold:.3g}", f"±{100 * threshold:.3g}%")
    if path.unclear:
        return path.unclear
    if a.ci_low is None or a.ci_high is None:
        if any(t > 1.0 for t in path.details.get("tau") or ()):  # the widened interval cannot reach the level
            return f"no {at} interval: too few independent runs (serially dependent)"
        return f"no {at} interval from these runs"
    need = runs_needed(n, a.ci_low, a.ci_high, threshold)
    more = f"; about {need} runs per system would tell" if need and n < need <= 10 * n else ""
    return f"{between(a.ci_low, a.ci_high)} at {at}: too uncertain to tell{more}"


def disagreements(path: Path, outcome: str, comparisons: Mapping[str, tuple[str, pr.Comparison]],
                  sample: pr.Sample, n: int, threshold: float) -> list[dict]:
    """One record per kind of disagreement: which steps answer otherwise ("says"), and why the verdict does not
    follow (``disagreement_sentences`` words them for the outcome the verdict ends with)."""
    registry = pr.get_registry().components
    groups: dict[str, list[tuple[str, str, pr.Comparison]]] = {}
    for step_id, (component, res) in comparisons.items():
        if step_id == path.method:
            continue
        rec = registry.get(component)
        cls = rec.obj if rec is not None else None
        if getattr(cls, "estimate_kind", "speedup") != "speedup" or getattr(cls, "scope", "benchmark") != "benchmark":
            continue
        theirs = pr.conclusion(res, "speedup", bool(getattr(cls, "one_sided", False)))
        if theirs not in (FASTER, SLOWER, "no change"):
            continue
        groups.setdefault(theirs, []).append((step_id, component, res))
    return [{"steps": [s for s, _, _ in items], "says": theirs, "estimate": items[0][2].estimate,
             "why": _why(path, outcome, [c for _, c, _ in items], sample, n, threshold)}
            for theirs, items in groups.items()]


def disagreement_sentences(records: list[dict], outcome: str) -> list[str]:
    """The records that disagree with ``outcome``, in words: "fieller, bootstrap-ratio say no change: ..."."""
    ours = {FASTER: FASTER, SLOWER: SLOWER, SAME: "no change", UNCLEAR: None}[outcome]
    out = []
    for r in records:
        theirs = r["says"]
        if theirs == ours or (theirs == "no change" and outcome == UNCLEAR):
            continue
        verb = "say" if len(r["steps"]) > 1 else "says"
        said = theirs if theirs not in (FASTER, SLOWER) else f"{theirs} ({pct(r['estimate'])})"
        out.append(f"{', '.join(r['steps'])} {verb} {said}: {r['why']}")
    return out


#: the sentences of _why spoken of several steps at once ("fieller, bootstrap-ratio say no change: ...")
PLURAL = {"it treats": "they treat", "its mean includes": "their means include", "it mixes": "they mix",
          "it assumes": "they assume", "it answers for the mean": "they answer for the mean",
          "it answers another question": "they answer another question"}


def _why(path: Path, outcome: str, components: list[str], sample: pr.Sample, n: int, threshold: float) -> str:
    why = _why_one(path, outcome, components, sample, n, threshold)
    if len(components) > 1:
        for one, many in PLURAL.items():
            if why.startswith(one):
                return many + why[len(one):]
    return why


def _why_one(path: Path, outcome: str, components: list[str], sample: pr.Sample, n: int, threshold: float) -> str:
    mean_based = all(c in MEAN_BASED for c in components)
    if "hierarchical" in path.flags and not mean_based:
        return (f"it treats all {n} runs as independent, but they come in {sample.levels[0]}s "
                f"(Kalibera & Jones: compare the {sample.levels[0]} means)")
    if "warmup" in path.flags and mean_based:
        return "its mean includes the warm-up runs, which the verdict leaves out"
    if "multimodal" in path.flags:
        shares = path.details.get("shares", "")
        if mean_based:
            return f"the mean moves with the modes' shares ({shares})" if shares else "the mean mixes the modes"
        return "it mixes the modes"
    if "dependence" in path.flags:
        return "it assumes independent runs; these are serially dependent"
    if outcome == SAME:
        return f"a change that small (within ±{100 * threshold:.3g}%) does not count"
    if mean_based and path.statistic == "median" and _slow_tail(sample):
        return "the mean weighs the slow runs that the typical run ignores"
    if mean_based:
        return "it answers for the mean, the verdict for the typical run; their intervals differ in width"
    return "it answers another question"


def _slow_tail(sample: pr.Sample) -> bool:
    """Whether some runs lie far on the slow side (beyond 3 robust spreads above the median): outliers a mean weighs."""
    v = sample.flat
    centre = float(np.median(v))
    spread = 1.4826 * float(np.median(np.abs(v - centre)))
    slow = (v - centre) if sample.lower_is_better else (centre - v)
    return bool(spread > 0 and (slow > 3.0 * spread).any())
