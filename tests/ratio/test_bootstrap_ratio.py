"""Hierarchical-bootstrap interval for the ratio of means (Kalibera & Jones 2013, §7.3.1, Fig. 2)."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.ratio import BootstrapRatio, Fieller

# Table V (the Table VI replicates are reproduced from the paper's indices in tests/test_resampling.py)
OLD = np.array([[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]], dtype=float)
NEW = np.array([[[10, 12], [6, 7]], [[9, 1], [11, 4]], [[8, 5], [3, 2]]], dtype=float)


def test_interval_is_the_percentile_interval_of_resampled_ratios():
    r = BootstrapRatio(n_bootstrap=1000, random_state=7).compare(OLD, NEW)
    ratios = pr.resampling.bootstrap_ratio(NEW, OLD, 1000, random_state=np.random.default_rng(7))
    ordered = np.sort(ratios)
    assert (r.details["ratio"]["ci_low"], r.details["ratio"]["ci_high"]) == (ordered[24], ordered[974])
    assert r.details["ratio"]["estimate"] == pytest.approx(6.5 / 10.5)
    assert (r.ci_low, r.ci_high) == (1 / ordered[974], 1 / ordered[24])
    assert r.pvalue is None and r.details["n_bootstrap"] == 1000
    assert sum("only 3 build" in w for w in r.warnings) == 2
    assert any("fewer than 1000" in w for w in BootstrapRatio(n_bootstrap=500, random_state=0)
               .compare(OLD, NEW).warnings)


def test_reproducible_with_random_state():
    a = BootstrapRatio(n_bootstrap=2000, random_state=3).compare(OLD, NEW)
    b = BootstrapRatio(n_bootstrap=2000, random_state=3).compare(OLD, NEW)
    c = BootstrapRatio(n_bootstrap=2000, random_state=4).compare(OLD, NEW)
    assert a.to_dict() == b.to_dict()
    assert (a.ci_low, a.ci_high) != (c.ci_low, c.ci_high)
    g1 = BootstrapRatio(n_bootstrap=500, random_state=np.random.default_rng(9)).compare(OLD, NEW)
    g2 = BootstrapRatio(n_bootstrap=500, random_state=np.random.default_rng(9)).compare(OLD, NEW)
    assert g1.ci_low == g2.ci_low


def test_agrees_with_fieller_on_large_experiments():
    rng = np.random.default_rng(11)
    old = 10 + rng.normal(0, 0.3, (30, 1, 1)) + rng.normal(0, 0.5, (30, 8, 1)) + rng.normal(0, 0.2, (30, 8, 10))
    new = 9.5 + rng.normal(0, 0.3, (30, 1, 1)) + rng.normal(0, 0.5, (30, 8, 1)) + rng.normal(0, 0.2, (30, 8, 10))
    boot = BootstrapRatio(n_bootstrap=4000, random_state=0).compare(old, new).details["ratio"]
    fieller = Fieller().compare(old, new).details["ratio"]
    width = fieller["ci_high"] - fieller["ci_low"]
    assert boot["ci_low"] == pytest.approx(fieller["ci_low"], abs=0.15 * width)
    assert boot["ci_high"] == pytest.approx(fieller["ci_high"], abs=0.15 * width)


def test_variants():
    rng = np.random.default_rng(2)
    old, new = rng.normal(10, 1, (6, 5, 4)), rng.normal(9.6, 1, (6, 5, 4))
    widths = {}
    for resample in ("all", "RRN", "top", "flat"):
        r = BootstrapRatio(n_bootstrap=3000, random_state=1, resample=resample).compare(old, new)
        widths[resample] = r.details["ratio"]["ci_high"] - r.details["ratio"]["ci_low"]
        assert r.details["resample"] == resample
    # each level kept intact removes its resampling noise: narrower intervals
    assert widths["top"] < widths["RRN"] < widths["all"]
    with pytest.raises(pr.DataError, match="pattern"):
        BootstrapRatio(n_bootstrap=100, resample="RN").compare(old, new)
    with pytest.raises(ValueError, match="resample"):
        BootstrapRatio(resample="everything")


def test_zero_variance_and_directions():
    r = BootstrapRatio(n_bootstrap=200, random_state=0).compare(np.full((6, 3), 2.0), np.full((6, 3), 1.0))
    assert (r.estimate, r.ci_low, r.ci_high, r.significant) == (2.0, 2.0, 2.0, True)
    assert any("same ratio" in w for w in r.warnings)
    rng = np.random.default_rng(0)
    base = rng.normal(50, 1, (8, 6))
    thr = BootstrapRatio(n_bootstrap=1000, random_state=0).compare(
        pr.Sample(base, lower_is_better=False), pr.Sample(base * 1.2, lower_is_better=False))
    assert thr.estimate == pytest.approx(1.2) and thr.ci_low > 1 and thr.significant
    with pytest.raises(pr.DataError, match="not positive"):
        BootstrapRatio(n_bootstrap=100).compare([1.0, 0.0], [1.0, 2.0])


def test_progress_bar_gets_the_bootstrap():
    calls = []

    class Recorder:
        def start(self, total, description):
            calls.append((total, description))
            return lambda n=1: None

        def finish(self):
            pass

    previous = pr.progress.set_reporter(Recorder())
    try:
        BootstrapRatio(n_bootstrap=1500, random_state=0).compare(OLD, NEW)
    finally:
        pr.progress.set_reporter(previous)
    assert calls == [(1500, "bootstrap ratio")]


def test_baseline_mean_near_zero_gives_a_wide_but_finite_interval():
    # Where Fieller's condition fails the bootstrap still gives an interval (§5.3: "the bootstrap
    # has no such problem"); here it is wide, honestly so.
    old = [0.001, 0.002, 0.0015, 3.0, 0.001, 0.002]
    new = [1.0, 1.1, 0.9, 1.05, 0.95, 1.0]
    assert Fieller().compare(old, new).ci_low is None
    r = BootstrapRatio(n_bootstrap=2000, random_state=0).compare(old, new)
    ratio = r.details["ratio"]
    assert np.isfinite(ratio["ci_low"]) and np.isfinite(ratio["ci_high"])
    assert ratio["ci_high"] / ratio["ci_low"] > 5


@pytest.mark.parametrize("resample", ["all", "top", "flat"])
def test_a_single_measurement_is_an_error_not_a_significant_interval(resample):
    # One baseline run carries no variation: the interval would reflect the candidate's alone
    # and call a change significant on one run.
    with pytest.raises(pr.DataError, match=r"baseline .*at least 2 measurements.*got 1"):
        BootstrapRatio(resample=resample).compare([1.5], np.arange(1.0, 21.0))
    with pytest.raises(pr.DataError, match=r"candidate .*at least 2 measurements"):
        BootstrapRatio(resample=resample).compare(np.arange(1.0, 21.0), [[3.0]])


def test_the_adaptive_defaults_are_the_resampling_modules():
    from perfrigor_plugins.ratio import bootstrap
    assert (bootstrap.ADAPTIVE_DRAWS, bootstrap.MIN_REPLICATES) == (pr.resampling.ADAPTIVE_DRAWS,
                                                                     pr.resampling.MIN_REPLICATES)
