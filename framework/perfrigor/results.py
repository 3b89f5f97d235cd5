"""Result objects: small immutable attrs classes that serialise with ``to_dict()``.

Like scipy.stats' result objects they carry what a person asks next (the
interval, the p-value, the verdict, the details of every intermediate step).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs
import numpy as np

from .errors import ConfigError


def to_jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays, tuples, attrs results and mappings to JSON-ready data.

    Non-finite floats become None (JSON has no NaN/inf), so output is strict JSON.
    """
    kind = type(value)
    if kind is float:  # the common cases first, by exact type: a result can hold 10^6 of them
        return value if math.isfinite(value) else None
    if kind is int or kind is str or value is None:
        return value
    if kind is tuple or kind is list:
        plain = _plain_numbers(value)
        if plain is not None:
            return plain
    if isinstance(value, Result):
        return value.to_dict()
    if attrs.has(type(value)):
        return to_jsonable(attrs.asdict(value, recurse=False))
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        items = value.tolist()
        if value.ndim == 1 and value.dtype.kind in "iuf":
            plain = _plain_numbers(items)
            if plain is not None:
                return plain
        return [to_jsonable(v) for v in items]
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


def _plain_numbers(values: list | tuple) -> list | None:
    """``values`` as a new list when they are all Python ints or all finite floats (what
    ``to_jsonable`` would give, element by element, at C speed); None otherwise."""
    kinds = set(map(type, values))
    if kinds <= {int} or (kinds == {float} and all(map(math.isfinite, values))):
        return list(values)
    return None


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


#: the package of the core: its result types are saved under their class name alone
CORE_PACKAGE = __name__.partition(".")[0]


def _namespace(module: str) -> str:
    """Where a result type comes from: the package holding its module ("perfrigor_plugins.gmm.results"
    -> "gmm", "my_plugin.results" -> "my_plugin"; a package's own ``__init__`` or a one-file plugin:
    itself)."""
    loaded = sys.modules.get(module)
    parts = module.split(".")
    if len(parts) > 1 and not hasattr(loaded, "__path__"):  # a module in a package: the package
        parts = parts[:-1]
    return parts[-1]


def is_core_type(cls: type) -> bool:
    """Whether a result type is the core's own (defined in perfrigor, not in a plugin)."""
    return cls.__module__.partition(".")[0] == CORE_PACKAGE


@attrs.frozen(kw_only=True)
class Result:
    """Base of every result: ``warnings`` say why a conclusion could not be drawn.

    ``to_dict()`` writes the result's fields, its ``type`` (:meth:`type_tag`), its
    ``description`` (``describe()``: a saved report shows it without the plugin) and, for a type
    that is not the core's, its ``base``: the nearest core type it derives from, which a saved
    report restores when the type itself is unknown (``perfrigor.saved``).
    """

    #: the stable name of the type in saved reports; default: the class name for the core's types,
    #: "namespace:ClassName" for a plugin's (``gmm:MixtureFit``, the namespace being the package that
    #: holds its module). Set it to keep the name when a class is renamed or moves to another package.
    type_name: ClassVar[str | None] = None

    warnings: tuple[str, ...] = attrs.field(default=(), converter=tuple)

    @classmethod
    def type_tag(cls) -> str:
        """The name under which saved reports know this type (``to_dict()["type"]``)."""
        own = cls.__dict__.get("type_name")
        if own:
            return own
        if is_core_type(cls):
            return cls.__qualname__
        return f"{_namespace(cls.__module__)}:{cls.__qualname__}"

    @classmethod
    def core_base(cls) -> type[Result]:
        """The nearest core result type this one derives from (itself for a core type)."""
        return next(k for k in cls.__mro__ if isinstance(k, type) and issubclass(k, Result) and is_core_type(k))

    def describe(self) -> str:
        """One line for a person (renderers use it); results override it to say more."""
        for attr in ("verdict", "text"):
            text = getattr(self, attr, None)
            if text:
                return str(text)
        return type(self).__name__

    def to_dict(self) -> dict[str, Any]:
        """The fields as JSON-ready data, then ``type``, ``description`` and (a plugin's type) ``base``."""
        out = {f.name: to_jsonable(getattr(self, f.name)) for f in attrs.fields(type(self))}
        out["type"] = self.type_tag()
        out["description"] = self.describe()
        base = self.core_base()
        if base is not type(self):
            out["base"] = base.type_tag()
        return out


class WithInterval:
    """A result with an interval: ``ci_low``, ``ci_high`` at ``confidence`` (Comparison, Estimate, Verdict)."""

    __slots__ = ()

    def confidence_interval(self, confidence: float | None = None) -> tuple[float | None, float | None]:
        """``(ci_low, ci_high)``; at another ``confidence`` where the result can recompute it (as scipy's
        ``TtestResult.confidence_interval(confidence_level=...)``: :meth:`interval_at`), else a ConfigError."""
        own = getattr(self, "confidence", None)
        if confidence is None or (own is not None and math.isclose(confidence, own)):
            return (getattr(self, "ci_low", None), getattr(self, "ci_high", None))
        if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 < confidence < 1:
            raise ConfigError(f"confidence must be a level strictly between 0 and 1 (e.g. 0.95), got {confidence!r}")
        found = self.interval_at(float(confidence))
        if found is None:
            at = f" at {own:.4g}" if own is not None else ""
            raise ConfigError(f"{type(self).__name__}: its interval was computed{at} and cannot be recomputed at "
                              f"{confidence:.4g} from the result alone; run the step with confidence={confidence:g}")
        return found

    def interval_at(self, confidence: float) -> tuple[float | None, float | None] | None:
        """The interval at another level, for results that carry what it takes (e.g. an estimate, its
        standard error and degrees of freedom); None (the default) when they do not."""
        return None


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
class Comparison(Result, WithInterval):
    """Two systems compared: a speedup estimate (>1: candidate faster), its interval and a verdict."""

    estimate: float | None = _scalar()
    ci_low: float | None = _scalar()
    ci_high: float | None = _scalar()
    confidence: float | None = _scalar()
    pvalue: float | None = _scalar()
    significant: bool | None = _scalar()
    verdict: str
    details: Mapping[str, Any] = attrs.field(factory=dict)


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
    these fields too (a saved report rebuilds the RatioComparison), under ``"type": "RatioComparison"``.
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


@attrs.frozen(kw_only=True)
class Estimate(Result, WithInterval):
    """One number estimated from one system, with its interval (e.g. ``mean-ci``)."""

    estimate: float | None = _scalar()
    ci_low: float | None = _scalar(None)
    ci_high: float | None = _scalar(None)
    confidence: float | None = _scalar(None)
    details: Mapping[str, Any] = attrs.field(factory=dict)

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
class Verdict(Result, WithInterval):
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
class SuiteVerdict(Result, WithInterval):
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
