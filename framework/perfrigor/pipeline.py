"""Pipeline: an ordered list of steps run on a suite, producing a Report.

Per-benchmark steps run on every benchmark (through any
``concurrent.futures.Executor``), suite steps run once; every step sees the
results of the steps before it. Results do not depend on the executor.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from .components import Component, build
from .data import Sample, Suite
from .errors import ConfigError, DataError
from .report import Report, StepInfo
from .results import Result


@attrs.frozen
class Step:
    """One component in a pipeline, with the id under which its results are stored."""

    component: Component
    id: str

    @property
    def scope(self) -> str:
        return self.component.scope


def _make_step(spec: Any, position: int) -> tuple[Component, str | None]:
    from .registry import get_registry

    if isinstance(spec, Step):
        return spec.component, spec.id
    if isinstance(spec, Component):
        return spec, None
    if isinstance(spec, str):
        return build(get_registry().component_class(spec), {}), None
    if isinstance(spec, Mapping):
        spec = dict(spec)
        name = spec.pop("component", None)
        if not isinstance(name, str):
            raise ConfigError(f"step {position}: needs a 'component' name, got {spec!r}")
        step_id = spec.pop("id", None)
        params = dict(spec.pop("params", {}) or {})
        overlap = set(params) & set(spec)
        if overlap:
            raise ConfigError(f"step {position} ({name}): parameter(s) {sorted(overlap)} given twice")
        params.update(spec)
        return build(get_registry().component_class(name), params), step_id
    raise ConfigError(f"step {position}: expected a component, a name or a mapping, got {spec!r}")


def _run_benchmark_step(component: Component, samples: Mapping[str, Sample], baseline: str,
                        candidate: str | None, previous: Mapping[str, Mapping[str, Result]]
                        ) -> tuple[dict[str, Result] | None, str | None]:
    """Module-level (picklable) task: one step on one benchmark; a DataError becomes a message."""
    try:
        return component.run_benchmark(samples, baseline, candidate, previous), None
    except DataError as exc:
        return None, str(exc)


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
        used: set[str] = set()
        for i, spec in enumerate(steps, 1):
            component, step_id = _make_step(spec, i)
            step_id = step_id or component.name or type(component).__name__
            if step_id in used:
                base, k = step_id, 2
                while f"{base}-{k}" in used:
                    k += 1
                step_id = f"{base}-{k}"
            used.add(step_id)
            self.steps.append(Step(component, step_id))

    def __repr__(self) -> str:
        return f"Pipeline({self.name!r}, steps={[s.id for s in self.steps]})"

    @classmethod
    def from_config(cls, config: str | os.PathLike | Mapping[str, Any]) -> Pipeline:
        """A pipeline from a TOML/JSON file or a mapping (see docs/configuration.md)."""
        from .config import pipeline_from_config

        return pipeline_from_config(config)

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
        from .readers import read

        def load(obj: Any) -> Any:
            if isinstance(obj, str | os.PathLike):
                return read(obj, **self.input_options)
            return obj

        items = [load(o) for o in inputs]
        if len(items) == 1 and isinstance(items[0], Suite):
            return items[0]
        if len(items) == 1 and isinstance(items[0], Mapping):
            return Suite(items[0])
        if len(items) == 2 and all(isinstance(i, Mapping) and not isinstance(i, Suite) for i in items):
            return Suite.from_pairs(items[0], items[1])
        if len(items) == 2 and not any(isinstance(i, Suite) for i in items):
            names = tuple(self._label(o, d) for o, d in zip(inputs, ("baseline", "candidate"), strict=True))
            if names[0] == names[1]:
                names = ("baseline", "candidate")
            return Suite({"benchmark": {names[0]: items[0], names[1]: items[1]}}, systems=names)
        if len(items) == 1 and not isinstance(items[0], Suite):
            return Suite({"benchmark": {"sample": items[0]}})
        if len(items) > 2 and not any(isinstance(i, Suite | Mapping) for i in items):
            names = [self._label(o, f"system{i + 1}") for i, o in enumerate(inputs)]
            if len(set(names)) != len(names):
                names = [f"system{i + 1}" for i in range(len(items))]
            return Suite({"benchmark": dict(zip(names, items, strict=True))}, systems=tuple(names))
        raise DataError("pipeline input: give a suite, one sample, or baseline and candidate samples")

    @staticmethod
    def _label(obj: Any, default: str) -> str:
        if isinstance(obj, str | os.PathLike):
            return Path(obj).name
        if isinstance(obj, Sample) and obj.name:
            return obj.name
        return default

    def _systems(self, suite: Suite) -> tuple[str, str | None]:
        systems = list(suite.systems)
        baseline = self.baseline or systems[0]
        candidate = self.candidate or (next((s for s in systems if s != baseline), None))
        for role, name in (("baseline", baseline), ("candidate", candidate)):
            if name is not None and name not in systems:
                raise ConfigError(f"{role} system {name!r} is not in the data (systems: {systems})")
        return baseline, candidate

    def run(self, *inputs: Any, executor: cf.Executor | None = None) -> Report:
        """Run every step on a suite, or on baseline and candidate samples (or file paths)."""
        if not inputs:
            raise DataError("nothing to analyse: give a suite or baseline and candidate samples")
        suite = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], Suite) else self._as_suite(inputs)
        baseline, candidate = self._systems(suite)
        single = len(suite) == 1
        per_bench: dict[str, dict[str, dict[str, Result]]] = {b: {} for b in suite.benchmarks}
        suite_results: dict[str, Result] = {}
        errors: list[dict[str, str]] = []
        own_executor = executor is None
        executor = executor or _SerialExecutor()
        try:
            for step in self.steps:
                comp = step.component
                if comp.scope == "suite":
                    previous = {"benchmarks": per_bench, "suite": dict(suite_results)}
                    try:
                        suite_results[step.id] = comp.run_suite(suite, baseline, candidate, previous)
                    except DataError as exc:
                        if single:
                            raise
                        errors.append({"step": step.id, "benchmark": "(suite)", "message": str(exc)})
                    continue
                futures = {
                    b: executor.submit(_run_benchmark_step, comp, suite[b], baseline, candidate, per_bench[b])
                    for b in suite.benchmarks
                }
                step_results: dict[str, dict[str, Result]] = {}
                for b, fut in futures.items():
                    res, err = fut.result()
                    if err is not None:
                        if single:
                            raise DataError(f"{step.id}: {err}")
                        errors.append({"step": step.id, "benchmark": b, "message": err})
                        continue
                    per_bench[b][step.id] = res
                    step_results[b] = res
                summary = comp.summarize(suite, step_results)
                if summary is not None:
                    suite_results[step.id] = summary
        finally:
            if own_executor:
                executor.shutdown()
        return Report(
            pipeline=self.name,
            steps=[StepInfo(s.id, s.component.name, s.component.kind, s.component.scope, s.component.get_params())
                   for s in self.steps],
            baseline=baseline,
            candidate=candidate,
            inputs=suite.summary(),
            benchmark_results=per_bench,
            suite_results=suite_results,
            errors=errors,
            source=suite.source,
        )


class _SerialExecutor(cf.Executor):
    """Runs each task at once, in the calling thread (the default executor)."""

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        fut: cf.Future = cf.Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - re-raised by fut.result()
            fut.set_exception(exc)
        return fut


def pipeline(name: str) -> Pipeline:
    """The preset pipeline registered as ``name``."""
    from .registry import get_registry

    return Pipeline.from_config(get_registry().preset(name))
