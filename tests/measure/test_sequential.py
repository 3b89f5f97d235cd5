"""The stopping rule's arithmetic: the confidence sequence, its closed form, the decisions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from perfrigor_plugins.measure import sequential as seq
from scipy import integrate, optimize, stats


def bayes_factor_by_integration(t: float, n: int, g: float) -> float:
    """Rouder et al. (2009)'s Bayes factor with a N(0, g) prior on the standardised effect, from its
    definition: the non-central t density of t averaged over the prior, over the central one."""
    df = n - 1

    def integrand(delta: float) -> float:
        return stats.nct.pdf(t, df, delta * math.sqrt(n)) * stats.norm.pdf(delta, 0.0, math.sqrt(g))

    centre, spread = t / math.sqrt(n), 12 * max(math.sqrt(g), 1 / math.sqrt(n))
    top, _ = integrate.quad(integrand, centre - spread, centre + spread, points=[0.0], limit=400,
                            epsrel=1e-10)
    return top / stats.t.pdf(t, df)


@pytest.mark.parametrize("t, n, g", [(0.5, 5, 1.0), (2.0, 10, 0.25), (3.0, 30, 0.25), (-1.5, 50, 4.0),
                                     (2.5, 60, 0.04)])
def test_the_closed_form_is_the_bayes_factor(t, n, g):
    closed = math.exp(float(seq.log_evidence(t, n, math.sqrt(g))))
    assert closed == pytest.approx(bayes_factor_by_integration(t, n, g), rel=1e-6)


@pytest.mark.parametrize("n", [3, 5, 10, 40, 300, 5000])
@pytest.mark.parametrize("confidence, scale", [(0.95, 0.5), (0.99, 1.0), (0.9, 0.2)])
def test_the_critical_t_is_where_the_evidence_reaches_one_over_alpha(n, confidence, scale):
    c = float(seq.critical_t(n, confidence, scale))
    target = math.log(1 / (1 - confidence))
    ceiling = 0.5 * (n - 1) * math.log1p(n * scale * scale)  # the factor's supremum
    if ceiling <= target:
        assert c == math.inf
        return
    root = optimize.brentq(lambda t: float(seq.log_evidence(t, n, scale)) - target, 1e-9, 1e6, xtol=1e-12)
    assert c == pytest.approx(root, rel=1e-9)


def test_the_sequence_is_wider_than_the_fixed_interval_and_grows_slowly():
    n = np.array([10, 100, 1000, 10000])
    c = seq.critical_t(n, 0.95, seq.PRIOR_SCALE)
    assert np.all(c > stats.t.ppf(0.975, n - 1))
    assert c[-1] < 4.2  # log n growth: still a usable interval after 10,000 rounds


def test_running_statistics_are_those_of_each_prefix():
    d = np.random.default_rng(3).normal(0.05, 0.02, 50)
    n, mean, sd = seq.running(d)
    for k in (2, 7, 50):
        assert mean[k - 1] == pytest.approx(d[:k].mean(), rel=1e-12)
        assert sd[k - 1] == pytest.approx(d[:k].std(ddof=1), rel=1e-10)
    low, high = seq.intervals(d, 0.95)
    c = seq.critical_t(20, 0.95)
    assert (high[19] - low[19]) / 2 == pytest.approx(c * d[:20].std(ddof=1) / math.sqrt(20), rel=1e-10)
    assert np.isinf(low[0]) and np.isinf(high[0])


def test_the_live_sums_are_the_replayed_ones_to_the_bit():
    d = np.random.default_rng(8).normal(1e3, 0.3, 400)  # far from zero: cancellation would show
    live = seq.Running()
    n, mean, sd = seq.running(d)
    for k, x in enumerate(d):
        live.add(float(x))
        if k:
            assert live.stats() == (n[k], mean[k], sd[k])


@pytest.mark.parametrize("low, high, threshold, expected", [
    (0.001, 0.05, 0.01, seq.FASTER),      # excludes no change, reaches beyond the band
    (-0.05, -0.001, 0.01, seq.SLOWER),
    (-0.005, 0.009, 0.01, seq.SAME),      # inside ±log(1.01)
    (0.002, 0.009, 0.01, seq.SAME),       # significant but inside the band: the verdict's "same"
    (-0.02, 0.02, 0.01, seq.UNDECIDED),
    (-0.005, 0.005, 0.0, seq.UNDECIDED),  # no band: "same" cannot be shown
    (-math.inf, math.inf, 0.01, seq.UNDECIDED),
])
def test_decisions_read_the_interval_as_the_verdict_does(low, high, threshold, expected):
    assert int(seq.decide(low, high, threshold)) == expected


def test_first_decisions_respect_min_rounds_and_the_limit():
    d = np.full((1, 30), 0.2) + np.random.default_rng(1).normal(0, 0.01, (1, 30))
    outcome, rounds = seq.first_decisions(d, 0.95, 0.01, min_rounds=12)
    assert outcome[0] == seq.FASTER and rounds[0] == 12
    flat = np.random.default_rng(2).normal(0, 0.5, (1, 30))
    outcome, rounds = seq.first_decisions(flat, 0.95, 0.01, max_rounds=20)
    assert outcome[0] == seq.UNDECIDED and rounds[0] == 20


def test_fixed_rounds_for_power_matches_power_t_test():
    # R: power.t.test(delta = 0.5, sd = 1, power = 0.8, type = "one.sample")$n  -> 33.36713 (34 rounds)
    from perfrigor_plugins.measure.calibration import fixed_rounds_for_power

    assert fixed_rounds_for_power(1.0, 0.5, 0.8) == 34
    # the normal approximation the report uses: ((1.95996 + 0.84162) * 2)^2 = 31.4 -> 32
    assert seq.fixed_rounds(0.02, 0.01, 0.95) == 32
    assert seq.fixed_rounds(0.02, 0.0, 0.95) is None
