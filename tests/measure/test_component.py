"""``sequential-verdict``: rounds paired, the anytime-valid interval read as the verdict reads one."""

from __future__ import annotations

import math

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.measure import SequentialVerdict
from perfrigor_plugins.measure import sequential as seq


def rounds(n: int, speedup: float, cv: float = 0.01, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Interleaved rounds sharing a slow drift: the pairs cancel it, the runs do not."""
    rng = np.random.default_rng(seed)
    drift = 1 + 0.2 * np.linspace(0, 1, n)
    old = 0.1 * drift * np.exp(cv * rng.standard_normal(n))
    return old, 0.1 / speedup * drift * np.exp(cv * rng.standard_normal(n))


def test_the_answer_is_the_sequence_of_the_paired_log_speedups():
    old, new = rounds(40, 1.05)
    v = SequentialVerdict().compare(old, new)
    d = np.log(old) - np.log(new)
    low, high = seq.intervals(d, 0.95)
    assert v.outcome == "faster" and v.method == "sequential-verdict"
    assert v.speedup == pytest.approx(math.exp(d.mean()))
    assert (v.ci_low, v.ci_high) == pytest.approx((math.exp(low[-1]), math.exp(high[-1])))
    assert v.details["rounds"] == 40 and 0 < v.details["pvalue"] < 0.05
    assert v.reasons[0].startswith("40 paired rounds: the anytime-valid 95% interval") and "excludes no change" in v.reasons[0]
    assert v.details["baseline"] / v.details["candidate"] == pytest.approx(v.speedup)


def test_pairs_remove_a_drift_the_unpaired_runs_carry():
    old, new = rounds(30, 1.0, seed=4)
    v = SequentialVerdict().compare(old, new)
    assert v.outcome in ("same", "unclear")
    assert v.ci_high / v.ci_low < 1.05  # the 20% drift is gone from the interval


def test_throughputs_turn_the_speedup_around():
    old, new = rounds(40, 1.05)
    times = SequentialVerdict().compare(old, new)
    rates = SequentialVerdict().compare(pr.Sample(1 / old, lower_is_better=False),
                                        pr.Sample(1 / new, lower_is_better=False))
    assert rates.outcome == "faster" and rates.speedup == pytest.approx(times.speedup)


def test_same_within_the_band_and_no_band_without_a_threshold():
    old, new = rounds(200, 1.0, cv=0.003, seed=2)
    assert SequentialVerdict(threshold=0.01).compare(old, new).outcome == "same"
    v = SequentialVerdict(threshold=0.0).compare(old, new)
    assert v.outcome == "unclear"
    assert any("fixed design would need" in r for r in v.reasons)


def test_an_unfinished_round_is_left_out_and_said():
    old, new = rounds(20, 1.05)
    v = SequentialVerdict().compare(old, new[:19])
    assert v.details["rounds"] == 19 and v.details["unpaired"] == {"baseline": 1}
    assert "without a partner" in v.warnings[0]


def test_iterations_are_averaged_per_run():
    old, new = rounds(20, 1.05)
    rng = np.random.default_rng(5)
    h_old = old[:, None] * np.exp(0.001 * rng.standard_normal((20, 4)))
    h_new = new[:, None] * np.exp(0.001 * rng.standard_normal((20, 4)))
    v = SequentialVerdict().compare(pr.Sample(h_old, levels=("invocation", "iteration")),
                                    pr.Sample(h_new, levels=("invocation", "iteration")))
    d = np.log(h_old.mean(axis=1)) - np.log(h_new.mean(axis=1))
    assert v.speedup == pytest.approx(math.exp(d.mean())) and v.details["rounds"] == 20


def test_too_few_rounds_is_unclear_with_no_interval():
    v = SequentialVerdict().compare([1.0], [0.9])
    assert v.outcome == "unclear" and v.ci_low is None and v.speedup == pytest.approx(1 / 0.9)
    v = SequentialVerdict().compare([1.0, 1.1, 1.0], [0.9, 1.0, 0.95])
    assert v.outcome == "unclear" and v.ci_low is None and "too few" in v.reasons[0]


def test_in_a_pipeline_it_cites_the_fixed_n_verdict_and_becomes_the_reports_verdict():
    rng = np.random.default_rng(0)
    old, new = 0.1 * np.exp(0.01 * rng.standard_normal(40)), 0.1 / 1.05 * np.exp(0.01 * rng.standard_normal(40))
    report = pr.Pipeline(["verdict", SequentialVerdict(stopped="decided")]).run(old, new)
    v = report.verdicts["benchmark"]
    assert v.method == "sequential-verdict" and "stopped when decided" in v.reasons[0]
    assert v.details["fixed_verdict"]["outcome"] == "faster"
    assert any(r.startswith("the fixed-n verdict on these runs (perfrigor run on the file): faster")
               for r in v.reasons)


def test_under_drift_the_pairs_decide_where_the_unpaired_runs_cannot():
    old, new = rounds(40, 1.05)  # a 20% drift shared by the rounds
    v = pr.Pipeline(["verdict", "sequential-verdict"]).run(old, new).verdicts["benchmark"]
    assert v.outcome == "faster" and v.details["fixed_verdict"]["outcome"] == "unclear"
    assert "unpaired" in v.reasons[-1]


@pytest.mark.parametrize("params", [{"threshold": 1.0}, {"prior_scale": 0}, {"stopped": "bored"}])
def test_bad_parameters_are_config_errors(params):
    with pytest.raises(pr.ConfigError):
        pr.get("sequential-verdict", **params)
