"""perfrigor.changepoints: segment costs, optimal partitioning against R changepoint, scan p-values."""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor import changepoints as cp


def _r_series() -> list[np.ndarray]:
    """The series the R results below were computed on (written with np.savetxt(fmt="%.17g") and read with scan())."""
    rng = np.random.default_rng(3)
    return [np.concatenate([rng.normal(0, 1, 100), rng.normal(3, 2, 100)]),
            np.concatenate([rng.normal(10, 1, 300), rng.normal(9, .5, 500), rng.normal(9.5, .5, 200)]),
            rng.standard_t(3, 1000) * 0.1 + 5,
            np.repeat([1., 2., 1., 3.], [50, 3, 40, 20]) + rng.normal(0, .1, 113)]


# R 4.2.2, changepoint 2.3 (rkillick/changepoint at its GitHub head):
#   x <- scan("x{i}.txt"); cpts(cpt.meanvar(x, method="PELT", penalty="Manual", pen.value=PEN, minseglen=M))
# R reports the last index of each segment (1-based), which is the 0-based start of the next one.
R_CPTS = {
    (0, 15, 2): [100], (0, 15, 5): [100], (0, 2, 2): [52, 54, 81, 83, 86, 88, 100, 110, 112], (0, 2, 5): [100],
    (1, 15, 2): [300, 805], (1, 2, 2): [205, 207, 300, 805], (1, 2, 5): [300, 805],
    (2, 15, 2): [], (2, 2, 2): [77, 100, 103, 156, 158, 240, 242, 244, 357, 359, 843, 845, 953, 955, 957, 962, 967, 969],
    (2, 2, 5): [77, 101, 156, 161, 236, 242, 357, 362, 841, 846, 949, 956, 962],
    (3, 15, 2): [50, 53, 93], (3, 15, 5): [93], (3, 2, 2): [11, 13, 50, 53, 57, 61, 63, 93], (3, 2, 5): [49, 54, 93],
}


@pytest.mark.parametrize(("i", "factor", "min_size"), sorted(R_CPTS))
def test_optimal_partition_agrees_with_r_cpt_meanvar(i: int, factor: int, min_size: int) -> None:
    x = _r_series()[i]
    found = cp.optimal_partition(cp.MeanVarCost.of(x), factor * np.log(x.size), min_size)
    assert found.tolist() == R_CPTS[(i, factor, min_size)]


def test_long_series_on_a_grid_find_what_the_exact_search_finds() -> None:
    rng = np.random.default_rng(0)
    x = 1 + 0.02 * rng.normal(size=4_000)
    x[1_401:] += 0.05
    x[3_000:] -= 0.08
    cost = cp.MeanVarCost.of(x)
    exact = cp.optimal_partition(cost, 10 * np.log(x.size), 10, max_candidates=x.size)
    grid = cp.optimal_partition(cost, 10 * np.log(x.size), 10, max_candidates=200)
    assert grid.tolist() == exact.tolist()
    assert np.all(np.abs(exact - [1401, 3000]) <= 2)


def test_the_grid_bounds_the_work() -> None:
    """Without changes PELT prunes nothing: the grid keeps the cost evaluations near max_candidates^2 / 2."""
    calls = []

    class Counting:
        def __init__(self, cost):
            self.cost, self.n = cost, cost.n

        def __call__(self, starts, end):
            calls.append(np.size(starts))
            return self.cost(starts, end)

    x = np.random.default_rng(1).normal(size=20_000)
    cp.optimal_partition(Counting(cp.MeanVarCost.of(x)), 20 * np.log(x.size), 2, max_candidates=200)
    assert sum(calls) <= 200 * 200


def test_meanvar_cost_does_not_depend_on_the_unit() -> None:
    x = np.r_[np.full(10, 2e-5), 2e-5 + 1e-7 * np.random.default_rng(2).normal(size=300)]
    a = cp.optimal_partition(cp.MeanVarCost.of(x), 10 * np.log(x.size), 2)
    b = cp.optimal_partition(cp.MeanVarCost.of(x * 1e9), 10 * np.log(x.size), 2)
    assert a.tolist() == b.tolist()


def test_binary_segmentation_and_its_acceptance_rule() -> None:
    x = np.repeat([0.0, 1.0, 0.0], [100, 50, 100]) + np.random.default_rng(4).normal(0, 0.2, 250)
    cost = cp.MeanCost.of(x, np.full(x.size, 1 / 0.04))
    assert cp.binary_segmentation(cost, 30.0, 5).tolist() == [100, 150]
    tested = []
    cp.binary_segmentation(cost, 0.0, 5, accept=lambda a, b, k, g: tested.append((a, b, k)) or g > 1e9)
    assert tested[0][:2] == (0, 250) and len(tested) == 1  # nothing accepted: one test only
    assert cp.binary_segmentation(cost, 30.0, 5, max_changes=1).size == 1


def test_split_gains_and_segments() -> None:
    x = np.r_[np.zeros(5), np.ones(5)]
    pos, gain = cp.split_gains(cp.MeanCost.of(x), min_size=2)
    assert pos[np.argmax(gain)] == 5 and gain.max() == pytest.approx(2.5)  # 5 * 5 / 10 * 1^2
    segs = cp.segments(x, [5])
    assert [(s.start, s.end, s.mean, s.sd) for s in segs] == [(0, 5, 0.0, 0.0), (5, 10, 1.0, 0.0)]
    assert cp.change_points(x + np.r_[np.zeros(9), 1e-3], 1.0, cost="mean", method="binary").tolist() == [5]


@pytest.mark.parametrize(("n", "min_size"), [(20, 2), (200, 2), (200, 10), (1000, 5)])
def test_scan_pvalue_matches_simulation_in_the_upper_tail(n: int, min_size: int) -> None:
    rng = np.random.default_rng(n + min_size)
    sims = 4000
    x = rng.normal(size=(sims, n))
    c = np.cumsum(x, axis=1)
    k = np.arange(min_size, n - min_size + 1)
    z2 = (c[:, k - 1] - k / n * c[:, -1:]) ** 2 / (k * (n - k) / n)
    top = z2.max(axis=1)
    for q in (0.9, 0.95, 0.99):
        p = cp.scan_pvalue(float(np.quantile(top, q)), n, min_size)
        assert abs(p - (1 - q)) <= 0.25 * (1 - q) + 2 * np.sqrt(q * (1 - q) / sims), (q, p)


def test_scan_pvalue_edges_and_vectors() -> None:
    assert cp.scan_pvalue(0.0, 100) == 1.0
    assert cp.scan_pvalue(5.0, 3, 2) == 1.0
    p = cp.scan_pvalue(np.array([1.0, 10.0, 40.0]), 100, 2)
    assert p.shape == (3,) and p[0] > p[1] > p[2] > 0


@pytest.mark.slow
def test_penalty_calibration_by_simulation() -> None:
    def noise(rng, k, n):
        return 1 + 0.02 * rng.normal(size=(k, n))

    gains = cp.null_gains(noise, 200, n_sim=100, random_state=0)
    assert gains.shape == (100,) and np.all(gains > 0)
    low = cp.calibrate_penalty(noise, 200, false_rate=0.2, n_sim=100, random_state=0)
    high = cp.calibrate_penalty(noise, 200, false_rate=0.05, n_sim=100, random_state=0)
    assert low < high
    # at the calibrated penalty, change-free series of the same noise rarely show a change
    rng = np.random.default_rng(9)
    false = sum(cp.optimal_partition(cp.MeanVarCost.of(noise(rng, 1, 200)[0]), high, 2).size > 0 for _ in range(200))
    assert false / 200 <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 200)


def test_no_change_penalty_covers_one_and_two_splits() -> None:
    x = np.r_[np.zeros(40), np.ones(20), np.zeros(40)] + np.random.default_rng(5).normal(0, 0.1, 100)
    cost = cp.MeanVarCost.of(x + 5)
    need = cp.no_change_penalty(cost, 2)
    assert cp.optimal_partition(cost, need * 1.001, 2).size == 0
    assert cp.optimal_partition(cost, need * 0.9, 2).size > 0


def test_bad_input() -> None:
    with pytest.raises(Exception, match="NaN"):
        cp.MeanVarCost.of([1.0, float("nan"), 2.0])
    with pytest.raises(ValueError, match="min_size"):
        cp.optimal_partition(cp.MeanVarCost.of(np.ones(10)), 1.0, 0)
