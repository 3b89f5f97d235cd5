"""Abstract components: Estimator, Test, Comparator, Detector.

A component is an attrs class whose fields are its parameters (typed, with
validators), plus a class attribute ``name`` under which the registry knows it.
As in scikit-learn, parameters are introspected (``get_params``) and the
``repr`` shows only the ones that differ from their defaults.

The pipeline calls :meth:`Component.run_benchmark` (per benchmark) or
:meth:`Component.run_suite` (once per suite); the defaults dispatch to
``estimate`` / ``test`` / ``compare``. Override them to read earlier results.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np

from .data import Sample, Suite
from .errors import ConfigError, DataError, did_you_mean
from .keys import pair_key
from .params import ParamInfo
from .results import Result

# ---------------------------------------------------------------- earlier results


class Previous(dict):
    """What earlier steps produced, as a pipeline hands it to a step: ``{step_id: results}``.

    A plain mapping (per benchmark ``{step_id: {key: Result}}``; for suite work
    ``{step_id: Result}``) that also knows which component each step ran, so a
    step can find the results of a component whatever id the user gave its step.
    """

    def __init__(self, results: Mapping[str, Any] = (), components: Mapping[str, str] | None = None) -> None:
        super().__init__(results)
        self.components: dict[str, str] = dict(components or getattr(results, "components", {}) or {})

    def __reduce__(self):  # keep ``components`` through pickling (process pools, dask)
        return (type(self), (dict(self), self.components))

    def steps_of(self, component: str) -> list[str]:
        """Ids of the earlier steps that ran ``component`` and have results here, in step order."""
        return [sid for sid in self if self.components.get(sid) == component]

    def find(self, component: str, key: str | None = None) -> tuple[str, Any] | None:
        """``(step_id, result)`` of the last earlier step that ran ``component`` (its ``key``
        result for per-benchmark results, when given), or None."""
        for sid in reversed(self.steps_of(component)):
            found = self[sid]
            if key is None:
                return sid, found
            if isinstance(found, Mapping) and key in found:
                return sid, found[key]
        return None

    def of_type(self, kind: type | tuple[type, ...], key: str | None = None) -> list[tuple[str, Any]]:
        """``(step_id, result)`` of every earlier step whose result is a ``kind`` (its ``key`` result
        for per-benchmark results, when given), in step order.

        Evidence read by type rather than by component name: any component whose result is,
        e.g., a ``pr.DependenceCheck`` feeds the reader, whatever its name and step id.
        """
        out = []
        for sid, found in self.items():
            if key is not None:
                found = found.get(key) if isinstance(found, Mapping) else None
            if isinstance(found, kind):
                out.append((sid, found))
        return out


# ---------------------------------------------------------------- components

@attrs.frozen
class BenchmarkJob:
    """One benchmark as a per-benchmark step is about to run on it (what ``Component.prepare`` sees).

    ``component`` is the step's component as it runs on this benchmark (its own
    seed, its ``for_benchmark`` settings); ``previous`` the earlier steps' results
    on this benchmark.
    """

    benchmark: str
    component: Component
    samples: Mapping[str, Sample]
    baseline: str
    candidate: str | None
    previous: Mapping[str, Mapping[str, Result]]


@attrs.define
class Component:
    """Base of every component. Subclasses are attrs classes; their fields are parameters.

    Class attributes: ``name`` (registry name), ``kind`` ("estimator", "test",
    "comparator") and ``scope`` ("benchmark": run on every benchmark;
    "suite": run once on a whole suite).
    """

    name: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    scope: ClassVar[str] = "benchmark"
    #: parameters the conformance battery (perfrigor.testing) constructs it with, when some are required
    example_params: ClassVar[dict[str, Any]] = {}
    #: the fewest levels (array dimensions) the component needs: 2+ for hierarchical-only methods
    min_levels: ClassVar[int] = 1
    #: suite-scope components: the fewest benchmarks that make the method meaningful; a pipeline
    #: skips the step (and says so in the report) on a smaller suite, e.g. one pair of samples
    min_benchmarks: ClassVar[int] = 2
    #: True for a component that describes one system's measurements (a summary, a fit, an
    #: interval): ``perfrigor describe`` runs every such estimator and one-sample test
    describes: ClassVar[bool] = False
    #: parameters worth a command-line shorthand: ``perfrigor run --NAME VALUE`` sets the
    #: parameter ``NAME`` on every step that has it (e.g. ``("weight", "precision")``)
    shorthands: ClassVar[tuple[str, ...]] = ()

    # -- scikit-learn style parameter introspection
    @classmethod
    def param_names(cls) -> list[str]:
        return [f.name for f in attrs.fields(cls) if f.init]

    @classmethod
    def param_info(cls) -> list[ParamInfo]:
        """Each parameter's default, help, type and range (from the parameter helpers' metadata)."""
        out = []
        for f in attrs.fields(cls):
            if not f.init:
                continue
            default = f.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory() if not default.takes_self else None
            required = default is attrs.NOTHING
            meta = f.metadata
            choices = meta.get("choices")
            out.append(ParamInfo(name=f.name, default=None if required else default, help=meta.get("help"),
                                 type=meta.get("type"), range=meta.get("range"),
                                 choices=tuple(choices) if choices else None, required=required))
        return out

    def get_params(self) -> dict[str, Any]:
        """The component's parameters as a dict (``pr.get(name, **params)`` rebuilds it)."""
        return {n: getattr(self, n) for n in self.param_names()}

    def with_params(self, **params: Any) -> Component:
        """A copy with some parameters changed (validated: ConfigError if bad); this one is unchanged."""
        return build(type(self), {**self.get_params(), **params})

    def set_params(self, **params: Any) -> Component:
        """Deprecated: use :meth:`with_params`. Returns a copy, not ``self`` as scikit-learn's ``set_params``."""
        warnings.warn("Component.set_params returns a copy, unlike scikit-learn's: use with_params(**params) "
                      "(set_params will be removed)", DeprecationWarning, stacklevel=2)
        return self.with_params(**params)

    def __repr__(self) -> str:
        changed = []
        for f in attrs.fields(type(self)):
            if not f.init:
                continue
            value = getattr(self, f.name)
            default = f.default
            if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
                default = default.factory() if not default.takes_self else None
            try:
                same = bool(np.all(value == default)) if value is not None or default is not None else True
            except Exception:  # noqa: BLE001 - exotic values: show them
                same = False
            if not same or (value is None) != (default is None):
                changed.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    @classmethod
    def description(cls) -> str:
        """First line of the class docstring."""
        doc = (cls.__doc__ or "").strip()
        return doc.splitlines()[0] if doc else ""

    # -- how a pipeline runs the component (override to read earlier results)
    def run_benchmark(self, samples: Mapping[str, Sample], baseline: str, candidate: str | None,
                      previous: Mapping[str, Mapping[str, Result]]) -> dict[str, Result]:
        """Run on one benchmark; return ``{key: result}`` (key: a system or a pair)."""
        raise NotImplementedError

    def run_suite(self, suite: Suite, baseline: str, candidate: str | None,
                  previous: Mapping[str, Any]) -> Result:
        """Run once on a suite (``scope == "suite"`` components)."""
        raise NotImplementedError(f"{self.name} does not run on a whole suite")

    @classmethod
    def prepare(cls, jobs: Sequence[BenchmarkJob]) -> None:
        """Work shared by many benchmarks, done at once before ``run_benchmark`` runs on each of them.

        A pipeline calls it once per task (a batch of benchmarks) for every
        per-benchmark step, before that step runs on the task's benchmarks, with
        the jobs of this class. Store what it computes in ``pr.current_workspace()``
        (valid for this task only) and let ``run_benchmark`` find it there; results
        must be the same as without it. Bad data are left for ``run_benchmark``
        to report. Default: nothing.
        """

    def check_steps(self, step_id: str, earlier: Sequence[Any]) -> None:
        """Check, when a pipeline is built, what this step needs from the steps before it.

        ``earlier`` holds the pipeline's earlier steps (``.id``, ``.component``). Raise
        ConfigError when a reference names no earlier step, or one of the wrong kind, so the
        mistake shows before any work. Default: nothing to check.
        """

    def for_benchmark(self, info: Any) -> Component:
        """The component to run on one benchmark given its ``BenchmarkInfo`` (or None); default: itself.

        Override to honour per-benchmark settings read with a suite (e.g. a confidence level per row).
        """
        return self

    def revise(self, suite: Suite, results: Mapping[str, Mapping[str, Result]]
               ) -> Mapping[str, Mapping[str, Result]] | None:
        """This step's per-benchmark results revised in the light of the whole suite, or None (the default).

        Called once every benchmark has run, before ``summarize``: a step whose per-benchmark
        answers depend on how many benchmarks were tested (a multiple-testing adjustment) returns
        ``{benchmark: {key: result}}`` for the benchmarks it changes; the report keeps those.
        """
        return None

    def summarize(self, suite: Suite, results: Mapping[str, Mapping[str, Result]],
                  previous: Previous | None = None) -> Result | None:
        """Optional suite-level result from this step's per-benchmark results (e.g. overall speedup).

        ``previous`` holds the suite results of the earlier steps (``{step_id: Result}``).
        """
        return None


@attrs.define(repr=False)
class Estimator(Component):
    """Estimates something from one system's sample: ``estimate(sample) -> result``."""

    kind: ClassVar[str] = "estimator"

    def estimate(self, sample: Any) -> Result:
        raise NotImplementedError

    def run_benchmark(self, samples, baseline, candidate, previous):
        return {system: self.estimate(sample) for system, sample in samples.items()}


@attrs.define(repr=False)
class Test(Component):
    """A hypothesis test: ``test(x, y=None) -> TestResult``.

    ``n_samples`` is 1 for one-sample tests (run on every system) and 2 for
    two-sample tests (run on baseline vs candidate).
    """

    __test__ = False  # not a pytest test class
    kind: ClassVar[str] = "test"
    n_samples: ClassVar[int] = 2

    def test(self, x: Any, y: Any = None) -> Result:
        raise NotImplementedError

    def run_benchmark(self, samples, baseline, candidate, previous):
        if self.n_samples == 1:
            return {system: self.test(sample) for system, sample in samples.items()}
        if candidate is None:
            return {}
        return {pair_key(baseline, candidate): self.test(samples[baseline], samples[candidate])}


@attrs.define(repr=False)
class Comparator(Component):
    """Compares two systems: ``compare(baseline, candidate) -> Comparison``.

    ``scope = "suite"`` comparators take two mappings ``{benchmark: sample}``.
    ``multi_system = True`` comparators also offer ``compare_many({system: sample})``.
    """

    kind: ClassVar[str] = "comparator"
    multi_system: ClassVar[bool] = False
    #: what ``Comparison.estimate`` is: "speedup" (>1: candidate faster, the default), "probability"
    #: (in the candidate's favour, >0.5: candidate better; also proportions), "gain" (a difference in
    #: the candidate's favour, >0: better) or "other". The conformance battery checks the direction.
    estimate_kind: ClassVar[str] = "speedup"
    #: True when the comparator only asks whether the candidate is better (a one-sided test, a share
    #: of accelerated benchmarks): it cannot show a slowdown, so reports read a result that is not
    #: significantly better as "not faster" (never "no change" or "slower") and
    #: ``--fail-on-regression`` does not rely on it.
    one_sided: ClassVar[bool] = False

    def compare(self, baseline: Any, candidate: Any) -> Result:
        raise NotImplementedError

    def compare_many(self, samples: Mapping[str, Any]) -> Result:
        raise NotImplementedError(f"{self.name} compares two systems only")

    def run_benchmark(self, samples, baseline, candidate, previous):
        out: dict[str, Result] = {}
        if self.multi_system and len(samples) > 2:
            out[" vs ".join(samples)] = self.compare_many(samples)
        if candidate is not None:
            out[pair_key(baseline, candidate)] = self.compare(samples[baseline], samples[candidate])
        return out

    def run_suite(self, suite, baseline, candidate, previous):
        if candidate is None:
            raise ConfigError(f"{self.name} compares two systems; {suite.source or 'the data'} holds only "
                              f"{', '.join(map(repr, suite.systems))}")
        return self.compare(suite.system(baseline), suite.system(candidate))


@attrs.define(repr=False)
class Detector(Component):
    """Finds changes along a history of commits: ``detect(history) -> result``.

    ``history``: a :class:`perfrigor.History`, or anything ``perfrigor.as_history`` takes (an
    array ``(commits, runs)``, ``{benchmark: array}``, a Suite whose systems are commits).
    Detectors work on whole histories (``perfrigor history``), not as pipeline steps.
    """

    kind: ClassVar[str] = "detector"
    scope: ClassVar[str] = "suite"

    def detect(self, history: Any) -> Result:
        raise NotImplementedError

    def check_steps(self, step_id: str, earlier: Sequence[Any]) -> None:
        raise ConfigError(f"step {step_id!r}: {self.name} is a detector: it analyses a history of commits "
                          "(perfrigor history, or .detect(history)), not a pipeline's samples")


KINDS: dict[str, type[Component]] = {"estimator": Estimator, "test": Test, "comparator": Comparator,
                                     "detector": Detector}
SCOPES = ("benchmark", "suite")
ESTIMATE_KINDS = ("speedup", "probability", "gain", "other")


def build(cls: type[Component], params: Mapping[str, Any]) -> Component:
    """Instantiate ``cls`` with ``params``, turning bad parameters into ConfigError."""
    known = cls.param_names()
    unknown = [p for p in params if p not in known]
    if unknown:
        hints = "; ".join(f"{p!r}{did_you_mean(p, known)}" for p in unknown)
        raise ConfigError(f"{cls.name or cls.__name__}: unknown parameter(s) {hints} "
                          f"(parameters: {', '.join(known) or 'none'})")
    try:
        return cls(**params)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{cls.name or cls.__name__}: {exc}") from None


def as_sample(obj: Any, what: str = "sample", **kwargs: Any) -> Sample:
    """A Sample from a Sample or array-like (what every component accepts)."""
    return Sample.coerce(obj, what=what, **kwargs)


def as_positive_pair(baseline: Any, candidate: Any) -> tuple[Sample, Sample]:
    """Baseline and candidate as Samples for a ratio: positive, the same direction, the candidate in the
    baseline's unit (converted exactly: ns and s are one quantity). A DataError names the side."""
    old, new = as_sample(baseline, what="baseline"), as_sample(candidate, what="candidate")
    old.require_positive(f"baseline {old.label}")
    new.require_positive(f"candidate {new.label}")
    if old.lower_is_better != new.lower_is_better:
        raise DataError(f"baseline {old.label} and candidate {new.label} disagree on the direction of the "
                        "metric (lower_is_better)")
    return old, (new if new.unit == old.unit else new.to_unit(old.unit))


def as_sample_mapping(obj: Any, what: str) -> dict[str, Sample]:
    """``{benchmark: Sample}`` from a mapping of samples or array-likes (suite comparators)."""
    if not isinstance(obj, Mapping):
        raise DataError(f"{what}: a suite comparator takes a mapping {{benchmark: sample}}, got {type(obj).__name__}")
    if not obj:
        raise DataError(f"{what}: no benchmarks")
    return {str(k): as_sample(v, what=f"{what}, benchmark {k!r}", name=str(k)) for k, v in obj.items()}


Factory = Callable[..., Component]
