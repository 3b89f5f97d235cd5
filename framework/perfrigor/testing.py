"""The conformance battery: ``check_component(cls)``, in the spirit of scikit-learn's ``check_estimator``.

Every registered component must pass it (``tests/test_conformance.py`` runs it
over the registry, so a new plugin is covered automatically), and plugin
authors run it on theirs::

    from perfrigor.testing import check_component
    check_component(MedianRatio)          # raises AssertionError listing what failed

The battery constructs the component with ``cls.example_params`` and checks
parameters (``get_params`` round-trips through ``pr.get``, unknown or invalid
parameters raise ConfigError, ``repr`` works, pickling works), results (``pr.Result``
instances whose ``to_dict()`` is strict JSON, a non-empty ``describe()``, consistent
fields: p-values in [0, 1], ordered intervals, ``reject`` agreeing with the p-value,
the ``confidence`` asked for reported back),
reproducibility with ``random_state``, the direction of comparisons (a
candidate 1.3 times faster gives a speedup > 1, whatever the metric's
direction), plain array-likes accepted like Samples and left unmodified, NaN
rejected with ``DataError``, degenerate input (tiny, constant) handled without
a crash, a run inside a :class:`~perfrigor.Pipeline`, and, for components that
compare two systems with a significance or an interval, the statistics themselves:
on a few hundred A/A replicates (``perfrigor.simulate.calibrate``) false alarms and
interval coverage within binomial bounds of the levels they claim.

Data: flat N(10, 0.5) x 40, or shape (6, 4, 5) when ``cls.min_levels > 1``;
suite-scope components get suites of 12 benchmarks. Parameters named like a
resampling count (``n_bootstrap``...) are lowered for speed unless
``example_params`` sets them.
"""

from __future__ import annotations

import copy
import json
import math
import pickle
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import numpy as np

from .component import (
    ESTIMATE_KINDS,
    KINDS,
    Comparator,
    Component,
    Detector,
    Estimator,
    Test,
    build,
)
from .data import Sample, Suite
from .errors import ConfigError, DataError, did_you_mean
from .pipelines import Pipeline
from .registry import get, get_registry
from .results import OUTCOMES, Comparison, Result, TestResult, Verdict
from .simulate import calibrate

__all__ = ["CHECKS", "CheckOutcome", "check_component", "component_checks", "make_data", "parametrize_with_checks"]

#: parameters that count resamplings: set to the smallest of FAST_VALUES the component accepts,
#: to keep the battery near ~2 s per component (unless example_params sets them)
FAST_PARAMS = ("n_bootstrap", "n_boot", "n_resamples", "n_permutations", "n_replicates", "n_simulations")
FAST_VALUES = (20, 50, 100, 200, 500, 1000)
SEED = 20260101
SPEEDUP = 1.3
N_SUITE = 12
#: the calibration check: A/A replicates of a flat iid family, and how unlikely a failure by chance is
CALIBRATION_REPLICATES = 200
CALIBRATION_FAMILY = "iid-normal"
CALIBRATION_RUNS = 30
CALIBRATION_TAIL = 1e-3
CALIBRATION_RESAMPLES = 200
#: the level a significance or an interval is held to when a result states none (its ``confidence`` is None)
CALIBRATION_LEVEL = 0.95


@attrs.frozen
class CheckOutcome:
    """One check of the battery: its name, whether it passed, why not, and how long it took."""

    check: str
    passed: bool
    message: str = ""
    seconds: float = 0.0


class _Skip(Exception):
    """A check that does not apply to this component."""


# ------------------------------------------------------------------------- data


def make_data(cls: type[Component], shift: float = 0.0, seed: int = SEED) -> np.ndarray:
    """One generated sample for ``cls``: N(10 - shift, 0.5), flat x 40 or shape (6, 4, 5)."""
    rng = np.random.default_rng(seed)
    shape: tuple[int, ...] = (40,) if cls.min_levels <= 1 else (6, 4, 5) + (3,) * max(0, cls.min_levels - 3)
    return rng.normal(10.0 - shift, 0.5, shape)


def _suite_of(cls: type[Component], shift: float, seed: int) -> dict[str, np.ndarray]:
    return {f"bench{i:02d}": make_data(cls, shift, seed + i) for i in range(N_SUITE)}


def _scaled(data: Any, factor: float, lower_is_better: bool) -> Any:
    """Samples (or mappings of Samples) with values divided by ``factor`` and a given direction."""
    if isinstance(data, Mapping):
        return {k: _scaled(v, factor, lower_is_better) for k, v in data.items()}
    return Sample(np.asarray(data) / factor, lower_is_better=lower_is_better,
                  unit="s" if lower_is_better else "ops/s")


# ---------------------------------------------------------------------- helpers


def _same(a: Any, b: Any) -> bool:
    """Parameter equality that copes with arrays and numpy Generators."""
    if isinstance(a, np.random.Generator) and isinstance(b, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a), np.asarray(b)))
        except Exception:  # noqa: BLE001 - not comparable: different
            return False
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _registered_class(name: str) -> type[Component] | None:
    rec = get_registry().components.get(name)
    return None if rec is None else rec.obj


def _rebuild(cls: type[Component], params: Mapping[str, Any]) -> Component:
    """``pr.get(name, **params)`` when ``cls`` is registered under its name, else ``build(cls, params)``."""
    if _registered_class(cls.name) is cls:
        return get(cls.name, **params)
    return build(cls, params)


def _short_exc(exc: BaseException) -> str:
    """``Type: message (at file:line)`` of the innermost frame, for one-line failure messages."""
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _run(component: Component, data: Any, other: Any = None) -> Result:
    """Call the component's main method: ``estimate(x)``, ``test(x[, y])`` or ``compare(x, y)``."""
    if isinstance(component, Estimator):
        return component.estimate(data)
    if isinstance(component, Test):
        if component.n_samples == 1:
            return component.test(data)
        return component.test(data, other)
    if isinstance(component, Comparator):
        return component.compare(data, other)
    if isinstance(component, Detector):  # a history: the data's top level is the commit
        return component.detect(data)
    raise AssertionError(f"unknown kind {component.kind!r}")


def _inputs(cls: type[Component], seed: int = SEED) -> tuple[Any, Any]:
    """(baseline, candidate) generated data: arrays, or ``{benchmark: array}`` for suite scope
    (a detector gets one array whose top level is the commit: 40 commits of one run)."""
    if cls.scope == "suite" and cls.kind != "detector":
        return _suite_of(cls, 0.0, seed), _suite_of(cls, 0.5, seed + 100)
    return make_data(cls, 0.0, seed), make_data(cls, 0.5, seed + 1)


def _as_samples(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {k: Sample(v) for k, v in data.items()}
    return Sample(data)


def _check_result(res: Any, what: str, expected: type | tuple[type, ...] = Result) -> None:
    kinds = expected if isinstance(expected, tuple) else (expected,)
    assert isinstance(res, kinds), (
        f"{what} returned {type(res).__name__}, expected a {' or '.join(f'pr.{k.__name__}' for k in kinds)}")
    try:
        d = res.to_dict()
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"{what}: to_dict() fails: {_short_exc(exc)}") from None
    assert isinstance(d, dict), f"{what}: to_dict() returned {type(d).__name__}, not a dict"
    try:
        json.dumps(d, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"{what}: to_dict() is not strict JSON ({exc}); "
                             "use pr.to_jsonable or plain floats/lists/dicts") from None
    text = res.describe()
    assert isinstance(text, str) and text.strip(), f"{what}: describe() must be a non-empty string, got {text!r}"
    for w in res.warnings:
        assert isinstance(w, str) and w, f"{what}: warnings must be non-empty strings, got {w!r}"


def _numbers(res: Result) -> dict[str, Any]:
    """A result's dict without its prose (verdict, warnings), for comparing two runs."""
    d = res.to_dict()
    return {k: v for k, v in d.items() if k not in ("verdict", "warnings", "type", "method")}


# ----------------------------------------------------------------------- checks


class _Battery:
    """The checks for one component class; each ``check_*`` method raises AssertionError or _Skip."""

    def __init__(self, cls: type[Component], params: Mapping[str, Any] | None = None) -> None:
        self.cls = cls
        self.params = dict(cls.example_params if params is None else params)
        self._reference: Result | None = None

    def reference(self) -> Result:
        """The result on generated Samples with random_state fixed, computed once and shared by checks."""
        if self._reference is None:
            x, y = _inputs(self.cls)
            self._reference = _run(self._fixed(), _as_samples(x), _as_samples(y))
        return self._reference

    def instance(self, fewest: int = 0, **overrides: Any) -> Component:
        """The component with ``example_params``, ``overrides``, and resampling counts lowered for speed
        (to the smallest of ``FAST_VALUES`` it accepts that is at least ``fewest``)."""
        params = {**self.params, **overrides}
        base = build(self.cls, params)
        for p in FAST_PARAMS:
            if p not in self.names or p in params:
                continue
            for n in (v for v in FAST_VALUES if v >= fewest):
                try:
                    base = base.with_params(**{p: n})
                    break
                except ConfigError:
                    continue
        return base

    @property
    def names(self) -> list[str]:
        return self.cls.param_names()

    # -- class and parameters
    def check_class(self) -> None:
        cls = self.cls
        assert isinstance(cls, type) and issubclass(cls, Component) and attrs.has(cls), (
            "must be an attrs class (@attrs.define) subclassing pr.Estimator, pr.Test or pr.Comparator")
        assert isinstance(cls.name, str) and cls.name, "needs a class attribute name = 'registry-name'"
        assert cls.name == cls.name.strip().lower() and " " not in cls.name, (
            f"name {cls.name!r} should be lower-case with hyphens (users type it in configs)")
        assert cls.kind in KINDS and isinstance(cls, type) and issubclass(cls, KINDS[cls.kind]), (
            f"kind {cls.kind!r} does not match its base class")
        assert cls.scope in ("benchmark", "suite"), f"scope must be 'benchmark' or 'suite', got {cls.scope!r}"
        assert isinstance(cls.min_levels, int) and cls.min_levels >= 1, "min_levels must be an int >= 1"
        doc = cls.__dict__.get("__doc__")
        assert doc and doc.strip(), "needs a docstring (its first line is what `perfrigor list` shows)"
        if isinstance(cls, type) and issubclass(cls, Comparator):
            assert cls.estimate_kind in ESTIMATE_KINDS, (
                f"estimate_kind must be one of {sorted(ESTIMATE_KINDS)}, got {cls.estimate_kind!r}")

    def check_construct(self) -> None:
        try:
            self.cls(**self.params)
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"cannot construct with example_params {self.params}: {_short_exc(exc)}; "
                                 "set example_params = {...} for required parameters") from None

    def check_get_params(self) -> None:
        comp = self.instance()
        params = comp.get_params()
        assert isinstance(params, dict), "get_params() must return a dict"
        assert set(params) == set(self.names), f"get_params() keys {sorted(params)} != fields {sorted(self.names)}"
        again = _rebuild(self.cls, params)
        assert type(again) is self.cls, (
            f"pr.get({self.cls.name!r}) builds {type(again).__name__}, not {self.cls.__name__} (name clash?)")
        for k, v in params.items():
            assert _same(v, again.get_params()[k]), f"parameter {k}: {v!r} does not round-trip through pr.get"
        assert _same(comp.with_params().get_params(), params), "with_params() with no change alters parameters"

    def check_repr(self) -> None:
        comp = self.instance()
        text = repr(comp)
        assert isinstance(text, str) and text.startswith(type(comp).__name__), f"repr {text!r}"
        assert repr(self.cls(**self.params)), "empty repr"

    def check_unknown_param(self) -> None:
        for call in (lambda: _rebuild(self.cls, {**self.params, "no_such_parameter": 1}),
                     lambda: self.instance().with_params(no_such_parameter=1)):
            try:
                call()
            except ConfigError as exc:
                assert "no_such_parameter" in str(exc), f"ConfigError does not name the parameter: {exc}"
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"an unknown parameter raises {_short_exc(exc)}, not ConfigError") from None
            else:
                raise AssertionError("an unknown parameter is accepted silently")

    def check_invalid_confidence(self) -> None:
        if "confidence" not in self.names:
            raise _Skip("no confidence parameter")
        for bad in (0, 1, 1.5, -0.05, 95, "high", None, float("nan")):
            try:
                _rebuild(self.cls, {**self.params, "confidence": bad})
            except ConfigError:
                continue
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"confidence={bad!r} raises {_short_exc(exc)}, not ConfigError "
                                     "(use pr.confidence_param())") from None
            raise AssertionError(f"confidence={bad!r} is accepted (use pr.confidence_param())")

    def check_invalid_random_state(self) -> None:
        if "random_state" not in self.names:
            raise _Skip("no random_state parameter")
        for bad in ("seed", -1, 1.5):
            try:
                _rebuild(self.cls, {**self.params, "random_state": bad})
            except ConfigError:
                continue
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"random_state={bad!r} raises {_short_exc(exc)}, not ConfigError") from None
            raise AssertionError(f"random_state={bad!r} is accepted (use pr.random_state_param())")

    def check_pickle(self) -> None:
        comp = self.instance()
        try:
            again = pickle.loads(pickle.dumps(comp))
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"the component does not pickle (define the class at module level; process "
                                 f"pools and dask need it): {_short_exc(exc)}") from None
        assert type(again) is type(comp) and repr(again) == repr(comp), "pickling changes the component"
        copy.deepcopy(comp)

    # -- results
    def _fixed(self, fewest: int = 0) -> Component:
        return self.instance(fewest, random_state=SEED) if "random_state" in self.names else self.instance(fewest)

    def check_result(self) -> None:
        comp = self._fixed()
        # a comparator answers with a Comparison, or with a Verdict (the answer a person reads first)
        expected = {"test": TestResult, "comparator": (Comparison, Verdict)}.get(comp.kind, Result)
        res = self.reference()
        _check_result(res, f"{comp.kind} method", expected)
        try:
            pickle.loads(pickle.dumps(res))
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"the result does not pickle (process pools need it): {_short_exc(exc)}") from None
        if isinstance(comp, Comparator) and comp.multi_system and self.cls.scope == "benchmark":
            x, y = _inputs(self.cls)
            z = make_data(self.cls, 1.0, SEED + 2)
            many = comp.compare_many({"a": Sample(x), "b": Sample(y), "c": Sample(z)})
            _check_result(many, "compare_many()")

    def check_result_fields(self) -> None:
        """The contract's fields are consistent: probabilities in [0, 1], ordered intervals, the level asked for."""
        res = self.reference()
        comp = self._fixed()
        asked = getattr(comp, "confidence", None) if "confidence" in self.names else None
        if isinstance(res, TestResult):
            assert res.pvalue is None or 0.0 <= res.pvalue <= 1.0, f"pvalue {res.pvalue!r} is not in [0, 1]"
            assert 0.0 < res.alpha < 1.0, f"alpha {res.alpha!r} is not in (0, 1)"
            assert isinstance(res.reject, bool), f"reject must be a bool, got {res.reject!r}"
            if res.pvalue is not None and abs(res.pvalue - res.alpha) > 1e-12:
                assert res.reject == (res.pvalue < res.alpha), (
                    f"reject={res.reject} but pvalue {res.pvalue:.4g} vs alpha {res.alpha:g}")
            if isinstance(asked, float):
                assert math.isclose(res.alpha, 1.0 - asked), (
                    f"alpha {res.alpha!r} should be 1 - confidence = {1.0 - asked:g}")
        if isinstance(res, Comparison):
            assert res.pvalue is None or 0.0 <= res.pvalue <= 1.0, f"pvalue {res.pvalue!r} is not in [0, 1]"
            assert res.significant is None or isinstance(res.significant, bool), (
                f"significant must be True, False or None, got {res.significant!r}")
            assert res.confidence is None or 0.0 < res.confidence < 1.0, f"confidence {res.confidence!r}"
            if res.ci_low is not None and res.ci_high is not None:
                assert res.ci_low <= res.ci_high, f"interval [{res.ci_low}, {res.ci_high}] is reversed"
            if isinstance(asked, float) and res.confidence is not None:
                assert math.isclose(res.confidence, asked), (
                    f"confidence {res.confidence!r} in the result, {asked!r} asked for")
            assert isinstance(res.verdict, str) and res.verdict, "verdict must be a non-empty sentence"
            assert isinstance(res.details, Mapping), "details must be a mapping"
        if isinstance(res, Verdict):
            assert res.outcome in OUTCOMES, f"outcome {res.outcome!r} is not one of {OUTCOMES}"
            if res.ci_low is not None and res.ci_high is not None:
                assert res.ci_low <= res.ci_high, f"interval [{res.ci_low}, {res.ci_high}] is reversed"
            if isinstance(asked, float) and res.confidence is not None:
                assert math.isclose(res.confidence, asked), (
                    f"confidence {res.confidence!r} in the result, {asked!r} asked for")
            assert res.reasons and all(isinstance(r, str) and r for r in res.reasons), (
                "a verdict needs reasons: non-empty sentences, the first saying why")

    def check_random_state(self) -> None:
        if "random_state" not in self.names:
            raise _Skip("no random_state parameter")
        x, y = _inputs(self.cls)
        again = _numbers(_run(self._fixed(), _as_samples(x), _as_samples(y)))
        assert again == _numbers(self.reference()), f"two runs with random_state={SEED} differ"
        runs = [_numbers(_run(self.instance(random_state=np.random.default_rng(7)), _as_samples(x), _as_samples(y)))
                for _ in range(2)]
        assert runs[0] == runs[1], "two runs with random_state=np.random.default_rng(7) differ"

    def check_array_likes(self) -> None:
        x, y = _inputs(self.cls)
        ref = _numbers(self.reference())
        x_arr, y_arr = copy.deepcopy(x), copy.deepcopy(y)
        as_lists = (lambda d: {k: v.tolist() for k, v in d.items()}) if isinstance(x, Mapping) else np.ndarray.tolist
        got_arrays = _numbers(_run(self._fixed(), x_arr, y_arr))
        assert got_arrays == ref, "numpy arrays give a different result than Samples"
        got_lists = _numbers(_run(self._fixed(), as_lists(x), as_lists(y)))
        assert got_lists == ref, "plain (nested) lists give a different result than Samples"
        flat_x = np.concatenate([np.ravel(v) for v in x.values()]) if isinstance(x, Mapping) else np.ravel(x)
        flat_a = (np.concatenate([np.ravel(v) for v in x_arr.values()]) if isinstance(x_arr, Mapping)
                  else np.ravel(x_arr))
        assert np.array_equal(flat_x, flat_a), "the component modifies its input arrays in place"

    def check_direction(self) -> None:
        if not issubclass(self.cls, Comparator):
            raise _Skip("not a comparator")
        kind = self.cls.estimate_kind
        if kind == "other":
            raise _Skip("estimate_kind = 'other'")
        threshold = {"speedup": 1.0, "probability": 0.5, "gain": 0.0}[kind]
        base = (_suite_of(self.cls, 0.0, SEED) if self.cls.scope == "suite" else make_data(self.cls))
        hint = {"speedup": "a speedup (>1: candidate faster); set estimate_kind if the estimate is "
                           "a probability ('probability') or a difference in the candidate's favour ('gain')",
                "probability": "a probability in the candidate's favour (>0.5: candidate better)",
                "gain": "a gain in the candidate's favour (>0: candidate better)"}[kind]
        for lower, word in ((True, "times (lower is better)"), (False, "throughputs (higher is better)")):
            res = self._fixed().compare(_scaled(base, 1.0, lower), _scaled(base, SPEEDUP, lower))
            est = res.speedup if isinstance(res, Verdict) else getattr(res, "estimate", None)
            faster = lower  # dividing times by 1.3 is faster; dividing throughputs is slower
            assert isinstance(est, int | float) and math.isfinite(est), (
                f"candidate = baseline / {SPEEDUP} on {word}: estimate is {est!r}, expected a number "
                f"({'>' if faster else '<'} {threshold:g}: the candidate is {'faster' if faster else 'slower'})")
            ok = est > threshold if faster else est < threshold
            assert ok, (f"candidate = baseline / {SPEEDUP} on {word} (candidate "
                        f"{'faster' if faster else 'slower'}): estimate {est:.4g} should be "
                        f"{'>' if faster else '<'} {threshold:g}; the estimate is {hint}; "
                        "respect Sample.lower_is_better")

    def check_nan(self) -> None:
        x, y = _inputs(self.cls)
        if isinstance(x, Mapping):
            first = next(iter(x))
            x = {**x, first: x[first].copy()}
            x[first].flat[3] = np.nan
        else:
            x = x.copy()
            x.flat[3] = np.nan
        try:
            _run(self._fixed(), x, y)
        except DataError:
            return
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"NaN in the input raises {_short_exc(exc)}, not pr.DataError "
                                 "(convert inputs with pr.as_sample / pr.as_sample_mapping)") from None
        raise AssertionError("NaN in the input is accepted silently; it must raise pr.DataError "
                             "(convert inputs with pr.as_sample / pr.as_sample_mapping)")

    def check_degenerate(self) -> None:
        """Tiny and constant inputs give a Result (with warnings) or a DataError, never a crash."""
        x, y = _inputs(self.cls)

        def const(d: Any, v: float) -> Any:
            return {k: np.full_like(a, v) for k, a in d.items()} if isinstance(d, Mapping) else np.full_like(d, v)

        def tiny(d: Any) -> Any:
            ndim = (next(iter(d.values())) if isinstance(d, Mapping) else d).ndim
            shape = (2,) * ndim  # as few values as possible, the same levels as the generated data
            if isinstance(d, Mapping):
                return {k: a.ravel()[: math.prod(shape)].reshape(shape) for k, a in d.items()}
            return d.ravel()[: math.prod(shape)].reshape(shape)

        for label, (a, b) in (("constant values", (const(x, 10.0), const(y, 9.0))),
                              ("2 values per level", (tiny(x), tiny(y)))):
            try:
                res = _run(self._fixed(), a, b)
            except DataError:
                continue
            except Exception as exc:  # noqa: BLE001
                raise AssertionError(f"{label}: raises {_short_exc(exc)}; return a result with warnings "
                                     "or raise pr.DataError saying why") from None
            _check_result(res, f"{label}:")

    def check_levels(self) -> None:
        if self.cls.min_levels <= 1:
            raise _Skip("accepts flat samples")
        flat = np.random.default_rng(SEED).normal(10, 0.5, 40)
        args: tuple[Any, Any] = ({f"b{i}": flat for i in range(N_SUITE)},) * 2 if self.cls.scope == "suite" \
            else (flat, flat * 0.9)
        try:
            _run(self._fixed(), *args)
        except DataError as exc:
            assert str(exc), "empty DataError message"
            return
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"min_levels = {self.cls.min_levels} but flat data raises {_short_exc(exc)}, "
                                 "not pr.DataError") from None
        raise AssertionError(f"min_levels = {self.cls.min_levels} but flat data is accepted")

    def check_pipeline(self) -> None:
        if issubclass(self.cls, Detector):
            raise _Skip("a detector analyses histories, not a pipeline's samples")
        comp = self._fixed()
        x, y = _inputs(self.cls)
        if self.cls.scope == "suite":
            report = Pipeline([comp]).run(Suite.from_pairs(_as_samples(x), _as_samples(y)))
            results = [report.suite_results.get(report.steps[0].id)]
        else:
            report = Pipeline([comp]).run(Sample(x, name="baseline"), Sample(y, name="candidate"))
            step = report.steps[0].id
            results = [r for b in report.benchmarks for r in report.benchmark_results[b].get(step, {}).values()]
        assert not report.errors, f"the pipeline recorded errors: {report.errors}"
        assert results and all(isinstance(r, Result) for r in results), "the pipeline step produced no result"
        json.dumps(report.to_dict(), allow_nan=False)

    def check_calibration(self) -> None:
        """A/A: false alarms and interval coverage at the levels claimed (``perfrigor.simulate.calibrate``).

        ``CALIBRATION_REPLICATES`` benchmarks whose two systems are drawn from one flat iid family
        (``CALIBRATION_FAMILY`` at ``CALIBRATION_RUNS`` runs): the share that says "faster" or
        "slower" (a test: rejects) must be within a binomial bound of 1 - confidence, and the share
        of intervals holding no change within one of the confidence (each bound exceeded by chance
        with probability ``CALIBRATION_TAIL``; a conservative method passes). A result that says
        significant, or gives an interval, at no stated ``confidence`` is held to ``CALIBRATION_LEVEL``.
        """
        from scipy import stats

        cls = self.cls
        if not (issubclass(cls, Comparator) or (issubclass(cls, Test) and cls.n_samples == 2)):
            raise _Skip("compares no two systems (estimators' intervals and one-sample tests have targets "
                        "of their own)")
        if cls.scope == "suite":
            raise _Skip("a suite method: an A/A replicate is a whole suite (benchmarks/calibration.py)")
        if cls.min_levels > 1:
            raise _Skip("needs hierarchical data; the calibration family is flat")
        res = self.reference()
        level = (1.0 - res.alpha if isinstance(res, TestResult) else getattr(res, "confidence", None))
        judges = isinstance(res, TestResult | Verdict) or (
            isinstance(res, Comparison) and (res.significant is not None or res.ci_low is not None))
        if not judges:
            raise _Skip("reports neither significance nor an interval")
        held = ""
        if level is None:  # significance or an interval at no stated level: the conventional one
            level, held = CALIBRATION_LEVEL, f" (its results state no confidence: held to {CALIBRATION_LEVEL:g})"
        # resampling counts high enough for the levels they claim (a 20-draw percentile interval is narrow)
        rates = calibrate(Pipeline([self._fixed(CALIBRATION_RESAMPLES)]), CALIBRATION_FAMILY, CALIBRATION_RUNS,
                          replicates=CALIBRATION_REPLICATES, random_state=SEED)
        if not rates:
            raise AssertionError(f"no result on the {CALIBRATION_REPLICATES} A/A replicates "
                                 f"({CALIBRATION_FAMILY}, {CALIBRATION_RUNS} runs a side)")
        rate = next(iter(rates.values()))
        n, alpha = CALIBRATION_REPLICATES, 1.0 - level
        where = f"{n} A/A replicates ({CALIBRATION_FAMILY}, {CALIBRATION_RUNS} runs a side)"
        most = int(stats.binom.isf(CALIBRATION_TAIL, n, alpha))
        alarms = round(rate.alarm * n)
        assert alarms <= most, (
            f"{alarms} false alarms in {where}, at most {most} expected at confidence {level:g}{held} "
            f"(nominal {alpha * n:.0f}): its p-values or intervals are too small")
        if rate.intervals:
            least = int(stats.binom.ppf(CALIBRATION_TAIL, rate.intervals, level))
            assert rate.covered >= least, (
                f"{rate.covered} of {rate.intervals} {level:.0%} intervals hold no change in {where}, at "
                f"least {least} expected{held}: the intervals are too narrow")

    def checks(self) -> Iterator[tuple[str, Callable[[], None]]]:
        for name in CHECKS:
            yield name, getattr(self, f"check_{name}")


#: the battery's checks, in the order they run (names for ``expected_failures``)
CHECKS = ("class", "construct", "get_params", "repr", "unknown_param", "invalid_confidence", "invalid_random_state",
          "pickle", "result", "result_fields", "random_state", "array_likes", "direction", "nan", "degenerate",
          "levels", "pipeline", "calibration")

ExpectedFailures = Mapping[str, str] | Callable[[type[Component]], Mapping[str, str]] | None


def _battery(component: type[Component] | Component | str) -> _Battery:
    """The battery for what is given: an instance is checked with its own parameters; a class
    (or a registry name) with its ``example_params``."""
    if isinstance(component, str):
        cls = _registered_class(component)
        if cls is None:
            get_registry().component_class(component)  # raises ConfigError with "did you mean"
        return _Battery(cls)  # type: ignore[arg-type]
    if isinstance(component, Component):
        return _Battery(type(component), component.get_params())
    return _Battery(component)


def _expected(expected_failures: ExpectedFailures, cls: type[Component]) -> dict[str, str]:
    """``{check: reason}`` declared for ``cls``; ConfigError for a check that does not exist."""
    found = dict((expected_failures(cls) if callable(expected_failures) else expected_failures) or {})
    unknown = [c for c in found if c not in CHECKS]
    if unknown:
        raise ConfigError("expected_failures names unknown check(s) "
                          + "; ".join(f"{c!r}{did_you_mean(c, CHECKS)}" for c in unknown)
                          + f" (checks: {', '.join(CHECKS)})")
    return found


def component_checks(component: type[Component] | Component | str) -> list[tuple[str, Callable[[], None]]]:
    """The battery's checks for a component as ``(check_name, callable)`` pairs (to parametrise tests)."""
    return list(_battery(component).checks())


def check_component(component: type[Component] | Component | str, *, raise_on_failure: bool = True,
                    expected_failures: ExpectedFailures = None) -> list[CheckOutcome]:
    """Run the conformance battery on what is given: a component instance (with its own
    parameters), a class (with its ``example_params``) or a registry name.

    ``expected_failures`` (``{check: reason}``, or a function of the class giving one, as
    scikit-learn's ``expected_failed_checks``) declares checks known to fail: their failure
    passes, with the reason in the message, and their passing is a failure (so a stale
    declaration is noticed). Returns one :class:`CheckOutcome` per check (skipped checks pass
    with a message); raises one AssertionError listing every failed check, each with the
    component and check named, unless ``raise_on_failure`` is False.
    """
    battery = _battery(component)
    cls = battery.cls
    expected = _expected(expected_failures, cls)
    label = f"{getattr(cls, '__name__', cls)} ({getattr(cls, 'name', '') or 'no name'!r})"
    outcomes: list[CheckOutcome] = []
    failed_construct = False
    for check, fn in battery.checks():
        start = time.perf_counter()
        if failed_construct and check not in ("class",):
            outcomes.append(CheckOutcome(check, False, "not run: the component cannot be constructed"))
            continue
        try:
            fn()
        except _Skip as skip:
            outcomes.append(CheckOutcome(check, True, f"skipped: {skip}", time.perf_counter() - start))
        except AssertionError as exc:
            outcomes.append(CheckOutcome(check, False, str(exc) or "assertion failed", time.perf_counter() - start))
            failed_construct = failed_construct or check == "construct"
        except Exception as exc:  # noqa: BLE001 - an unexpected crash is a failure of that check
            outcomes.append(CheckOutcome(check, False, f"unexpected {_short_exc(exc)}", time.perf_counter() - start))
            failed_construct = failed_construct or check == "construct"
        else:
            outcomes.append(CheckOutcome(check, True, "", time.perf_counter() - start))
        if check in expected:
            last = outcomes[-1]
            outcomes[-1] = (CheckOutcome(check, True, f"expected failure ({expected[check]}): {last.message}",
                                         last.seconds) if not last.passed else
                            CheckOutcome(check, False, f"declared an expected failure ({expected[check]}) but "
                                                       "it passes: remove it from expected_failures", last.seconds))
    failures = [o for o in outcomes if not o.passed]
    if failures and raise_on_failure:
        lines = "\n".join(f"  - check_component[{cls.name or cls.__name__}] {o.check}: {o.message}"
                          for o in failures)
        raise AssertionError(f"check_component({label}): {len(failures)} of {len(outcomes)} checks failed:\n{lines}")
    return outcomes


def parametrize_with_checks(components: list[type[Component] | Component | str], *,
                            expected_failures: ExpectedFailures = None) -> Any:
    """A ``pytest.mark.parametrize`` over every (component, check) pair, as scikit-learn's helper.

    Each check becomes its own test (id ``"<name>-<check>"``); checks that do not apply are
    skipped; checks named in ``expected_failures`` (``{check: reason}``, or a function of the
    class giving one) are strict ``xfail``s. Use it in a plugin's tests::

        @parametrize_with_checks([MedianRatio], expected_failures={"nan": "NaN means 'no run' here"})
        def test_conformance(check):
            check()
    """
    import pytest

    params = []
    for component in components:
        battery = _battery(component)
        cls = battery.cls
        expected = _expected(expected_failures, cls)
        for check, fn in battery.checks():
            marks = [pytest.mark.xfail(strict=True, reason=expected[check])] if check in expected else []
            params.append(pytest.param(_skipping(fn), id=f"{cls.name or cls.__name__}-{check}", marks=marks))
    return pytest.mark.parametrize("check", params)


def _skipping(fn: Callable[[], None]) -> Callable[[], None]:
    """A check whose 'does not apply' becomes pytest.skip."""

    def run() -> None:
        import pytest

        try:
            fn()
        except _Skip as skip:
            pytest.skip(str(skip))

    return run
