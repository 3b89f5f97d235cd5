"""The measuring loop with simulated commands: rounds, records, stops, failures."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.measure import (
    MeasuredCommand,
    Plan,
    RunFailed,
    SessionNoise,
    SimulatedExecutor,
    StoppingRule,
    measure,
)
from perfrigor_plugins.measure import sequential as seq

NOISE = SessionNoise(cv=0.02)


def plan(*names: str, **rule) -> Plan:
    extra = {k: rule.pop(k) for k in ("iterations", "ignore_failure", "warmup", "seed") if k in rule}
    return Plan([MeasuredCommand(n) for n in names], StoppingRule(**rule), **{"seed": 1, **extra})


def simulated(speedups: dict[str, float], seed: int = 2, **kw) -> SimulatedExecutor:
    return SimulatedExecutor(NOISE, speedups, random_state=seed, **kw)


def test_rounds_run_every_command_once_in_a_seeded_random_order():
    p = plan("a", "b", "c", runs=30)
    m = measure(p, simulated({"a": 1, "b": 1, "c": 1}))
    assert m.rounds == 30 and m.stopped == "runs"
    assert all(sorted(order) == ["a", "b", "c"] for order in m.orders)
    assert len(set(m.orders)) > 1  # the order changes from round to round
    again = measure(p, simulated({"a": 1, "b": 1, "c": 1}, seed=9))
    assert again.orders == m.orders  # the seed, not the executor, draws the orders


def test_a_seed_is_drawn_and_recorded_when_none_is_given():
    m = measure(Plan([MeasuredCommand("a"), MeasuredCommand("b")], StoppingRule(runs=3)), simulated({"a": 1, "b": 1}))
    assert isinstance(m.plan.seed, int) and f"seed {m.plan.seed}" in m.summary()


@pytest.mark.parametrize("seed", range(6))
def test_the_live_decision_is_the_replayed_one(seed):
    p = plan("old", "new", until="clear", max_runs=150, seed=seed)
    m = measure(p, simulated({"old": 1.0, "new": 1.02}, seed=seed))
    d = np.log([v[0] for v in m.values["old"]]) - np.log([v[0] for v in m.values["new"]])
    outcome, rounds = seq.first_decisions(d, 0.95, 0.01, min_rounds=5)
    assert rounds[0] == m.rounds
    assert m.stopped == ("decided" if outcome[0] != seq.UNDECIDED else "max-runs")
    assert m.decisions()["new"].outcome == seq.OUTCOME_NAMES[int(outcome[0])]


def test_min_runs_holds_the_rule_back():
    m = measure(plan("old", "new", until="clear", min_runs=40), simulated({"old": 1.0, "new": 2.0}))
    assert m.rounds == 40 and m.stopped == "decided"


def test_max_time_stops_on_the_executors_clock():
    m = measure(plan("old", "new", runs=1000, max_time=1.0), simulated({"old": 1.0, "new": 1.0}))
    assert m.stopped == "max-time" and 9 <= m.rounds <= 11  # 0.1 s of simulated time per round


def test_three_commands_stop_when_every_candidate_is_decided_at_a_split_level():
    p = plan("base", "x", "y", until="clear", max_runs=300)
    m = measure(p, simulated({"base": 1.0, "x": 1.3, "y": 1.06}))
    assert m.stopped == "decided"
    decisions = m.decisions()
    assert {k: v.outcome for k, v in decisions.items()} == {"x": "faster", "y": "faster"}
    assert decisions["x"].confidence == pytest.approx(0.975)


def test_the_runs_file_reads_back_as_the_measurement(tmp_path):
    out = tmp_path / "runs.csv"
    m = measure(plan("old", "new", runs=12), simulated({"old": 1.0, "new": 1.1}), output=out)
    suite = pr.read(out)
    assert list(suite.systems) == ["old", "new"] and suite.benchmarks == ["measure"]
    for name in ("old", "new"):
        read = suite.data[m.plan.benchmark][name]
        assert read.levels == ("invocation",)
        np.testing.assert_array_equal(read.values, m.sample(name).values)
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# perfrigor measure:") and any(ln.startswith("# python:") for ln in lines)
    header = next(ln for ln in lines if not ln.startswith("#"))
    assert header == "benchmark,system,round,position,invocation,value,exit_code"
    rows = [ln.split(",") for ln in lines[lines.index(header) + 1:]]
    # each round's positions say the order it ran in
    for r in range(2, 13):
        ran = sorted((int(row[3]), row[1]) for row in rows if row[2] == str(r))
        assert tuple(name for _, name in ran) == m.orders[r - 1]


def test_the_first_round_is_written_in_the_commands_order(tmp_path):
    out = tmp_path / "runs.csv"
    for seed in range(4):  # whatever ran first, the baseline leads the file
        measure(plan("old", "new", runs=2, seed=seed), simulated({"old": 1, "new": 1}), output=out, overwrite=True)
        suite = pr.read(out)
        assert list(suite.systems) == ["old", "new"]


def test_iterations_give_invocation_by_iteration_levels_in_json(tmp_path):
    out = tmp_path / "runs.json"
    m = measure(plan("old", "new", runs=5, iterations=3), simulated({"old": 1.0, "new": 1.1}), output=out)
    doc = json.loads(out.read_text())
    assert "environment" in doc[0] and len(doc) == 2 * 5 * 3
    read = pr.read(out).data[m.plan.benchmark]["new"]
    assert read.levels == ("invocation", "iteration") and read.shape == (5, 3)
    np.testing.assert_array_equal(read.values, m.sample("new").values)


def test_an_existing_file_is_not_replaced_unless_asked(tmp_path):
    out = tmp_path / "runs.csv"
    out.write_text("precious")
    with pytest.raises(pr.ConfigError, match="exists"):
        measure(plan("a", "b", runs=2), simulated({"a": 1, "b": 1}), output=out)
    assert out.read_text() == "precious"
    measure(plan("a", "b", runs=2), simulated({"a": 1, "b": 1}), output=out, overwrite=True)
    assert pr.read(out)


def test_a_failing_command_stops_the_measurement_and_keeps_the_runs(tmp_path):
    out = tmp_path / "runs.csv"
    with pytest.raises(RunFailed, match=r"command 'b' exited with code 1 in round 1 \(simulated failure\)"):
        measure(plan("a", "b", runs=5), simulated({"a": 1, "b": 1}, fail=["b"]), output=out)
    m = measure(plan("a", "b", runs=5, ignore_failure=True), simulated({"a": 1, "b": 1}, fail=["b"]),
                output=out, overwrite=True)
    assert m.exit_codes["b"] == (1,) * 5 and any("non-zero" in w for w in m.warnings)
    assert m.sample("b").metadata["failed_runs_kept"] == 5
    assert set(pr.read(out).systems) == {"a", "b"}


def test_the_report_leads_with_the_sequential_verdict_and_the_file_agrees(tmp_path):
    out = tmp_path / "runs.csv"
    m = measure(plan("old", "new", until="clear"), simulated({"old": 1.0, "new": 1.08}), output=out)
    report = m.report()
    v = report.verdicts[m.plan.benchmark]
    assert v.method == "sequential-verdict" and v.outcome == "faster"
    again = pr.pipeline("default").run(out).verdicts[m.plan.benchmark]
    assert again.outcome == "faster"
    assert "stopped: decided" in m.summary()


def test_a_fixed_design_reports_the_pipelines_own_verdict():
    m = measure(plan("old", "new", runs=10), simulated({"old": 1.0, "new": 1.08}))
    assert m.report().verdicts[m.plan.benchmark].method != "sequential-verdict"


def test_progress_is_reported_after_every_round():
    seen = []
    measure(plan("old", "new", until="clear", max_runs=30), simulated({"old": 1.0, "new": 1.0}), on_round=seen.append)
    assert [p.rounds for p in seen] == list(range(1, len(seen) + 1))
    assert seen[-1].line().startswith(f"round {len(seen)}/30 · ≤ ")
    assert seen[-1].ci_low is not None and "speedup 1.0" in seen[-1].line()


def test_an_interrupt_ends_the_measurement_cleanly(tmp_path):
    class Interrupting(SimulatedExecutor):
        def run(self, command, iterations):
            if self.runs == 9:
                raise KeyboardInterrupt
            return super().run(command, iterations)

    out = tmp_path / "runs.csv"
    m = measure(plan("old", "new", runs=50), Interrupting(NOISE, {"old": 1, "new": 1}, random_state=0), output=out)
    assert m.stopped == "interrupted" and m.rounds == 4
    suite = pr.read(out)
    assert sorted(s.values.size for s in suite.data[m.plan.benchmark].values()) == [4, 5]


@pytest.mark.parametrize("build, needle", [
    (lambda: Plan([MeasuredCommand("a")]), "at least two commands"),
    (lambda: Plan([MeasuredCommand("a"), MeasuredCommand("a")]), "two commands are named 'a'"),
    (lambda: MeasuredCommand("python -c 'unbalanced"), "No closing quotation"),
    (lambda: StoppingRule(min_runs=10, max_runs=5), "min-runs 10 is more than max-runs 5"),
    (lambda: StoppingRule(until="forever"), "until must be one of"),
    (lambda: StoppingRule(max_time=-1.0), "max-time"),
    (lambda: Plan([MeasuredCommand("a"), MeasuredCommand("b")], timer="cpu", iterations=3), "timer 'cpu'"),
])
def test_bad_plans_are_config_errors(build, needle):
    with pytest.raises(pr.ConfigError, match=needle):
        build()
