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

import importlib
from typing import Any

import perfrigor as pr

from .command import MEASURE
from .component import SequentialVerdict

#: the public names, each imported from its module on first use: every perfrigor start loads the
#: plugins, and the hooks need only the command and the component (the runner, processes and
#: configs are loaded when something is measured)
LAZY = {"Executor": "executors", "ProcessExecutor": "executors", "RunResult": "executors", "parse_times": "executors",
        "MeasuredCommand": "plan", "Plan": "plan", "StoppingRule": "plan", "Measurement": "runner",
        "Progress": "runner", "RunFailed": "runner", "measure": "runner", "SessionNoise": "simulation",
        "SimulatedExecutor": "simulation", "plan_from": "config", "load_config": "config"}
_RENAMED = {"load_config": "load"}

__all__ = ["SequentialVerdict", *LAZY]


def __getattr__(name: str) -> Any:
    if name in LAZY:
        module = importlib.import_module(f".{LAZY[name]}", __name__)
        value = getattr(module, _RENAMED.get(name, name))
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@pr.hookimpl
def perfrigor_components() -> list[type[pr.Component]]:
    return [SequentialVerdict]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [MEASURE]
