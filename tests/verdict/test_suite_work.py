"""The suite step's work grows with the suite's size, not its square: counted (never timed).

A suite of 10^5 benchmarks revises every verdict in the calling process (benchmarks/scale.py); these tests count
the recomputations the revision makes per benchmark and the suite-wide estimates it makes once.
"""

from __future__ import annotations

import perfrigor as pr
from perfrigor import simulate
from perfrigor_plugins.verdict import dependence, suite_control


def _counted(monkeypatch, benchmarks: int) -> dict[str, int]:
    calls = {"recompute": 0, "pooled": 0, "mixtures": 0}

    def counting(name, module, attr):
        original = getattr(module, attr)

        def wrapper(*args, **kwargs):
            calls[name] += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(module, attr, wrapper)

    counting("recompute", suite_control, "recompute")
    counting("pooled", dependence, "pooled")
    counting("mixtures", dependence, "factor_mixtures")
    suite, _ = simulate.suite(benchmarks, 30, benchmarks // 4, 1 / 1.1, models=["ar1", "log-normal"], random_state=4)
    report = pr.Pipeline(["independence", "verdict"]).run(suite)
    pooled = sum(v.details.get("widening", {}).get("pooled", False) for v in report.verdicts.values())
    assert pooled >= benchmarks * 3 // 4, "most benchmarks' dependence is pooled over the suite: the revision's full work"
    monkeypatch.undo()
    return calls


def test_the_suite_revision_recomputes_each_benchmark_a_bounded_number_of_times(monkeypatch):
    small, large = _counted(monkeypatch, 12), _counted(monkeypatch, 36)
    for calls, b in ((small, 12), (large, 36)):
        # pooled widening, its tails where they matter, the interval at the suite's level: at most 3 a benchmark
        assert b <= calls["recompute"] <= 3 * b, calls
        assert calls["pooled"] == 1 and calls["mixtures"] == 1, calls  # the suite's estimates: once, not per benchmark
    assert large["recompute"] <= 3 * small["recompute"] + 12
