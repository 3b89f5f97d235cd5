"""Fieller's confidence interval for the ratio of two means (Kalibera & Jones 2013, §6.2, §7.3.2).

The sample mean of each system is asymptotically normal with variance S²_{n+1}/n_{n+1}
(the sample variance of the top-level unit means over their count, eq. 10-11), so Fieller's
theorem bounds θ = mean(new) / mean(old) by the roots of

    (O² - t² v_O) θ² - 2 O N θ + (N² - t² v_N) = 0,      v = S²_{n+1} / n_{n+1}      (eq. 12)

with t the t quantile on n_{n+1} - 1 degrees of freedom. The interval is bounded iff
O² > t² v_O, i.e. the baseline mean is significantly different from zero; otherwise the
confidence set is the whole line or the outside of an interval, and the method does not apply.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from .decision import comparison, prepare, threshold_param

BOUNDED, EXCLUSIVE, WHOLE_LINE = "bounded", "exclusive", "whole line"


@attrs.frozen
class FiellerLimits:
    """Roots of Fieller's quadratic: an interval when ``kind`` is "bounded", else ``low = high = None``.

    ``kind`` "exclusive": the confidence set is (-inf, r1] U [r2, inf) (``roots``);
    "whole line": every ratio is compatible with the data.
    """

    low: float | None
    high: float | None
    kind: str
    a: float
    discriminant: float
    roots: tuple[float, float] | None = None


def fieller_bounds(numerator: Any, denominator: Any, var_numerator: Any, var_denominator: Any,
                   quantile: Any) -> tuple[np.ndarray, np.ndarray]:
    """Fieller's limits, vectorised over arrays of estimates: NaN where the interval is unbounded.

    Arguments as :func:`fieller_limits` (broadcast together); for simulations.
    """
    q = np.square(quantile)
    a = np.square(denominator) - q * var_denominator
    b = np.multiply(numerator, denominator)
    disc = b * b - a * (np.square(numerator) - q * var_numerator)
    with np.errstate(invalid="ignore", divide="ignore"):
        root = np.sqrt(np.maximum(disc, 0.0))
        low, high = (b - root) / a, (b + root) / a
    bounded = a > 0
    return np.where(bounded, low, np.nan), np.where(bounded, high, np.nan)


def fieller_limits(numerator: float, denominator: float, var_numerator: float, var_denominator: float,
                   quantile: float) -> FiellerLimits:
    """Fieller's limits for E(numerator)/E(denominator), two independent normal estimates.

    ``var_*`` are the variances *of the estimates* (e.g. S²/n), ``quantile`` the t (or z)
    critical value; the covariance is 0 (the systems are independent, Kalibera & Jones §7.3).
    """
    q = quantile * quantile
    a = denominator * denominator - q * var_denominator
    b = numerator * denominator
    c = numerator * numerator - q * var_numerator
    disc = b * b - a * c  # = q (v_N a + N² v_O) >= 0 whenever a > 0
    if a > 0:
        low, high = fieller_bounds(numerator, denominator, var_numerator, var_denominator, quantile)
        return FiellerLimits(float(low), float(high), BOUNDED, a, disc)
    if disc >= 0 and a < 0:
        root = math.sqrt(disc)
        r1, r2 = sorted(((b - root) / a, (b + root) / a))
        return FiellerLimits(None, None, EXCLUSIVE, a, disc, (r1, r2))
    return FiellerLimits(None, None, WHOLE_LINE, a, disc)


def fieller_df(n_numerator: int, n_denominator: int, var_numerator: float, var_denominator: float,
               ratio: float) -> float:
    """Degrees of freedom: n_top - 1 as in the paper when both systems have n_top units.

    The paper requires the same design for both systems (§6.2, §7.3) and for unbalanced ones
    points to Dilba et al. (2007) and Schaarschmidt (2007): with different top-level counts
    we use the Satterthwaite approximation for N - θ O at the estimate θ (Tamhane & Logan
    2004, as R's mratios::ttestratio for unequal variances),
    (v_N + θ² v_O)² / (v_N²/(n_N - 1) + θ⁴ v_O²/(n_O - 1)).
    """
    if n_numerator == n_denominator:
        return float(n_numerator - 1)
    nu_n, nu_o = n_numerator - 1, n_denominator - 1
    total = var_numerator + ratio**2 * var_denominator
    spread = var_numerator**2 / nu_n + ratio**4 * var_denominator**2 / nu_o
    if spread == 0:  # no variation: the interval has zero width whatever the df
        return float(nu_n + nu_o)
    return total * total / spread


def _top_level(sample: pr.Sample, who: str, warnings: list[str]) -> tuple[np.ndarray, str]:
    """Top-level unit means; a top level with a single unit is dropped (Kalibera & Jones §8.3.1)."""
    values, levels = sample.values, sample.levels
    while values.ndim > 1 and values.shape[0] == 1:
        warnings.append(f"{who}: one {levels[0]} only, so that level carries no replication; the {levels[1]} "
                        f"units are taken as the top level (variation between {levels[0]}s is not measured)")
        values, levels = values[0], levels[1:]
    if values.shape[0] < 2:
        raise pr.DataError(f"{who} {sample.label}: Fieller's interval needs at least 2 {levels[0]} units "
                           f"(to estimate the variance of the mean), got {values.shape[0]}")
    return pr.hierarchy.top_means(values), levels[0]


@attrs.define(repr=False)
class Fieller(pr.Comparator):
    """CI of the ratio of means by Fieller's theorem on top-level means (Kalibera & Jones eq. 12).

    ``distribution``: "t" (n_top - 1 degrees of freedom, the paper's recommendation) or
    "normal" (the strictly asymptotic interval, eq. 11; too narrow with few top-level units).
    ``threshold``: the smallest relative change that matters (0.02 = 2%).
    """

    name = "fieller"

    confidence: float = pr.confidence_param(help="level of the interval of the ratio of means")
    threshold: float = threshold_param()
    distribution: str = pr.choice_param("t", "normal", help="'t' (n_top - 1 degrees of freedom, recommended) "
                                        "or 'normal' (asymptotic, too narrow with few top-level units)")

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        from scipy import special
        old, new, warnings = prepare(baseline, candidate)
        old_means, old_level = _top_level(old, "baseline", warnings)
        new_means, new_level = _top_level(new, "candidate", warnings)
        m_old, m_new = old_means.size, new_means.size
        o, n = float(old_means.mean()), float(new_means.mean())  # = grand means (balanced)
        s2_old, s2_new = float(old_means.var(ddof=1)), float(new_means.var(ddof=1))
        v_old, v_new = s2_old / m_old, s2_new / m_new
        if not all(math.isfinite(v) for v in (o, n, v_old, v_new)):  # the moments overflowed: nothing to bound
            raise pr.DataError(f"the means or variances of the {old_level} means overflow floating point "
                               f"(baseline mean {o:.4g}, candidate mean {n:.4g}); values this large are not "
                               "measurements Fieller's interval can use")
        ratio = n / o
        for who, s2, level in (("baseline", s2_old, old_level), ("candidate", s2_new, new_level)):
            if s2 == 0:
                warnings.append(f"{who}: all {level} means are equal (zero variance), so the interval reflects "
                                "no uncertainty from it")

        alpha = 1.0 - self.confidence
        # scipy.special's t and normal functions: the frozen scipy.stats objects cost ~2 ms a call
        if self.distribution == "t":
            df = fieller_df(m_new, m_old, v_new, v_old, ratio)
            quantile = float(special.stdtrit(df, 1 - alpha / 2))
            if m_new != m_old:
                warnings.append(f"the systems have {m_old} and {m_new} {old_level} units; Kalibera & Jones assume "
                                f"equal counts, so the degrees of freedom ({df:.3g}) are Satterthwaite's")
        else:
            df = None
            quantile = float(special.ndtri(1 - alpha / 2))
        limits = fieller_limits(n, o, v_new, v_old, quantile)

        # The test Fieller's interval inverts at θ = 1: |N - O| / sqrt(v_N + v_O) against the same quantile.
        spread = math.sqrt(v_new + v_old)
        if spread > 0:
            z = abs(n - o) / spread
            pvalue = float(2 * (special.stdtr(df, -z) if df is not None else special.ndtr(-z)))
        else:
            pvalue = 1.0 if n == o else 0.0

        if limits.kind != BOUNDED:
            warnings.append(
                f"Fieller's condition fails: the baseline mean {o:.4g} is not significantly different from 0 "
                f"at {self.confidence:.0%} (mean² {o * o:.4g} <= t² x variance of the mean "
                f"{quantile**2 * v_old:.4g}), so the confidence set of the ratio is "
                + ("the whole line" if limits.kind == WHOLE_LINE else "unbounded (outside of an interval)")
                + f"; more {old_level} units are needed")
        details = {
            "distribution": self.distribution, "df": df, "quantile": quantile,
            "variance_of_mean": {"baseline": v_old, "candidate": v_new},
            "top_level": {"baseline": old_level, "candidate": new_level},
            "fieller": {"kind": limits.kind, "a": limits.a, "discriminant": limits.discriminant,
                        "roots": None if limits.roots is None else list(limits.roots)},
        }
        return comparison(method="fieller", ratio=ratio, low=limits.low, high=limits.high,
                          confidence=self.confidence, threshold=self.threshold,
                          lower_is_better=old.lower_is_better, pvalue=pvalue, baseline_mean=o, candidate_mean=n,
                          n_top={"baseline": m_old, "candidate": m_new}, details=details,
                          warnings=warnings, defined=limits.kind == BOUNDED)
