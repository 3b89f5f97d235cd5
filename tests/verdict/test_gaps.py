"""Modes of runs too few for a mixture (below 20 a system): clusters a clear gap separates (verdict/gaps.py)."""

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import simulate
from perfrigor_plugins.verdict import gaps, persistence


def _sample(values, name="s"):
    return pr.Sample(np.asarray(values, dtype=float) * 1e-3, name=name)


def test_two_modes_far_apart_are_cut_at_their_gap():
    """Six runs near 1 and four near 1.3 (1% noise): the gap of 0.25 on the log scale is about 25 spreads."""
    values = np.array([1.00, 1.31, 0.99, 1.01, 1.29, 1.00, 1.30, 0.98, 1.02, 1.32])
    labels = gaps.clusters(np.log(values))
    assert labels.tolist() == [0, 1, 0, 0, 1, 0, 1, 0, 0, 1]


def test_three_modes_are_cut_at_both_gaps():
    values = np.array([1.00, 1.15, 1.40, 1.01, 0.99, 1.16, 1.00, 1.14, 1.01, 0.99])
    assert gaps.clusters(np.log(values)).tolist() == [0, 1, 2, 0, 0, 1, 0, 1, 0, 0]


def test_independent_runs_are_rarely_cut():
    """A gap of 8 within-cluster spreads: the share of 10 independent normal runs cut, and of Student t3 (an
    outlier split off), by simulation: about 0.3% and 2% (the module docstring)."""
    rng = np.random.default_rng(0)
    normal = np.mean([gaps.clusters(rng.normal(0.0, 0.01, 10)).max() > 0 for _ in range(2000)])
    t3 = np.mean([gaps.clusters(0.01 * rng.standard_t(3, 10)).max() > 0 for _ in range(2000)])
    assert normal <= 0.01 and t3 <= 0.04


def test_gaps_under_2_percent_are_no_modes():
    """Runs with almost no noise and a gap of 1%: within a mode, for performance purposes (the mode rules' 2%)."""
    values = np.array([1.0, 1.0001, 0.9999, 1.01, 1.0101, 1.0099, 1.0, 1.01, 1.0002, 1.0098])
    assert gaps.clusters(np.log(values)).max() == 0


def test_small_modes_matches_the_systems_modes_and_names_the_dominant_one():
    old = _sample([1.00, 1.31, 0.99, 1.01, 1.29, 1.00, 1.30, 0.98, 1.02, 1.32])
    new = _sample([1.05, 1.06, 1.04, 1.37, 1.05, 1.06, 1.04, 1.05, 1.07, 1.36])  # 5% slower, fewer slow runs
    res = gaps.small_modes(old, new, 0.95)
    assert res is not None and res.kind == "shared" and len(res.modes) == 2
    fast = res.modes[res.dominant]
    assert (fast.baseline_runs, fast.candidate_runs) == (6, 8)
    assert fast.baseline_location == pytest.approx(1.0e-3, rel=0.02)
    assert list(res.baseline_modes) == [0, 1, 0, 0, 1, 0, 1, 0, 0, 1]
    assert res.shares_pvalue == pytest.approx(0.6285, abs=1e-3)  # Fisher's exact test on [[6, 4], [8, 2]]


def test_no_modes_without_a_clear_gap_or_on_a_timer_grid():
    rng = np.random.default_rng(1)
    assert gaps.small_modes(_sample(rng.normal(1, 0.01, 10)), _sample(rng.normal(1, 0.01, 10)), 0.95) is None
    ticks = [10, 10, 10, 11, 10, 10, 13, 13, 10, 10]  # a coarse timer: gaps of whole ticks and no spread within
    assert gaps.small_modes(_sample(ticks), _sample(ticks[::-1]), 0.95) is None


def test_the_verdict_compares_the_dominant_mode_of_ten_runs():
    """Two modes 30% apart whose shares differ between the sessions: the typical run of all runs says nothing
    clear (the slow runs' share moves it), the fast mode shows the 5% slowdown."""
    old = _sample([1.00, 1.31, 0.99, 1.01, 1.29, 1.00, 1.30, 0.98, 1.02, 1.32])
    new = _sample([1.05, 1.06, 1.04, 1.37, 1.05, 1.06, 1.04, 1.05, 1.07, 1.36])
    v = pr.get("verdict").compare(old, new)
    assert v.outcome == "slower" and "multimodal" in v.details["flags"]
    assert v.speedup == pytest.approx(1 / 1.05, rel=0.01) and v.details["statistic"].startswith("mode at")
    assert any("2 modes" in r for r in v.reasons)


def test_from_20_runs_the_mode_rules_decide():
    rng = np.random.default_rng(2)
    old, new = simulate.model("session-modes").pair(20, 1 / 1.05, rng)
    assert min(len(old), len(new)) >= gaps.FOR_MIXTURES
    v = pr.get("verdict").compare(old, new)
    assert v.method != "location-shift" or "multimodal" not in v.details["flags"]


@pytest.mark.slow
def test_modes_of_ten_runs_are_found_and_hold_their_level():
    """session-modes and three-modes at 10 runs a side: judged as one mode the verdict found 0-4% of 5% slowdowns
    in a suite (docs/methods/verdict.md); by their dominant mode it finds most of them alone, and unchanged
    systems read faster or slower at most 5% of the time (+ 2 Monte-Carlo standard errors)."""
    step = pr.get("verdict")
    for name in ("session-modes", "three-modes"):
        model = simulate.model(name)
        rng = np.random.default_rng(7)
        aa = [step.compare(*model.pair(10, 1.0, rng)).outcome for _ in range(200)]
        slower = [step.compare(*model.pair(10, 1 / 1.05, rng)).outcome for _ in range(60)]
        alarm = np.mean([o in ("faster", "slower") for o in aa])
        assert alarm <= 0.05 + 2 * simulate.Rates.standard_error(0.05, 200), (name, alarm)
        assert np.mean([o == "slower" for o in slower]) >= 0.7, name
        assert "faster" not in slower


# ------------------------------------------------------------------ modes that persist in time: the runs test


@pytest.mark.parametrize("sequence", [[1, 1, 1, 0, 0, 0, 0, 1, 1, 0], [1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1],
                                      [1, 1, 1, 1, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0]])
def test_runs_test_is_the_share_of_orders_with_as_few_stretches(sequence):
    """The reference is the definition: every order of the same runs enumerated, those with at most as many
    stretches of equal membership counted."""
    import itertools
    s = np.array(sequence, dtype=bool)
    observed = 1 + np.count_nonzero(s[1:] != s[:-1])
    orders = fewer = 0
    for chosen in itertools.combinations(range(s.size), int(s.sum())):
        t = np.zeros(s.size, dtype=bool)
        t[list(chosen)] = True
        orders += 1
        fewer += 1 + np.count_nonzero(t[1:] != t[:-1]) <= observed
    assert persistence.runs_pvalue(s) == pytest.approx(fewer / orders, rel=1e-9)


def test_runs_test_of_long_series_is_normal_and_calibrated():
    rng = np.random.default_rng(0)
    ps = np.array([persistence.runs_pvalue(rng.random(2000) < 0.3) for _ in range(400)])
    assert 0.02 <= np.mean(ps < 0.05) <= 0.09  # at random: about 5%
    blocks = np.repeat(rng.random(40) < 0.3, 50)  # 40 stretches of 50 runs: modes that persist
    assert persistence.runs_pvalue(blocks) < 1e-6 and persistence.runs_pvalue(np.ones(30, bool)) == 1.0


def test_modes_at_random_are_strata_and_modes_in_stretches_persist():
    strata = [[0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0], [0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]]
    invocations = [[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]]
    assert not persistence.modes_persist(strata, 0, 0.05)
    assert persistence.modes_persist(invocations, 0, 0.05)


@pytest.mark.slow
def test_modes_at_random_keep_the_answer_of_their_mode_though_the_runs_look_dependent():
    """Three modes in random order, 30 runs a side, 5% slower: their shares move the level, so the whole series
    often reads dependent and the typical run disagrees with the mode; the runs test says the modes are strata
    and the mode's answer stands (97% of the multimodal verdicts slower; 74% when every dependent-looking
    multimodal series counted as modes that persist)."""
    rng = np.random.default_rng(12)
    outcomes = []
    for _ in range(120):
        old, new = simulate.model("three-modes").pair(30, 1 / 1.05, rng)
        v = pr.get("verdict").compare(old, new)
        if "multimodal" in v.details["flags"]:
            outcomes.append(v.outcome)
    assert len(outcomes) >= 100 and np.mean([o == "slower" for o in outcomes]) >= 0.9
    assert "faster" not in outcomes
