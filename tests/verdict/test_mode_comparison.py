"""mode-comparison: shared, shifted and different modes, the shift within each, the shares test."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.gmm.mixture import Mixture
from perfrigor_plugins.gmm.modes import ashman_d, group_modes


def bimodal(rng, n, share, fast=10.0, slow=13.0, cv=0.01):
    slow_runs = rng.random(n) < share
    return np.where(slow_runs, slow, fast) * (1 + cv * rng.standard_normal(n))


def test_components_close_together_are_one_mode():
    mix = Mixture([0.5, 0.3, 0.2], [10.0, 10.1, 13.0], [0.1, 0.1, 0.1])
    modes = group_modes(mix, n=100)
    assert [m.components for m in modes] == [(0, 1), (2,)]
    assert modes[0].weight == pytest.approx(0.8) and modes[1].location == pytest.approx(13.0)
    assert ashman_d(10, 0.1, 13, 0.1) == pytest.approx(30.0)


def test_a_few_outliers_join_the_nearest_mode():
    mix = Mixture([0.98, 0.02], [10.0, 25.0], [0.1, 0.5])
    assert len(group_modes(mix, n=50)) == 1  # one run at 25: an outlier, not a mode
    assert len(group_modes(mix, n=500)) == 2


def test_shared_modes_whose_shares_moved():
    rng = np.random.default_rng(1)
    res = pr.get("mode-comparison").compare(bimodal(rng, 100, 0.1), bimodal(rng, 100, 0.5))
    assert res.kind == "shared" and len(res.modes) == 2 and res.shares_pvalue < 0.001
    main = res.modes[res.dominant]
    assert main.baseline_location == pytest.approx(10, rel=0.01) and main.ci_low < 1 < main.ci_high
    assert "shares differ" in res.verdict
    assert len(res.baseline_modes) == 100 and set(res.candidate_modes) <= {0, 1}


def test_every_mode_shifted_gives_the_shift_within_the_dominant_mode():
    rng = np.random.default_rng(2)
    res = pr.get("mode-comparison").compare(bimodal(rng, 100, 0.3), bimodal(rng, 100, 0.3) / 1.05)
    assert res.kind in ("shared", "shifted")
    assert res.estimate == pytest.approx(1.05, rel=0.01) and res.significant


def test_a_mode_that_only_one_system_has():
    rng = np.random.default_rng(3)
    res = pr.get("mode-comparison").compare(rng.normal(10, 0.1, 60), bimodal(rng, 60, 0.4, slow=12.0))
    assert res.kind in ("different", "shared")
    if res.kind == "shared":  # the slow mode is a mode of the candidate only: its share moved from 0
        assert any(m.baseline_runs == 0 for m in res.modes) and res.shares_pvalue < 0.001


def test_unimodal_and_too_few_runs():
    rng = np.random.default_rng(4)
    res = pr.get("mode-comparison").compare(rng.normal(10, 0.1, 40), rng.normal(10, 0.1, 40))
    assert res.kind == "unimodal" and res.dominant == 0
    few = pr.get("mode-comparison").compare(bimodal(rng, 10, 0.5), bimodal(rng, 10, 0.5))
    assert few.kind == "unimodal" and "too few to tell modes" in few.warnings[0]


def test_higher_is_better_flips_the_speedup():
    rng = np.random.default_rng(5)
    x = bimodal(rng, 80, 0.3)
    res = pr.get("mode-comparison").compare(pr.Sample(x, lower_is_better=False),
                                            pr.Sample(x * 1.05, lower_is_better=False))
    assert res.estimate == pytest.approx(1.05, rel=1e-6)


def test_nonpositive_values_are_refused():
    with pytest.raises(pr.DataError, match="not positive"):
        pr.get("mode-comparison").compare([1.0, -1.0, 2.0], [1.0, 2.0, 3.0])
