"""Pipeline: an ordered list of steps run on a suite, producing a Report.

Per-benchmark steps run on every benchmark (through any
``concurrent.futures.Executor``), suite steps run once; every step sees the
results of the steps before it. Consecutive per-benchmark steps form a stage,
sent as tasks of a batch of benchmarks each, in which every step may first
prepare the whole batch (``Component.prepare``) and share what it computes
through the task's ``Workspace``. Results depend neither on the executor nor on
the batching (numpy Generator seeds are split per benchmark before tasks leave).
A DataError of a step is recorded in ``report.errors``, never dropped.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import inspect
import os
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from . import progress
from .component import BenchmarkJob, Component, Previous, build
from .config import PipelineSpec, parse_config
from .data import Sample, Suite
from .errors import ConfigError, DataError, ExecutionError, did_you_mean
from .executors import stop_pool
from .inputs import as_suite
from .keys import PairKey
from .records import StepError, StepSkip
from .registry import get_registry
from .report import Report, StepInfo
from .results import Result
from .workspace import Workspace


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
        step_id = spec.pop("id", None)
        if step_id is not None and (not isinstance(step_id, str) or not step_id.strip()):
            raise ConfigError(f"step {position} ({name}): id must be a non-empty string, got {step_id!r}")
        params = spec.pop("params", {}) or {}
        if not isinstance(params, Mapping):
            raise ConfigError(f"step {position} ({name}): params must be a table, got {params!r}")
        params = dict(params)
        overlap = set(params) & set(spec)
        if overlap:
            raise ConfigError(f"step {position} ({name}): parameter(s) {sorted(overlap)} given twice")
        params.update(spec)
        cls = get_registry().component_class(name)
        try:
            return build(cls, params), step_id
        except ConfigError as exc:  # name the step when its id is not the component's name
            if step_id is None or step_id == name:
                raise
            raise ConfigError(f"step {step_id!r}: {exc}") from None
    raise ConfigError(f"step {position}: expected a component, a name or a mapping, got {spec!r}")


PerBenchmark = dict[str, dict[str, Result]]  # {step_id: {key: result}} of one benchmark


def _check_levels(component: Component, samples: Mapping[str, Sample]) -> None:
    """DataError when a sample has fewer levels than the component needs (e.g. flat data for lme-style methods)."""
    for system, sample in samples.items():
        if sample.n_levels < component.min_levels:
            raise DataError(f"{component.name} needs hierarchical data with at least {component.min_levels} levels; "
                            f"system {system!r} has {sample.n_levels} ({', '.join(sample.levels or ())})")


def _run_step(step_id: str, job: BenchmarkJob) -> dict[str, Result]:
    """One step on one benchmark; DataError propagates, other exceptions get a note naming both."""
    try:
        out = job.component.run_benchmark(job.samples, job.baseline, job.candidate, job.previous)
    except DataError:
        raise
    except Exception as exc:
        exc.add_note(f"perfrigor: in step {step_id!r} ({job.component.name}) on benchmark {job.benchmark!r}")
        raise
    if not isinstance(out, Mapping) or not all(isinstance(r, Result) for r in out.values()):
        raise TypeError(f"step {step_id!r}: {type(job.component).__name__}.run_benchmark must return "
                        f"{{key: pr.Result}}, got {out!r:.200}")
    return {k if isinstance(k, PairKey) else str(k): r for k, r in out.items()}


def _prepare(step_id: str, jobs: Sequence[BenchmarkJob]) -> None:
    """``Component.prepare`` of each component class among ``jobs``, with its jobs.

    A DataError there is left for ``run_benchmark`` to report on the benchmark it concerns.
    """
    by_class: dict[type, list[BenchmarkJob]] = {}
    for job in jobs:
        by_class.setdefault(type(job.component), []).append(job)
    for cls, group in by_class.items():
        try:
            cls.prepare(group)
        except DataError:
            continue
        except Exception as exc:
            exc.add_note(f"perfrigor: in step {step_id!r} ({cls.name}), preparing {len(group)} benchmark(s)")
            raise


def _run_batch(steps: Sequence[tuple[str, Sequence[Component]]], benchmarks: Sequence[str],
               samples: Sequence[Mapping[str, Sample]], baseline: str, candidate: str | None,
               previous: Sequence[Previous]) -> list[tuple[PerBenchmark, list[tuple[str, str]]]]:
    """Module-level (picklable) task: consecutive per-benchmark steps on a batch of benchmarks.

    ``steps`` pairs each step id with its component for every benchmark of the batch. Steps
    run one after the other over the whole batch, each first given the chance to prepare
    work shared by the batch (``Component.prepare``), inside one Workspace that lives as
    long as the task. Returns, per benchmark, the new results ``{step_id: {key: result}}``
    and the ``(step_id, message)`` of steps that raised DataError (later steps still run
    and see what is there). Results do not depend on how benchmarks are batched.
    """
    seen = [Previous(p) for p in previous]
    new: list[PerBenchmark] = [{} for _ in benchmarks]
    errors: list[list[tuple[str, str]]] = [[] for _ in benchmarks]
    with Workspace():
        for step_id, components in steps:
            jobs: list[tuple[int, BenchmarkJob]] = []
            for i, (bench, component) in enumerate(zip(benchmarks, components, strict=True)):
                try:
                    _check_levels(component, samples[i])
                except DataError as exc:
                    errors[i].append((step_id, str(exc)))
                    continue
                jobs.append((i, BenchmarkJob(bench, component, samples[i], baseline, candidate, seen[i])))
            _prepare(step_id, [job for _, job in jobs])
            for i, job in jobs:
                try:
                    out = _run_step(step_id, job)
                except DataError as exc:
                    errors[i].append((step_id, str(exc)))
                    continue
                new[i][step_id] = seen[i][step_id] = out
    return list(zip(new, errors, strict=True))


#: the largest magnitude a measurement may have: the square of a larger one overflows a float
MAX_MAGNITUDE = 1e150
#: benchmarks per task: in the calling process, large batches amortise numpy's per-call cost
#: (one batched fit of many samples); with a pool, about 8 tasks per stage spread the load
SERIAL_BATCH = 256
#: tasks submitted and not yet collected: bounds the memory a large suite holds in flight
IN_FLIGHT = max(4, 2 * (os.cpu_count() or 1))
POOL_BATCH = 64
POOL_TASKS = 8


def _batch_size(n: int, in_process: bool, batch_size: int | None) -> int:
    if batch_size is not None:
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ConfigError(f"batch_size must be a positive integer, got {batch_size!r}")
        return batch_size
    if in_process:
        return SERIAL_BATCH
    return max(1, min(POOL_BATCH, -(-n // POOL_TASKS)))


def _stages(steps: Sequence[Step]) -> list[list[Step]]:
    """Group consecutive steps of the same scope: per-benchmark runs are one task per benchmark."""
    stages: list[list[Step]] = []
    for step in steps:
        if stages and step.scope == "benchmark" and stages[-1][-1].scope == "benchmark":
            stages[-1].append(step)
        else:
            stages.append([step])
    return stages


def _seeded(component: Component, n: int) -> list[Component]:
    """Per-benchmark copies of a component whose ``random_state`` is a numpy Generator.

    Seeds are drawn from the Generator once, in benchmark order, in the calling process:
    results are then the same whichever executor runs the benchmarks (a Generator shipped
    to worker processes would be copied, not shared). Int and None states are left alone.
    """
    state = getattr(component, "random_state", None)
    if not isinstance(state, np.random.Generator) or "random_state" not in component.param_names():
        return [component] * n
    seeds = state.integers(0, 2**63 - 1, size=n)
    return [component.with_params(random_state=int(seed)) for seed in seeds]


def _make_executor(executor: cf.Executor | str | None) -> tuple[cf.Executor, bool]:
    """(executor, owned): None or "serial" runs in the calling thread; "process" uses a local process pool."""
    if executor is None or executor == "serial":
        return _SerialExecutor(), True
    if executor == "process":
        return cf.ProcessPoolExecutor(max_workers=os.cpu_count() or 1, initializer=progress.silence), True
    if isinstance(executor, cf.Executor):
        return executor, False
    raise ConfigError(f"executor must be a concurrent.futures.Executor, 'serial' or 'process', got {executor!r}")



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
        """The one input path (:func:`perfrigor.inputs.as_suite`), reading files with ``input_options``."""
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

        ``executor`` runs the per-benchmark work: None (serial, the default), ``"process"``
        (a local process pool), or any ``concurrent.futures.Executor`` (e.g. a dask
        ``Client.get_executor()``). Results depend neither on it nor on ``batch_size``, the
        benchmarks per task (default: 256 in the calling process, else about an eighth of
        the suite, at most 64), whose work a step may prepare at once (``Component.prepare``).
        A step that raises DataError on a benchmark (or on the suite) is recorded in
        ``report.errors`` and the later steps still run; only when no step produces anything
        is the DataError raised. Other exceptions are bugs: they propagate, noting the step
        and benchmark. ``timeout``: seconds to wait for one task (a batch of benchmarks) of a
        pool before giving up; a task past it, or a worker process that dies, raises
        ExecutionError (a one-line message) instead of hanging or surfacing the pool's error.
        ``revise=False`` keeps every benchmark's results as if it had been run alone (no
        ``Component.revise``, e.g. no multiple-testing adjustment over the suite): for
        simulations whose benchmarks are independent replicates of one experiment.
        """
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                    or not timeout > 0):
            raise ConfigError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
        if not inputs:
            raise DataError("nothing to analyse: give a suite or baseline and candidate samples")
        suite = inputs[0] if len(inputs) == 1 and isinstance(inputs[0], Suite) else self._as_suite(inputs)
        baseline, candidate = self._systems(suite)
        single = len(suite) == 1
        self._check_magnitudes(suite)
        self._check_inputs(suite, baseline, candidate)
        benchmarks = suite.benchmarks
        per_bench: dict[str, PerBenchmark] = {b: {} for b in benchmarks}
        suite_results: dict[str, Result] = {}
        errors: list[StepError] = []
        skipped: list[StepSkip] = []

        def failed(step_id: str, bench: str, message: str) -> None:
            errors.append(StepError(step_id, bench, message))

        components = {s.id: s.component.name for s in self.steps}
        size = _batch_size(len(benchmarks), executor is None or executor == "serial", batch_size)
        pool, owned = _make_executor(executor)
        try:
            for stage in _stages(self.steps):
                if stage[0].scope == "suite":
                    step = stage[0]
                    needed = step.component.min_benchmarks
                    if len(suite) < needed:
                        skipped.append(StepSkip(step.id, f"a suite method: it needs at least {needed} "
                                                         f"benchmarks, the input has {len(suite)}"))
                        continue
                    previous = {"benchmarks": per_bench, "suite": Previous(suite_results, components),
                                "components": components}
                    try:
                        result = step.component.run_suite(suite, baseline, candidate, previous)
                    except DataError as exc:
                        failed(step.id, "(suite)", str(exc))
                        continue
                    except Exception as exc:
                        exc.add_note(f"perfrigor: in suite step {step.id!r} ({step.component.name})")
                        raise
                    if not isinstance(result, Result):
                        raise TypeError(f"step {step.id!r}: {type(step.component).__name__}.run_suite must return "
                                        f"a pr.Result, got {result!r:.200}")
                    suite_results[step.id] = result
                    continue
                copies = {s.id: _seeded(s.component, len(benchmarks)) for s in stage}
                # for_benchmark: a component may honour the benchmark's own settings (info)
                runs = {s.id: [copies[s.id][i].for_benchmark(suite.info.get(b)) for i, b in enumerate(benchmarks)]
                        for s in stage}

                def submit(lo: int, hi: int, stage: list[Step] = stage, runs: dict = runs) -> cf.Future:
                    names = benchmarks[lo:hi]
                    return pool.submit(_run_batch, [(s.id, runs[s.id][lo:hi]) for s in stage], names,
                                       [suite[b] for b in names], baseline, candidate,
                                       [Previous(per_bench[b], components) for b in names])

                step_errors: dict[str, list[tuple[str, str]]] = {s.id: [] for s in stage}

                def collect(lo: int, hi: int, fut: cf.Future, advance: Any,
                            step_errors: dict = step_errors, stage: list[Step] = stage) -> None:
                    for b, (new, errs) in zip(benchmarks[lo:hi], _outcome(fut, timeout, stage, benchmarks[lo:hi]),
                                              strict=True):
                        per_bench[b].update(new)
                        for step_id, message in errs:
                            step_errors[step_id].append((b, message))
                    advance(hi - lo)

                label = ", ".join(s.id for s in stage)
                bar = (progress.task(len(benchmarks), f"{label} ({len(benchmarks)} benchmarks)") if not single
                       else contextlib.nullcontext(lambda n=1: None))  # one benchmark: its steps' own bars
                # in the calling thread a task runs inside submit(): collect it at once, so the bar moves
                in_flight = 1 if isinstance(pool, _SerialExecutor) else IN_FLIGHT
                with bar as advance:
                    pending: collections.deque = collections.deque()  # tasks in flight, bounded: memory
                    for lo in range(0, len(benchmarks), size):
                        hi = min(lo + size, len(benchmarks))
                        pending.append((lo, hi, submit(lo, hi)))
                        if len(pending) >= in_flight:
                            collect(*pending.popleft(), advance)
                    while pending:
                        collect(*pending.popleft(), advance)
                for step in stage:  # errors and summaries in step order, benchmarks in suite order
                    for b, message in step_errors[step.id]:
                        failed(step.id, b, message)
                    done = {b: per_bench[b][step.id] for b in benchmarks if step.id in per_bench[b]}
                    try:  # e.g. the verdict's multiple-testing adjustment over the suite
                        revised = step.component.revise(suite, done) if done and revise else None
                    except DataError as exc:
                        failed(step.id, "(suite)", f"revise: {exc}")
                        revised = None
                    for b, results in (revised or {}).items():
                        if b not in done:
                            raise TypeError(f"step {step.id!r}: revise returned results for benchmark {b!r}, "
                                            "which it was not given")
                        per_bench[b][step.id] = dict(results)
                    done = {b: per_bench[b][step.id] for b in done}
                    try:
                        summary = _summarize(step.component, suite, done, Previous(suite_results, components))
                    except DataError as exc:
                        failed(step.id, "(suite)", f"summary: {exc}")
                        continue
                    if summary is not None:
                        suite_results[step.id] = summary
        except BaseException:
            if owned:  # do not wait for tasks still running (a timeout, an interrupt)
                stop_pool(pool)
            raise
        else:
            if owned:
                pool.shutdown()
        if errors and not suite_results and not any(per_bench.values()):
            # nothing at all could be computed: the input is unusable for this pipeline, say why
            first = errors[0]
            where = "" if single else f" on benchmark {first.benchmark!r}"
            more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
            raise DataError(f"{first.step}{where}: {first.message}{more}")
        return Report(
            pipeline=self.name,
            steps=[StepInfo(s.id, s.component.name, s.component.kind, s.component.scope, s.component.get_params(),
                            estimate_kind=getattr(s.component, "estimate_kind", None),
                            one_sided=bool(getattr(s.component, "one_sided", False)))
                   for s in self.steps],
            baseline=baseline,
            candidate=candidate,
            inputs=suite.summary(),
            benchmark_results=per_bench,
            suite_results=suite_results,
            errors=errors,
            source=suite.source,
            skipped=skipped,
            only_in=dict(suite.only_in),
            excluded=dict(suite.excluded),
            data=suite,
            not_compared=self._not_compared(suite, baseline, candidate),
        )


def _outcome(fut: cf.Future, timeout: float | None, stage: Sequence[Step], names: Sequence[str]) -> Any:
    """A task's result; a timeout or a dead worker as an ExecutionError naming the steps and benchmarks."""
    steps = ", ".join(s.id for s in stage)
    which = f"{names[0]!r}" if len(names) == 1 else f"{names[0]!r} … {names[-1]!r} ({len(names)} benchmarks)"
    try:
        return fut.result(timeout=timeout)
    except cf.TimeoutError:
        raise ExecutionError(f"step(s) {steps} on {which}: no result within the timeout of {timeout:g} s; "
                             "give a longer one (--timeout) or check the workers") from None
    except cf.BrokenExecutor as exc:
        raise ExecutionError(f"step(s) {steps} on {which}: a worker process died ({type(exc).__name__}: killed, "
                             "or out of memory?); rerun with fewer --jobs, or without") from None


def _summarize(component: Component, suite: Suite, done: Mapping[str, Mapping[str, Result]],
               previous: Previous) -> Result | None:
    """``component.summarize``, passing the earlier suite results when its signature takes them."""
    try:
        takes_previous = "previous" in inspect.signature(component.summarize).parameters
    except (TypeError, ValueError):  # builtins or C callables: call the plain form
        takes_previous = False
    return component.summarize(suite, done, previous) if takes_previous else component.summarize(suite, done)


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
    return Pipeline.from_config(get_registry().preset(name))
