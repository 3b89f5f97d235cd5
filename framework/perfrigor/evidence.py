"""Evidence types: what one step tells a later one about the data, read by type rather than by name.

A later step (the verdict, or any plugin's) gathers what it needs with
``previous.of_type(pr.DependenceCheck)`` and the like: every component whose result is of one
of these types feeds it, built-in or third-party, whatever its name and step id. The fields
are what a reader of the evidence needs; how a component computes them is its own business.
Knows no statistical method.

- :class:`DependenceCheck`: are one system's runs independent repetitions (serial dependence,
  warm-up, drift, steps of the level), and how many independent runs are they worth;
- :class:`ModeComparison`: do the two systems share their modes, and how does each move;
- :class:`ShiftComparison`: the typical run of the candidate against the baseline's (a location
  shift), beside :class:`perfrigor.RatioComparison` (a ratio of means);
- :class:`SteadyStateCheck`: does each series of one system's iterations (a fork, an invocation,
  a flat run order) reach a steady state, and from which iteration (:class:`SeriesState` each).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from .results import Comparison, Estimate, Result, _scalar


@attrs.frozen(kw_only=True)
class LevelStep:
    """A step of the level inside one system's runs: from run ``run`` on (0-based, in run order of
    the sample), the runs sit ``change`` (relative: 0.03 is 3% higher) away from the runs before."""

    run: int
    change: float
    pvalue: float | None = None


def _records(kind: type) -> Any:
    """A converter to a tuple of ``kind`` records, from records or their dicts (a saved report's JSON)."""
    def convert(values: Any) -> tuple:
        return tuple(v if isinstance(v, kind) else kind(**v) for v in values)
    return convert


@attrs.frozen(kw_only=True)
class DependenceCheck(Result):
    """Are one system's runs independent repetitions, and what are they worth?

    ``n``: runs checked (after ``warmup`` leading runs left out); ``autocorrelation``: the sample
    autocorrelations of the runs' ranks in run order at lags 1, 2, ... (what a suite-level
    reader pools over benchmarks measured alike), taken around the level with ``fitted``
    parameters (1: the mean; 2: a line, for a significant drift; one more per step of the
    level), which bias them by about -fitted/n; ``tau``: the long-run variance factor
    estimated from these runs alone (n runs count as n / tau for an interval of their centre);
    ``dependent``: the dependence is significant and large enough to matter; ``drift``: the
    relative change of the level from the first run to the last, ``trending`` when it is
    significant and larger than the check's relevance; ``steps``: level shifts inside the runs;
    ``top``: for hierarchical samples, the check of the top-level means (what an interval of
    the top-level means assumes independent).
    """

    n: int = 0
    level: str = "run"
    autocorrelation: tuple[float, ...] = attrs.field(default=(), converter=tuple)
    fitted: int = 1
    tau: float = _scalar(1.0)
    dependent: bool = _scalar(False)
    drift: float | None = _scalar(None)
    trending: bool = _scalar(False)
    warmup: int = 0
    warmup_change: float | None = _scalar(None)
    steps: tuple[LevelStep, ...] = attrs.field(default=(), converter=_records(LevelStep))
    top: DependenceCheck | None = None

    @property
    def n_effective(self) -> float:
        """The number of independent runs these runs are worth (n / tau)."""
        return self.n / self.tau if self.tau > 0 else float(self.n)


@attrs.frozen(kw_only=True)
class MatchedMode:
    """One mode seen in both systems (or one only): where, how many runs, its shift."""

    baseline_location: float | None
    candidate_location: float | None
    baseline_share: float
    candidate_share: float
    baseline_runs: int
    candidate_runs: int
    baseline_median: float | None = None
    candidate_median: float | None = None
    speedup: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    pvalue: float | None = None

    @property
    def location(self) -> float | None:
        """Where the mode lies: the baseline's location, else the candidate's (a mode of one system only)."""
        return self.baseline_location if self.baseline_location is not None else self.candidate_location

    @property
    def in_both(self) -> bool:
        """Whether both systems have runs in this mode."""
        return bool(self.baseline_runs and self.candidate_runs)

    def shares(self, where: str) -> str:
        """Each system's share of runs in this mode, in words ("40% vs 56% of runs at 3.458 us"); a mode one
        system lacks is said to be one (never "0% vs 56%" under "the same modes")."""
        if not self.baseline_runs:
            return f"{_runs_of(self.candidate_share, self.candidate_runs, 'candidate')} at {where}, where the baseline has none"
        if not self.candidate_runs:
            return f"{_runs_of(self.baseline_share, self.baseline_runs, 'baseline')} at {where}, where the candidate has none"
        return f"{self.baseline_share:.0%} vs {self.candidate_share:.0%} of runs at {where}"


def _runs_of(share: float, runs: int, system: str) -> str:
    """A mode one system alone has, in words: its share of that system's runs, or "one run of the baseline"
    when it is a single run (a slow run set apart, not a share to read as a mode's)."""
    return f"one run of the {system}" if runs == 1 else f"{share:.0%} of the {system}'s runs"


#: how the modes of two systems relate (ModeComparison.kind)
MODE_KINDS = ("unimodal", "shared", "shifted", "different")


@attrs.frozen(kw_only=True)
class ModeComparison(Comparison):
    """Two systems' modes compared: a Comparison whose estimate is the dominant mode's speedup.

    ``kind``: "unimodal" (neither has two clear modes), "shared" (the modes lie at the same
    places), "shifted" (the modes moved, as many on both sides), "different" (different
    numbers of modes: no shift is defined); ``modes`` lists every mode, ``dominant`` the index
    of the one most runs of both systems share; ``shares_pvalue`` tests whether the modes'
    shares differ; ``baseline_modes`` / ``candidate_modes`` give, for every run (flattened
    order), the index in ``modes`` of its mode (-1: none).
    """

    kind: str
    modes: tuple[MatchedMode, ...] = attrs.field(default=(), converter=_records(MatchedMode))
    dominant: int | None = None
    shares_pvalue: float | None = None
    baseline_modes: tuple[int, ...] = attrs.field(default=(), converter=tuple)
    candidate_modes: tuple[int, ...] = attrs.field(default=(), converter=tuple)


@attrs.frozen(kw_only=True)
class ShiftComparison(Comparison):
    """The typical run of the candidate against the baseline's: a location shift (of log values).

    ``estimate`` is the speedup the shift implies (> 1: the candidate is better), with its
    interval and two-sided p-value, as every Comparison; ``statistic`` says what "typical"
    means for the method ("median", "trimmed mean", "mean"), ``baseline_center`` /
    ``candidate_center`` the systems' central values in their unit, ``df`` the degrees of
    freedom behind the interval (None: a normal or exact one), ``method`` the method's name.
    """

    statistic: str = "median"
    baseline_center: float | None = _scalar(None)
    candidate_center: float | None = _scalar(None)
    df: float | None = _scalar(None)
    method: str = ""



#: the classes of a series of iterations (Barrett et al. 2017), SeriesState.classification
STEADY_CLASSES = ("flat", "warmup", "slowdown", "no steady state")


@attrs.frozen(kw_only=True)
class SeriesState(Result):
    """One series of iterations: its classification, first steady iteration, steady level and segments.

    ``classification``: "flat", "warmup", "slowdown", "no steady state" (:data:`STEADY_CLASSES`),
    or None when the series is too short to tell. ``steady_start``: index of the first steady
    iteration (0 for flat), None without a steady state. ``level`` with ``ci_low``/``ci_high``:
    the steady iterations' central value and its interval. ``levels``: the distinct levels the
    steady part switches between. ``segments``: the segments found (in the series' indices and
    unit). ``outliers``: values left out of the segmentation.
    """

    name: str
    classification: str | None
    steady_start: int | None
    n: int
    level: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    levels: tuple[float, ...] = attrs.field(default=(), converter=tuple)
    segments: tuple[Any, ...] = attrs.field(default=(), converter=tuple)
    outliers: int = 0

    @property
    def steady(self) -> bool:
        """Whether the series reaches a steady state (flat, warmup or slowdown)."""
        return self.classification in STEADY_CLASSES[:3]

    def describe(self) -> str:
        if self.classification is None:
            return f"{self.name}: {self.n} values, too few to classify"
        if not self.steady:
            return f"{self.name}: no steady state"
        where = "from the start" if not self.steady_start else f"from iteration {self.steady_start}"
        switch = f", switching between {len(self.levels)} levels" if len(self.levels) > 1 else ""
        return f"{self.name}: {self.classification}, steady {where}{switch}"


@attrs.frozen(kw_only=True)
class SteadyStateCheck(Estimate):
    """Does each series of one system's iterations reach a steady state, and from which iteration?

    A series is the iterations of one process execution (a fork, an invocation: the lowest level
    of a hierarchical sample, rows in the order of ``sample.values`` flattened to series) or a
    flat sample's runs in run order. ``series``: one :class:`SeriesState` per series;
    ``estimate`` (with its interval): the steady level; ``classification``: the series' class
    when there is one series, over several the most telling one present (no steady state, then
    slowdown, then warmup, then flat), ``consistent`` whether they all agree; ``steady_start``:
    the first iteration from which every series that reaches a steady state is steady (None when
    none does); ``counts``: series per class; ``relevance``: the smallest relative change of
    level the detector counts as a change of state.
    """

    classification: str | None = None
    steady_start: int | None = None
    consistent: bool = True
    counts: Mapping[str, int] = attrs.field(factory=dict)
    series: tuple[SeriesState, ...] = attrs.field(default=(), converter=_records(SeriesState))
    unit: str = ""
    series_level: str = "series"
    iteration_level: str = "iteration"
    relevance: float = 0.05

    def starts(self) -> tuple[int | None, ...]:
        """Each series' first steady iteration: 0 for a series too short to classify, None for one that never
        settles (what a comparison of the steady parts leaves out of each series)."""
        return tuple(0 if s.classification is None else s.steady_start if s.steady else None for s in self.series)
