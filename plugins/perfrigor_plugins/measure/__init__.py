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

#: the public names, imported from their modules on first use: every perfrigor start loads the plugins,
#: and the runner, the processes and the configs are needed only when something is measured
EXPORTS = {"SequentialVerdict": "component", "Executor": "executors", "ProcessExecutor": "executors",
           "RunResult": "executors", "parse_times": "executors", "MeasuredCommand": "plan", "Plan": "plan",
           "StoppingRule": "plan", "Measurement": "runner", "Progress": "runner", "RunFailed": "runner",
           "measure": "runner", "SessionNoise": "simulation", "SimulatedExecutor": "simulation",
           "plan_from": "config", "load_config": "config"}
__all__ = sorted(EXPORTS)
__getattr__ = pr.lazy_exports(__name__, EXPORTS)


@pr.hookimpl
def perfrigor_components() -> list[pr.LazyComponent]:
    return [pr.LazyComponent(f"{__name__}.component:SequentialVerdict", "sequential-verdict", "comparator",
                             "Verdict of interleaved rounds under optional stopping (anytime-valid interval of the "
                             "paired speedup).")]


@pr.hookimpl
def perfrigor_commands() -> list[pr.Command]:
    return [MEASURE]
