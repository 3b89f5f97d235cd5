"""How the verdict answers one benchmark: the path, chosen top to bottom in :func:`choose`.

1. fewer than 2 runs on a side: the ratio, no interval, "unclear" (``lonely``);
2. hierarchical samples: Kalibera & Jones, the top-level units' means compared (``top_level``), each
   over its forks' steady iterations (:mod:`.steady`);
3. flat samples: warm-up runs left out (``without_warmup``: the steady-state check's start, or the
   dependence check's few warm-up runs), the serial dependence weighed
   (:mod:`.dependence`), then
4. a step of the level inside one system (once): each of its segments compared with the other
   system, the answer holding only where both comparisons agree (``segments``); steps in both
   systems count as dependence (nothing tells which levels correspond);
5. several clear modes: the shift within the dominant mode; a change of the modes' shares
   alone is "unclear" (``modes``); below the mode rules' 20 runs a side, modes that clear gaps
   separate (:mod:`.gaps`);
6. the ratio of means (Fieller's) when the configured statistic is the mean and the runs independent
   (``ratio``);
7. otherwise the typical run (``typical``): a location shift of log values, the pipeline's
   (``pr.ShiftComparison``) or the verdict's own (``location-shift``), widened for dependence.

Each path also says how to recompute its answer at another level or with another widening
(``Path.recipe``): the suite control does so for false-coverage-rate adjusted intervals and
the suite's pooled dependence (:mod:`.suite_control`). The rules of docs/methods/verdict.md, in code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from . import dependence, gaps, persistence
from . import steady as steady_state
from .evidence import Evidence, Found, dependence_of, gather
from .rules import Answer, outcome
from .shift import shift, too_few_for_ranks


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
    recipe: dict[str, Any] | None = None  # how to recompute the answer (None: it cannot be)


@attrs.frozen
class Settings:
    """What the verdict step was configured with, as the paths need it."""

    confidence: float
    threshold: float
    statistic: str  # "median" or "mean"
    steady: bool = True  # compare the steady parts (each series' warm-up left out, a steady-state check's)


def _significant(low: float | None, high: float | None) -> bool | None:
    if low is None or high is None:
        return None
    return low > 1.0 or high < 1.0


def answer_of(res: pr.Comparison) -> Answer:
    """A comparison's answer, its significance read off its interval (the verdict's one rule)."""
    return Answer(res.estimate, res.ci_low, res.ci_high, _significant(res.ci_low, res.ci_high), res.pvalue)


# ------------------------------------------------------------------------------ the choice


def choose(old: pr.Sample, new: pr.Sample, samples: Mapping[str, pr.Sample], baseline: str, candidate: str,
           previous: pr.Previous, settings: Settings) -> Path:
    """The path whose assumptions hold for these data, top to bottom (the module docstring's list)."""
    if min(len(old), len(new)) < 2:
        return lonely(old, new)
    hierarchical = old.is_hierarchical and new.is_hierarchical
    ev = gather(samples, baseline, candidate, previous, settings.confidence, need_modes=not hierarchical,
                need_ratio=not hierarchical and settings.statistic == "mean")
    states = steady_state.gather(samples, (baseline, candidate), previous) if settings.steady else (None, None)
    if hierarchical:
        return top_level(old, new, ev, settings, states)
    steady, warm_notes, offsets = without_warmup({baseline: old, candidate: new}, ev, states)
    state_flags, state_notes = _flat_states((baseline, candidate), (old, new), states, offsets, ev.checks())
    trimmed = any(offsets)
    if trimmed:  # the comparison is of the steady state: every diagnostic again, on those runs
        old, new = steady[baseline], steady[candidate]
        ev = gather(steady, baseline, candidate, pr.Previous(), settings.confidence, need_modes=True,
                    need_ratio=settings.statistic == "mean")
    obs = dependence.observe(ev.checks(), (old, new))
    widening = dependence.alone(obs)
    flags, notes = diagnostics(ev, widening, offsets)
    if warm_notes:
        flags.insert(0, "warmup")
        notes[:0] = warm_notes
    flags[:0] = [f for f in state_flags if f not in flags]
    notes[:0] = state_notes
    if old.is_hierarchical or new.is_hierarchical:
        notes.append("one system is hierarchical and the other flat: all runs are compared as flat samples")
    context = Context(old, new, offsets, settings, widening, obs, flags, notes)
    path = _flat_path(context, ev, settings, trimmed)
    return attrs.evolve(path, details={**path.details, **steady_state.details(states)})


def _flat_path(context: Context, ev: Evidence, settings: Settings, trimmed: bool) -> Path:
    """Steps 4-7 of the module docstring: the flat samples' path."""
    old, new, flags, notes, widening = context.old, context.new, context.flags, context.notes, context.widening
    checks = ev.checks()
    if sum(bool(c is not None and c.steps) for c in checks) == 1 and not _grouped(context, checks):
        return segments(context, checks)  # one system's level moved once
    found = ev.modes
    kind = found.result.kind if found is not None and found.result is not None else "unimodal"
    if kind == "different":
        notes.append(found.result.verdict)
    elif kind != "unimodal" and found.result.dominant is not None:
        return modes(context, found)
    elif min(len(old), len(new)) < gaps.FOR_MIXTURES:  # too few runs for the mode rules: modes by clear gaps
        small = gaps.small_modes(old, new, settings.confidence)
        if small is not None:
            return modes(context, Found("location-shift", small))
    if settings.statistic == "mean" and widening.tau < 1.5:
        return attrs.evolve(ratio(old, new, ev, settings, offsets=context.offsets), flags=tuple(flags),
                            notes=tuple(notes))
    return typical(context, ev.shift if not trimmed else None)


def _grouped(context: Context, checks: tuple[pr.DependenceCheck | None, pr.DependenceCheck | None]) -> bool:
    """Whether the system whose level did not step moves between 3 or more segments of level, and the one that
    stepped moves between them too, its runs read over those segments (:func:`.dependence.pair_factors`): runs
    in groups (the same harness measured both), so the single step is two of its groups that happened to sit
    alike, dependence (step 4) rather than a machine that changed state once."""
    factors = dependence.pair_factors([pr.stats.rank_average(s.flat) for s in (context.old, context.new)])
    return all(f > 1.0 for f, _ in factors)


@attrs.frozen
class Context:
    """The steady runs of both systems and what is known about them, for the flat paths."""

    old: pr.Sample
    new: pr.Sample
    offsets: tuple[int, int]  # leading runs left out of each system (warm-up)
    settings: Settings
    widening: dependence.Widening
    observation: dependence.Observation | None
    flags: list[str]
    notes: list[str]


# ------------------------------------------------------------------------------ the paths


def lonely(old: pr.Sample, new: pr.Sample) -> Path:
    """One measurement on a side: the ratio of the central values, and no way to tell it from noise."""
    a, b = float(np.median(old.flat)), float(np.median(new.flat))
    speedup = a / b if old.lower_is_better else b / a
    who = ", ".join(f"{w} has {len(s)}" for w, s in (("the baseline", old), ("the candidate", new)) if len(s) < 2)
    return Path("verdict", Answer(speedup, None, None, None), "value", a, b, ("tiny",),
                unclear=f"{who} measurement: the ratio is {speedup:.4g}, but with no repetition nothing tells it "
                        "from noise (at least 2 runs per system, 10 or more to say much)")


def _within_threshold(res: pr.RatioComparison) -> str | None:
    """Why a ratio interval's change does not count although it excludes no change: its step was given a
    practical threshold (fieller's or bootstrap-ratio's) and cannot tell whether the change exceeds it."""
    if res.decision == "inconclusive" and _significant(res.ci_low, res.ci_high):
        return res.verdict.split(": ", 1)[0]  # "candidate slower, but cannot tell whether by more than ..."
    return None


def ratio(old: pr.Sample, new: pr.Sample, ev: Evidence, settings: Settings, offsets: tuple[int, int] = (0, 0)
          ) -> Path:
    """The ratio of the means of flat runs (``pr.RatioComparison``: Fieller's by default) when the statistic
    is the mean."""
    found = ev.ratio
    if found is None or found.result is None:
        why = found.error if found is not None else "no fieller component is registered"
        return Path("fieller", Answer(None, None, None, None), "mean", None, None,
                    unclear=f"the interval of the means cannot be computed: {why}")
    res = found.result
    return Path(found.source, answer_of(res), "mean", res.baseline_mean, res.candidate_mean,
                unclear=_within_threshold(res),
                recipe={"kind": "ratio", "component": found.component, "offsets": list(offsets)})


def top_level(old: pr.Sample, new: pr.Sample, ev: Evidence, settings: Settings,
              states: tuple[steady_state.Steady | None, steady_state.Steady | None] = (None, None)) -> Path:
    """Kalibera & Jones: the top-level units (invocations, forks) are the replicates, so compare their means.

    Welch's test on the logs of the top-level means (the geometric-mean ratio of the units'
    means, Welch-Satterthwaite degrees of freedom: calibrated where the paper's n - 1 is
    conservative). The units are independent processes by design: their serial dependence,
    when the check finds it, is said, not widened for (as Welch on fork means, which this is).
    With steady-state checks (``states``), each unit's mean is over its series' steady
    iterations; series that never settle are kept whole (:mod:`.steady`).
    """
    kept = [state.kept() if state is not None and state.kept().any() else None for state in states]
    flags, notes = ["hierarchical"], hierarchical_notes(old, ev, trimmed=tuple(k is not None for k in kept))
    for who, sample, state in zip(("baseline", "candidate"), (old, new), states, strict=True):
        more_flags, more_notes = steady_state.hierarchical_notes(who, sample, state)
        flags += more_flags
        notes += more_notes
    tops = [c.top if c is not None else None for c in ev.checks()]
    flags += (["dependence"] if any(t is not None and t.dependent for t in tops) else []) + \
        (["trend"] if any(t is not None and t.trending for t in tops) else [])
    widening = dependence.NONE
    a, b = (pr.Sample(steady_state.top_means(s, k), unit=s.unit, lower_is_better=s.lower_is_better)
            for s, k in zip((old, new), kept, strict=True))
    if min(len(a), len(b)) < 2:
        return Path("location-shift", Answer(None, None, None, None), f"{old.levels[0]} mean", None, None,
                    tuple(flags), tuple(notes), unclear=f"Kalibera & Jones' comparison needs at least 2 "
                                                        f"{old.levels[0]}s per system")
    res = shift(a, b, settings.confidence, widening.taus, widening.precision, statistic="geometric mean")
    recipe = {"kind": "shift", "top": True, "parts": [{**part((0, 0), (None, None)), "statistic": "geometric mean"}],
              "taus": list(widening.taus), "precision": widening.precision, "pool": False}
    if any(k is not None for k in kept):
        recipe["kept"] = [None if k is None else k.tolist() for k in kept]
    return Path("location-shift", answer_of(res), f"mean of {len(a)} {old.levels[0]}s", float(np.mean(a.flat)),
                float(np.mean(b.flat)), tuple(dict.fromkeys(flags)), tuple(notes), recipe=recipe,
                details={"n_top": {"baseline": len(a), "candidate": len(b)}, "test": res.method, "df": res.df,
                         "pvalue": res.pvalue, "tau": list(widening.taus), **steady_state.details(states)})


def hierarchical_notes(old: pr.Sample, ev: Evidence, trimmed: tuple[bool, ...] = (False, False)) -> list[str]:
    """What the dependence checks saw of hierarchical samples (their warm-up only where no steady-state check
    has left it out: ``trimmed``)."""
    notes = []
    for who, check, done in zip(("baseline", "candidate"), ev.checks(), trimmed, strict=True):
        if check is None:
            continue
        top = check.top
        if top is not None and top.dependent:
            notes.append(f"{who}'s {top.level}s are serially dependent (long-run factor {top.tau:.2f}: "
                         f"{top.n} count as about {top.n_effective:.0f})")
        if top is not None and top.trending:
            notes.append(f"{who}'s {top.level}s drift {top.drift:+.1%} over the experiment (a trend)")
        if check.warmup and not done:
            notes.append(f"{who}: the first {check.warmup} {check.level}(s) of every {old.levels[-2]} stand out "
                         f"({check.warmup_change:+.1%}): warm-up, drop them")
    return notes


def without_warmup(samples: dict[str, pr.Sample], ev: Evidence,
                   states: tuple[steady_state.Steady | None, steady_state.Steady | None] = (None, None)
                   ) -> tuple[dict[str, pr.Sample], list[str], tuple[int, int]]:
    """Flat samples without their leading warm-up runs, a note per system (for the dependence check's few
    warm-up runs; the steady-state check's longer ones are said by :func:`_flat_states`), the offsets."""
    out, notes, offsets = dict(samples), [], []
    for (system, sample), check, state in zip(samples.items(), ev.checks(), states, strict=True):
        warm = check.warmup if check is not None else 0
        start = steady_state.flat_start(sample, state)
        if start > warm:
            out[system] = sample.with_values(sample.values[start:])
            offsets.append(start)
        elif (warm and not sample.is_hierarchical and len(sample) - warm >= 2
              and not steady_state.one_of_several_levels(sample.flat, warm)):  # an invocation, not a warm-up
            out[system] = sample.with_values(sample.values[warm:])
            runs = "the first run" if warm == 1 else f"the first {warm} runs"
            notes.append(f"{system}: {runs} ({check.warmup_change:+.0%}) look{'s' if warm == 1 else ''} like "
                         f"warm-up: compared without {'it' if warm == 1 else 'them'}")
            offsets.append(warm)
        else:
            offsets.append(0)
    return out, notes, (offsets[0], offsets[1])


def _flat_states(systems: tuple[str, str], samples: tuple[pr.Sample, pr.Sample],
                 states: tuple[steady_state.Steady | None, steady_state.Steady | None], offsets: tuple[int, int],
                 checks: tuple[pr.DependenceCheck | None, pr.DependenceCheck | None]) -> tuple[list[str], list[str]]:
    """The steady-state checks' flags and sentences for flat samples (warm-up left out, slowdown, never steady);
    a cut the dependence check's warm-up made is said by :func:`without_warmup`."""
    flags, notes = [], []
    for system, sample, state, offset, check in zip(systems, samples, states, offsets, checks, strict=True):
        start = steady_state.flat_start(sample, state)
        said = start <= (check.warmup if check is not None else 0)  # the dependence check's warm-up note says it
        more_flags, more_notes = steady_state.flat_notes(system, sample, state, start if offset == start else 0,
                                                         said)
        flags += more_flags
        notes += more_notes
    return flags, notes


def diagnostics(ev: Evidence, widening: dependence.Widening, offsets: tuple[int, int]
                ) -> tuple[list[str], list[str]]:
    """The flags and sentences of what the dependence checks saw (with sizes), and of the widening."""
    flags, notes = [], []
    for who, check, offset in zip(("baseline", "candidate"), ev.checks(), offsets, strict=True):
        if check is None or check.n < dependence.MIN_RUNS:
            continue
        if check.dependent:
            flags.append("dependence")
            notes.append(f"{who}'s runs are serially dependent" + ("" if widening.oscillation else
                         f" (long-run factor {check.tau:.2f}): its {check.n} runs count as about "
                         f"{check.n_effective:.0f} independent ones"))
        if check.trending:
            flags.append("trend")
            notes.append(f"{who}'s runs drift {check.drift:+.1%} from first to last: interleave the systems' "
                         "runs or warm the machine up first")
        for step in check.steps:
            flags.append("step")
            notes.append(f"{who}'s level moves {step.change:+.1%} at run {step.run + 1 + offset} of "
                         f"{check.n + check.warmup + offset} (the machine changed during the measurement)")
    note = widening_note(widening)
    if note:
        notes.append(note)
    return list(dict.fromkeys(flags)), notes


#: the first words of the note about the widening (replaced when the suite re-estimates it)
WIDENING_NOTE = "the interval is widened for serial dependence"


#: the first words of the note about runs that oscillate (:func:`.dependence.oscillation`)
OSCILLATION_NOTE = "the runs oscillate"


def widening_note(widening: dependence.Widening) -> str | None:
    """The sentence about the widening, when there is one worth saying (variance at least 5% larger), or about runs
    that oscillate (a periodic disturbance: the long-run factor is an AR(2)'s)."""
    if widening.oscillation:
        lag1, lag3 = widening.oscillation
        worth = (f"they count as 1/{widening.tau:.2f} of their number" if widening.tau >= 1.05 else
                 "they count as independent runs")
        return (f"{OSCILLATION_NOTE} (autocorrelation {lag1:+.2f} at lag 1, {lag3:+.2f} at lag 3: they rise and fall "
                f"within a few runs, which averages out over the runs, as a periodic disturbance does): {worth} "
                f"(long-run factor of an AR(2))")
    if widening.tau < 1.05:
        return None
    tails = (f", {widening.tails:.2f}x of it because the suite's benchmarks differ in dependence and these runs "
             f"cannot tell which kind theirs is" if widening.tails > 1.0 else "")
    return (f"{WIDENING_NOTE}: the runs count as 1/{widening.tau:.2f} of their number (long-run factor from the "
            f"autocorrelations{' pooled over the suite' if widening.pooled else ' of both systems'}{tails})")


def _sliced(sample: pr.Sample, start: int, stop: int | None, window: tuple[float, float] | None = None) -> pr.Sample:
    """Runs ``start:stop`` of a flat sample (in its run order), those within ``window`` (values) when given."""
    values = sample.flat[start:stop]
    if window is not None:
        values = values[(values >= window[0]) & (values <= window[1])]
    return pr.Sample(values, unit=sample.unit, lower_is_better=sample.lower_is_better, name=sample.name)


def typical(context: Context, external: Found | None) -> Path:
    """The typical run's shift: the pipeline's location-shift comparison widened for dependence, else the default's."""
    c, w, conf = context, context.widening, context.settings.confidence
    flags, notes = list(c.flags), list(c.notes)
    if external is not None and external.result is not None and external.component != "location-shift":
        res = widened(external.result, w.taus[0])
        path_method, recipe = external.source, None
    else:
        res = shift(c.old, c.new, conf, w.taus, w.precision, df_taus=w.df_taus)
        path_method = external.source if external is not None else "location-shift"
        recipe = {"kind": "shift", "parts": [{**part(c.offsets, (None, None)), "statistic": res.statistic}],
                  "taus": list(w.taus), "precision": w.precision, "pool": c.observation is not None,
                  "df_taus": None if w.df_taus is None else list(w.df_taus)}
    flags += _statistic_flags(res, c.old, c.new, conf)
    notes += _statistic_notes(res, c.old, c.new, conf)
    details = {"test": res.method, "pvalue": res.pvalue, "tau": list(w.taus), "df": res.df,
               "dependence": None if c.observation is None else c.observation.to_dict(),
               "widening": {"tau": w.tau, "pooled": w.pooled}}
    return Path(path_method, answer_of(res), res.statistic, res.baseline_center, res.candidate_center,
                tuple(dict.fromkeys(flags)), tuple(notes), details=details, recipe=recipe)


def part(offsets: tuple[int, int], windows: tuple[Any, Any], stops: tuple[int | None, int | None] = (None, None)
         ) -> dict[str, Any]:
    """Which runs of each system a comparison read: [start, stop) in run order, and a value window."""
    return {"baseline": [offsets[0], stops[0], windows[0]], "candidate": [offsets[1], stops[1], windows[1]]}


def widened(res: pr.Comparison, tau: float) -> pr.Comparison:
    """A comparison's interval widened by sqrt(tau) about its estimate on the log scale (each side), and the
    p-value of that interval (Wald: the test whose inversion it is); unchanged when tau is 1."""
    from scipy import special
    if tau <= 1.0 or res.estimate is None or res.ci_low is None or res.ci_high is None or res.estimate <= 0:
        return res
    centre = math.log(res.estimate)
    scale = math.sqrt(tau)
    low = math.exp(centre - scale * (centre - math.log(res.ci_low)))
    high = math.exp(centre + scale * (math.log(res.ci_high) - centre))
    z = float(special.ndtri(0.5 + (res.confidence or 0.95) / 2))
    near = centre - math.log(low) if centre > 0 else math.log(high) - centre
    pvalue = float(2 * special.ndtr(-z * abs(centre) / near)) if near > 0 else 1.0
    return attrs.evolve(res, ci_low=low, ci_high=high, pvalue=pvalue, significant=bool(low > 1 or high < 1))


def _statistic_flags(res: pr.Comparison, old: pr.Sample, new: pr.Sample, confidence: float) -> list[str]:
    out = ["tiny"] if too_few_for_ranks(len(old), len(new), confidence) else []
    if isinstance(res.details, Mapping) and res.details.get("grid"):
        out.append("resolution")
    return out


def _statistic_notes(res: pr.Comparison, old: pr.Sample, new: pr.Sample, confidence: float) -> list[str]:
    stat = getattr(res, "statistic", "")
    notes = []
    if stat == "geometric mean" and too_few_for_ranks(len(old), len(new), confidence):
        notes.append(f"{len(old)} and {len(new)} runs are too few for a rank test at {confidence:.0%}: compared on "
                     "the means of log times (Welch), which assume roughly normal noise; run more to be safe")
    grid = res.details.get("grid") if isinstance(res.details, Mapping) else None
    if grid:
        notes.append(f"the values sit on a grid of {grid:.2%} of their size (the timer's resolution)")
    return notes


def segments(context: Context, checks: tuple[pr.DependenceCheck | None, pr.DependenceCheck | None]) -> Path:
    """A step of the level inside a system: compare every segment of one with every segment of the other.

    Which level is "the" system's is unknown (the machine changed during the measurement), so
    a change counts only where every comparison of levels agrees: the interval is the hull of
    theirs, the p-value the largest (an intersection-union test: significant exactly when every
    comparison is, on the same side).
    """
    c = context
    bounds = []
    for sample, check, offset in zip((c.old, c.new), checks, c.offsets, strict=True):
        cuts = [s.run for s in (check.steps if check is not None else ())]  # in the steady runs' order
        edges = [0, *cuts, len(sample)]
        bounds.append([(a + offset, b + offset) for a, b in zip(edges[:-1], edges[1:], strict=True)])
    # the dependence within the levels (the step inflates that of the whole series, and a short segment cannot
    # show its own): each system's runs with every level moved to the median, every step one more parameter
    # (and the other system's own segments of level, where it has several: invocations nobody declared, two of
    # which happened to sit alike in the first, read as one step there)
    levelled = [_levelled(s, check) for s, check in zip((c.old, c.new), checks, strict=True)]
    within = dependence.observe([lc for lc, _ in levelled], [ls for _, ls in levelled])
    w = dependence.alone(within) if within is not None else c.widening
    parts = []
    for (a0, a1), (b0, b1) in ((a, b) for a in bounds[0] for b in bounds[1]):
        p = {"baseline": [a0, a1, None], "candidate": [b0, b1, None]}
        parts.append({**p, "taus": list(w.taus), "precision": w.precision})
    recipe = {"kind": "shift", "parts": parts, "taus": list(c.widening.taus), "precision": c.widening.precision,
              "pool": False}
    answer, results = recompute_shift(recipe, c.old, c.new, c.offsets, c.settings.confidence)
    for p, r in zip(parts, results, strict=True):
        p["statistic"] = r.statistic
    levels = "; ".join(f"{_seg(p)}: {_said(r)}" for p, r in zip(parts, results, strict=True))
    notes = [n for n in c.notes if not n.startswith(WIDENING_NOTE)] + [f"compared level by level ({levels})"]
    path = Path("location-shift", answer, "median", float(np.median(c.old.flat)), float(np.median(c.new.flat)),
                tuple(dict.fromkeys(c.flags)), tuple(notes), recipe=recipe,
                details={"test": results[0].method, "pvalue": answer.pvalue, "tau": list(c.widening.taus),
                         "segments": [{**p, "speedup": r.estimate, "ci_low": r.ci_low, "ci_high": r.ci_high,
                                       "pvalue": r.pvalue} for p, r in zip(parts, results, strict=True)]})
    if answer.significant is False or answer.significant is None:
        sides = {outcome(answer_of(r), 0.0) for r in results}
        if {"faster", "slower"} <= sides:
            return attrs.evolve(path, unclear=f"the levels disagree: {levels}; the machine changed during the "
                                              "measurement: interleave the systems' runs")
    return path


def _levelled(sample: pr.Sample, check: pr.DependenceCheck | None) -> tuple[pr.DependenceCheck | None, pr.Sample]:
    """A system's runs with each level divided by its median (steps removed) and their dependence check, or the
    system's own runs and check when its level did not move."""
    if check is None or not check.steps:
        return check, sample
    values = sample.flat.astype(float)
    edges = [0, *(s.run for s in check.steps), len(values)]  # the steps are in the steady runs' order
    levelled = np.concatenate([values[a:b] / np.median(values[a:b]) for a, b in zip(edges[:-1], edges[1:],
                                                                                      strict=True)])
    flat = pr.Sample(levelled * float(np.median(values)), unit=sample.unit, lower_is_better=sample.lower_is_better,
                     name=sample.name)
    found = dependence_of(flat)
    return (attrs.evolve(found, fitted=found.fitted + len(check.steps)) if found is not None else None), flat


def _seg(p: Mapping[str, Any]) -> str:
    b, c = p["baseline"], p["candidate"]
    return f"baseline runs {b[0] + 1}-{b[1]} vs candidate runs {c[0] + 1}-{c[1]}"


def _said(res: pr.Comparison) -> str:
    from .reasons import pct
    return f"{pct(res.estimate)}" + ("" if res.significant else " (not significant)")


def hull(results: list[pr.Comparison]) -> Answer:
    """Comparisons that must all agree: the hull of their intervals, the largest p-value where they agree."""
    if any(r.ci_low is None for r in results):
        return Answer(float(np.exp(np.mean([math.log(r.estimate) for r in results]))), None, None, None,
                      max(r.pvalue for r in results))
    low, high = min(r.ci_low for r in results), max(r.ci_high for r in results)
    speedup = float(np.exp(np.mean([math.log(r.estimate) for r in results])))
    sides = {r.estimate > 1.0 for r in results}
    pvalue = max(r.pvalue for r in results) if len(sides) == 1 else 1.0
    return Answer(speedup, low, high, _significant(low, high), pvalue)


def recompute_shift(recipe: Mapping[str, Any], old: pr.Sample, new: pr.Sample, offsets: tuple[int, int],
                    confidence: float, taus: tuple[float, float] | None = None, precision: float | None = None
                    ) -> tuple[Answer, list[pr.ShiftComparison]]:
    """A shift recipe's answer at ``confidence`` (with other taus when given; else each part's, else the
    recipe's), from the systems' samples.

    ``old``/``new`` are the samples the recipe's run indices refer to (offsets already applied:
    ``offsets`` leading runs removed)."""
    results = []
    for p in recipe["parts"]:
        (b0, b1, bw), (c0, c1, cw) = p["baseline"], p["candidate"]
        x = _sliced(old, b0 - offsets[0], None if b1 is None else b1 - offsets[0], bw)
        y = _sliced(new, c0 - offsets[1], None if c1 is None else c1 - offsets[1], cw)
        t = tuple(p.get("taus", recipe["taus"])) if taus is None else taus
        e = p.get("precision", recipe["precision"]) if precision is None else precision
        k = recipe.get("df_taus") if taus is None else None  # over a suite: Bartlett's (suite_control)
        results.append(shift(x, y, confidence, t, e, p.get("statistic", "auto"), tuple(k) if k else None))
    if len(results) == 1:
        return answer_of(results[0]), results
    return hull(results), results


def modes(context: Context, found: Found) -> Path:
    """The shift within the dominant mode; moved shares alone: unclear.

    The mode's runs are checked for serial dependence on their own (in run order): runs that
    cluster in a mode over time are dependent as a whole series, not necessarily within the
    mode. When the runs are dependent as a whole, the mode's answer stands only where the typical
    run's (widened) answer agrees, if the modes persist in time (a system's runs keep to the mode,
    or away from it, in stretches longer than chance: the runs test of :mod:`.persistence`; modes
    that persist may be invocations or sessions rather than strata) or the two answers are
    opposite changes (one of them is wrong: a mode the mixture misplaced).
    """
    c, res = context, found.result
    old, new = c.old, c.new
    matched = list(res.modes)
    flags = ["multimodal", *c.flags]
    shares = "; ".join(m.shares(_loc(m.location, old)) for m in matched)
    in_both = all(m.in_both for m in matched)
    alpha = 1.0 - c.settings.confidence
    moved = res.shares_pvalue is not None and res.shares_pvalue < alpha
    lead = "shifted " if res.kind != "shared" else "the same " if in_both else ""
    notes = [f"{lead}{len(matched)} modes: {shares}"
             + (f" (the shares differ, p = {res.shares_pvalue:.2g})" if moved else ""), *c.notes]
    if moved:
        flags.append("shares")
    d = res.dominant
    where = _loc(matched[d].location, old)
    x = old.flat[np.asarray(res.baseline_modes) == d]
    y = new.flat[np.asarray(res.candidate_modes) == d]
    windows = ((float(x.min()), float(x.max())), (float(y.min()), float(y.max())))
    members = [_sliced(s, 0, None, win) for s, win in zip((old, new), windows, strict=True)]
    checks = [dependence_of(m) for m in members]
    taus = tuple(float(ch.tau) if ch is not None and ch.dependent else 1.0 for ch in checks)
    if any(t > 1.0 for t in taus):
        flags.append("dependence")
        notes.append(f"the runs within the mode at {where} are serially dependent")
    result = shift(members[0], members[1], c.settings.confidence, taus)
    recipe = {"kind": "shift", "parts": [{**part(c.offsets, windows), "statistic": result.statistic}],
              "taus": list(taus), "precision": 0.0, "pool": False}
    details = {"kind": res.kind, "shares": shares, "shares_pvalue": res.shares_pvalue, "test": result.method,
               "pvalue": result.pvalue, "tau": list(taus), "df": result.df}
    path = Path(found.source, answer_of(result), f"mode at {where}", result.baseline_center,
                result.candidate_center, tuple(dict.fromkeys(flags)), tuple(notes), details=details, recipe=recipe)
    persist = c.widening.tau >= 1.5 and persistence.modes_persist((res.baseline_modes, res.candidate_modes), d, alpha)
    if moved and not path.answer.significant:
        path = attrs.evolve(path, unclear=(
            f"the modes did not move, their shares did: {shares}; that is the session, not the code, as often as "
            "not: rerun both systems in several sessions" if in_both else
            f"the mode at {where} did not move, but the runs moved between modes, one of which only one system "
            f"has: {shares}; the code or the session may have done that: rerun both systems in several sessions"))
        # modes that persist in dependent runs may be invocations: the mode's interval is one invocation's
        return _with_overall(path, typical(context, None), recipe, taus) if persist else path
    if c.widening.tau < 1.5:
        return path
    overall = typical(context, None)
    mine, theirs = outcome(path.answer, c.settings.threshold), outcome(overall.answer, c.settings.threshold)
    if mine == theirs:
        return path
    if {mine, theirs} != {"faster", "slower"} and not persist:
        return path  # strata (runs fall into the modes at random): the mode's answer, unless the typical run's opposes it
    from .reasons import said
    path = _with_overall(path, overall, recipe, taus)
    return attrs.evolve(path, unclear=(f"the runs are serially dependent and multimodal, and the answers disagree: "
                                       f"{said(path, c.settings)} within the {path.statistic}, but "
                                       f"{said(overall, c.settings)} over all runs"))


def _with_overall(path: Path, overall: Path, recipe: dict[str, Any], taus: tuple[float, ...]) -> Path:
    """The mode's answer with the hull of its interval and the typical run's (as for disagreeing levels): neither is
    trusted alone, and the mode's narrow one would claim a precision its dependent runs do not have (undeclared
    invocations read as modes)."""
    overall_recipe = overall.recipe or {}
    both = {**recipe, "parts": [{**recipe["parts"][0], "taus": list(taus), "precision": 0.0},
                                *({**p, "taus": overall_recipe["taus"], "precision": overall_recipe["precision"]}
                                  for p in overall_recipe.get("parts", ()))]}
    mine_, theirs_ = path.answer, overall.answer
    if None in (mine_.ci_low, theirs_.ci_low):
        answer = attrs.evolve(mine_, ci_low=None, ci_high=None, significant=None)
    else:
        low, high = min(mine_.ci_low, theirs_.ci_low), max(mine_.ci_high, theirs_.ci_high)
        answer = attrs.evolve(mine_, ci_low=low, ci_high=high, significant=_significant(low, high),
                              pvalue=max((x for x in (mine_.pvalue, theirs_.pvalue) if x is not None), default=None))
    return attrs.evolve(path, answer=answer, recipe=both if overall_recipe else None)


def _loc(x: float | None, sample: pr.Sample) -> str:
    """A location in the sample's unit, for people (8.185 ms)."""
    return "?" if x is None else pr.display.quantity(x, sample.unit)
