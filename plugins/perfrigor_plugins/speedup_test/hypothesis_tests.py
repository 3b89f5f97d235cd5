"""The Speedup-Test's building blocks as tests with R's numbers.

``shapiro-wilk`` (R ``shapiro.test``), ``fisher-f`` (``var.test``), ``student-t`` and
``welch-t`` (``t.test``), ``wilcoxon-mann-whitney`` (``wilcox.test``, through
``pr.stats``) and ``kolmogorov-smirnov`` (R 4.2 ``ks.test``, exact with ties).

``alternative`` is R's, for x = baseline on lower-is-better data (times): "greater"
means the baseline is slower, i.e. the candidate is faster, the Speedup-Test's one-sided
direction. On higher-is-better data (``lower_is_better=False``) the one-sided alternative
is flipped so that the default still asks "is the candidate faster?"; the result's
``alternative`` is the one actually passed to the test. H0 is rejected when p <= alpha.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .swilk import shapiro_wilk

ALTERNATIVES = ("two-sided", "less", "greater")
_FLIP = {"greater": "less", "less": "greater", "two-sided": "two-sided"}


def flat_values(sample: pr.Sample) -> np.ndarray:
    """All measurements of a sample as one 1-D array (the Speedup-Test treats runs as i.i.d.)."""
    return np.asarray(sample.flat, dtype=float)


def two_samples(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """Flat baseline and candidate arrays and whether lower is better (DataError if directions differ)."""
    if y is None:
        raise pr.ConfigError("this is a two-sample test: give the baseline and the candidate")
    xs, ys = pr.as_sample(x, what="baseline"), pr.as_sample(y, what="candidate")
    if xs.lower_is_better != ys.lower_is_better:
        raise pr.DataError(f"{xs.label} and {ys.label} disagree on the metric's direction (lower_is_better)")
    return flat_values(xs), flat_values(ys), xs.lower_is_better


def oriented(alternative: str, lower_is_better: bool) -> str:
    """R's alternative for x = baseline, flipped for higher-is-better data."""
    return alternative if lower_is_better else _FLIP[alternative]


def require(values: np.ndarray, minimum: int, what: str, test: str) -> None:
    if values.size < minimum:
        raise pr.DataError(f"{test}: the {what} has {values.size} measurement(s), at least {minimum} needed")


def require_spread(values: np.ndarray, what: str, test: str) -> None:
    if np.ptp(values) == 0:
        raise pr.DataError(f"{test}: every measurement of the {what} equals {values[0]:g} (zero variance); "
                           "the test is undefined")


# ---------------------------------------------------------------- R-equivalent p-values

def shapiro_pvalue(x: np.ndarray, what: str = "sample") -> tuple[float, float]:
    """R's ``shapiro.test``: (W, p) (Royston's AS R94, see :mod:`.swilk`)."""
    require(x, 3, what, "shapiro-wilk")
    if x.size > 5000:
        raise pr.DataError(f"shapiro-wilk: the {what} has {x.size} measurements; R's shapiro.test allows 3 to 5000")
    if np.ptp(x) < 1e-10:  # R: "all 'x' values are identical"
        raise pr.DataError(f"shapiro-wilk: every measurement of the {what} equals {x[0]:g} (zero variance); "
                           "the test is undefined")
    return shapiro_wilk(x)


def fisher_pvalue(x: np.ndarray, y: np.ndarray, alternative: str = "two-sided") -> tuple[float, float]:
    """R's ``var.test(x, y, alternative)``: (F = var(x)/var(y), p)."""
    from scipy import stats as sps
    require(x, 2, "baseline", "fisher-f")
    require(y, 2, "candidate", "fisher-f")
    require_spread(y, "candidate", "fisher-f")
    f = float(np.var(x, ddof=1) / np.var(y, ddof=1))
    dfx, dfy = x.size - 1, y.size - 1
    lower, upper = float(sps.f.cdf(f, dfx, dfy)), float(sps.f.sf(f, dfx, dfy))
    p = {"less": lower, "greater": upper, "two-sided": min(1.0, 2.0 * min(lower, upper))}[alternative]
    return f, p


def t_pvalue(x: np.ndarray, y: np.ndarray, equal_var: bool, alternative: str = "greater") -> tuple[float, float]:
    """R's ``t.test(x, y, alternative, var.equal)``: (t, p)."""
    from scipy import special
    test = "student-t" if equal_var else "welch-t"
    require(x, 2, "baseline", test)
    require(y, 2, "candidate", test)
    if np.ptp(x) == 0 and np.ptp(y) == 0:
        raise pr.DataError(f"{test}: both samples have zero variance; the t statistic is undefined")
    # Written out (not scipy.stats.ttest_ind): the same formulas as R, without scipy's per-call
    # overhead, which dominated the Speedup-Test's run time.
    n, m = x.size, y.size
    vx, vy = float(np.var(x, ddof=1)), float(np.var(y, ddof=1))
    if equal_var:
        df = n + m - 2.0
        se = math.sqrt(((n - 1) * vx + (m - 1) * vy) / df * (1.0 / n + 1.0 / m))
    else:
        ax, ay = vx / n, vy / m
        se = math.sqrt(ax + ay)
        df = (ax + ay) ** 2 / (ax * ax / (n - 1) + ay * ay / (m - 1))
    t = (float(x.mean()) - float(y.mean())) / se
    lower = float(special.stdtr(df, t))
    upper = float(special.stdtr(df, -t))
    p = {"less": lower, "greater": upper, "two-sided": min(1.0, 2.0 * min(lower, upper))}[alternative]
    return t, p


# ---------------------------------------------------------------- components

def _result(statistic: float, pvalue: float, confidence: float, alternative: str, method: str,
            details: dict[str, Any], warnings: tuple[str, ...] = ()) -> pr.TestResult:
    alpha = 1.0 - confidence
    reject = bool(math.isfinite(pvalue) and pvalue <= alpha)
    return pr.TestResult(statistic=statistic, pvalue=pvalue, alpha=alpha, reject=reject, alternative=alternative,
                         method=method, details=details, warnings=warnings)


@attrs.define(repr=False)
class ShapiroWilk(pr.Test):
    """Shapiro-Wilk normality test of one sample (R's shapiro.test); H0: the sample is normal."""

    name: ClassVar[str] = "shapiro-wilk"
    n_samples: ClassVar[int] = 1
    confidence: float = pr.confidence_param(help="level of the test: normality is rejected when p < 1 - "
                                                 "confidence")

    def test(self, x: Any, y: Any = None) -> pr.TestResult:
        if y is not None:
            raise pr.ConfigError("shapiro-wilk is a one-sample test: give one sample")
        values = flat_values(pr.as_sample(x))
        w, p = shapiro_pvalue(values)
        return _result(w, p, self.confidence, "two-sided", "Shapiro-Wilk normality test", {"n": int(values.size)})


@attrs.define(repr=False)
class FisherF(pr.Test):
    """Fisher's F test of equal variances (R's var.test); two-sided by default."""

    name: ClassVar[str] = "fisher-f"
    confidence: float = pr.confidence_param(help="level of the test (1 - alpha)")
    alternative: str = pr.choice_param("two-sided", *ALTERNATIVES,
                                       help="alternative hypothesis about the variance ratio "
                                            "baseline/candidate")

    def test(self, x: Any, y: Any = None) -> pr.TestResult:
        xv, yv, lower = two_samples(x, y)
        alt = oriented(self.alternative, lower)
        f, p = fisher_pvalue(xv, yv, alt)
        return _result(f, p, self.confidence, alt, "F test to compare two variances",
                       {"df": [int(xv.size - 1), int(yv.size - 1)], "ratio_of_variances": f})


@attrs.define(repr=False)
class StudentT(pr.Test):
    """Student's t test with pooled variance (R's t.test, var.equal=TRUE); one-sided: candidate faster."""

    name: ClassVar[str] = "student-t"
    equal_var: ClassVar[bool] = True
    confidence: float = pr.confidence_param(help="level of the test (1 - alpha)")
    alternative: str = pr.choice_param("greater", *ALTERNATIVES,
                                       help="alternative hypothesis: 'greater' = the candidate is faster "
                                            "(the Speedup-Test's one-sided test)")

    def test(self, x: Any, y: Any = None) -> pr.TestResult:
        xv, yv, lower = two_samples(x, y)
        alt = oriented(self.alternative, lower)
        t, p = t_pvalue(xv, yv, self.equal_var, alt)
        method = "Two Sample t-test" if self.equal_var else "Welch Two Sample t-test"
        return _result(t, p, self.confidence, alt, method,
                       {"mean_baseline": float(xv.mean()), "mean_candidate": float(yv.mean())})


@attrs.define(repr=False)
class WelchT(StudentT):
    """Welch's t test for unequal variances (R's t.test default); one-sided: candidate faster."""

    name: ClassVar[str] = "welch-t"
    equal_var: ClassVar[bool] = False


@attrs.define(repr=False)
class WilcoxonMannWhitney(pr.Test):
    """Wilcoxon-Mann-Whitney rank-sum test as R's wilcox.test; one-sided: candidate faster.

    Exact p-value for samples under 50 without ties, else the normal approximation with
    tie correction and continuity correction, as R (``exact``/``correct`` as in R).
    """

    name: ClassVar[str] = "wilcoxon-mann-whitney"
    confidence: float = pr.confidence_param(help="level of the test (1 - alpha)")
    alternative: str = pr.choice_param("greater", *ALTERNATIVES,
                                       help="alternative hypothesis: 'greater' = the candidate is faster "
                                            "(the Speedup-Test's one-sided test)")
    exact: bool | None = attrs.field(metadata={"help": "exact p-value (True/False); None: exact below 50 "
                                                          "runs without ties, as R"},
                                     default=None, validator=attrs.validators.optional(
        attrs.validators.instance_of(bool)))
    correct: bool = attrs.field(default=True, validator=attrs.validators.instance_of(bool), metadata={
        "help": "continuity correction of the normal approximation, as R"})

    def test(self, x: Any, y: Any = None) -> pr.TestResult:
        xv, yv, lower = two_samples(x, y)
        alt = oriented(self.alternative, lower)
        res = pr.stats.wilcoxon_rank_sum(xv, yv, alternative=alt, exact=self.exact, correct=self.correct)
        return _result(res.statistic, res.pvalue, self.confidence, alt, res.method,
                       {"exact": res.exact, "W": res.statistic}, res.warnings)


@attrs.define(repr=False)
class KolmogorovSmirnov(pr.Test):
    """Two-sample Kolmogorov-Smirnov test as R 4.2's ks.test (exact p-values also with ties).

    ``center="median"`` subtracts each sample's median first: the Speedup-Test's check of
    the location-shift model that the Wilcoxon-Mann-Whitney test assumes.
    """

    name: ClassVar[str] = "kolmogorov-smirnov"
    confidence: float = pr.confidence_param(help="level of the test (1 - alpha)")
    alternative: str = pr.choice_param("two-sided", *ALTERNATIVES,
                                       help="alternative hypothesis about the two distributions")
    center: str = pr.choice_param("none", "median",
                                  help="'median': subtract each sample's median first (checks the "
                                       "location-shift model)")
    exact: bool | None = attrs.field(metadata={"help": "exact p-value (True/False); None: R's choice"},
                                     default=None, validator=attrs.validators.optional(
        attrs.validators.instance_of(bool)))

    def test(self, x: Any, y: Any = None) -> pr.TestResult:
        xv, yv, lower = two_samples(x, y)
        if self.center == "median":
            xv, yv = xv - np.median(xv), yv - np.median(yv)
        alt = oriented(self.alternative, lower)
        res = pr.stats.ks_two_sample(xv, yv, alternative=alt, exact=self.exact)
        return _result(res.statistic, res.pvalue, self.confidence, alt, res.method,
                       {"exact": res.exact, "D": res.statistic, "center": self.center}, res.warnings)


TESTS = [ShapiroWilk, FisherF, StudentT, WelchT, WilcoxonMannWhitney, KolmogorovSmirnov]
