"""Pipeline: an ordered list of steps run on a suite, producing a Report.

A pipeline is built from steps (names, mappings, components, a config), checks its
inputs before any work (values a speedup cannot use, magnitudes that overflow) and
hands the steps to the :class:`~perfrigor.scheduler.Scheduler`, which runs per-benchmark
steps on every benchmark and suite steps once, every step seeing the results of the
steps before it. A DataError of a step is recorded in ``report.errors``, never dropped.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from .component import Component, build
from .config import PipelineSpec, parse_config
from .data import Sample, Suite
from .errors import ConfigError, DataError, did_you_mean
from .inputs import as_suite
from .registry import get_registry
from .report import Report, StepInfo
from .scheduler import Outcome, Scheduler
from .textsafe import one_line


@attrs.frozen
class Step:
    """One component in a pipeline, with the id under which its results are stored."""

    component: Component
    id: str

    @property
    def scope(self) -> str:
        return self.component.scope


def _make_step(spec: Any, position: int) -> tuple[Component, str | None]:
    if isinstance(spec, Step):
        return spec.component, spec.id
    if isinstance(spec, Component):
        return spec, None
    if isinstance(spec, type) and issubclass(spec, Component):
        return build(spec, {}), None
    if isinstance(spec, str):
        return build(get_registry().component_class(spec), {}), None
    if isinstance(spec, Mapping):
        spec = dict(spec)
        name = spec.pop("component", None)
        if not isinstance(name, str):
            raise ConfigError(f"step {position}: needs a 'component' name, got {spec!r}")
        label = one_line(name)  # a name with a line break must not break the error's line
        step_id = spec.pop("id", None)
        if step_id is not None and (not isinstance(step_id, str) or not step_id.strip()):
            raise ConfigError(f"step {position} ({label}): id must be a non-empty string, got {step_id!r}")
        params = spec.pop("params", {}) or {}
        if not isinstance(params, Mapping):
            raise ConfigError(f"step {position} ({label}): params must be a table, got {params!r}")
        params = dict(params)
        overlap = set(params) & set(spec)
        if overlap:
            raise ConfigError(f"step {position} ({label}): parameter(s) {sorted(overlap)} given twice")
        params.update(spec)
        cls = get_registry().component_class(name)
        try:
            return build(cls, params), step_id
        except ConfigError as exc:  # name the step when its id is not the component's name
            if step_id is None or step_id == name:
                raise
            raise ConfigError(f"step {step_id!r}: {exc}") from None
    raise ConfigError(f"step {position}: expected a component, a name or a mapping, got {spec!r}")


#: the largest magnitude a measurement may have: the square of a larger one overflows a float
MAX_MAGNITUDE = 1e150


def _refuse(bench: str, system: str, sample: Sample, bad: np.ndarray, why: str) -> None:
    """A DataError naming the first value where ``bad`` holds (file and line when known), if any.

    ``why`` follows "value X" and may hold ``{more}``, the count of such values when several.
    """
    found = np.flatnonzero(bad)
    if not found.size:
        return
    idx = np.unravel_index(int(found[0]), sample.shape)
    where = sample.locate(idx) if sample.positions is not None and sample.source else (
        f"benchmark {bench!r}, system {system!r}, measurement {int(found[0]) + 1}")
    more = f" ({found.size} such values)" if found.size > 1 else ""
    raise DataError(f"{where}: value {float(sample.flat[found[0]])!r} " + why.format(more=more))

class Pipeline:
    """An ordered list of steps.

    >>> import perfrigor as pr
    >>> p = pr.Pipeline(["speedup-test", {"component": "fieller", "confidence": 0.99}])
    """

    def __init__(self, steps: Sequence[Any], name: str = "custom", description: str = "",
                 baseline: str | None = None, candidate: str | None = None,
                 input_options: Mapping[str, Any] | None = None) -> None:
        if isinstance(steps, str | Mapping) or not isinstance(steps, Sequence):
            raise ConfigError("a pipeline's steps must be a list")
        if not steps:
            raise ConfigError(f"pipeline {name!r} has no steps")
        self.name = name
        self.description = description
        self.baseline = baseline
        self.candidate = candidate
        self.input_options = dict(input_options or {})
        self.steps: list[Step] = []
        made = [_make_step(spec, i) for i, spec in enumerate(steps, 1)]
        explicit = [step_id for _, step_id in made if step_id is not None]
        twice = sorted({i for i in explicit if explicit.count(i) > 1})
        if twice:
            raise ConfigError(f"pipeline {name!r}: step id(s) {', '.join(map(repr, twice))} given to more than "
                              "one step; ids must be unique (later steps and --param refer to them)")
        used: set[str] = set(explicit)
        for component, step_id in made:
            if step_id is None:  # an unnamed step: its component's name, numbered when taken
                step_id = base = component.name or type(component).__name__
                k = 2
                while step_id in used:
                    step_id, k = f"{base}-{k}", k + 1
                used.add(step_id)
            self.steps.append(Step(component, step_id))
        for i, step in enumerate(self.steps):  # references to earlier steps, checked before any work
            step.component.check_steps(step.id, self.steps[:i])

    def __repr__(self) -> str:
        return f"Pipeline({self.name!r}, steps={[s.id for s in self.steps]})"

    @classmethod
    def from_config(cls, config: str | os.PathLike | Mapping[str, Any]) -> Pipeline:
        """A pipeline from a TOML/JSON file or a mapping (see docs/configuration.md)."""
        return cls.from_spec(parse_config(config))

    @classmethod
    def from_spec(cls, spec: PipelineSpec) -> Pipeline:
        """A pipeline from a parsed config (``perfrigor.config.PipelineSpec``); errors name its source."""
        try:
            return cls(list(spec.steps), name=spec.name, description=spec.description, baseline=spec.baseline,
                       candidate=spec.candidate, input_options=spec.input_options)
        except ConfigError as exc:
            message = str(exc)
            raise ConfigError(message if message.startswith(spec.where) else f"{spec.where}: {message}") from None

    def to_config(self) -> dict[str, Any]:
        """The mapping ``from_config`` reads back."""
        out: dict[str, Any] = {"pipeline": {"name": self.name, "description": self.description}}
        if self.baseline:
            out["pipeline"]["baseline"] = self.baseline
        if self.candidate:
            out["pipeline"]["candidate"] = self.candidate
        out["steps"] = [{"component": s.component.name, "id": s.id, "params": s.component.get_params()}
                        for s in self.steps]
        return out

    # ------------------------------------------------------------------ running
    def _as_suite(self, inputs: Sequence[Any]) -> Suite:
        """The suite ``run(*inputs)`` analyses: the one input path (:func:`perfrigor.inputs.as_suite`),
        reading files with the pipeline's ``input_options``; a Suite is itself."""
        if len(inputs) == 1 and isinstance(inputs[0], Suite):
            return inputs[0]
        return as_suite(*inputs, options=self.input_options)

    def _check_inputs(self, suite: Suite, baseline: str, candidate: str | None) -> None:
        """Refuse, before any work, what no comparison can use: one line naming the file and line.

        Values <= 0 where a step forms a speedup (a comparator whose estimate is a speedup);
        a single comparison with fewer than 2 measurements on a side. Inside a suite a
        too-small benchmark is left to the steps (its verdict says "unclear", the others go on).
        """
        compares = [s for s in self.steps if s.component.kind == "comparator"]
        if candidate is None or not compares:
            return
        if any(getattr(s.component, "estimate_kind", "speedup") == "speedup" for s in compares):
            for bench, systems in suite.data.items():
                for system in (baseline, candidate):
                    sample = systems[system]
                    _refuse(bench, system, sample, sample.flat <= 0,
                            "is not positive{more}; times, rates and scores must be > 0 to form a speedup")
        if len(suite) == 1:
            bench = suite.benchmarks[0]
            for system in (baseline, candidate):
                sample = suite[bench][system]
                if len(sample) < 2:
                    where = sample.source or f"system {system!r}"
                    raise DataError(f"{where}: {len(sample)} measurement; at least 2 per system are needed to "
                                    "tell a change from noise")

    @staticmethod
    def _check_magnitudes(suite: Suite) -> None:
        """Refuse values whose squares overflow floating point (|x| > 1e150), before any work.

        No measurement is that large: such a value is a misread, and every mean, variance
        or likelihood a step forms from it is inf or NaN (an EM that never converges, a
        division by zero). One line naming the file and line, or benchmark and system.
        """
        for bench, systems in suite.data.items():
            for system, sample in systems.items():
                _refuse(bench, system, sample, np.abs(sample.flat) > MAX_MAGNITUDE,
                        f"is too large to compute with{{more}}: beyond ±{MAX_MAGNITUDE:g} sums and squares "
                        "overflow floating point")

    def _systems(self, suite: Suite) -> tuple[str, str | None]:
        systems = list(suite.systems)
        baseline = self.baseline or systems[0]
        candidate = self.candidate or (next((s for s in systems if s != baseline), None))
        for role, name in (("baseline", baseline), ("candidate", candidate)):
            if name is not None and name not in systems:
                raise ConfigError(f"{role} system {name!r} is not in the data{did_you_mean(name, systems)} "
                                  f"(systems: {', '.join(map(repr, systems))})")
        return baseline, candidate

    def _not_compared(self, suite: Suite, baseline: str, candidate: str | None) -> dict[str, str]:
        """The systems no pair step compares (a file of three or more systems), each with why: said, not silent."""
        pairs = [s for s in self.steps if s.component.kind == "comparator"
                 or (s.component.kind == "test" and getattr(s.component, "n_samples", 2) == 2)]
        if candidate is None or not pairs:
            return {}
        many = [s.id for s in pairs if getattr(s.component, "multi_system", False)]
        also = f"; {', '.join(many)} compare{'s' if len(many) == 1 else ''} every system" if many else ""
        return {system: (f"the report compares baseline {baseline} with candidate {candidate}{also}; to compare "
                         f"{system}, name it the candidate (--candidate {system!r}, or Pipeline(candidate=...))")
                for system in suite.systems if system not in (baseline, candidate)}

    def run(self, *inputs: Any, executor: cf.Executor | str | None = None,
            batch_size: int | None = None, timeout: float | None = None, revise: bool = True) -> Report:
        """Run every step on a suite, or on baseline and candidate samples (or file paths).

        ``executor`` runs the per-benchmark work: None (serial, the default), ``"process"`` (a local
        process pool) or any ``concurrent.futures.Executor`` (e.g. a dask ``Client.get_executor()``);
        ``batch_size`` is the benchmarks per task, ``timeout`` the seconds one task may take (without an
        executor, the tasks then run in one worker process, which can be stopped),
        ``revise=False`` skips ``Component.revise`` (see :class:`perfrigor.scheduler.Scheduler`).
        Results depend on none of them. A step that raises DataError on a benchmark is recorded in
        ``report.errors`` and the later steps still run; only when no step produces anything is the
        DataError raised. Other exceptions are bugs: they propagate, noting the step and benchmark.
        """
        scheduler = Scheduler(executor, batch_size, timeout, revise)
        if not inputs:
            raise DataError("nothing to analyse: give a suite or baseline and candidate samples")
        suite = self._as_suite(inputs)
        baseline, candidate = self._systems(suite)
        self._check_magnitudes(suite)
        self._check_inputs(suite, baseline, candidate)
        outcome = scheduler.run(self.steps, suite, baseline, candidate)
        outcome.require_something(single=len(suite) == 1)
        return self._report(suite, baseline, candidate, outcome)

    def _report(self, suite: Suite, baseline: str, candidate: str | None, outcome: Outcome) -> Report:
        """The run's Report: every result, and how each step's results are read (its StepInfo)."""
        return Report(
            pipeline=self.name,
            steps=[StepInfo(s.id, s.component.name, s.component.kind, s.component.scope, s.component.get_params(),
                            estimate_kind=getattr(s.component, "estimate_kind", None),
                            one_sided=bool(getattr(s.component, "one_sided", False)))
                   for s in self.steps],
            baseline=baseline,
            candidate=candidate,
            inputs=suite.summary(),
            benchmark_results=outcome.per_benchmark,
            suite_results=outcome.suite_results,
            errors=outcome.errors,
            source=suite.source,
            skipped=outcome.skipped,
            only_in=dict(suite.only_in),
            excluded=dict(suite.excluded),
            data=suite,
            not_compared=self._not_compared(suite, baseline, candidate),
        )


def pipeline(name: str) -> Pipeline:
    """The preset pipeline registered as ``name``."""
    return Pipeline.from_config(get_registry().preset(name))
