"""Runs whose level moves between several segments (undeclared invocations): the segments' batch-means variance.

The rule (plugins/perfrigor_plugins/verdict/dependence.py, ``block_factor``): the segments of constant
level are clusters; the variance of a series' mean is that of the segments' means (batch means,
k - 1 degrees of freedom; Kish's effective count n² / sum m_j² for unequal segments). Checked
against its source: with the segments exactly the clusters, the widened Welch test is Welch's
t-test on the cluster means (scipy), and Kish's formula by hand. The simulation checks hold the
calibration rows it fixed (docs/methods/verdict.md: undeclared-hierarchy, AR(1) at 30 runs).
"""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr
import pytest
from perfrigor import simulate
from perfrigor_plugins.verdict import dependence
from scipy import stats as sps


def blocks(levels, sizes, noise, rng):
    return np.concatenate([level + noise * rng.standard_normal(size) for level, size in zip(levels, sizes,
                                                                                            strict=True)])


def test_the_segments_variance_is_the_batch_means_variance_of_the_clusters():
    rng = np.random.default_rng(3)
    levels = [0.0, 0.05, -0.04, 0.02]
    z = blocks(levels, [10] * 4, 0.002, rng)
    factor, k_eff = dependence.block_factor(z)
    means = z.reshape(4, 10).mean(axis=1)
    # the variance of the mean of 4 equal clusters: their means' sample variance / 4 (batch means)
    expected = z.size * (means.var(ddof=1) / 4) / z.var(ddof=1)
    assert factor == pytest.approx(expected, rel=1e-12)
    assert k_eff == pytest.approx(4.0)


def test_unequal_segments_count_by_kishs_effective_number():
    rng = np.random.default_rng(4)
    z = blocks([0.0, 0.06, -0.05, 0.03], [10, 10, 5, 5], 0.002, rng)
    _, k_eff = dependence.block_factor(z)
    assert k_eff == pytest.approx(30 ** 2 / (10 ** 2 + 10 ** 2 + 5 ** 2 + 5 ** 2))  # Kish (1965): n² / sum m²


def test_independent_runs_and_a_single_step_have_no_segments_factor():
    rng = np.random.default_rng(5)
    assert dependence.block_factor(rng.standard_normal(30)) == (1.0, 1.0)
    assert dependence.block_factor(blocks([0.0, 1.0], [15, 15], 0.01, rng))[0] == 1.0  # one step: level by level
    assert dependence.block_factor(rng.standard_normal(12))[0] == 1.0  # too short for 3 segments of 5


def test_widened_by_the_segments_the_test_is_welchs_on_the_cluster_means():
    # the source of the degrees of freedom: with the segments exactly the invocations, the variance of each side's
    # mean is its invocation means' (batch means), worth k - 1 degrees of freedom: Welch's t-test on those means
    rng = np.random.default_rng(6)
    x = blocks([0.0, 0.04, -0.03], [10] * 3, 0.001, rng)
    y = blocks([0.01, -0.02, 0.05], [10] * 3, 0.001, rng)
    (tx, kx), (ty, ky) = dependence.block_factor(x), dependence.block_factor(y)
    assert (kx, ky) == (3.0, 3.0)
    # the verdict's degrees of freedom for a side its segments widen: n / kappa - 1 with kappa = n / k_eff
    ours = pr.stats.yuen_shift(x, y, 0.95, inflation=(tx, ty), trim=0.0, df_inflation=(x.size / kx, y.size / ky))
    welch = sps.ttest_ind(x.reshape(3, 10).mean(axis=1), y.reshape(3, 10).mean(axis=1), equal_var=False)
    ci = welch.confidence_interval(0.95)
    assert (ours.estimate, ours.ci_low, ours.ci_high, ours.pvalue, ours.df) == pytest.approx(
        (x.mean() - y.mean(), ci.low, ci.high, welch.pvalue, welch.df), rel=1e-9)
    # the runs' worth alone, n/tau - 1, undercounts the clusters' (the absurd widths at 20-60 runs)
    alone = pr.stats.yuen_shift(x, y, 0.95, inflation=(tx, ty), trim=0.0)
    assert alone.df < welch.df and alone.ci_high - alone.ci_low > ci.high - ci.low


def test_where_the_segments_set_the_widening_they_set_its_degrees_of_freedom():
    obs = dependence.Observation((30, 30), (0.5, 0.2), (0.5, 0.2, 0.1), 1, (3.0, 3.0), blocks=(12.0, 1.0),
                                 segments=(3.0, 1.0))
    w = dependence.alone(obs)
    assert w.taus[0] == 12.0 and w.taus[1] < 12.0  # each side by its own segments
    assert w.precision == 0.0
    assert w.df_taus[0] == pytest.approx(30 / 3.0)  # n / k_eff: k_eff - 1 = 2 degrees of freedom
    assert w.df_taus[1] == pytest.approx(min(w.taus[1], 10.0))
    plain = dependence.alone(attrs.evolve(obs, blocks=(1.0, 1.0), segments=(1.0, 1.0)))
    assert plain.df_taus is None and plain.precision > 0.0
    assert dependence.Observation.from_dict(obs.to_dict()) == obs


def test_a_leading_level_the_runs_come_back_near_is_no_warm_up():
    from perfrigor_plugins.verdict.steady import one_of_several_levels
    rng = np.random.default_rng(8)
    # a flattened hierarchy: the first invocation high, and a later one as high: one of several levels, kept
    invocations = np.exp(blocks([0.03, 0.0, -0.02, 0.01, 0.03, -0.01, 0.0, 0.02, -0.03, 0.01], [10] * 10, 0.003, rng))
    assert one_of_several_levels(invocations, 10)
    # a warm-up: the first runs high, then one level: cut
    warm = np.exp(blocks([0.08, 0.0], [10, 90], 0.003, rng))
    assert not one_of_several_levels(warm, 10)
    # a warm-up before runs that move, but never back near it: cut
    moving = np.exp(blocks([0.10, 0.0, 0.02, -0.01, 0.01], [10, 25, 25, 20, 20], 0.003, rng))
    assert not one_of_several_levels(moving, 10)


def test_a_system_whose_invocations_sit_alike_is_read_over_the_others_segments():
    # three invocations of 10 runs a side (same harness); the first system's last two sit alike: one step, no
    # clusters of its own, so its lags alone judged it; over the other's three segments its batch means show them
    rng = np.random.default_rng(9)
    x = blocks([0.05, 0.0, 0.0], [10] * 3, 0.01, rng)
    y = blocks([0.0, 0.04, -0.03], [10] * 3, 0.01, rng)
    assert dependence.block_factor(x)[0] == 1.0 and dependence.block_factor(y)[1] == pytest.approx(3.0)
    (fx, kx), (fy, ky) = dependence.pair_factors([x, y])
    assert (fy, ky) == dependence.block_factor(y)
    means = x.reshape(3, 10).mean(axis=1)
    assert fx == pytest.approx(x.size * (means.var(ddof=1) / 3) / x.var(ddof=1), rel=1e-12) and kx == 3.0
    # aligned at the ends: the first system without its first 4 runs (a warm-up cut) has segments of 6, 10, 10
    (fc, kc), _ = dependence.pair_factors([x[4:], y])
    assert fc > 1.0 and kc == pytest.approx(26 ** 2 / (6 ** 2 + 10 ** 2 + 10 ** 2))
    # independent runs beside independent runs: nothing to read
    assert dependence.pair_factors([rng.standard_normal(30), rng.standard_normal(30)]) == [(1.0, 1.0)] * 2


def test_a_single_step_beside_runs_in_groups_is_dependence_not_a_machine_that_changed():
    # simulate's undeclared-hierarchy, replicate 4: Pettitt sees one step in the baseline (two of its invocations
    # sit alike); the candidate's level moves between three segments: the same harness groups its runs, so the
    # baseline's step is not compared level by level
    old, new = simulate.model("undeclared-hierarchy").pair(30, 1.0, random_state=4)
    v = pr.get("verdict").compare(old, new)
    assert "step" in v.details["flags"], v.details["flags"]
    assert not any("compared level by level" in r for r in v.reasons), v.reasons
    assert v.details["dependence"]["blocks"][0] > 1.0  # the baseline read over the candidate's segments
    rng = np.random.default_rng(11)
    alone = pr.get("verdict").compare(old, np.exp(blocks([0.0], [30], 0.01, rng)) * 1e-3)
    assert any("compared level by level" in r for r in alone.reasons)  # the other's runs in one level: a step


def test_leading_runs_that_are_one_of_several_levels_are_not_cut_as_warm_up():
    # the dependence check reads the first 7 runs of this flattened hierarchy (simulate's undeclared-hierarchy,
    # replicate 50) as warm-up; the steady runs move between levels of their own: an invocation, kept
    old, new = simulate.model("undeclared-hierarchy").pair(30, 1.0, random_state=50)
    from perfrigor_plugins.verdict.evidence import dependence_of
    assert dependence_of(new).warmup == 7
    v = pr.get("verdict").compare(old, new)
    assert "warmup" not in v.details["flags"] and not any("warm-up" in r for r in v.reasons), v.reasons


def test_modes_whose_shares_moved_in_runs_grouped_in_time_answer_with_the_hull_of_the_typical_run():
    # simulate's undeclared-hierarchy, replicate 15: invocations read as two modes whose shares moved (63% vs 33%):
    # "unclear", and the interval is no longer the dominant mode's alone (one invocation of each system, which
    # missed the truth in a third of such replicates) but its hull with the typical run's, widened
    old, new = simulate.model("undeclared-hierarchy").pair(30, 1.0, random_state=15)
    v = pr.get("verdict").compare(old, new)
    assert v.outcome == "unclear" and v.reasons[0].startswith("the modes did not move"), v.reasons
    parts = v.details["recipe"]["parts"]
    assert len(parts) == 2 and parts[1]["baseline"][2] is None  # the mode's runs, then all runs


# ------------------------------------------------------------------------------ the rows it fixed, by simulation


def _pipeline(dep: str) -> pr.Pipeline:
    return pr.Pipeline(["independence", "mode-comparison",
                        {"component": "verdict", "dependence": dep, "suite_control": "none"}], name="calibration")


@pytest.mark.slow
def test_undeclared_invocations_and_ar1_at_thirty_runs_hold_the_level():
    # docs/methods/verdict.md's rows before the segments' variance (300 replicates, seed 0): undeclared-hierarchy at
    # 30 runs 7.3% A/A alone, coverage 85%; AR(1) 0.5 at 30 runs 7.7% A/A in a suite. On these seeds, 200
    # replicates, the segments' factor switched off (LOOKS_DEPENDENT = inf) gives 5.5% and 94.5%, and 8.5%
    replicates, seed = 200, 20261126
    und = simulate.calibrate(_pipeline("benchmark"), "undeclared-hierarchy", 30, 1.0, replicates, seed)["verdict"]
    assert und.alarm <= 0.05, und.counts
    assert und.coverage >= 0.95, und.coverage
    ar1 = simulate.calibrate(_pipeline("suite"), "ar1", 30, 1.0, replicates, seed, suites_of=20)["verdict"]
    assert ar1.alarm <= 0.06, ar1.counts
