"""Below 20 runs, runs that oscillate decisively take an AR(2)'s long-run factor, not an AR(1)'s (issue 22)."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
import scipy.stats as sps
from perfrigor import simulate
from perfrigor.simulate import ar1
from perfrigor.stats import autocorrelation
from perfrigor_plugins.verdict import dependence


def observation(acf, n=10, rho=(0.86, -0.07)):
    return dependence.Observation((n, n), rho, acf, 1, (5.0, 5.0))


def test_runs_that_oscillate_are_not_read_as_an_ar1():
    # 10 runs a side of a 7-run sinusoid (the calibration table's periodic model, one replicate's evidence): the
    # bias-corrected lag 1 of 0.86 read as an AR(1) widened each side's variance 2.4x; the AR(2) of the measured
    # autocorrelations has complex roots, its spectral density at 0 below the variance's: not widened
    obs = observation((0.43, -0.14, -0.51))
    w = dependence.alone(obs)
    assert w.oscillation == (0.43, -0.51) and w.tau < 1.1 and w.precision == 0.0
    assert dependence.alone(observation((0.43, -0.14, -0.30))).tau > 2.0  # lag 1 - lag 3 = 0.73: an AR(1) can


@pytest.mark.parametrize("acf", [(0.25, 0.05, 0.08), (0.6, 0.3, 0.1), (-0.1, -0.3, -0.4), (0.5, 0.2, -0.35)])
def test_decaying_dependence_keeps_the_ar1_factor(acf):
    # an AR(1)'s autocorrelations decay (lag 1 - lag 3 at most 0.385): the rule reads nothing but lags 1 and 3
    assert dependence.oscillation(observation(acf)) is None
    assert dependence.alone(observation(acf)) == dependence.alone(observation(acf[:2]))  # as without lag 3


def test_from_20_runs_the_ar2_reads_the_oscillation_as_before():
    assert dependence.oscillation(observation((0.43, -0.14, -0.51, -0.3, 0.2, 0.5), n=20)) is None


def test_a_suite_leaves_an_oscillating_benchmark_its_own_evidence():
    # ten AR(1) benchmarks and one that oscillates: the AR(1) pooling and its mixture are not applied to it
    ar = [observation((0.35, 0.1, 0.0), rho=(0.6, 0.3)) for _ in range(10)]
    periodic = observation((0.43, -0.14, -0.51))
    widened = dependence.pooled([*ar, periodic])
    assert widened[-1] == dependence.alone(periodic) and widened[-1].tau < 1.1
    assert all(w.pooled and w.tau > 1.5 and len(w.mixture[0]) for w in widened[:-1])


def _sinusoid(rng, n, change=1.0):
    wave = 0.02 * np.sin(2 * np.pi * np.arange(n) / 7 + rng.uniform(0, 2 * np.pi))
    return (1 + wave) * (1 + 0.005 * rng.standard_normal(n)) / change


def test_a_clear_change_of_ten_oscillating_runs_is_found():
    # issue 22: a sinusoid averages out over the run; ten runs a side of it, the candidate 2% faster, read
    # "unclear" ([0.993, 1.053]: each side's variance widened 2.53x); now faster, and the reasons say why
    rng = np.random.default_rng(1)
    old, new = _sinusoid(rng, 10), _sinusoid(rng, 10, 1.02)
    v = pr.get("verdict").compare(old, new)
    assert v.outcome == "faster" and v.details["tau"] == [1.0, 1.0]
    assert any(r.startswith("the runs oscillate (autocorrelation") and "averages out" in r for r in v.reasons)
    assert not any("count as about" in r for r in v.reasons)  # the checks' AR(1) reading is not repeated


def test_ten_ar1_runs_are_not_switched():
    rng = np.random.default_rng(6)
    v = pr.get("verdict").compare(10 + 0.1 * ar1(rng, 10, 0.5), 10 + 0.1 * ar1(rng, 10, 0.5))
    assert v.details["dependence"]["acf"][0] - v.details["dependence"]["acf"][2] <= dependence.OSCILLATION
    assert not any(r.startswith("the runs oscillate") for r in v.reasons)


def _switch_rate(draw, runs=10, pairs=3000, seed=0):
    """How often the rule fires on pairs of series drawn by ``draw``: the measured autocorrelations of each
    system's ranks at lags 1 and 3, averaged over the two (what :func:`dependence.observe` keeps)."""
    rng = np.random.default_rng(seed)
    ranks = sps.rankdata(draw(rng, (2 * pairs, runs)), axis=1)
    r = autocorrelation(ranks, 3).reshape(pairs, 2, 3).mean(axis=1)
    return float(np.mean(r[:, 0] - r[:, 2] > dependence.OSCILLATION))


def _ar1_rows(phi):
    return lambda rng, shape: np.array([ar1(rng, shape[1], phi) for _ in range(shape[0])])


@pytest.mark.slow
def test_the_switch_fires_on_oscillations_and_rarely_elsewhere():
    # docs/methods/verdict.md: at 10 runs a side, at most 1-2% of AR(1) series, none of independent ones, most
    # of the 7-run sinusoid's; fewer at 15 runs (the statistic's noise shrinks, AR(1)'s bound is 0.385)
    assert _switch_rate(lambda rng, shape: rng.standard_normal(shape)) <= 0.003
    assert _switch_rate(lambda rng, shape: rng.standard_t(3, shape)) <= 0.003
    for phi in (0.3, 0.5, 0.7, 0.9):
        assert _switch_rate(_ar1_rows(phi)) <= 0.02, phi
    assert _switch_rate(_ar1_rows(0.5), runs=15) <= 0.01
    model = simulate.model("periodic")
    assert _switch_rate(lambda rng, shape: np.array([model.draw(rng, shape[1]) for _ in range(shape[0])])) >= 0.75


@pytest.mark.slow
def test_ten_oscillating_runs_find_a_change_without_false_alarms():
    # the calibration table's periodic row at 10 runs, fewer replicates: no false alarm, and about what Welch finds
    model = simulate.model("periodic")
    step = pr.get("verdict")
    aa = [step.compare(a, b).outcome for a, b in model.pairs(10, 150, 1.0, random_state=11)]
    found = [step.compare(a, b).outcome for a, b in model.pairs(10, 150, 1.02, random_state=12)]
    welch = np.mean([sps.ttest_ind(a.flat, b.flat, equal_var=False).pvalue < 0.05
                     for a, b in model.pairs(10, 150, 1.02, random_state=12)])
    assert aa.count("faster") + aa.count("slower") <= 3 and found.count("slower") == 0
    assert found.count("faster") / 150 >= 0.8 * welch and welch > 0.3
