"""The Speedup-Test decision procedures (spec §4.1 mean, §5.3 median), as pure functions.

Every p-value is computed once (:func:`pvalues`); a decision at a risk level alpha only
compares them with alpha (:func:`decide`), so the highest confidence level at which the
speedup stays significant (:func:`max_confidence`, the original tool's bisection) costs
nothing more than a few comparisons.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from .hypothesis_tests import fisher_pvalue, shapiro_pvalue, t_pvalue

SIGNIFICANT, NOT_SIGNIFICANT, CANNOT_CONCLUDE = "significant", "not significant", "cannot conclude"


@attrs.frozen
class Options:
    """The decisions the sources leave open (docs/methods/speedup-test.md, "Decided gaps")."""

    large: int = 30  #: a sample is large when it has MORE than this many runs (P§3.1.3: n > 30)
    large_variance_check: bool = True  #: run the F test in the large branch too (spec §4.2)
    small_shift: str = "cannot-conclude"  #: KS rejects on small samples: "cannot-conclude" or "warn"


@attrs.frozen
class Decision:
    """One procedure's outcome at one risk level."""

    status: str
    pvalue: float | None  #: the final test's p-value (None when it was not run)
    test: str | None  #: "student-t", "welch-t" or "wilcoxon-mann-whitney"
    branch: str  #: "large" or "small"
    warnings: tuple[str, ...] = ()

    @property
    def significant(self) -> bool | None:
        return None if self.status == CANNOT_CONCLUDE else self.status == SIGNIFICANT


def _safe(fn: Callable[[], tuple[float, float]]) -> tuple[float | None, str | None]:
    try:
        return fn()[1], None
    except pr.DataError as exc:
        return None, str(exc)


def pvalues(x: np.ndarray, y: np.ndarray, statistic: str, lower_is_better: bool = True) -> dict[str, Any]:
    """Every p-value the procedure for ``statistic`` may need; failures are kept as messages.

    One-sided tests ask "is the candidate (y) faster than the baseline (x)?".
    """
    alt = "greater" if lower_is_better else "less"
    out: dict[str, Any] = {"errors": {}}

    def put(key: str, fn: Callable[[], tuple[float, float]]) -> None:
        p, err = _safe(fn)
        out[key] = p
        if err:
            out["errors"][key] = err

    if statistic == "mean":
        put("shapiro_baseline", lambda: shapiro_pvalue(x, "baseline"))
        put("shapiro_candidate", lambda: shapiro_pvalue(y, "candidate"))
        put("fisher_f", lambda: fisher_pvalue(x, y))
        put("student_t", lambda: t_pvalue(x, y, True, alt))
        put("welch_t", lambda: t_pvalue(x, y, False, alt))
    else:
        def ks() -> tuple[float, float]:
            res = pr.stats.ks_two_sample(x - np.median(x), y - np.median(y))
            return res.statistic, res.pvalue

        def wmw() -> tuple[float, float]:
            res = pr.stats.wilcoxon_rank_sum(x, y, alternative=alt)
            out["wmw_method"] = res.method
            out["wmw_warnings"] = list(res.warnings)
            return res.statistic, res.pvalue

        put("kolmogorov_smirnov", ks)
        put("wilcoxon_mann_whitney", wmw)
    return out


def _rejects(p: float | None, alpha: float) -> bool:
    return p is not None and math.isfinite(p) and p <= alpha


def decide(p: dict[str, Any], n: int, m: int, alpha: float, statistic: str, options: Options) -> Decision:
    """The Speedup-Test's verdict at risk ``alpha`` from precomputed p-values."""
    large = n > options.large and m > options.large
    branch = "large" if large else "small"
    errors = p["errors"]
    warnings: list[str] = []
    if statistic == "mean":
        for who in ("baseline", "candidate"):
            key = f"shapiro_{who}"
            if large:
                if _rejects(p[key], alpha):
                    warnings.append(f"the {who} does not look normal (Shapiro-Wilk p = {p[key]:.3g}); with "
                                    f"more than {options.large} runs the t test is admitted but its risk level "
                                    "may not be preserved")
            elif key in errors:
                return Decision(CANNOT_CONCLUDE, None, None, branch,
                                (f"cannot check normality on a small sample: {errors[key]}",))
            elif _rejects(p[key], alpha):
                return Decision(CANNOT_CONCLUDE, None, None, branch, (
                    f"the {who} is not normal (Shapiro-Wilk p = {p[key]:.3g} <= alpha = {alpha:.3g}) and a sample "
                    f"has at most {options.large} runs: the t test cannot be trusted; collect more than "
                    f"{options.large} runs of each version, or use the median",))
        equal_var = True
        if not large or options.large_variance_check:
            if "fisher_f" in errors:
                return Decision(CANNOT_CONCLUDE, None, None, branch, (errors["fisher_f"],))
            equal_var = not _rejects(p["fisher_f"], alpha)
        test = "student-t" if equal_var else "welch-t"
        key = test.replace("-", "_")
        if key in errors:
            return Decision(CANNOT_CONCLUDE, None, test, branch, (*warnings, errors[key]))
        final = p[key]
    else:
        if "kolmogorov_smirnov" in errors or "wilcoxon_mann_whitney" in errors:
            return Decision(CANNOT_CONCLUDE, None, None, branch, tuple(errors.values()))
        if _rejects(p["kolmogorov_smirnov"], alpha):
            text = (f"the samples do not fit the location-shift model the Wilcoxon-Mann-Whitney test assumes "
                    f"(Kolmogorov-Smirnov on median-centred samples p = {p['kolmogorov_smirnov']:.3g})")
            if not large and options.small_shift == "cannot-conclude":
                return Decision(CANNOT_CONCLUDE, None, None, branch, (
                    f"{text} and a sample has at most {options.large} runs: collect more than {options.large} "
                    "runs of each version",))
            warnings.append(f"{text}; the risk level may not be preserved")
        warnings.extend(p.get("wmw_warnings", []))
        test = "wilcoxon-mann-whitney"
        final = p["wilcoxon_mann_whitney"]
        if final is None or not math.isfinite(final):
            return Decision(CANNOT_CONCLUDE, None, test, branch, (*warnings, "the rank test is undefined"))
    status = SIGNIFICANT if _rejects(final, alpha) else NOT_SIGNIFICANT
    return Decision(status, final, test, branch, tuple(warnings))


def max_confidence(significant_at: Callable[[float], bool]) -> float | None:
    """The highest confidence level at which the speedup is significant, as the original tool finds it.

    Bisection on the risk alpha in [0.01, 0.5] until the bracket is at most 0.01 wide;
    the level is 1 - ceil(100 * alpha) / 100 for the smallest alpha found significant.
    None when even alpha = 0.5 is not significant (the tool printed 0.99 there: not copied).
    """
    low, high = 0.01, 0.5
    if significant_at(low):
        return 0.99
    if not significant_at(high):
        return None
    while high - low > 0.01:
        mid = (low + high) / 2
        if significant_at(mid):
            high = mid
        else:
            low = mid
    return round(1.0 - math.ceil(100 * high) / 100, 2)
