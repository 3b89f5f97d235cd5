"""The run engine: a pipeline's steps over a suite, stage by stage, through an executor.

Consecutive per-benchmark steps form a stage, sent as tasks of a batch of benchmarks each
(at most ``IN_FLIGHT`` tasks in transit, so a large suite holds a bounded amount in
memory). In a task every step may first prepare the whole batch (``Component.prepare``)
and share what it computes through the task's ``Workspace``; after the stage, each step's
results may be revised in the light of the suite (``Component.revise``) and summarized
(``Component.summarize``). A suite step is a stage of its own, run once in the calling
process. Results depend neither on the executor nor on the batching: numpy Generator
seeds are split per benchmark before tasks leave. A DataError of a step is recorded as a
``StepError``, never dropped; other exceptions propagate with a note naming step and
benchmark. The executor is any ``concurrent.futures.Executor``; one the scheduler makes
("process") it also stops, at once, when the run fails or is interrupted.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import inspect
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs
import numpy as np

from . import progress
from .component import BenchmarkJob, Component, Previous
from .data import Sample, Suite
from .errors import ConfigError, DataError, ExecutionError
from .executors import cpu_count, process_pool, stop_pool
from .keys import PairKey
from .records import StepError, StepSkip
from .results import Result
from .workspace import Workspace

#: benchmarks per task: in the calling process, large batches amortise numpy's per-call cost
#: (one batched fit of many samples); with a pool, about 8 tasks per stage spread the load
SERIAL_BATCH = 256
POOL_BATCH = 64
POOL_TASKS = 8
#: tasks submitted and not yet collected: bounds the memory a large suite holds in flight
IN_FLIGHT = max(4, 2 * (os.cpu_count() or 1))

PerBenchmark = dict[str, dict[str, Result]]  # {step_id: {key: result}} of one benchmark


@attrs.define
class Outcome:
    """What a run produced: results per benchmark and per suite step, and what failed or was skipped."""

    per_benchmark: dict[str, PerBenchmark]
    suite_results: dict[str, Result] = attrs.field(factory=dict)
    errors: list[StepError] = attrs.field(factory=list)
    skipped: list[StepSkip] = attrs.field(factory=list)

    def failed(self, step_id: str, benchmark: str, message: str) -> None:
        self.errors.append(StepError(step_id, benchmark, message))

    def require_something(self, single: bool) -> None:
        """When nothing at all could be computed the input is unusable for this pipeline: say why."""
        if self.errors and not self.suite_results and not any(self.per_benchmark.values()):
            first = self.errors[0]
            where = "" if single else f" on benchmark {first.benchmark!r}"
            more = f" (and {len(self.errors) - 1} more error(s))" if len(self.errors) > 1 else ""
            raise DataError(f"{first.step}{where}: {first.message}{more}")


def stages(steps: Sequence[Any]) -> list[list[Any]]:
    """Group consecutive steps of the same scope: per-benchmark runs are one task per batch."""
    out: list[list[Any]] = []
    for step in steps:
        if out and step.scope == "benchmark" and out[-1][-1].scope == "benchmark":
            out[-1].append(step)
        else:
            out.append([step])
    return out


class Scheduler:
    """Runs a pipeline's steps (``.id``, ``.component``, ``.scope``) over a suite.

    ``executor``: None or "serial" (the calling thread), "process" (a local process pool, one
    worker per CPU and at most one per benchmark) or any ``concurrent.futures.Executor``.
    ``batch_size``: benchmarks per task (default 256 in the calling process, else about an
    eighth of the suite, at most 64). ``timeout``: seconds to wait for one task; a task past
    it, or a dead worker, is an ExecutionError (with no executor the tasks then run in one
    worker process, which can be stopped, as ``perfrigor --timeout`` without ``--jobs``;
    "serial" and a timeout are refused). ``revise=False`` skips
    ``Component.revise`` (benchmarks that are independent replicates of one experiment).
    """

    def __init__(self, executor: cf.Executor | str | None = None, batch_size: int | None = None,
                 timeout: float | None = None, revise: bool = True) -> None:
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                    or not timeout > 0):
            raise ConfigError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
        if batch_size is not None and (isinstance(batch_size, bool) or not isinstance(batch_size, int)
                                       or batch_size < 1):
            raise ConfigError(f"batch_size must be a positive integer, got {batch_size!r}")
        if not (executor is None or executor in ("serial", "process") or isinstance(executor, cf.Executor)):
            raise ConfigError(f"executor must be a concurrent.futures.Executor, 'serial' or 'process', "
                              f"got {executor!r}")
        if timeout is not None and timeout >= threading.TIMEOUT_MAX:  # beyond any wait (1e308, inf): no limit
            timeout = None
        if executor == "serial" and timeout is not None:
            raise ConfigError("a timeout needs tasks that can be stopped, and executor='serial' runs them in the "
                              "calling thread: leave the executor out (one worker process) or give 'process'")
        self.executor, self.batch_size, self.timeout, self.revise = executor, batch_size, timeout, revise

    def run(self, steps: Sequence[Any], suite: Suite, baseline: str, candidate: str | None) -> Outcome:
        """Every step on ``suite``, stage by stage; the pool (if the scheduler made one) lives as long."""
        run = _Run(self, suite, baseline, candidate, {s.id: s.component.name for s in steps})
        with self._pool(len(suite)) as pool:
            for stage in stages(steps):
                if stage[0].scope == "suite":
                    run.suite_step(stage[0])
                else:
                    run.stage(stage, pool)
        return run.outcome

    @contextlib.contextmanager
    def _pool(self, n_benchmarks: int) -> Iterator[cf.Executor]:
        """The executor for one run: one the scheduler makes is shut down after it, stopped at once
        (queued tasks cancelled, workers terminated) when the run fails or is interrupted."""
        if isinstance(self.executor, cf.Executor):
            yield self.executor
            return
        if self.executor == "process":
            pool: cf.Executor = process_pool(min(cpu_count(), n_benchmarks))
        elif self.timeout is not None:  # a task in the calling thread cannot be stopped: one worker process can
            pool = process_pool(1)
        else:
            pool = _SerialExecutor()
        try:
            yield pool
        except BaseException:
            stop_pool(pool)
            raise
        pool.shutdown()

    def batch_size_for(self, n: int, pool: cf.Executor) -> int:
        if self.batch_size is not None:
            return self.batch_size
        if isinstance(pool, _SerialExecutor):
            return SERIAL_BATCH
        return max(1, min(POOL_BATCH, -(-n // POOL_TASKS)))


class _Run:
    """One run's state: the suite, the systems compared, and the outcome growing stage by stage."""

    def __init__(self, scheduler: Scheduler, suite: Suite, baseline: str, candidate: str | None,
                 components: Mapping[str, str]) -> None:
        self.scheduler, self.suite, self.baseline, self.candidate = scheduler, suite, baseline, candidate
        self.components = dict(components)  # step id -> component name, for Previous.find
        self.outcome = Outcome({b: {} for b in suite.benchmarks})

    def previous_suite(self) -> Previous:
        return Previous(self.outcome.suite_results, self.components)

    # -- a suite step
    def suite_step(self, step: Any) -> None:
        needed = step.component.min_benchmarks
        if len(self.suite) < needed:
            self.outcome.skipped.append(StepSkip(step.id, f"a suite method: it needs at least {needed} "
                                                          f"benchmarks, the input has {len(self.suite)}"))
            return
        previous = {"benchmarks": self.outcome.per_benchmark, "suite": self.previous_suite(),
                    "components": self.components}
        try:
            result = step.component.run_suite(self.suite, self.baseline, self.candidate, previous)
        except DataError as exc:
            self.outcome.failed(step.id, "(suite)", str(exc))
            return
        except Exception as exc:
            exc.add_note(f"perfrigor: in suite step {step.id!r} ({step.component.name})")
            raise
        if not isinstance(result, Result):
            raise TypeError(f"step {step.id!r}: {type(step.component).__name__}.run_suite must return "
                            f"a pr.Result, got {result!r:.200}")
        self.outcome.suite_results[step.id] = result

    # -- a stage of per-benchmark steps
    def stage(self, stage: Sequence[Any], pool: cf.Executor) -> None:
        """The stage's tasks, at most IN_FLIGHT in transit; then each step's errors, revision and summary."""
        benchmarks = self.suite.benchmarks
        size = self.scheduler.batch_size_for(len(benchmarks), pool)
        # for_benchmark: a component may honour the benchmark's own settings (info)
        runs = {s.id: [c.for_benchmark(self.suite.info.get(b)) for c, b in
                       zip(_seeded(s.component, len(benchmarks)), benchmarks, strict=True)] for s in stage}
        errors: dict[str, list[tuple[str, str]]] = {s.id: [] for s in stage}
        label = ", ".join(s.id for s in stage)
        bar = (progress.task(len(benchmarks), f"{label} ({len(benchmarks)} benchmarks)") if len(benchmarks) > 1
               else contextlib.nullcontext(lambda n=1: None))  # one benchmark: its steps' own bars
        # in the calling thread a task runs inside submit(): collect it at once, so the bar moves
        in_flight = 1 if isinstance(pool, _SerialExecutor) else IN_FLIGHT
        with bar as advance:
            pending: collections.deque = collections.deque()
            for lo in range(0, len(benchmarks), size):
                names = benchmarks[lo:lo + size]
                pending.append((names, pool.submit(
                    _run_batch, [(s.id, runs[s.id][lo:lo + size]) for s in stage], names,
                    [self.suite[b] for b in names], self.baseline, self.candidate,
                    [Previous(self.outcome.per_benchmark[b], self.components) for b in names])))
                if len(pending) >= in_flight:
                    self.collect(*pending.popleft(), stage, errors, advance)
            while pending:
                self.collect(*pending.popleft(), stage, errors, advance)
        for step in stage:  # errors and summaries in step order, benchmarks in suite order
            for bench, message in errors[step.id]:
                self.outcome.failed(step.id, bench, message)
            self.finish(step)

    def collect(self, names: Sequence[str], fut: cf.Future, stage: Sequence[Any],
                errors: dict[str, list[tuple[str, str]]], advance: Any) -> None:
        for bench, (new, errs) in zip(names, _outcome(fut, self.scheduler.timeout, stage, names), strict=True):
            self.outcome.per_benchmark[bench].update(new)
            for step_id, message in errs:
                errors[step_id].append((bench, message))
        advance(len(names))

    def finish(self, step: Any) -> None:
        """A step's results revised over the suite (e.g. a multiple-testing adjustment), then summarized."""
        per_bench = self.outcome.per_benchmark
        done = {b: per_bench[b][step.id] for b in self.suite.benchmarks if step.id in per_bench[b]}
        try:
            revised = step.component.revise(self.suite, done) if done and self.scheduler.revise else None
        except DataError as exc:
            self.outcome.failed(step.id, "(suite)", f"revise: {exc}")
            revised = None
        for bench, results in (revised or {}).items():
            if bench not in done:
                raise TypeError(f"step {step.id!r}: revise returned results for benchmark {bench!r}, "
                                "which it was not given")
            per_bench[bench][step.id] = dict(results)
        done = {b: per_bench[b][step.id] for b in done}
        try:
            summary = _summarize(step.component, self.suite, done, self.previous_suite())
        except DataError as exc:
            self.outcome.failed(step.id, "(suite)", f"summary: {exc}")
            return
        if summary is not None:
            self.outcome.suite_results[step.id] = summary


# ---------------------------------------------------------------- the task, in a worker


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


# ---------------------------------------------------------------- helpers


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


def _outcome(fut: cf.Future, timeout: float | None, stage: Sequence[Any], names: Sequence[str]) -> Any:
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
