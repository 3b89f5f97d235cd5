"""The measuring loop: rounds in a fresh seeded random order, recorded as they go, stopped by the rule.

:func:`measure` runs a :class:`~.plan.Plan` with an executor (real processes by default, or
:class:`~.simulation.SimulatedExecutor`) and returns a :class:`Measurement`: the runs as a
``pr.Suite``, how many rounds ran and why they stopped, the machine, the warnings, and the
report (the analysis pipeline with the sequential verdict last).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from . import sequential as seq
from .component import SequentialVerdict
from .environment import environment, load_average, noise_warnings
from .executors import Executor, ProcessExecutor, RunResult
from .plan import MeasuredCommand, Plan
from .recording import Row, RunsFile


class RunFailed(pr.DataError):
    """A command exited with a non-zero code (and ``ignore_failure`` was not given)."""


@attrs.frozen
class Progress:
    """Where a measurement stands after a round: what a live progress line shows."""

    rounds: int
    limit: int
    elapsed: float
    #: seconds left at most (until ``max_runs`` or ``max_time``)
    remaining: float
    #: the first candidate's speedup and its anytime-valid interval (None before it has one)
    speedup: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    #: candidates decided so far, of how many
    decided: int = 0
    candidates: int = 1

    def line(self) -> str:
        """``round 12/200 · ≤ 3 min left · speedup 1.08 (1.04 to 1.12)``."""
        parts = [f"round {self.rounds}/{self.limit}", f"≤ {pr.progress.duration(self.remaining)} left"]
        if self.speedup is not None:
            shown = f"speedup {self.speedup:.3f}"
            if self.ci_low is not None and self.ci_high is not None and math.isfinite(self.ci_high):
                shown += f" ({self.ci_low:.3f} to {self.ci_high:.3f})"
            parts.append(shown)
        if self.candidates > 1:
            parts.append(f"{self.decided}/{self.candidates} decided")
        return " · ".join(parts)


class _Live:
    """The running decision of each candidate against the baseline (``until="clear"``)."""

    def __init__(self, plan: Plan) -> None:
        self.rule = plan.rule
        self.level = plan.rule.level(len(plan.commands) - 1)
        self.sums = {c.name: seq.Running() for c in plan.commands[1:]}
        self.codes = dict.fromkeys(self.sums, seq.UNDECIDED)
        self.first: tuple[float, float, float] | None = None

    def add_round(self, base: float, others: Mapping[str, float]) -> None:
        for name, value in others.items():
            running = self.sums[name]
            running.add(math.log(base) - math.log(value))
            n, mean, sd = running.stats()
            low, high = seq.interval(n, mean, sd, self.level, self.rule.prior_scale)
            self.codes[name] = int(seq.decide(low, high, self.rule.threshold))
            if name == next(iter(self.sums)):
                self.first = (math.exp(mean), math.exp(float(low)), math.exp(float(high)))

    @property
    def decided(self) -> int:
        return sum(code != seq.UNDECIDED for code in self.codes.values())


@attrs.frozen
class Measurement:
    """A finished (or interrupted) measurement.

    ``values[name]`` holds each run's values in order (one, or K with ``iterations``);
    ``orders`` the order of each round; ``stopped`` why it stopped (``decided``, ``max-runs``,
    ``max-time``, ``interrupted``, ``runs``); ``output`` the runs file, if one was written.
    """

    plan: Plan
    values: Mapping[str, tuple[tuple[float, ...], ...]]
    exit_codes: Mapping[str, tuple[int, ...]]
    orders: tuple[tuple[str, ...], ...]
    rounds: int
    elapsed: float
    stopped: str
    environment: Mapping[str, Any]
    warnings: tuple[str, ...] = ()
    output: str | None = None

    @property
    def sequential(self) -> bool:
        return self.plan.rule.until == "clear"

    def summary(self) -> str:
        """``23 interleaved rounds of 2 commands in 31 s; stopped: decided``."""
        why = {"decided": "decided", "max-runs": f"--max-runs {self.plan.rule.max_runs} reached",
               "max-time": f"--max-time {self.plan.rule.max_time:g} s reached" if self.plan.rule.max_time else "",
               "interrupted": "interrupted", "runs": f"the {self.rounds} rounds asked for"}[self.stopped]
        return (f"{self.rounds} interleaved round(s) of {len(self.plan.commands)} commands in "
                f"{pr.progress.duration(self.elapsed)} (seed {self.plan.seed}); stopped: {why}")

    def sample(self, name: str) -> pr.Sample:
        """One command's runs as a Sample: levels ``invocation`` (× ``iteration`` with ``iterations``)."""
        runs = self.values[name]
        if not runs:
            raise pr.DataError(f"command {name!r} has no complete run to analyse")
        hierarchical = self.plan.iterations > 1
        data = np.asarray(runs, dtype=float) if hierarchical else np.asarray([r[0] for r in runs], dtype=float)
        failed = sum(code != 0 for code in self.exit_codes[name])
        metadata: dict[str, Any] = {"measured": self.summary()}
        if failed:
            metadata["failed_runs_kept"] = failed
        return pr.Sample(data, levels=("invocation", "iteration") if hierarchical else ("invocation",), unit="s",
                         name=name, source=self.output, metadata=metadata)

    def suite(self) -> pr.Suite:
        """The runs as perfrigor reads them back from the runs file (one benchmark, a system per command)."""
        return pr.Suite({self.plan.benchmark: {name: self.sample(name) for name in self.plan.names}},
                        source=self.output)

    def sequential_step(self, threshold: float | None = None) -> SequentialVerdict:
        """The ``sequential-verdict`` step of this measurement (its level Bonferroni-split over the candidates)."""
        rule = self.plan.rule
        return SequentialVerdict(confidence=rule.level(len(self.plan.commands) - 1),
                                 threshold=rule.threshold if threshold is None else threshold,
                                 prior_scale=rule.prior_scale, stopped=self.stopped)

    def decisions(self) -> dict[str, pr.Verdict]:
        """Each candidate's sequential verdict against the baseline (the first command)."""
        base = self.sample(self.plan.names[0])
        step = self.sequential_step()
        return {name: step.compare(base, self.sample(name)) for name in self.plan.names[1:]}

    def pipeline(self, analysis: pr.Pipeline | str | None = None, candidate: str | None = None) -> pr.Pipeline:
        """The analysis (a pipeline or preset name; default ``default``) on the baseline and ``candidate``,
        with the ``sequential-verdict`` step last when the measurement stopped by the rule."""
        base = pr.pipeline(analysis or "default") if not isinstance(analysis, pr.Pipeline) else analysis
        steps = list(base.steps)
        if self.sequential:
            steps.append(self.sequential_step())
        return pr.Pipeline(steps, name=base.name, description=base.description, baseline=self.plan.names[0],
                           candidate=candidate or base.candidate or self.plan.names[1],
                           input_options=base.input_options)

    def report(self, analysis: pr.Pipeline | str | None = None, candidate: str | None = None) -> pr.Report:
        """The report: the analysis pipeline on the runs, its verdict the sequential one (``until="clear"``)."""
        return self.pipeline(analysis, candidate).run(self.suite())


class _Record:
    """The runs so far: in memory, and in the runs file as they come.

    The first round is held back and written whole, in the commands' order: readers take the
    first system they meet as the baseline, the next as the candidate. Every later run is
    written (and flushed) as soon as it ends.
    """

    def __init__(self, plan: Plan, runs_file: RunsFile | None) -> None:
        self.plan, self.file = plan, runs_file
        self.values: dict[str, list[tuple[float, ...]]] = {n: [] for n in plan.names}
        self.codes: dict[str, list[int]] = {n: [] for n in plan.names}
        self.held: dict[int, list[Row]] = {}

    def add(self, round_: int, position: int, index: int, result: RunResult) -> None:
        name = self.plan.names[index]
        self.values[name].append(result.values)
        self.codes[name].append(result.exit_code)
        if self.file is None:
            return
        rows = [Row(self.plan.benchmark, name, round_, position, round_,
                    j if self.plan.iterations > 1 else None, v, result.exit_code)
                for j, v in enumerate(result.values, 1)]
        if round_ == 1:
            self.held[index] = rows
        else:
            self.file.append(rows)

    def release(self) -> None:
        """Write the first round's rows, in the commands' order, once the baseline has run."""
        if self.file is not None and 0 in self.held:
            for i in sorted(self.held):
                self.file.append(self.held[i])
        self.held.clear()


def measure(plan: Plan, executor: Executor | None = None, output: str | Path | None = None,
            overwrite: bool = False, on_round: Callable[[Progress], None] | None = None,
            on_warning: Callable[[str], None] | None = None) -> Measurement:
    """Run ``plan``: warm-up rounds, then rounds of every command once in a fresh random order,
    each run recorded (``output``: the runs file, appended and flushed after every run), until the
    stopping rule says so. Ctrl-C stops it cleanly (``stopped="interrupted"``); a command that
    fails stops it with :class:`RunFailed` unless ``plan.ignore_failure``.
    """
    warn = on_warning or (lambda message: None)
    if plan.seed is None:  # a fresh seed, recorded: the orders can be drawn again
        plan = attrs.evolve(plan, seed=int(np.random.SeedSequence().generate_state(1)[0]))
    rng = np.random.default_rng(plan.seed)
    env = environment()
    warnings = noise_warnings(env)
    for w in warnings:
        warn(w)
    meta = {"perfrigor measure": f"benchmark {plan.benchmark!r}, seed {plan.seed}, timer {plan.timer}",
            **{f"command {c.name}": c.command for c in plan.commands},
            "rule": attrs.asdict(plan.rule), **env}
    record = _Record(plan, RunsFile(output, meta, plan.iterations, overwrite) if output is not None else None)
    own = executor is None
    executor = ProcessExecutor(plan.timer) if executor is None else executor
    rule, names = plan.rule, plan.names
    orders: list[tuple[str, ...]] = []
    live = _Live(plan)
    stopped, rounds, start = "", 0, 0.0
    try:
        for command in plan.commands:
            executor.setup(command)
        for _ in range(plan.warmup):
            for i in rng.permutation(len(names)):
                _run(executor, plan, plan.commands[i], 1, None, warmup=True)
        start = executor.clock()
        while True:
            if rounds >= rule.limit:
                stopped = "runs" if rule.until == "runs" and rounds >= rule.runs else "max-runs"
                break
            if rule.max_time is not None and rounds and executor.clock() - start >= rule.max_time:
                stopped = "max-time"
                break
            order = rng.permutation(len(names))
            done: dict[str, float] = {}
            for position, i in enumerate(order, 1):
                result = _run(executor, plan, plan.commands[i], rounds + 1, record.file)
                record.add(rounds + 1, position, int(i), result)
                done[names[i]] = float(np.mean(result.values))  # a run's value: its iterations' mean
            record.release()
            rounds += 1
            orders.append(tuple(names[i] for i in order))
            if rule.until == "clear":
                live.add_round(done[names[0]], {n: done[n] for n in names[1:]})
            if on_round is not None:
                on_round(_progress(plan, live, rounds, executor.clock() - start))
            if rule.until == "clear" and rounds >= rule.min_runs and live.decided == len(live.sums):
                stopped = "decided"
                break
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        record.release()  # a first round cut short: what ran, if the baseline did
        if record.file is not None:
            record.file.close()
        if own:
            executor.close()  # type: ignore[attr-defined]
    elapsed = executor.clock() - start if rounds else 0.0
    # the load at the end counts the measurement's own runs: one process at a time
    late = [w for w in noise_warnings({**env, "load_average": load_average()}, own_load=1.0)
            if w.startswith("load") and not any(x.startswith("load") for x in warnings)]
    for w in late:
        warn(w)
    kept = sum(code != 0 for c in record.codes.values() for code in c)
    notes = [*warnings, *late]
    if kept:
        notes.append(f"{kept} run(s) exited with a non-zero code and were kept (--ignore-failure)")
    # an unfinished round (interrupted) leaves its runs in the file; the analysis keeps them too
    return Measurement(plan, {n: tuple(v) for n, v in record.values.items()},
                       {n: tuple(c) for n, c in record.codes.items()}, tuple(orders), rounds, elapsed, stopped,
                       env, tuple(notes), None if output is None else str(output))


def _run(executor: Executor, plan: Plan, command: MeasuredCommand, round_: int, runs_file: RunsFile | None,
         warmup: bool = False) -> RunResult:
    executor.prepare(command)
    result = executor.run(command, plan.iterations)
    if (result.exit_code != 0 and not plan.ignore_failure) or not result.values:
        where = "a warm-up run" if warmup else f"round {round_}"
        why = f" ({result.message})" if result.message else ""
        kept = (f"; the runs so far are in {runs_file.path}" if runs_file is not None and not warmup else "")
        hint = "; --ignore-failure measures failing commands too" if not plan.ignore_failure else \
            ("; it printed no times" if plan.iterations > 1 else "")
        raise RunFailed(f"command {command.name!r} exited with code {result.exit_code} in {where}{why}{kept}{hint}")
    return result


def _progress(plan: Plan, live: _Live, rounds: int, elapsed: float) -> Progress:
    rule = plan.rule
    per_round = elapsed / rounds if rounds else 0.0
    remaining = per_round * max(rule.limit - rounds, 0)
    if rule.max_time is not None:
        remaining = min(remaining, max(rule.max_time - elapsed, 0.0))
    speedup = low = high = None
    if live.first is not None:
        speedup, low, high = live.first
        if not math.isfinite(high) or low == 0.0:
            low = high = None
    return Progress(rounds, rule.limit, elapsed, remaining, speedup, low, high, live.decided, len(live.sums))

