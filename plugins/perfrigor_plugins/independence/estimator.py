"""The ``independence`` estimator: are a system's runs independent, in run order?

The Speedup-Test, the rank tests and the intervals of a mean all assume independent runs.
Thermal drift, frequency scaling, caches and an undeclared hierarchy (runs grouped by
process invocation) break that: n dependent runs carry the information of fewer. This
estimator checks the runs in the order they were recorded (a reader keeps that order):
a trend against run order (Mann-Kendall, Sen's slope), the lag-1 autocorrelation and the
effective sample size n / tau it implies. A hierarchical sample is checked per top-level
unit (the iterations of each invocation, with warm-up detection) and across the units.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .serial import (
    MIN_RUNS,
    autocorrelation_time,
    lag1_test,
    leading_outliers,
    mann_kendall,
    warmup_length,
)


@attrs.frozen(kw_only=True)
class SeriesCheck(pr.Result):
    """Serial checks of one series: lag-1 autocorrelation, trend, effective sample size.

    ``tau`` is the integrated autocorrelation time of the ranks and ``n_eff = n / tau``,
    the number of independent runs the series is worth; ``dependent`` says whether the
    positive autocorrelation is significant at ``confidence`` (then ``tau`` is the factor
    by which an interval's variance must grow), ``trending`` whether the trend is.
    ``checked`` is False for series shorter than the minimum (nothing can be said).
    """

    level: str
    n: int
    checked: bool
    lag1: float | None = None
    lag1_pvalue: float | None = None
    tau: float = 1.0
    n_eff: float | None = None
    dependent: bool = False
    trend: float | None = None
    trend_pvalue: float | None = None
    drift: float | None = None
    trending: bool = False
    confidence: float = 0.9

    def describe(self) -> str:
        if not self.checked:
            return f"{self.n} {self.level}s: too few to check independence (at least {MIN_RUNS} needed)"
        parts = [f"lag-1 autocorrelation {self.lag1:.2f}"
                 + (f" (significant: {self.n} runs count as about {self.n_eff:.0f})" if self.dependent
                    else " (not significant)")]
        if self.trending:
            parts.append(f"drifts {self.drift:+.1%} over the {self.n} runs (Kendall tau {self.trend:.2f}, "
                         f"p = {self.trend_pvalue:.2g})")
        return f"{self.level}: " + "; ".join(parts)


@attrs.frozen(kw_only=True)
class IndependenceResult(pr.Result):
    """Independence of one system's runs: the series checked and what they imply.

    ``runs``: the check of the lowest level in run order (a flat sample's runs; for a
    hierarchical sample the pooled within-unit check, ``per_unit`` the share of units
    flagged); ``top``: the check of the top-level unit means (hierarchical samples);
    ``warmup``: leading runs (flat samples) or leading iterations of every unit (hierarchical
    ones) that stand out of the steady state; the checks of ``runs`` leave a flat sample's out.
    ``tau``/``n_eff`` summarise what an interval of the sample's mean or median must use.
    """

    runs: SeriesCheck
    top: SeriesCheck | None = None
    per_unit: Mapping[str, Any] = attrs.field(factory=dict)
    warmup: int = 0
    warmup_change: float | None = None
    tau: float = 1.0
    n_eff: float | None = None
    dependent: bool = False
    trending: bool = False

    def describe(self) -> str:
        parts = [self.runs.describe()]
        if self.per_unit:
            parts.append(f"{self.per_unit['flagged']} of {self.per_unit['units']} {self.per_unit['unit']}s "
                         "show serial dependence")
        if self.warmup:
            every = " of every unit" if self.per_unit else ""
            parts.append(f"warm-up: the first {self.warmup} {self.runs.level}(s){every} are "
                         f"{abs(self.warmup_change):.1%} {'slower' if self.warmup_change > 0 else 'faster'} "
                         "than the steady state (drop them)")
        if self.top is not None:
            parts.append(self.top.describe())
        return "; ".join(parts)


def check_series(z: np.ndarray, level: str, confidence: float) -> list[SeriesCheck]:
    """All serial checks of each row of ``z`` (one series per row, values in run order)."""
    from scipy import stats as sps
    z = np.atleast_2d(np.asarray(z, dtype=float))
    n = int(z.shape[-1])
    if n < MIN_RUNS:
        return [SeriesCheck(level=level, n=n, checked=False, confidence=confidence)] * z.shape[0]
    ranks = sps.rankdata(z, axis=-1)
    lag1, p_lag1 = lag1_test(ranks)
    tau = autocorrelation_time(ranks)
    trend, p_trend, slope = mann_kendall(z)
    centre = np.median(z, axis=-1)
    drift = np.where(centre != 0, slope * (n - 1) / np.where(centre != 0, centre, 1.0), 0.0)
    flat = np.ptp(z, axis=-1) == 0  # every run equal: nothing varies, nothing depends
    alpha = 1.0 - confidence
    return [SeriesCheck(level=level, n=n, checked=True, lag1=0.0 if f else float(r), lag1_pvalue=1.0 if f else float(p),
                        tau=1.0 if f else float(t), n_eff=n / (1.0 if f else float(t)),
                        dependent=bool(not f and p < alpha), trend=float(k), trend_pvalue=float(pk),
                        drift=float(d), trending=bool(not f and pk < alpha), confidence=confidence)
            for r, p, t, k, pk, d, f in zip(lag1, p_lag1, tau, trend, p_trend, drift, flat, strict=True)]


@attrs.define(repr=False)
class Independence(pr.Estimator):
    """Are the runs independent? Run-order trend, lag-1 autocorrelation, effective sample size.

    ``confidence``: level of the checks (0.9: a dependence is flagged when p < 0.1, because a
    missed dependence costs more than a needlessly widened interval).
    """

    name: ClassVar[str] = "independence"
    confidence: float = pr.confidence_param(0.9,
                                            help="level of the checks (0.9: a dependence is flagged when p "
                                                 "< 0.1)")

    def estimate(self, sample: Any) -> IndependenceResult:
        s = pr.as_sample(sample)
        v = s.values
        if v.ndim == 1:
            warm = leading_outliers(v)
            runs = check_series(v[warm:], s.levels[0], self.confidence)[0]
            change = float(v[:warm].mean() / np.median(v[warm:]) - 1.0) if warm else None
            return IndependenceResult(runs=runs, warmup=warm, warmup_change=change, tau=runs.tau,
                                      n_eff=runs.n_eff if runs.checked else None, dependent=runs.dependent,
                                      trending=runs.trending, warnings=_warn(runs, s))
        if v.shape[-1] < 2:
            raise pr.DataError(f"{s.label}: one {s.levels[-1]} per {s.levels[-2]}: nothing to check within units")
        flat_units = v.reshape(-1, v.shape[-1])  # one row per unit of the level above the lowest
        checks = check_series(flat_units, s.levels[-1], self.confidence)
        checked = [c for c in checks if c.checked]
        pooled = _pooled(checked, s.levels[-1], int(flat_units.shape[1]), self.confidence)
        warm = warmup_length(flat_units)
        change = None
        if warm:
            steady = float(flat_units[:, flat_units.shape[1] // 2:].mean())
            change = float(flat_units[:, :warm].mean() / steady - 1.0) if steady else None
        top = check_series(s.top_means(), f"{s.levels[0]} mean", self.confidence)[0]
        per_unit = {"unit": s.levels[-2], "units": len(checks), "checked": len(checked),
                    "flagged": sum(c.dependent or c.trending for c in checked)}
        return IndependenceResult(runs=pooled, top=top, per_unit=per_unit, warmup=warm, warmup_change=change,
                                  tau=top.tau, n_eff=top.n_eff if top.checked else None,
                                  dependent=top.dependent, trending=top.trending, warnings=_warn(top, s))


def _pooled(checks: list[SeriesCheck], level: str, n: int, confidence: float) -> SeriesCheck:
    """One summary of many units' checks: median statistics, flagged when most units are."""
    if not checks:
        return SeriesCheck(level=level, n=n, checked=False, confidence=confidence)
    lag1 = float(np.median([c.lag1 for c in checks]))
    tau = float(np.median([c.tau for c in checks]))
    drift = float(np.median([c.drift for c in checks]))
    dependent = sum(c.dependent for c in checks) > len(checks) / 2
    trending = sum(c.trending for c in checks) > len(checks) / 2
    return SeriesCheck(level=level, n=n, checked=True, lag1=lag1,
                       lag1_pvalue=float(np.median([c.lag1_pvalue for c in checks])), tau=tau, n_eff=n / tau,
                       dependent=dependent, trend=float(np.median([c.trend for c in checks])),
                       trend_pvalue=float(np.median([c.trend_pvalue for c in checks])), drift=drift,
                       trending=trending, confidence=confidence)


def _warn(check: SeriesCheck, sample: pr.Sample) -> tuple[str, ...]:
    out = []
    if check.dependent:
        out.append(f"{sample.label}: {check.level}s are serially dependent (lag-1 autocorrelation {check.lag1:.2f}); "
                   f"{check.n} count as about {check.n_eff:.0f} independent ones")
    if check.trending:
        out.append(f"{sample.label}: {check.level}s drift {check.drift:+.1%} over the run (Mann-Kendall "
                   f"p = {check.trend_pvalue:.2g}): interleave the systems' runs, or warm the machine up first")
    return tuple(out)
