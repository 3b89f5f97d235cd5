"""Result objects: small immutable attrs classes that serialise with ``to_dict()``.

Like scipy.stats' result objects they carry what a person asks next (the
interval, the p-value, the verdict, the details of every intermediate step).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np


def to_jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays, tuples, attrs results and mappings to JSON-ready data.

    Non-finite floats become None (JSON has no NaN/inf), so output is strict JSON.
    """
    if isinstance(value, Result):
        return value.to_dict()
    if attrs.has(type(value)):
        return to_jsonable(attrs.asdict(value, recurse=False))
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return [to_jsonable(v) for v in value.tolist()]
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.bool_ | bool):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating | float):
        f = float(value)
        return f if math.isfinite(f) else None
    if value is None or isinstance(value, int | str):
        return value
    return str(value)


def _plain(value: Any) -> Any:
    """numpy scalars -> Python scalars (so ``result.significant is True`` holds); anything else unchanged."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def _scalar(default: Any = attrs.NOTHING) -> Any:
    return attrs.field(default=default, converter=_plain)


@attrs.frozen(kw_only=True)
class Result:
    """Base of every result: ``warnings`` say why a conclusion could not be drawn."""

    warnings: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    def describe(self) -> str:
        """One line for a person (renderers use it); results override it to say more."""
        for attr in ("verdict", "text"):
            text = getattr(self, attr, None)
            if text:
                return str(text)
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: to_jsonable(getattr(self, f.name)) for f in attrs.fields(type(self))}
        out["type"] = type(self).__name__
        return out


@attrs.frozen(kw_only=True)
class TestResult(Result):
    """Outcome of a hypothesis test (as R's ``htest``)."""

    __test__ = False  # not a pytest test class

    statistic: float | None = _scalar()
    pvalue: float | None = _scalar()
    alpha: float = _scalar()
    reject: bool = _scalar()
    alternative: str = "two-sided"
    method: str = ""
    details: Mapping[str, Any] = attrs.field(factory=dict)

    @property
    def confidence(self) -> float:
        return 1.0 - self.alpha

    def describe(self) -> str:
        name = self.method or "test"
        stat = "" if self.statistic is None else f"statistic {self.statistic:.4g}, "
        p = "p-value n/a" if self.pvalue is None else f"p-value {self.pvalue:.4g}"
        word = "rejected" if self.reject else "not rejected"
        return f"{name}: {stat}{p}; H0 {word} at alpha {self.alpha:g} ({self.alternative})"


@attrs.frozen(kw_only=True)
class Comparison(Result):
    """Two systems compared: a speedup estimate (>1: candidate faster), its interval and a verdict."""

    estimate: float | None = _scalar()
    ci_low: float | None = _scalar()
    ci_high: float | None = _scalar()
    confidence: float | None = _scalar()
    pvalue: float | None = _scalar()
    significant: bool | None = _scalar()
    verdict: str
    details: Mapping[str, Any] = attrs.field(factory=dict)

    def confidence_interval(self) -> tuple[float | None, float | None]:
        return (self.ci_low, self.ci_high)


def _one_of(allowed: tuple[str, ...]) -> Any:
    """An attrs validator: the value is one of ``allowed`` (a ValueError naming them, else)."""

    def check(instance: Any, attribute: attrs.Attribute, value: str) -> None:
        if value not in allowed:
            raise ValueError(f"{attribute.name} must be one of {', '.join(allowed)}, got {value!r}")

    return check


#: where a ratio interval lies with respect to a practical threshold h (Kalibera & Jones §4.2)
RATIO_DECISIONS = ("beyond", "within", "inconclusive", "undefined")


@attrs.frozen(kw_only=True)
class RatioComparison(Comparison):
    """A comparison of the ratio new/old of the systems' means (Kalibera & Jones: Fieller, bootstrap).

    The fields other components read (the verdict reads the means, the threshold decision and
    the number of top-level units) are typed attributes here, so nobody looks them up in
    ``details``. ``details`` still carries the same values under the keys JSON readers know
    (``details["ratio"]``, ``"decision"``, ``"baseline_mean"`` ...), and ``to_dict()`` writes
    exactly what a plain Comparison with those details writes: the JSON report is unchanged.
    ``decision``: the interval of the ratio lies "beyond" the threshold, "within" it, the data
    cannot tell ("inconclusive"), or there is no bounded interval ("undefined").
    """

    ratio: float = _scalar()
    ratio_low: float | None = _scalar(None)
    ratio_high: float | None = _scalar(None)
    baseline_mean: float = _scalar()
    candidate_mean: float = _scalar()
    decision: str = attrs.field(validator=_one_of(RATIO_DECISIONS))
    n_top: Mapping[str, int] | None = None  # top-level units per side, where the method counts them

    def ratio_interval(self) -> tuple[float | None, float | None]:
        return (self.ratio_low, self.ratio_high)

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        for f in attrs.fields(RatioComparison):
            if f.inherited is False:
                out.pop(f.name)  # already in details, under the keys the JSON report has always had
        out["type"] = "Comparison"
        return out


@attrs.frozen(kw_only=True)
class Estimate(Result):
    """One number estimated from one system, with its interval (e.g. ``mean-ci``)."""

    estimate: float | None = _scalar()
    ci_low: float | None = _scalar(None)
    ci_high: float | None = _scalar(None)
    confidence: float | None = _scalar(None)
    details: Mapping[str, Any] = attrs.field(factory=dict)

    def confidence_interval(self) -> tuple[float | None, float | None]:
        return (self.ci_low, self.ci_high)

    def describe(self) -> str:
        if self.estimate is None:
            return "no estimate"
        text = f"{self.estimate:.6g}"
        if self.ci_low is not None and self.ci_high is not None:
            level = f"{self.confidence:.0%} " if self.confidence else ""
            text += f" ({level}CI {self.ci_low:.6g} to {self.ci_high:.6g})"
        return text


@attrs.frozen(kw_only=True)
class SuiteSummary(Result):
    """A suite-level summary a per-benchmark step adds (e.g. the weighted overall speedup)."""

    title: str
    values: Mapping[str, Any] = attrs.field(factory=dict)
    text: str = ""


#: the value a comparison's estimate is compared with, per ``Comparator.estimate_kind``
NO_CHANGE = {"speedup": 1.0, "probability": 0.5, "gain": 0.0}


def conclusion(res: Result, kind: str = "speedup", one_sided: bool = False) -> str | None:
    """What a Comparison concludes: "faster", "slower", "no change", "not faster" or "unclear".

    None for other results or an estimate of kind "other". Slower: the estimate is on the slow
    side of no change (speedup < 1, probability < 0.5, gain < 0) and significant, or, for a method
    that does not say whether it is significant, the whole interval is on the slow side; faster
    likewise. "no change": significant is False (e.g. a change that a practical threshold says may
    be too small to matter: "slower, but cannot tell whether by more than 2%" is no regression) or
    the interval contains no change. "unclear": the method could not conclude. A ``one_sided``
    comparator (it only tests for an improvement) is "faster" or "not faster": its "not
    significant" says nothing about a slowdown.
    """
    if not isinstance(res, Comparison) or kind not in NO_CHANGE:
        return None
    limit = NO_CHANGE[kind]
    est = res.estimate
    if one_sided:
        if est is not None and ((res.significant is True and est > limit) or
                                (res.significant is None and res.ci_low is not None and res.ci_low > limit)):
            return "faster"
        return "not faster" if res.significant is not None or res.ci_low is not None else "unclear"
    unjudged = res.significant is None  # the interval speaks only where the method does not
    if est is not None and ((res.significant is True and est < limit) or
                            (unjudged and res.ci_high is not None and res.ci_high < limit)):
        return "slower"
    if est is not None and ((res.significant is True and est > limit) or
                            (unjudged and res.ci_low is not None and res.ci_low > limit)):
        return "faster"
    if res.significant is False or (res.ci_low is not None and res.ci_high is not None):
        return "no change"
    return "unclear"


#: the four answers a verdict can give
OUTCOMES = ("faster", "slower", "same", "unclear")


@attrs.frozen(kw_only=True)
class Verdict(Result):
    """The answer for one benchmark: is the candidate faster, by how much, how sure.

    ``outcome``, one rule read off the interval: "same" when it lies within ± threshold;
    else "faster" / "slower" when it excludes no change (the test is significant at
    ``confidence``); else "unclear" (or the data break the assumptions needed to tell). ``speedup`` > 1 means the candidate is better, whatever
    the metric's direction; ``ci_low``/``ci_high`` its interval at ``confidence``.
    ``method`` names the step (or component) whose answer it is; ``reasons`` are short
    sentences saying why, the first being the answer itself.
    """

    outcome: str = attrs.field(validator=_one_of(OUTCOMES))
    speedup: float | None = _scalar(None)
    ci_low: float | None = _scalar(None)
    ci_high: float | None = _scalar(None)
    confidence: float | None = _scalar(None)
    method: str = ""
    reasons: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    threshold: float = _scalar(0.0)
    details: Mapping[str, Any] = attrs.field(factory=dict)

    def confidence_interval(self) -> tuple[float | None, float | None]:
        return (self.ci_low, self.ci_high)

    def describe(self) -> str:
        head = self.outcome
        if self.speedup is not None:
            head += f": speedup {self.speedup:.4g}"
            if self.ci_low is not None and self.ci_high is not None:
                level = f"{self.confidence:.0%} " if self.confidence else ""
                head += f" ({level}CI {self.ci_low:.4g} to {self.ci_high:.4g})"
        if self.method:
            head += f" [{self.method}]"
        return head + (f"; {'; '.join(self.reasons)}" if self.reasons else "")


@attrs.frozen(kw_only=True)
class SuiteVerdict(Result):
    """The answer for a suite: how many benchmarks are faster, slower, the same or unclear,
    the geometric-mean speedup with its interval, and the suite-level test's line (e.g. HPT)."""

    counts: Mapping[str, int] = attrs.field(factory=dict)
    benchmarks: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    speedup: float | None = _scalar(None)
    ci_low: float | None = _scalar(None)
    ci_high: float | None = _scalar(None)
    confidence: float | None = _scalar(None)
    reasons: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    details: Mapping[str, Any] = attrs.field(factory=dict)

    def confidence_interval(self) -> tuple[float | None, float | None]:
        return (self.ci_low, self.ci_high)

    def describe(self) -> str:
        total = sum(self.counts.values())
        parts = [f"{self.counts[o]} {o}" for o in OUTCOMES if self.counts.get(o)]
        text = f"{total} benchmarks: {', '.join(parts) or 'none'}"
        if self.speedup is not None:
            text += f"; geometric-mean speedup {self.speedup:.4g}"
            if self.ci_low is not None and self.ci_high is not None:
                level = f"{self.confidence:.0%} " if self.confidence else ""
                text += f" ({level}CI {self.ci_low:.4g} to {self.ci_high:.4g})"
        return text + "".join(f"; {r}" for r in self.reasons)
