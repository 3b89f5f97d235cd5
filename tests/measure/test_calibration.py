"""The stopping rule keeps its false-alarm rate under optional stopping (simulation; docs/methods/measure.md).

Sessions of simulated commands with no change (A/A), the rule looking after every round: the
share that ever says "faster" or "slower" stays within 5% plus three Monte-Carlo standard
errors, where stopping at the first significant paired t-test goes far above. Under a drift,
interleaved rounds keep their rate while one command after the other does not.
"""

from __future__ import annotations

import math

import pytest
from perfrigor_plugins.measure import (
    MeasuredCommand,
    Plan,
    SessionNoise,
    SimulatedExecutor,
    StoppingRule,
    measure,
)
from perfrigor_plugins.measure import calibration as cal

pytestmark = pytest.mark.slow

NOISES = {
    "log-normal 2%": SessionNoise(cv=0.02),
    "slow wander 3%": SessionNoise(cv=0.02, wander=0.03),
    "5% of runs 1.5-3x slower": SessionNoise(cv=0.02, outliers=0.05),
    "first run of a round 3% slower": SessionNoise(cv=0.02, first_penalty=0.03),
}


@pytest.mark.parametrize("name", list(NOISES))
def test_aa_false_alarms_stay_within_five_percent(name):
    stops = cal.replay(NOISES[name], 1.0, 6000, 200, cal.sequential_rule(), random_state=11)
    assert stops.changed <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / stops.sessions), (name, stops)


def test_stopping_at_the_first_significance_does_not():
    naive = cal.replay(NOISES["log-normal 2%"], 1.0, 3000, 200, cal.naive_rule(), random_state=11)
    assert naive.changed > 0.2


def test_the_runner_itself_holds_the_bound():
    """The loop perfrigor measure runs, with simulated commands instead of processes."""
    alarms, sessions = 0, 150
    for seed in range(sessions):
        plan = Plan([MeasuredCommand("a"), MeasuredCommand("b")], StoppingRule(until="clear", max_runs=100),
                    seed=seed)
        m = measure(plan, SimulatedExecutor(SessionNoise(cv=0.02), {"a": 1.0, "b": 1.0}, random_state=seed))
        alarms += m.decisions()["b"].outcome in ("faster", "slower")
    assert alarms / sessions <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / sessions)


def test_under_drift_interleaved_rounds_keep_the_rate_and_one_after_the_other_does_not():
    drift = SessionNoise(cv=0.02, drift=0.05, span=60)
    rates = cal.drift_rates(drift, 30, 2000, random_state=3)
    bound = 0.05 + 3 * math.sqrt(0.05 * 0.95 / 2000)
    assert rates["interleaved, paired t"] <= bound and rates["interleaved, sequential"] <= bound
    assert rates["one-after-the-other, Welch"] > 0.5
