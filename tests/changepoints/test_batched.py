"""Costs and optimal partitions of many equal-length series at once: the numbers of one series at a time, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor import changepoints as cp


def _rows(rng: np.random.Generator, count: int, n: int) -> np.ndarray:
    """Series of every kind PELT meets: noise, a warm-up, a step, ties, a constant run, levels that move often."""
    x = np.exp(rng.normal(0.0, 0.05, (count, n)))
    x[1::6, : n // 4] *= 1.3
    x[2::6, n // 2:] *= 0.9
    x[3::6] = np.round(x[3::6], 2)
    x[4::6] = 2.0
    x[5::6] *= np.repeat(np.exp(rng.normal(0.0, 0.1, (len(x[5::6]), -(-n // 5)))), 5, axis=1)[:, :n]
    return x


@pytest.mark.parametrize("n", [3, 10, 30, 61, 199, 230])
def test_costs_of_rows_are_those_of_each_row(n):
    x = _rows(np.random.default_rng(n), 12, n)
    for batched, one in ((cp.MeanVarCost.of_rows(x), cp.MeanVarCost.of), (cp.MeanCost.of_rows(x), cp.MeanCost.of)):
        for cost, row in zip(batched, x, strict=True):
            alone = one(row)
            for name in ("s1", "s2", "floor", "w", "wx", "wxx", "inflation"):
                if hasattr(alone, name):
                    np.testing.assert_array_equal(getattr(cost, name), getattr(alone, name))


@pytest.mark.parametrize("kind", ["meanvar", "mean"])
@pytest.mark.parametrize("n", [3, 12, 30, 100, 199, 250])
def test_optimal_partitions_find_each_series_own_change_points(kind, n):
    rng = np.random.default_rng(7 * n)
    x = _rows(rng, 36, n)
    rows = cp.MeanVarCost.of_rows(x) if kind == "meanvar" else cp.MeanCost.of_rows(x / x.std(axis=1, keepdims=True)
                                                                                  .clip(1e-3))
    found = 0
    for size in (1, 2, 5):
        for penalty in (0.0, 1.0 * np.log(n), 8.0 * np.log(n)):
            batched = cp.optimal_partitions(rows, penalty, size)
            for cost, changes in zip(rows, batched, strict=True):
                np.testing.assert_array_equal(changes, cp.optimal_partition(cost, penalty, size))
                found += changes.size > 0
    assert n < 10 or found > 50  # change points found, and pruned candidates along the way: not only empty answers


def test_optimal_partitions_of_mixed_lengths_and_types():
    rng = np.random.default_rng(3)
    costs = [cp.MeanVarCost.of(r) for r in _rows(rng, 6, 40)] + [cp.MeanCost.of(r) for r in _rows(rng, 6, 25)] \
        + [cp.MeanVarCost.of(r) for r in _rows(rng, 3, 300)]  # beyond the table: optimal_partition's own path
    batched = cp.optimal_partitions(costs, 3.0 * np.log(40), 2)
    for cost, changes in zip(costs, batched, strict=True):
        np.testing.assert_array_equal(changes, cp.optimal_partition(cost, 3.0 * np.log(40), 2))
