"""The frontier behind docs/methods/verdict.md's "No test can hold both bounds at 10 runs alone".

benchmarks/ten_runs_frontier.py finds, over tests deciding on |Welch's t| and the lag-1..3
autocorrelations, the most power on independent runs for each false-alarm rate allowed on AR(1) 0.5
runs; the docs' claim is that at 5% on both no such test reaches 90% of Mann-Whitney's power.
"""

from __future__ import annotations

import benchmark_scripts
import pytest


@pytest.mark.slow
def test_no_test_holds_both_bounds_at_ten_runs() -> None:
    m = benchmark_scripts.load("ten_runs_frontier")
    table = m.frontier(200_000, seed=3)
    mw = m.plain(100_000, seed=3)["Mann-Whitney iid power"]
    for rows in table.values():
        by_cap = {r["cap"]: r for r in rows}
        strict = by_cap[0.05]
        # held out: the best test on the fitting half keeps its levels on the other half (Monte-Carlo error ~0.2%)
        assert strict["iid_aa"] < 0.065 and strict["ar1_aa"] < 0.065
        assert strict["power"] < 0.9 * mw  # the claim: both bounds cannot hold together
        powers = [r["power"] for r in rows]
        assert powers == sorted(powers)  # more false alarms allowed on AR(1) buys power
        assert by_cap[0.14]["power"] > 0.95 * mw  # where the verdict's 14% sits, the frontier passes Mann-Whitney
