"""KSfit is calibrated: on samples from a true mixture it rejects at close to alpha (paper 5.2.1)."""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor_plugins.gmm import ksfit
from perfrigor_plugins.gmm.mixture import Mixture
from scipy import stats


@pytest.mark.slow
def test_ksfit_rejects_a_true_mixture_at_about_alpha():
    """300 samples (n = 30, the paper's well-calibrated case) of a two-component mixture.

    Each gets N = 19 bootstrap refits (K re-chosen in 1..3 to keep the test short;
    all 5,700 refits are fitted in batches). Under H0 the number of bootstrap KS
    exceeding KS_X is uniform on 0..19, so "reject at alpha = 0.05" (none exceeds)
    happens with probability 1/20.
    """
    rng = np.random.default_rng(2016)
    truth = Mixture([0.6, 0.4], [10.0, 14.0], [1.0, 1.2])
    m, n_boot = 300, 19
    out = ksfit.ksfit_batch(truth.sample((m, 30), rng), n_boot, rng, max_components=3)
    exceed = (out.bootstrap > out.statistic[:, None]).sum(axis=1)
    rate = np.mean(exceed == 0)
    assert 0.05 - 3 * 0.0126 < rate < 0.05 + 3 * 0.0126  # binomial sd sqrt(0.05 * 0.95 / 300)
    # the paper's check: chi-square uniformity of the p-values (here the ranks, 10 cells of 2)
    cells = np.bincount(exceed // 2, minlength=10)
    assert stats.chisquare(cells).pvalue > 0.001


@pytest.mark.slow
def test_ksfit_has_power_against_a_skewed_shape():
    """Shifted-exponential data (the paper's power study, 5.2.2: 18.8% at n = 100, 62.8% at n = 500) are rejected well above alpha."""
    rng = np.random.default_rng(7)
    m, n_boot = 40, 19
    x = 10 + rng.exponential(1.0, (m, 200))
    out = ksfit.ksfit_batch(x, n_boot, rng, max_components=3)
    rate = np.mean((out.bootstrap > out.statistic[:, None]).sum(axis=1) == 0)
    assert rate > 0.15  # 0.225 here; a powerless test would give about 0.05 (P[>= 7 of 40] < 0.01)
