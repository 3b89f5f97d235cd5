"""Noise models for calibrating a decision by simulation: A/A false alarms and power.

Every decision perfrigor makes for a user (a verdict, a warning, a default) has its
false-alarm rate and power measured under realistic noise. A :class:`NoiseModel` draws
the measurements of a baseline and a candidate whose true speedup is known (1.0: an A/A
experiment, the same program on both sides), so any comparator, test or pipeline can be
checked against it — perfrigor's own calibration (``benchmarks/calibration.py``) and a
plugin author's alike. Knows no statistical method.

Every model is written relative to a typical value of 1 ms (times, lower is better) and
a run-to-run noise given as a coefficient of variation; ``speedup`` divides the
candidate's times.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np

from .data import Sample, Suite
from .errors import ConfigError, did_you_mean
from .keys import pair_key
from .params import check_random_state
from .results import NO_CHANGE, Comparison, TestResult, Verdict

Draw = Callable[[np.random.Generator, int], np.ndarray]
"""Draws one system's measurements: ``(rng, size) -> array`` (flat or hierarchical)."""


@attrs.frozen
class NoiseModel:
    """A named family of noisy measurements: how one system's runs are drawn, and at which sizes.

    ``draw(rng, size)`` returns one system's measurements around 1 (relative times);
    ``sizes`` are the run counts (or top-level unit counts) it is simulated at;
    ``levels`` names the levels of hierarchical draws (None: flat).
    """

    name: str
    description: str
    draw: Draw = attrs.field(repr=False)
    sizes: tuple[int, ...]
    levels: tuple[str, ...] | None = None
    scale: float = 1e-3  # seconds: a typical value of 1 ms
    #: the candidate's own draw and run count (a multiple of ``size``) where the systems differ in spread
    #: or count (None, 1: as the baseline)
    candidate_draw: Draw | None = attrs.field(default=None, repr=False)
    candidate_runs: int = 1
    #: the timer's tick relative to 1 (None: exact readings): both systems' times are read on it after the
    #: speedup, as a coarse timer reads a faster candidate
    tick: float | None = None

    def pair(self, size: int, speedup: float = 1.0, random_state: Any = None) -> tuple[Sample, Sample]:
        """A baseline and a candidate ``speedup`` times faster (1.0: A/A), as Samples in seconds."""
        if not speedup > 0:
            raise ConfigError(f"speedup must be > 0, got {speedup!r}")
        rng = check_random_state(random_state)
        old = self.draw(rng, size)
        new = (self.candidate_draw or self.draw)(rng, size * self.candidate_runs) / speedup
        if self.tick is not None:
            old, new = (np.round(x / self.tick) * self.tick for x in (old, new))
        old, new = old * self.scale, new * self.scale
        return (Sample(old, levels=self.levels, name="baseline"), Sample(new, levels=self.levels, name="candidate"))

    def pairs(self, size: int, count: int, speedup: float = 1.0, random_state: Any = None
              ) -> list[tuple[Sample, Sample]]:
        """``count`` independent pairs (one Generator drives them all: reproducible with ``random_state``)."""
        rng = check_random_state(random_state)
        return [self.pair(size, speedup, rng) for _ in range(count)]


# ----------------------------------------------------------------------------- the draws

def _normal(cv: float) -> Draw:
    return lambda rng, n: 1.0 + cv * rng.standard_normal(n)


def _lognormal(sigma: float) -> Draw:
    return lambda rng, n: np.exp(sigma * rng.standard_normal(n))


def _outliers(cv: float, share: float, low: float, high: float) -> Draw:
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        x = 1.0 + cv * rng.standard_normal(n)
        hit = rng.random(n) < share
        return np.where(hit, x * rng.uniform(low, high, n), x)
    return draw


def _heavy_tails(cv: float, df: float) -> Draw:
    return lambda rng, n: 1.0 + cv * rng.standard_t(df, n) / np.sqrt(df / (df - 2))


def _hierarchical(iterations: int, cv: float, between: float) -> Draw:
    """``n`` invocations x ``iterations``: a random effect per invocation, ``between`` x the iteration noise."""
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        effect = between * cv * rng.standard_normal((n, 1))
        return 1.0 + effect + cv * rng.standard_normal((n, iterations))
    return draw


def _undeclared(iterations: int, cv: float, between: float) -> Draw:
    """The hierarchical draw flattened, as a tool that forgets the invocations would record it."""
    inner = _hierarchical(iterations, cv, between)
    return lambda rng, n: inner(rng, max(1, n // iterations)).reshape(-1)


def _session_modes(cv: float, gap: float, low: float, high: float) -> Draw:
    """Two modes (1 and 1 + gap); the slow mode's share drawn anew per session (per system)."""
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        share = rng.uniform(low, high)
        slow = rng.random(n) < share
        return np.where(slow, 1.0 + gap, 1.0) * (1.0 + cv * rng.standard_normal(n))
    return draw


def _three_modes(cv: float) -> Draw:
    """Three fixed modes (1, 1.15, 1.4 with shares 60/30/10%): multimodal, nothing session-dependent."""
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        where = rng.choice(3, size=n, p=[0.6, 0.3, 0.1])
        return np.array([1.0, 1.15, 1.4])[where] * (1.0 + cv * rng.standard_normal(n))
    return draw


def ar1(rng: np.random.Generator, n: int, phi: float) -> np.ndarray:
    """A stationary AR(1) series of unit variance: x_0 ~ N(0, 1), x_t = phi x_(t-1) + e_t."""
    # the recursion as a filter, in C; scipy loaded only when simulating (start-up)
    from scipy.signal import lfilter

    e = rng.standard_normal(n) * np.sqrt(1.0 - phi * phi)
    e[0] = rng.standard_normal()
    return lfilter([1.0], [1.0, -phi], e)


def _ar1_drift(cv: float, phi: float, drift: float) -> Draw:
    return lambda rng, n: (1.0 + cv * ar1(rng, n, phi)) * (1.0 + drift * np.linspace(0.0, 1.0, n))


def _warmup(cv: float, runs: int, slower: float) -> Draw:
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        x = 1.0 + cv * rng.standard_normal(n)
        x[:runs] *= 1.0 + slower * np.linspace(1.0, 0.0, runs, endpoint=False)[: min(runs, n)]
        return x
    return draw


def _level_shift(cv: float, shift: float) -> Draw:
    """A frequency change half-way through the session: the second half ``shift`` slower, at a random point."""
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        x = 1.0 + cv * rng.standard_normal(n)
        at = rng.integers(n // 4, 3 * n // 4 + 1)
        x[at:] *= 1.0 + shift
        return x
    return draw


def _periodic(period: float, amplitude: float, cv: float) -> Draw:
    """Periodic interference (a timer interrupt, another job's cycle): a sinusoid of about ``period`` runs
    (10% either way) with a random phase per session, times ``cv`` white noise. It averages out over the run."""
    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        length = period * rng.uniform(0.9, 1.1)
        wave = amplitude * np.sin(2.0 * np.pi * np.arange(n) / length + rng.uniform(0.0, 2.0 * np.pi))
        return (1.0 + wave) * (1.0 + cv * rng.standard_normal(n))
    return draw


def _ticks(mean: float, sd: float) -> Draw:
    """True times of ``mean`` ticks of 1/``mean`` (about 10% of the value) and noise ``sd`` ticks, before the timer
    reads them (the model's ``tick`` rounds them, after the candidate's speedup)."""
    return lambda rng, n: (mean + sd * rng.standard_normal(n)) / mean


MODELS: dict[str, NoiseModel] = {m.name: m for m in (
    NoiseModel("iid-normal", "independent runs, normal noise of 1% (cv)", _normal(0.01), (10, 30, 100)),
    NoiseModel("log-normal", "independent runs, log-normal noise (sigma 0.1 on the log scale: a right tail)",
               _lognormal(0.1), (10, 30, 100)),
    NoiseModel("outliers", "1% normal noise and 3% of runs slowed 1.5x to 3x (interrupts, page faults)",
               _outliers(0.01, 0.03, 1.5, 3.0), (30, 100)),
    NoiseModel("heavy-tails", "Student t noise with 3 degrees of freedom, 1% cv", _heavy_tails(0.01, 3.0),
               (10, 30, 100)),
    NoiseModel("unequal", "the baseline's n runs at 3% normal noise, the candidate's 6n runs at 1% (another machine, "
               "another run count)", _normal(0.03), (10, 30), candidate_draw=_normal(0.01), candidate_runs=6),
    NoiseModel("hierarchical", "invocations x 30 iterations, levels declared; the invocation effect is 3x the "
               "iteration noise (1%)", _hierarchical(30, 0.01, 3.0), (5, 10), ("invocation", "iteration")),
    NoiseModel("undeclared-hierarchy", "the same, flattened: 10 runs per invocation recorded as one series",
               _undeclared(10, 0.01, 3.0), (30, 100)),
    NoiseModel("session-modes", "two modes 30% apart (1% noise each); the slow mode's share is drawn anew per "
               "session in [5%, 45%]", _session_modes(0.01, 0.3, 0.05, 0.45), (30, 100)),
    NoiseModel("three-modes", "three fixed modes (shares 60/30/10%), 1% noise each", _three_modes(0.01), (30, 100)),
    NoiseModel("ar1", "AR(1) autocorrelation 0.5 over the run order, 1% noise", _ar1_drift(0.01, 0.5, 0.0),
               (10, 30)),
    NoiseModel("ar1-drift", "AR(1) autocorrelation 0.5 and a 2% drift over the run order, 1% noise",
               _ar1_drift(0.01, 0.5, 0.02), (30, 100)),
    NoiseModel("warmup", "the first 5 runs up to 10% slower, then 1% normal noise", _warmup(0.01, 5, 0.10),
               (30, 100)),
    NoiseModel("level-shift", "a 3% step at a random point of the session (frequency change), 1% noise",
               _level_shift(0.01, 0.03), (30, 100)),
    NoiseModel("periodic", "a sinusoid of about 7 runs (random phase per session) of 2% amplitude, 0.5% white "
               "noise: interference that averages out", _periodic(7.0, 0.02, 0.005), (10, 30)),
    NoiseModel("tiny-ticks", "3 or 5 runs on a coarse timer: 10.3 ticks, sd 0.5 tick, rounded to whole ticks",
               _ticks(10.3, 0.5), (3, 5), tick=1 / 10.3),
)}


def model(name: str) -> NoiseModel:
    """The noise model registered as ``name``."""
    try:
        return MODELS[name]
    except KeyError:
        raise ConfigError(f"no noise model {name!r}{did_you_mean(name, MODELS)} "
                          f"(models: {', '.join(MODELS)})") from None


def names() -> Sequence[str]:
    return list(MODELS)


# ----------------------------------------------------------------------------- calibration

@attrs.frozen
class Rates:
    """How often one step said what, over ``replicates`` simulated benchmarks.

    ``counts`` maps each answer ("faster", "slower", "same", "unclear" for verdicts;
    "faster", "slower", "no change", "not faster", "unclear" for comparisons; "reject",
    "accept" for tests) to its count; ``alarm`` is the share of "faster" or "slower" (a
    test's "reject"), the false-alarm rate in an A/A experiment; ``faster`` the share of
    "faster" (a test's "reject"), the power when the candidate is truly faster.
    ``intervals`` counts the answers with an interval where the true value is known (a speedup's
    is the simulated speedup; a probability's or gain's only in an A/A experiment: 1/2, 0), and
    ``covered`` those that contain it: ``coverage`` is their share (None without intervals).
    """

    step: str
    component: str
    replicates: int
    counts: dict[str, int]
    intervals: int = 0
    covered: int = 0

    @property
    def coverage(self) -> float | None:
        return self.covered / self.intervals if self.intervals else None

    @property
    def alarm(self) -> float:
        hits = self.counts.get("faster", 0) + self.counts.get("slower", 0) + self.counts.get("reject", 0)
        return hits / self.replicates

    @property
    def faster(self) -> float:
        return (self.counts.get("faster", 0) + self.counts.get("reject", 0)) / self.replicates

    @staticmethod
    def standard_error(rate: float, replicates: int) -> float:
        """The Monte-Carlo standard error of a rate estimated from ``replicates`` draws."""
        return float(np.sqrt(max(rate * (1.0 - rate), 1e-12) / replicates))


def calibrate(pipeline: Any, noise: NoiseModel | str, size: int, speedup: float = 1.0, replicates: int = 500,
              random_state: Any = 0, executor: Any = None, suites_of: int | None = None) -> dict[str, Rates]:
    """Run ``pipeline`` on ``replicates`` simulated benchmarks; how often each step said what.

    The benchmarks form one suite (each a fresh draw of ``noise`` at ``size``, candidate
    ``speedup`` times faster), so the pipeline's executor and batching apply, and each is
    judged as if alone (no ``Component.revise``). With ``suites_of``, the replicates are run
    as suites of that many benchmarks of the model, each revised as a suite (a step that pools
    evidence over a suite's benchmarks does; configure its multiple-testing adjustment off to
    tally per-benchmark rates). Every per-benchmark step that compares the baseline with the
    candidate is tallied: verdicts by their outcome, comparisons by what they conclude
    (:func:`perfrigor.conclusion`), tests by rejection; and the intervals of verdicts and
    comparisons by whether they hold the true value (``Rates.coverage``).
    """
    noise = model(noise) if isinstance(noise, str) else noise
    pairs = noise.pairs(size, replicates, speedup, random_state)
    names = [f"r{i:05d}" for i in range(len(pairs))]
    chunk = suites_of or len(pairs)
    reports = []
    for start in range(0, len(pairs), chunk):
        suite = Suite({n: {"baseline": a, "candidate": b} for n, (a, b) in
                       zip(names[start:start + chunk], pairs[start:start + chunk], strict=True)},
                      systems=("baseline", "candidate"))
        reports.append(pipeline.run(suite, executor=executor, revise=suites_of is not None))
    key = pair_key("baseline", "candidate")
    out: dict[str, Rates] = {}
    for step in reports[0].steps:
        counts: dict[str, int] = {}
        seen = intervals = covered = 0
        for report, results in ((r, res) for r in reports for res in r.benchmark_results.values()):
            res = results.get(step.id, {}).get(key)
            if isinstance(res, Verdict):
                answer = res.outcome
            elif isinstance(res, Comparison):
                answer = report.conclusion(step.id, res)
            elif isinstance(res, TestResult):
                answer = "reject" if res.reject else "accept"
            else:
                continue
            seen += 1
            counts[answer or "unclear"] = counts.get(answer or "unclear", 0) + 1
            truth = _true_value(res, step.estimate_kind, speedup)
            if truth is not None and res.ci_low is not None and res.ci_high is not None:  # type: ignore[union-attr]
                intervals += 1
                covered += bool(res.ci_low <= truth <= res.ci_high)  # type: ignore[union-attr]
        failed = sum(1 for r in reports for e in r.errors if e.step == step.id)
        if failed:
            counts["error"] = failed
        if seen:
            out[step.id] = Rates(step.id, step.component, replicates, counts, intervals, covered)
    return out


def _true_value(res: Any, kind: str | None, speedup: float) -> float | None:
    """What an answer's interval should hold: the simulated speedup (a verdict's, or a comparison of
    kind "speedup"); for probabilities and gains, their value of no change in an A/A experiment."""
    if isinstance(res, Verdict) or (isinstance(res, Comparison) and (kind or "speedup") == "speedup"):
        return speedup
    if isinstance(res, Comparison) and kind in NO_CHANGE and speedup == 1.0:
        return NO_CHANGE[kind]
    return None


# ----------------------------------------------------------------------------- suites

def suite_models(size: int | Sequence[int]) -> list[str]:
    """The flat models simulated at ``size`` runs (at the largest of several sizes)."""
    largest = size if isinstance(size, int) else max(size)
    return [m.name for m in MODELS.values() if m.levels is None and largest in m.sizes]


def suite(benchmarks: int = 100, size: int | Sequence[int] = 30, changed: int = 0, speedup: float = 1.0,
          models: Sequence[str] | None = None, random_state: Any = None) -> tuple[Any, list[str]]:
    """A simulated suite: ``benchmarks`` benchmarks, their noise models taken in turn from ``models``
    (default: :func:`suite_models` at ``size``), ``changed`` of them (chosen at random) with the
    candidate ``speedup`` times faster and the others A/A. ``size``: the runs of every benchmark, or
    several run counts drawn at random per benchmark (mixed sizes: n = 10-30). Returns the Suite and
    the changed names.

    For calibrating suite-level decisions, e.g. a regression gate: how often it fires on an
    unchanged suite, and how many true changes it finds.
    """
    if not 0 <= changed <= benchmarks:
        raise ConfigError(f"changed must be between 0 and benchmarks ({benchmarks}), got {changed}")
    names = list(models) if models is not None else suite_models(size)
    if not names:
        raise ConfigError(f"no noise model is simulated at {size} runs")
    noises = [model(n) for n in names]
    sizes = [size] if isinstance(size, int) else list(size)
    rng = check_random_state(random_state)
    hit = set(rng.choice(benchmarks, size=changed, replace=False).tolist()) if changed else set()
    data, moved = {}, []
    for i in range(benchmarks):
        noise = noises[i % len(noises)]
        name = f"b{i:03d}-{noise.name}"
        runs = sizes[0] if len(sizes) == 1 else int(rng.choice(sizes))
        old, new = noise.pair(runs, speedup if i in hit else 1.0, rng)
        data[name] = {"baseline": old, "candidate": new}
        if i in hit:
            moved.append(name)
    return Suite(data, systems=("baseline", "candidate")), moved
