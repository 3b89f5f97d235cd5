"""Measuring: ``perfrigor measure`` runs commands in interleaved rounds until the answer is clear.

Each round runs every command once in a fresh seeded random order; every run is recorded as it
goes (a tidy CSV/JSON perfrigor reads back); ``--until clear`` stops when the
``sequential-verdict`` (an anytime-valid confidence sequence of the paired speedup) decides,
keeping its error rate however often it looked. The Python API::

    from perfrigor_plugins.measure import Plan, MeasuredCommand, StoppingRule, measure
    plan = Plan([MeasuredCommand("python old.py"), MeasuredCommand("python new.py")],
                StoppingRule(until="clear", max_runs=100), seed=1)
    m = measure(plan, output="runs.csv")        # or measure(plan, executor=SimulatedExecutor(...))
    print(m.summary()); print(m.report().render("text"))

docs/measure.md is the guide; docs/methods/measure.md the rule and its calibration.
"""

from __future__ import annotations

import perfrigor as pr

from .command import MEASURE
from .component import SequentialVerdict
from .config import load as load_config
from .config import plan_from
from .executors import Executor, ProcessExecutor, RunResult, parse_times
from .plan import MeasuredCommand, Plan, StoppingRule
from .runner import Measurement, Progress, RunFailed, measure
from .simulation import SessionNoise, SimulatedExecutor

__all__ = ["Executor", "MeasuredCommand", "Measurement", "Plan", "ProcessExecutor", "Progress", "RunFailed",
           "RunResult", "SequentialVerdict", "SessionNoise", "SimulatedExecutor", "StoppingRule", "load_config",
           "measure", "parse_times", "plan_from"]


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [SequentialVerdict]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [MEASURE]
