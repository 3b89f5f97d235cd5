"""The ways the verdict answers, each chosen when its assumptions hold for the data.

- one run on a side (``lonely``): the ratio, no interval, "unclear";
- hierarchical samples: Kalibera & Jones, Fieller's interval of the ratio of the top-level
  means (the runs within a unit are not independent replicates);
- flat samples: warm-up runs left out (``without_warmup``) and the serial dependence measured
  (``widening``), then
  - several clear modes (``modes``): the shift within the dominant mode; a change of the modes'
    shares alone is "unclear";
  - otherwise the typical run (``ranks``): the Hodges-Lehmann shift of log values with the
    rank-sum interval (the Speedup-Test's Wilcoxon-Mann-Whitney test, inverted), widened by the
    autocorrelation times; Yuen's trimmed means for dependent runs from 20 on; Welch's means of
    logs where no rank test can reach the level; or Fieller's interval of the means (``means``)
    when the configured statistic is the mean and the runs are independent.
The rules of docs/methods/verdict.md, in code.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from .evidence import Evidence, Found, independence_of
from .rules import Answer, interval_from_shift, speedup_from_shift

#: below this many runs the lag-1 test at 10% misses too much (A/A false alarms of 12% on AR(1) runs at
#: n = 10): there the dependence counts from p < SMALL_GATE (6%; calibration, docs/methods/verdict.md)
SMALL_SERIES = 20
SMALL_GATE = 0.3
#: share trimmed from each end for Yuen's means of dependent runs: enough for rare outliers, and keeps
#: 8 of 10 runs (20% kept 6: intervals twice as wide at n = 10 for the same false-alarm rate)
TRIM = 0.1


@attrs.frozen
class Path:
    """One path's answer and what a person needs to read it."""

    method: str
    answer: Answer
    statistic: str
    baseline: float | None
    candidate: float | None
    flags: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # diagnostics worth a sentence (dependence, drift, warm-up, modes)
    unclear: str | None = None  # when set, the outcome is "unclear" for this reason, whatever the interval
    details: dict[str, Any] = attrs.field(factory=dict)


def _significant(low: float | None, high: float | None) -> bool | None:
    if low is None or high is None:
        return None
    return low > 1.0 or high < 1.0


def _within_threshold(res: pr.RatioComparison) -> str | None:
    """Why a ratio interval's change does not count although it excludes no change: its step was given a
    practical threshold (fieller's or bootstrap-ratio's) and cannot tell whether the change exceeds it."""
    if res.decision == "inconclusive" and _significant(res.ci_low, res.ci_high):
        return res.verdict.split(": ", 1)[0]  # "candidate slower, but cannot tell whether by more than ..."
    return None


def hierarchical(old: pr.Sample, new: pr.Sample, ev: Evidence) -> Path:
    """Kalibera & Jones: Fieller's interval on the top-level means."""
    found = ev.fieller
    flags, notes = ["hierarchical"], []
    for who, f in zip(("baseline", "candidate"), ev.independence, strict=True):
        res = f.result if f is not None else None
        if res is None:
            continue
        top = getattr(res, "top", None)
        if top is not None and getattr(top, "dependent", False):
            flags.append("dependence")
            notes.append(f"{who}'s {top.level}s are serially dependent (lag-1 autocorrelation {top.lag1:.2f})")
        if top is not None and getattr(top, "trending", False):
            flags.append("trend")
            notes.append(f"{who}'s {top.level}s drift {top.drift:+.1%} over the experiment")
        if getattr(res, "warmup", 0):
            notes.append(f"{who}: the first {res.warmup} {res.runs.level}(s) of every {old.levels[-2]} stand out "
                         f"({res.warmup_change:+.1%}): warm-up, drop them")
    level = old.levels[0]
    if found is None or found.result is None:
        why = found.error if found is not None else "no fieller component is registered"
        return Path("fieller", Answer(None, None, None, None), f"{level} mean", None, None, tuple(flags),
                    tuple(notes), unclear=f"Kalibera & Jones' interval cannot be computed: {why}")
    res = found.result
    answer = Answer(res.estimate, res.ci_low, res.ci_high, _significant(res.ci_low, res.ci_high), res.pvalue)
    n_top = res.n_top or {}
    return Path(found.source, answer, f"mean of {n_top.get('baseline', old.shape[0])} {level}s",
                res.baseline_mean, res.candidate_mean, tuple(dict.fromkeys(flags)),
                tuple(notes), unclear=_within_threshold(res), details={"n_top": dict(n_top)})


def without_warmup(samples: dict[str, pr.Sample], ev: Evidence) -> tuple[dict[str, pr.Sample], list[str]]:
    """Flat samples without the leading runs the independence check calls warm-up, and a note per system."""
    out, notes = dict(samples), []
    for (system, sample), f in zip(samples.items(), ev.independence, strict=True):
        warm = getattr(f.result, "warmup", 0) if f is not None and f.result is not None else 0
        if warm and not sample.is_hierarchical and len(sample) - warm >= 2:
            out[system] = sample.with_values(sample.values[warm:])
            runs = "the first run" if warm == 1 else f"the first {warm} runs"
            notes.append(f"{system}: {runs} ({f.result.warmup_change:+.0%}) look{'s' if warm == 1 else ''} like "
                         f"warm-up: compared without {'it' if warm == 1 else 'them'}")
    return out, notes


def widening(ev: Evidence) -> tuple[tuple[float, float], list[str], list[str], bool]:
    """(tau_baseline, tau_candidate), flags, notes, dependent: how much to widen a flat interval."""
    taus, flags, notes, dependent = [], [], [], False
    for who, f in zip(("baseline", "candidate"), ev.independence, strict=True):
        res = f.result if f is not None else None
        runs = getattr(res, "runs", None)
        if runs is None or not runs.checked:
            taus.append(1.0)
            continue
        small = runs.n < SMALL_SERIES and runs.lag1_pvalue is not None and runs.lag1_pvalue < SMALL_GATE
        taus.append(float(runs.tau) if runs.dependent or small else 1.0)
        if taus[-1] > 1.0:
            dependent = True
            flags.append("dependence")
            verb = "are" if runs.dependent else f"may be (fewer than {SMALL_SERIES} runs: a loose check)"
            notes.append(f"{who}'s runs {verb} serially dependent (lag-1 autocorrelation {runs.lag1:.2f}): "
                         f"its {runs.n} runs count as about {runs.n_eff:.0f} independent ones")
        if runs.trending:
            flags.append("trend")
            notes.append(f"{who}'s runs drift {runs.drift:+.1%} from first to last: interleave the systems' "
                         "runs or warm the machine up first")
    return (taus[0], taus[1]), flags, notes, dependent


def ranks(old: pr.Sample, new: pr.Sample, confidence: float, method: str,
          taus: tuple[float, float], flags: list[str], notes: list[str]) -> Path:
    """The typical run's shift, on log values: the Hodges-Lehmann shift with its rank-sum interval;
    Yuen's trimmed means widened by the autocorrelation times for dependent runs; Welch's means
    of logs where too few runs leave a rank test no chance at the level (3 per side at 95%).
    """
    x, y = old.flat, new.flat
    dependent = max(taus) > 1.0
    alpha = 1.0 - confidence
    resolution = _resolution(np.concatenate([x, y]))
    tiny = pr.stats.rank_sum_min_pvalue(x.size, y.size) > alpha  # no rank test can reach the level
    if dependent and min(x.size, y.size) >= SMALL_SERIES:  # a rank test loses the size of a change, trimmed means keep it
        shift = pr.stats.yuen_shift(np.log(x), np.log(y), confidence, inflation=taus, trim=TRIM,
                                    rounding=resolution or 0.0)
        notes.append("the interval (trimmed means) is widened for the runs' serial dependence")
        statistic = "trimmed geometric mean"
    elif tiny and not dependent:  # the means of log values, which assume roughly normal noise, are all that is left
        flags.append("tiny")
        shift = pr.stats.yuen_shift(np.log(x), np.log(y), confidence, trim=0.0, rounding=resolution or 0.0)
        notes.append(f"{x.size} and {y.size} runs are too few for a rank test at {confidence:.0%}: compared on "
                     "the means of log times (Welch), which assume roughly normal noise; run more to be safe")
        statistic = "geometric mean"
    else:  # rank-sum interval (widened by tau below 20 runs: t quantiles of 1 or 2 df make absurd means)
        shift = pr.stats.hodges_lehmann(np.log(x), np.log(y), confidence, inflation=taus)
        statistic = "median"
        if dependent:
            notes.append("the interval is widened for the runs' serial dependence")
    lib = old.lower_is_better
    low, high = interval_from_shift(shift.ci_low, shift.ci_high, lib)
    significant = shift.pvalue < alpha
    if resolution is not None and low is not None:
        flags.append("resolution")
        if not (dependent or tiny):  # the rank interval knows nothing of the grid: half a step either way
            low, high = low / (1.0 + resolution / 2), high * (1.0 + resolution / 2)
            significant = significant and (low > 1.0 or high < 1.0)
        notes.append(f"the values sit on a grid of {resolution:.2%} of their size (the timer's resolution)")
    answer = Answer(speedup_from_shift(shift.estimate, lib), low, high, significant, shift.pvalue)
    # each side's value of the statistic the change is computed from (a row must not show medians beside
    # a change of geometric means): the Hodges-Lehmann shift is the medians'; Yuen's and Welch's shifts
    # are the differences of (trimmed) means of logs, i.e. ratios of (trimmed) geometric means
    if statistic == "median":
        central = float(np.median(x)), float(np.median(y))
    else:
        trim = TRIM if statistic == "trimmed geometric mean" else 0.0
        central = _geometric_mean(x, trim), _geometric_mean(y, trim)
    return Path(method, answer, statistic, *central, tuple(dict.fromkeys(flags)),
                tuple(notes),
                details={"test": shift.method, "pvalue": shift.pvalue, "tau": list(taus), "df": shift.df})


def _geometric_mean(values: np.ndarray, trim: float) -> float:
    """The geometric mean of ``values`` after cutting ``floor(trim * n)`` from each end (as Yuen's shift does)."""
    logs = np.sort(np.log(values))
    cut = int(trim * logs.size)
    return float(np.exp(logs[cut:logs.size - cut].mean()))


def lonely(old: pr.Sample, new: pr.Sample) -> Path:
    """One measurement on a side: the ratio of the central values, and no way to tell it from noise."""
    a, b = float(np.median(old.flat)), float(np.median(new.flat))
    speedup = a / b if old.lower_is_better else b / a
    who = ", ".join(f"{w} has {len(s)}" for w, s in (("the baseline", old), ("the candidate", new)) if len(s) < 2)
    return Path("verdict", Answer(speedup, None, None, None), "value", a, b, ("tiny",),
                unclear=f"{who} measurement: the ratio is {speedup:.4g}, but with no repetition nothing tells it "
                        "from noise (at least 2 runs per system, 10 or more to say much)")


def _resolution(values: np.ndarray) -> float | None:
    """The grid step of quantised values relative to their median, when the timer's resolution shows.

    Values are quantised when they take few distinct values (at most half the runs) all on a
    common step; the step matters when it is above 0.1% of the values.
    """
    distinct = np.unique(values)
    if distinct.size < 2 or distinct.size > values.size // 2:
        return None
    step = float(np.diff(distinct).min())
    units = (distinct - distinct[0]) / step
    if not np.allclose(units, np.round(units), rtol=0.0, atol=1e-6):
        return None
    rel = step / float(np.median(values))
    return rel if rel > 1e-3 else None


def means(old: pr.Sample, new: pr.Sample, ev: Evidence) -> Path:
    """Fieller's interval of the ratio of means on flat independent runs (statistic = "mean")."""
    found = ev.fieller
    if found is None or found.result is None:
        why = found.error if found is not None else "no fieller component is registered"
        return Path("fieller", Answer(None, None, None, None), "mean", None, None,
                    unclear=f"the interval of the means cannot be computed: {why}")
    res = found.result
    answer = Answer(res.estimate, res.ci_low, res.ci_high, _significant(res.ci_low, res.ci_high), res.pvalue)
    return Path(found.source, answer, "mean", float(old.flat.mean()), float(new.flat.mean()),
                unclear=_within_threshold(res))


def modes(old: pr.Sample, new: pr.Sample, found: Found, confidence: float, flags: list[str], notes: list[str]
          ) -> Path:
    """The shift within the dominant mode; moved shares alone: unclear.

    The mode's runs are checked for serial dependence on their own (in run order): runs that
    cluster in a mode over time are dependent as a whole series, not necessarily within the mode.
    """
    res = found.result
    matched = list(res.modes)
    flags = ["multimodal", *flags]
    shares = "; ".join(m.shares(_loc(m.location, old)) for m in matched)
    in_both = all(m.in_both for m in matched)
    alpha = 1.0 - confidence
    moved = res.shares_pvalue is not None and res.shares_pvalue < alpha
    details = {"kind": res.kind, "shares": shares, "shares_pvalue": res.shares_pvalue}
    lead = "shifted " if res.kind != "shared" else "the same " if in_both else ""
    notes = [f"{lead}{len(matched)} modes: {shares}"
             + (f" (the shares differ, p = {res.shares_pvalue:.2g})" if moved else ""), *notes]
    if moved:
        flags.append("shares")
    d = res.dominant
    main = matched[d]
    where = _loc(main.location, old)
    x = old.flat[np.asarray(res.baseline_modes) == d]
    y = new.flat[np.asarray(res.candidate_modes) == d]
    members = [pr.Sample(v, unit=s.unit, lower_is_better=s.lower_is_better) for v, s in ((x, old), (y, new))]
    checks = [independence_of(m) for m in members]
    taus = tuple(float(c.tau) if c is not None and c.dependent else 1.0 for c in checks)
    if any(t > 1.0 for t in taus):
        flags.append("dependence")
        notes.append(f"the runs within the mode at {where} are serially dependent")
    path = ranks(members[0], members[1], confidence, found.source, taus, flags, notes)
    unclear = path.unclear
    if unclear is None and moved and not path.answer.significant:
        unclear = (f"the modes did not move, their shares did: {shares}; that is the session, not the code, "
                   "as often as not: rerun both systems in several sessions" if in_both else
                   f"the mode at {where} did not move, but the runs moved between modes, one of which only one "
                   f"system has: {shares}; the code or the session may have done that: rerun both systems in "
                   "several sessions")
    return attrs.evolve(path, statistic=f"mode at {where}", unclear=unclear,
                        details={**path.details, **details})


def _loc(x: float | None, sample: pr.Sample) -> str:
    """A location in the sample's unit, for people (8.185 ms)."""
    return "?" if x is None else pr.display.quantity(x, sample.unit)
