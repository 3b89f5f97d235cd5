"""The ``steady-state`` estimator: does each series of iterations reach a steady state, and when?

A series is the iterations of one process execution (a fork, an invocation: the lowest level of
a hierarchical sample) or a flat sample's runs in the order measured. Each is classified flat,
warmup, slowdown or no steady state (Barrett et al. 2017) by ``series.analyse``; the sample's
result sums the series up ("7 of 10 forks reach a steady state, after about 800 iterations;
3 never do") and draws the warm-up on the run-order plot.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr
from perfrigor import changepoints as cp

from .series import CLASSES, MIN_LENGTH, PENALTY_FACTOR, analyse, analyse_many

#: how many series ``describe()`` names one by one; beyond, counts and the unsteady ones
LISTED = 12


@attrs.frozen(kw_only=True)
class SeriesState(pr.SeriesState):
    """One series: its classification, first steady iteration, steady level and segments (the core's
    ``pr.SeriesState``: ``level`` is the mean of the steady iterations, outliers left out, with its
    batch-means interval; ``segments`` are ``changepoints.Segment`` records)."""

    def describe(self) -> str:
        if self.classification is None:
            return f"{self.name}: {self.n} values, too few to classify (at least {MIN_LENGTH})"
        return super().describe()


@attrs.frozen(kw_only=True)
class SteadyState(pr.SteadyStateCheck):
    """Steady state of one system's series: per series (``series``) and summed up.

    The core's ``pr.SteadyStateCheck`` (what the verdict reads): ``estimate`` (``ci_low``,
    ``ci_high``): the steady level, the mean of the steady iterations of the series that reach
    a steady state, with a t interval over those series (their batch-means interval for a single
    series); ``classification``, ``consistent``, ``steady_start`` (the largest start: drop that
    many from each series), ``counts`` as there. ``segments``: the segments of a single series.
    """

    segments: tuple[cp.Segment, ...] = attrs.field(default=(), converter=tuple)
    text: str = ""

    def describe(self) -> str:
        return self.text

    def plot_layers(self, sample: Any) -> list[Any]:
        """The warm-up of each series shaded on the run-order plot, its steady start marked; a series
        that never settles shaded whole."""
        out: list[Any] = []
        per = int(np.asarray(sample, dtype=float).shape[-1]) if self.series else 0
        warm = [(i * per, i * per + s.steady_start) for i, s in enumerate(self.series)
                if s.steady and s.steady_start]
        never = [(i * per, (i + 1) * per) for i, s in enumerate(self.series) if s.classification == "no steady state"]
        if warm:
            out.append(pr.drawing.RunOrderSpans(tuple(warm), "warm-up"))
            out.append(pr.drawing.RunOrderMarks(tuple(b for _, b in warm), "steady from here"))
        if never:
            out.append(pr.drawing.RunOrderSpans(tuple(never), "never steady", hatched=True))
        return out


def _summary(states: list[SeriesState], unit_name: str, iteration: str, level: str) -> tuple[str, list[str]]:
    """The sentence a person reads, and the warnings."""
    k = len(states)
    judged = [s for s in states if s.classification is not None]
    steady = [s for s in judged if s.steady]
    late = [s.steady_start for s in steady if s.steady_start]
    warm = [s.steady_start for s in steady if s.classification == "warmup"]
    if not judged:
        what = f"{states[0].n} {iteration}s" if k == 1 else f"{k} {unit_name}s of {states[0].n} {iteration}s"
        return f"{what}: too few to classify (at least {MIN_LENGTH} {iteration}s per series)", []
    if k == 1:
        s = states[0]
        if not s.steady:
            return (f"no steady state: the last part of the {s.n} {iteration}s has not settled",
                    [f"the {iteration}s never reach a steady state: their mean depends on when the run stops"])
        head = {"flat": f"flat: steady from the first {iteration}",
                "warmup": f"warm-up: steady from {iteration} {s.steady_start} of {s.n}",
                "slowdown": f"slowdown: settles from {iteration} {s.steady_start} of {s.n} at a worse level "
                            "than its start"}[s.classification]
        switch = f"; switches between {len(s.levels)} levels" if len(s.levels) > 1 else ""
        warn = [f"the first {s.steady_start} {iteration}s are a warm-up: drop them"] if s.classification == "warmup" \
            else [f"slowdown: the {iteration}s get worse after the first {s.steady_start}; the steady level is the "
                  "worse one"] if s.classification == "slowdown" else []
        return f"{head}{switch}; steady level {level}", warn
    never = len(judged) - len(steady)
    if len(judged) == k and all(s.classification == "flat" for s in judged):
        return f"all {k} {unit_name}s flat (steady from the first {iteration}); steady level {level}", []
    parts = [f"{'all' if len(steady) == k else f'{len(steady)} of'} {k} {unit_name}s reach a steady state"]
    if late:
        parts[0] += f", after about {int(np.median(late))} {iteration}s" if len(late) > len(steady) / 2 \
            else f" ({len(late)} after a warm-up of up to {max(late)} {iteration}s)"
    if never:
        parts.append(f"{never} never do{'es' if never == 1 else ''}")
    slow = sum(s.classification == "slowdown" for s in steady)
    if slow:
        parts.append(f"{slow} settle{'s' if slow == 1 else ''} at a worse level than they start (slowdown)")
    if len(judged) < k:
        parts.append(f"{k - len(judged)} too short to classify")
    warnings = []
    if never:
        warnings.append(f"{never} of {k} {unit_name}s never reach{'es' if never == 1 else ''} a steady state: "
                        f"{iteration}s still change at the end of the run")
    if warm:
        warnings.append(f"{len(warm)} of {k} {unit_name}s warm{'s' if len(warm) == 1 else ''} up for up to "
                        f"{max(warm)} {iteration}s: drop them")
    if slow:
        warnings.append(f"{slow} of {k} {unit_name}s slow{'s' if slow == 1 else ''} down: the steady level is "
                        "worse than their first iterations")
    return "; ".join(parts) + (f"; steady level {level}" if steady else ""), warnings


def _listing(states: list[SeriesState]) -> str:
    """The series one by one (few), or the unsteady ones by name (many); nothing when all are flat."""
    if len(states) <= 1 or all(s.classification == "flat" for s in states):
        return ""
    if len(states) <= LISTED:
        return " [" + "; ".join(s.describe() for s in states) + "]"
    odd = [s for s in states if s.classification != "flat"]
    shown = "; ".join(s.describe() for s in odd[:LISTED])
    more = f"; and {len(odd) - LISTED} more" if len(odd) > LISTED else ""
    return f" [not flat: {shown}{more}]" if odd else ""


@attrs.define(repr=False)
class SteadyStateEstimator(pr.Estimator):
    """Does each series of iterations reach a steady state? flat, warmup, slowdown or no steady state.

    Each fork/invocation (the lowest level of a hierarchical sample), or a flat sample's runs in the
    order measured, is segmented by change points (PELT, penalty calibrated by simulation) and
    classified as Barrett et al. (2017) do; a level shift smaller than ``relevance`` of the level is
    not a change of state. See docs/methods/steady-state.md.
    """

    name: ClassVar[str] = "steady-state"
    describes: ClassVar[bool] = True
    shorthands: ClassVar[tuple[str, ...]] = ("relevance",)
    relevance: float = pr.float_param(0.05, minimum=0.0, maximum=1.0, strict=False,
                                      help="a level shift below this fraction of the level is not a change of "
                                           "state (0.05: 5%)")
    tail: float = pr.float_param(0.2, minimum=0.0, maximum=1.0, strict=True,
                                 help="share of each series at its end that must be steady (0.2: the last 20%)")
    confidence: float = pr.confidence_param(0.95, help="level of the relevance test and of the steady level's "
                                                      "interval")
    penalty_factor: float | None = pr.float_param(None, minimum=0.0, strict=True, optional=True,
                                                  help="penalty per change point, times log n (None: the value "
                                                       f"calibrated by simulation, {PENALTY_FACTOR})")
    min_size: int | None = pr.int_param(None, minimum=1, optional=True,
                                        help="shortest segment, in iterations (None: 2 to 10 with the length)")
    outliers: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool),
                                 metadata={"help": "leave Barrett's windowed outliers out of the segmentation",
                                           "type": "bool"})

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """Every series of a pipeline task analysed at once, into its workspace (``estimate`` reads them):
        series of one length and settings together (``series.analyse_many``)."""
        prepare_series([(job.component, sample) for job in jobs for sample in job.samples.values()])

    def estimate(self, sample: Any) -> SteadyState:
        s = pr.as_sample(sample)
        values = np.asarray(s.values, dtype=float)
        rows = values.reshape(-1, values.shape[-1])
        iteration = s.levels[-1]
        unit_name = s.levels[-2] if s.n_levels > 1 else "series"
        options = self._options(s.lower_is_better)
        ws = pr.current_workspace()
        states = []
        for i, row in enumerate(rows):
            found = ws.get(_series_key(row, options)) if ws is not None and row.size <= BATCH_MAX_RUNS else None
            if found is None:
                found = analyse(row, **options)
            states.append(_state(s, values.shape, i, found))
        return self._result(s, states, unit_name, iteration)

    def _options(self, lower_is_better: bool) -> dict[str, Any]:
        """The settings ``series.analyse`` takes, for samples in this direction."""
        factor = self.penalty_factor if self.penalty_factor is not None else PENALTY_FACTOR
        return {"penalty_factor": factor, "relevance": self.relevance, "tail": self.tail,
                "confidence": self.confidence, "min_size": self.min_size, "lower_is_better": bool(lower_is_better),
                "outliers": self.outliers}

    def _result(self, s: pr.Sample, states: list[SeriesState], unit_name: str, iteration: str) -> SteadyState:
        steady = [st for st in states if st.steady]
        counts = Counter(st.classification or "too short" for st in states)
        present = [c for c in reversed(CLASSES) if counts.get(c)]
        classification = present[0] if present else None
        starts = [st.steady_start or 0 for st in steady]
        level, low, high = _level(steady, self.confidence)
        shown = pr.display.quantity(level, s.unit) if level is not None else "-"
        if level is not None and low is not None and high is not None and math.isfinite(low):
            shown += f" ({self.confidence:.0%} CI {pr.display.quantity(low, s.unit)} to " \
                     f"{pr.display.quantity(high, s.unit)})"
        text, warnings = _summary(states, unit_name, iteration, shown)
        return SteadyState(
            estimate=level, ci_low=low, ci_high=high, confidence=self.confidence, classification=classification,
            steady_start=max(starts) if steady else None, consistent=len(present) <= 1,
            counts={c: counts[c] for c in (*CLASSES, "too short") if counts.get(c)},
            segments=states[0].segments if len(states) == 1 else (), series=tuple(states), unit=s.unit,
            series_level=unit_name, iteration_level=iteration, relevance=self.relevance,
            text=text + _listing(states), warnings=tuple(f"{s.label}: {w}" for w in warnings))


#: series up to this many iterations are analysed together in a pipeline task (``SteadyStateEstimator.prepare``)
BATCH_MAX_RUNS = 1000


def _series_key(row: np.ndarray, options: Mapping[str, Any]) -> tuple:
    """Workspace key of one series' analysis: its values (in order) and every setting ``analyse`` takes."""
    return ("perfrigor_plugins.steady_state", "series", row.tobytes(), row.size, *sorted(options.items()))


def prepare_series(items: Sequence[tuple[Any, Any]]) -> int:
    """Analyse the series of many samples at once into the current workspace: ``(component, sample)`` pairs (a
    ``SteadyStateEstimator`` with its settings). The analyses are those of one series at a time. Returns how
    many series were analysed; without a workspace, does nothing."""
    ws = pr.current_workspace()
    if ws is None:
        return 0
    groups: dict[tuple, list[tuple[tuple, np.ndarray]]] = {}
    for check, sample in items:
        if not isinstance(check, SteadyStateEstimator) or not isinstance(sample, pr.Sample):
            continue
        values = np.asarray(sample.values, dtype=float)
        if values.shape[-1] > BATCH_MAX_RUNS:
            continue
        options = check._options(sample.lower_is_better)
        for row in values.reshape(-1, values.shape[-1]):
            key = _series_key(row, options)
            if key not in ws:
                ws.put(key, None)  # claimed: a series given twice is analysed once
                groups.setdefault((row.size, *sorted(options.items())), []).append((key, row))
    done = 0
    for (_, *options), group in groups.items():
        found = analyse_many(np.stack([row for _, row in group]), **dict(options))
        for (key, _), one in zip(group, found, strict=True):
            ws.put(key, one)
        done += len(group)
    return done


def _state(s: pr.Sample, shape: tuple[int, ...], row: int, found: Mapping[str, Any]) -> SeriesState:
    """The SeriesState of row ``row`` of the sample's series, named by its position in the levels."""
    if len(shape) == 1:
        name = s.levels[0] + "s"
    else:
        index = np.unravel_index(row, shape[:-1])
        name = ", ".join(f"{lvl} {int(i) + 1}" for lvl, i in zip(s.levels[:-1], index, strict=True))
    return SeriesState(name=name, **found)


def _level(steady: list[SeriesState], confidence: float) -> tuple[float | None, float | None, float | None]:
    """The steady level over the steady series: one series' own interval, or a t interval over series."""
    # stdtrit is scipy.stats.t.ppf, without importing scipy.stats (start-up)
    from scipy import special

    if not steady:
        return None, None, None
    if len(steady) == 1:
        return steady[0].level, steady[0].ci_low, steady[0].ci_high
    means = np.array([st.level for st in steady], dtype=float)
    mean = float(means.mean())
    half = float(special.stdtrit(means.size - 1, 0.5 + confidence / 2) * means.std(ddof=1) / math.sqrt(means.size))
    return mean, mean - half, mean + half
