"""The ``independence`` estimator: are a system's runs independent, in run order?

The Speedup-Test, the rank tests and the intervals of a mean all assume independent runs.
Thermal drift, frequency scaling, caches and an undeclared hierarchy (runs grouped by
process invocation) break that: n dependent runs carry the information of fewer. This
estimator checks the runs in the order they were recorded (a reader keeps that order):
a trend against run order (Mann-Kendall, Sen's slope), a step of the level (Pettitt), the
autocorrelations of the ranks, the long-run variance factor tau they imply and the
effective sample size n / tau. A hierarchical sample is checked per top-level unit (the
iterations of each invocation, with warm-up detection) and across the units.

Every flag has a size and a relevance: a drift or a step smaller than ``relevance`` (1% of
the level) is reported but is no warning, and runs are flagged "dependent" only when the
dependence is significant and costs at least a third of their information (tau >= 1.5):
at 3,000 runs a drift of 0.5% is significant and irrelevant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .serial import (
    MIN_RUNS,
    PAIRWISE_MAX,
    acf_lags,
    lag1_pvalue,
    leading_outliers,
    level_step,
    mann_kendall,
    pettitt,
    rank_rows,
    residual_rows,
    residuals,
    step_change,
    step_fits_better,
    warmup_length,
)

#: the long-run factor from which dependence is worth a flag: the runs count as at most two thirds of their number
DEPENDENCE_RELEVANCE = 1.5
#: a step of the level is claimed at this level only (Pettitt's test, conservative): a step is a strong claim
STEP_ALPHA = 0.01


@attrs.frozen(kw_only=True)
class SeriesCheck(pr.DependenceCheck):
    """Serial checks of one series: autocorrelation, long-run factor, trend, steps of the level.

    ``lag1``/``lag1_pvalue``: the lag-1 autocorrelation of the ranks (after removing the
    series' line and any step) and the one-sided p-value of "the runs are positively
    correlated"; ``tau``/``n_eff``: the long-run variance factor and the number of independent
    runs the series is worth; ``dependent``: significant at ``confidence`` and tau >= 1.5;
    ``trend``/``trend_pvalue``: Kendall's tau against run order and its p-value; ``drift``:
    Sen's slope over the series, relative; ``trending``: significant and at least ``relevance``;
    ``steps``: a step of the level (Pettitt, p < 0.01, at least ``relevance``, better than a
    line). ``checked`` is False for series shorter than the minimum (nothing can be said).
    """

    checked: bool
    lag1: float | None = None
    lag1_pvalue: float | None = None
    n_eff: float | None = None
    trend: float | None = None
    trend_pvalue: float | None = None
    confidence: float = 0.95
    relevance: float = 0.01
    levels_move: bool = False  # the level moves more than once: groups of runs (invocations?), counted as dependence

    def describe(self) -> str:
        if not self.checked:
            return f"{self.n} {self.level}s: too few to check independence (at least {MIN_RUNS} needed)"
        size = f"lag-1 autocorrelation {self.lag1:.2f}, long-run factor {self.tau:.2f}"
        if self.dependent:
            parts = [f"{size} (significant: {self.n} {self.level}s count as about {self.n_eff:.0f})"]
        elif self.lag1_pvalue is not None and self.lag1_pvalue < 1.0 - self.confidence:
            parts = [f"{size} (significant, but the {self.n} {self.level}s still count as about {self.n_eff:.0f})"]
        else:
            parts = [f"{size} (not significant)"]
        if (self.drift is not None and self.trend_pvalue is not None and self.trend_pvalue < 1.0 - self.confidence
                and not self.steps):
            tail = "" if self.trending else f": significant, but below the {self.relevance:.0%} that matters"
            parts.append(f"drifts {self.drift:+.1%} over the {self.n} {self.level}s (Kendall tau {self.trend:.2f}, "
                         f"p = {self.trend_pvalue:.2g}){tail}")
        for step in self.steps:
            parts.append(f"the level moves {step.change:+.1%} at {self.level} {step.run + 1} (p = {step.pvalue:.2g})")
        if self.levels_move:
            parts.append(f"the level moves more than once: the {self.level}s come in groups (invocations?), counted "
                         "as dependence")
        return f"{self.level}: " + "; ".join(parts)


@attrs.frozen(kw_only=True)
class IndependenceResult(pr.DependenceCheck):
    """Independence of one system's runs: the series checked and what they imply (a ``pr.DependenceCheck``).

    ``runs``: the check of the lowest level in run order (a flat sample's runs; for a
    hierarchical sample the pooled within-unit check, ``per_unit`` the share of units
    flagged); ``top``: the check of the top-level unit means (hierarchical samples);
    ``warmup``: leading runs (flat samples) or leading iterations of every unit (hierarchical
    ones) that stand out of the steady state; the checks of ``runs`` leave a flat sample's out.
    ``tau``/``n_eff``/``autocorrelation`` summarise what an interval of the sample's centre must
    use (the runs of a flat sample, the top-level means of a hierarchical one).
    """

    runs: SeriesCheck
    per_unit: Mapping[str, Any] = attrs.field(factory=dict)
    n_eff: float | None = None

    def describe(self) -> str:
        parts = [self.runs.describe()]
        if self.per_unit:
            parts.append(f"{self.per_unit['flagged']} of {self.per_unit['units']} {self.per_unit['unit']}s "
                         "show serial dependence or a drift")
        if self.warmup:
            every = " of every unit" if self.per_unit else ""
            parts.append(f"warm-up: the first {self.warmup} {self.runs.level}(s){every} are "
                         f"{abs(self.warmup_change):.1%} {'slower' if self.warmup_change > 0 else 'faster'} "
                         "than the steady state (drop them)")
        if self.top is not None:
            parts.append(self.top.describe())
        return "; ".join(parts)


def check_series(z: np.ndarray, level: str, confidence: float, relevance: float = 0.01, offset: Any = 0,
                 steps: bool = True) -> list[SeriesCheck]:
    """All serial checks of each row of ``z`` (one series per row, values in run order).

    ``offset``: the index of the first value in the sample's run order (leading warm-up runs
    left out), so that a step names the run where it happens (one per row, or one for all);
    ``steps``: look for a step of the level (off for the many units of a hierarchical sample).
    Vectorised over the rows (the ranks, Pettitt's scan, the residuals and autocorrelations of
    all rows at once, each row's numbers those of a row alone); a row whose level steps, or
    whose runs are all equal, is finished on its own.
    """
    z = np.ascontiguousarray(np.atleast_2d(np.asarray(z, dtype=float)))
    n = int(z.shape[-1])
    if n < MIN_RUNS:
        return [SeriesCheck(level=level, n=n, checked=False, confidence=confidence, relevance=relevance)] * z.shape[0]
    offsets = np.broadcast_to(np.asarray(offset, dtype=np.int64), z.shape[:1]).tolist()
    alpha = 1.0 - confidence
    trend, p_trend, slope = mann_kendall(z)
    centre = np.median(z, axis=-1)
    drift = np.where(centre != 0, slope * (n - 1) / np.where(centre != 0, centre, 1.0), 0.0)
    flat = np.ptp(z, axis=-1) == 0  # every run equal: nothing varies, nothing depends
    ranks = rank_rows(z)  # ranked once: the step test and the autocorrelations share them
    at, p_step = pettitt(ranks) if steps else (None, None)
    lags = acf_lags(n)
    # the evidence (what an interval of all the runs must allow for) is measured around the mean: a drift or a
    # step counts as dependence there (one series cannot tell them from slow dependence: it errs on the safe
    # side); the flag "dependent" asks for dependence beyond the line and the steps, so that a drift or a step is
    # reported as what it is
    fitted, rest = residual_rows(ranks, line=False)
    acf = pr.stats.autocorrelation(rest, lags)
    beyond, rest = residual_rows(ranks, line=True)
    around = pr.stats.autocorrelation(rest, lags)
    out = []
    for i, (row, k, pk, d, f) in enumerate(zip(z, trend, p_trend, drift, flat, strict=True)):
        found: tuple[pr.LevelStep, ...] = ()
        moves = False  # the level moves more than once: runs in groups (invocations?), not one change of state
        if steps and not f and p_step[i] < STEP_ALPHA:
            split = int(at[i])
            change = step_change(row, split)
            if abs(change) >= relevance and step_fits_better(row, split):
                found = (pr.LevelStep(run=split + offsets[i], change=change, pvalue=float(p_step[i])),)
                moves = any(_has_step(part, relevance) for part in (row[:split], row[split:]))
                if moves:
                    found = ()
        relevant_drift = bool(not f and not found and pk < alpha and abs(d) >= relevance)  # a step is no drift
        row_acf = np.zeros(lags) if f else acf[i]
        stored = tuple(float(r) for r in row_acf[:min(lags, STORED_LAGS)])
        tau = 1.0 if f else long_run(row_acf, n, fitted)
        row_beyond, row_around = beyond, around[i]
        if found:  # the residuals of the line and the step
            row_beyond, rest_i = residuals(ranks[i], [s.run - offsets[i] for s in found], line=True)
            row_around = pr.stats.autocorrelation(rest_i, lags)
        if f:
            row_around = np.zeros(lags)
        r1 = float(row_around[0])
        p1 = 1.0 if f else lag1_pvalue(r1, n, row_beyond)
        tau_beyond = 1.0 if f else long_run(row_around, n, row_beyond)
        out.append(SeriesCheck(
            level=level, n=n, checked=True, autocorrelation=stored, fitted=fitted, tau=tau, n_eff=n / tau, lag1=r1,
            lag1_pvalue=p1, dependent=bool(p1 < alpha and tau_beyond >= DEPENDENCE_RELEVANCE), trend=float(k),
            trend_pvalue=float(pk), drift=float(d), trending=relevant_drift, steps=found, confidence=confidence,
            relevance=relevance, levels_move=moves))
    return out


#: autocorrelations a check keeps (what a suite-level reader pools): enough for the window of a short series
STORED_LAGS = 20


def long_run(acf: np.ndarray, n: int, fitted: int) -> float:
    """The long-run factor of one series: an autoregression's (two lags: all a short series can estimate), and
    from 20 runs at least a lag window's (a third of the series, Politis' bandwidth from 60 runs), which sees
    long-range dependence such as runs grouped by invocation."""
    tau = pr.stats.autoregressive_long_run_factor(float(acf[0]), float(acf[1]) if acf.size > 1 else None, n, fitted)
    if n >= 20:
        tau = max(tau, pr.stats.long_run_factor(acf[:bandwidth(acf, n)], n, fitted=fitted))
    return tau


def _has_step(z: np.ndarray, relevance: float) -> bool:
    """A second step in a segment (at 5%: where the level moves again, the runs are counted as dependent, which
    errs on the safe side; a spurious second step costs power, not calibration)."""
    at, change, p_step = level_step(z)
    return bool(p_step < 0.05 and abs(change) >= relevance and step_fits_better(z, at))


def bandwidth(acf: np.ndarray, n: int) -> int:
    """Lags the long-run factor of a series sums (``acf`` from lag 1): a third of a short series; for
    longer ones Politis' (2003) rule: twice the lag after which the next few autocorrelations all
    lie within 2 sqrt(log10(n) / n) (no dependence left), at most a third of the series."""
    if n < 60:
        return min(acf.size, n // 3)
    limit = 2.0 * np.sqrt(np.log10(n) / n)
    run = max(5, int(np.ceil(np.sqrt(np.log10(n)))))
    small = np.abs(acf) < limit
    for m in range(acf.size - run + 1):
        if small[m:m + run].all():
            return min(acf.size, 2 * m)
    return acf.size


@attrs.define(repr=False)
class Independence(pr.Estimator):
    """Are the runs independent? Run-order trend, steps, autocorrelation, long-run factor, effective size.

    ``confidence``: level of the checks (0.95: a dependence or a drift is significant when p < 0.05;
    a flag is a warning, and a warning on clean runs is a false alarm; how much an interval is
    widened does not depend on it); ``relevance``: the smallest drift or step of the level,
    relative, that is worth a warning (0.01: below 1% of the level a significant drift is
    reported but not flagged).
    """

    name: ClassVar[str] = "independence"
    confidence: float = pr.confidence_param(0.95,
                                            help="level of the checks (0.95: a dependence or drift is significant "
                                                 "when p < 0.05)")
    relevance: float = pr.float_param(0.01, minimum=0.0, maximum=1.0,
                                      help="the smallest drift or step of the level (relative) worth a warning")

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """The checks of every flat sample of a pipeline task at once, into its workspace (``estimate`` reads
        them): the samples' runs after their warm-up, grouped by length, one vectorised ``check_series`` a group."""
        prepare_runs([(job.component, sample) for job in jobs for sample in job.samples.values()])

    def estimate(self, sample: Any) -> IndependenceResult:
        s = pr.as_sample(sample)
        v = s.values
        if v.ndim == 1:
            warm, runs = _flat_runs(self, v, s.levels[0])
            change = float(v[:warm].mean() / np.median(v[warm:]) - 1.0) if warm else None
            return IndependenceResult(runs=runs, n=runs.n, level=runs.level, autocorrelation=runs.autocorrelation,
                                      warmup=warm, warmup_change=change, tau=runs.tau,
                                      n_eff=runs.n_eff if runs.checked else None, dependent=runs.dependent,
                                      drift=runs.drift, trending=runs.trending, steps=runs.steps,
                                      warnings=_warn(runs, s))
        if v.shape[-1] < 2:
            raise pr.DataError(f"{s.label}: one {s.levels[-1]} per {s.levels[-2]}: nothing to check within units")
        flat_units = v.reshape(-1, v.shape[-1])  # one row per unit of the level above the lowest
        checks = check_series(flat_units, s.levels[-1], self.confidence, self.relevance, steps=False)
        checked = [c for c in checks if c.checked]
        pooled = _pooled(checked, s.levels[-1], int(flat_units.shape[1]), self.confidence, self.relevance)
        warm = warmup_length(flat_units)
        change = None
        if warm:
            steady = float(flat_units[:, flat_units.shape[1] // 2:].mean())
            change = float(flat_units[:, :warm].mean() / steady - 1.0) if steady else None
        top = check_series(s.top_means(), f"{s.levels[0]} mean", self.confidence, self.relevance)[0]
        per_unit = {"unit": s.levels[-2], "units": len(checks), "checked": len(checked),
                    "flagged": sum(c.dependent or c.trending for c in checked)}
        return IndependenceResult(runs=pooled, top=top, per_unit=per_unit, n=top.n, level=top.level,
                                  autocorrelation=top.autocorrelation, warmup=warm, warmup_change=change,
                                  tau=top.tau, n_eff=top.n_eff if top.checked else None, dependent=top.dependent,
                                  drift=top.drift, trending=top.trending, steps=top.steps, warnings=_warn(top, s))


#: flat samples up to this many runs are checked together in a pipeline task (``Independence.prepare``)
BATCH_MAX_RUNS = PAIRWISE_MAX


def _runs_key(check: Independence, values: np.ndarray, level: str) -> tuple:
    """Workspace key of a flat sample's check: its values (in run order) and every setting the check reads."""
    return ("perfrigor_plugins.independence", "runs", values.tobytes(), values.size, level, float(check.confidence),
            float(check.relevance))


def _flat_runs(check: Independence, values: np.ndarray, level: str) -> tuple[int, SeriesCheck]:
    """A flat sample's warm-up (leading outliers) and the check of the runs after it; from the task's workspace
    when ``prepare`` put it there."""
    ws = pr.current_workspace()
    found = ws.get(_runs_key(check, values, level)) if ws is not None and values.size <= BATCH_MAX_RUNS else None
    if found is not None:
        return found
    warm = leading_outliers(values)
    return warm, check_series(values[warm:], level, check.confidence, check.relevance, offset=warm)[0]


def prepare_runs(items: Sequence[tuple[Any, Any]]) -> int:
    """Check many flat samples at once into the current workspace: ``(component, sample)`` pairs (an
    ``Independence`` with its settings). Each sample's runs after its warm-up, grouped with the others of the
    same length and settings; the checks are those of one sample at a time. Returns how many were checked;
    without a workspace, does nothing."""
    ws = pr.current_workspace()
    if ws is None:
        return 0
    groups: dict[tuple, list[tuple[tuple, np.ndarray, int]]] = {}
    for check, sample in items:
        if not isinstance(check, Independence) or not isinstance(sample, pr.Sample):
            continue
        v = sample.values
        if v.ndim != 1 or v.size > BATCH_MAX_RUNS or v.dtype != np.float64:
            continue
        key = _runs_key(check, v, sample.levels[0])
        if key in ws:
            continue
        warm = leading_outliers(v)
        ws.put(key, None)  # claimed: a sample given twice is checked once
        groups.setdefault((v.size - warm, sample.levels[0], check.confidence, check.relevance), []).append(
            (key, v[warm:], warm))
    done = 0
    for (_, level, confidence, relevance), group in groups.items():
        checks = check_series(np.stack([z for _, z, _ in group]), level, confidence, relevance,
                              offset=np.array([w for _, _, w in group], dtype=np.int64))
        for (key, _, warm), found in zip(group, checks, strict=True):
            ws.put(key, (warm, found))
        done += len(group)
    return done


def _pooled(checks: list[SeriesCheck], level: str, n: int, confidence: float, relevance: float) -> SeriesCheck:
    """One summary of many units' checks: median statistics, flagged when most units are."""
    if not checks:
        return SeriesCheck(level=level, n=n, checked=False, confidence=confidence, relevance=relevance)
    tau = float(np.median([c.tau for c in checks]))
    return SeriesCheck(level=level, n=n, checked=True, lag1=float(np.median([c.lag1 for c in checks])),
                       lag1_pvalue=float(np.median([c.lag1_pvalue for c in checks])), tau=tau, n_eff=n / tau,
                       autocorrelation=tuple(np.median([c.autocorrelation for c in checks], axis=0).tolist()),
                       dependent=sum(c.dependent for c in checks) > len(checks) / 2,
                       trend=float(np.median([c.trend for c in checks])),
                       trend_pvalue=float(np.median([c.trend_pvalue for c in checks])),
                       drift=float(np.median([c.drift for c in checks])),
                       trending=sum(c.trending for c in checks) > len(checks) / 2, confidence=confidence,
                       relevance=relevance)


def _warn(check: SeriesCheck, sample: pr.Sample) -> tuple[str, ...]:
    out = []
    if check.dependent:
        out.append(f"{sample.label}: {check.level}s are serially dependent (lag-1 autocorrelation {check.lag1:.2f}, "
                   f"long-run factor {check.tau:.2f}); {check.n} count as about {check.n_eff:.0f} independent ones")
    if check.trending:
        out.append(f"{sample.label}: {check.level}s drift {check.drift:+.1%} over the run (Mann-Kendall "
                   f"p = {check.trend_pvalue:.2g}): interleave the systems' runs, or warm the machine up first")
    for step in check.steps:
        out.append(f"{sample.label}: the level moves {step.change:+.1%} at {check.level} {step.run + 1} "
                   f"(Pettitt p = {step.pvalue:.2g}): the machine changed during the measurement (frequency, "
                   "another job); interleave the systems' runs")
    return tuple(out)
