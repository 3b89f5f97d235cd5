"""Worked numbers of Worms & Touati (2016, RR-8875 v1) and of the spec (section 11).

Sources: App. A Example 1 (fitted mixture of the ammp sample, I4 = 4, cluster
listing), App. A Example 2 (bookkeeping), Fig. 6 mixtures with the values the
spec derived and checked by Monte Carlo (spec 11.3), section 5.1.2 (KSfit
p-value and critical value conventions, Example 5.2).
"""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor_plugins.gmm import ksfit, metrics
from perfrigor_plugins.gmm.mixture import Mixture

# App. A Example 1: VARCORE_extract_cluster_information(clusC1)
EXAMPLE_1 = Mixture([0.09677359, 0.15280620, 0.45830339, 0.16059283, 0.13152400],
                    [92.21333, 93.26964, 93.54552, 94.21802, 94.99607],
                    [0.163372026, 0.146702827, 0.227167773, 0.003986046, 0.392762363])
# Fig. 6 (p. 18)
PLAIN = Mixture([0.5, 0.35, 0.15], [2, 8, 25], [0.5, 0.5, 0.5])
DASHED = Mixture([0.25, 0.5, 0.25], [4, 16, 23], [1.5, 2, 2])
DOTTED = Mixture([0.35, 0.65], [10, 14], [2, 4])


def test_example_1_has_four_modes_for_five_components():
    # paper: "the variability level of C1 is 4, even if its number of clusters is 5" (I4 != K)
    modes = EXAMPLE_1.modes()
    assert modes.size == 4
    # spec 11.2: modes at about 92.2133, 93.4159, 94.2180, 94.9961 (components 2 and 3 merge)
    np.testing.assert_allclose(modes, [92.2133, 93.4159, 94.2180, 94.9961], atol=5e-4)
    assert EXAMPLE_1.mean == pytest.approx(93.673225, abs=1e-6)


def test_example_1_cluster_listing_is_the_map_classification():
    # App. A: VARCORE_extract_cluster_list(clusC1, C1) (as extracted; the listing is incomplete)
    listing = [[92.41, 92.01, 92.22], [93.22, 93.21, 93.21, 93.02, 93.21],
               [93.61, 93.62, 94.01, 93.42, 93.82, 93.41, 93.61, 93.42, 93.42, 93.61, 93.62, 93.42, 93.81],
               [94.22, 94.22, 94.22, 94.21], [95.61, 95.02, 94.62, 94.81]]
    for k, values in enumerate(listing):
        assert set(EXAMPLE_1.classify(np.array(values)).tolist()) == {k}


def test_figure_6_modes():
    # spec 11.3: A -> 3 modes (2, 8, 25); B -> 3 (4.0000, 16.0078, 22.9677); C -> 1 (10.5743) although K = 2
    np.testing.assert_allclose(PLAIN.modes(), [2, 8, 25], atol=1e-6)
    np.testing.assert_allclose(DASHED.modes(), [4.0000, 16.0078, 22.9677], atol=1e-4)
    np.testing.assert_allclose(DOTTED.modes(), [10.5743], atol=1e-4)


def test_figure_6_metric_values():
    # spec 11.3 (closed forms, checked there by 2e6-draw Monte Carlo)
    assert metrics.mean_abs_difference_gm(PLAIN, DASHED) == pytest.approx(11.0085272051, abs=1e-9)
    assert metrics.mean_abs_difference_gm(DASHED, DOTTED) == pytest.approx(7.0974227778, abs=1e-9)
    assert metrics.mean_abs_difference_gm(PLAIN, DOTTED) == pytest.approx(8.8715708463, abs=1e-9)
    assert metrics.prob_less_gm(PLAIN, DASHED) == pytest.approx(0.7563462227, abs=1e-9)
    assert metrics.prob_less_gm(DASHED, PLAIN) == pytest.approx(0.2436537773, abs=1e-9)
    assert metrics.prob_less_gm(PLAIN, DASHED, delta=1.0) == pytest.approx(0.7731874158, abs=1e-9)
    assert metrics.prob_less_gm(DOTTED, DASHED) == pytest.approx(0.6393335920, abs=1e-9)
    i3 = [metrics.prob_smallest_gm(order) for order in ([PLAIN, DASHED, DOTTED], [DASHED, PLAIN, DOTTED],
                                                        [DOTTED, PLAIN, DASHED])]
    np.testing.assert_allclose(i3, [0.7227248249, 0.1532169838, 0.1240581913], atol=1e-9)
    assert sum(i3) == pytest.approx(1.0, abs=1e-9)
    assert PLAIN.quantile(0.5) == pytest.approx(5.0144790, abs=1e-7)
    assert float(DOTTED.cdf(12.0)) == pytest.approx(0.4950200613, abs=1e-10)


def test_i3_of_two_versions_is_i2():
    # spec 6.3: for r = 2, I3 = I2
    assert metrics.prob_smallest_gm([PLAIN, DOTTED]) == pytest.approx(metrics.prob_less_gm(PLAIN, DOTTED), abs=1e-10)


def test_example_2_separated_samples():
    # App. A Example 2: when every x is below every y, I1 tilde = mean(y) - mean(x) and I3 tilde = 1
    rng = np.random.default_rng(3)
    c1, c2, c3 = rng.normal(86.17, 0.3, 31), rng.normal(93.67, 0.75, 31), rng.normal(93.7, 0.7, 31)
    assert metrics.mean_abs_difference(c1, c2) == pytest.approx(c2.mean() - c1.mean(), abs=1e-12)
    assert metrics.prob_smallest([c1, c2, c3]) == 1.0
    assert metrics.prob_smallest([c2, c1, c3]) == 0.0


def test_ksfit_bookkeeping_example_5_2():
    # Example 5.2: N = 500, KS_X = 0.0764, 36 of the 500 KS^(i) exceed it -> p = 0.072;
    # c_0.05 is the [500 x 0.95] = 475th order statistic (0.0792 there)
    boot = np.concatenate([np.linspace(0.02, 0.0763, 464), [0.0792], np.linspace(0.0765, 0.12, 35)])
    pvalue, critical = ksfit.bootstrap_pvalue(0.0764, boot, alpha=0.05)
    assert pvalue == pytest.approx(0.072)
    assert critical == np.sort(boot)[474]
    # strict count, no +1 correction: a tie with KS_X does not count
    assert ksfit.bootstrap_pvalue(0.5, np.array([0.5, 0.6, 0.4, 0.7]), 0.05)[0] == 0.5


def test_ks_distance_is_exact_with_ties():
    # KS = max_i max(i/n - F_i, F_i - (i-1)/n); brute force over the EDF on a fine grid
    x = np.array([1.0, 2.0, 2.0, 2.0, 3.5, 4.0])
    mix = Mixture([0.5, 0.5], [2.0, 3.5], [0.5, 0.7])
    ks = ksfit.ks_distances(x[None], mix.weights[None], mix.means[None], mix.sds[None])[0]
    grid = np.linspace(-2, 8, 200001)
    edf = np.searchsorted(np.sort(x), grid, side="right") / x.size
    # left limits at the data points are where the supremum may sit
    left = np.searchsorted(np.sort(x), x, side="left") / x.size
    brute = max(np.abs(edf - mix.cdf(grid)).max(), np.abs(left - mix.cdf(x)).max())
    assert ks == pytest.approx(brute, abs=1e-4)
    assert ks >= brute - 1e-12
