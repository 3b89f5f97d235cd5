"""PELT from a cost table in Python floats (short series) finds the change points of the numpy loop, exactly."""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor import changepoints as cp


def _series(rng: np.random.Generator, n: int, kind: int) -> np.ndarray:
    x = np.exp(rng.normal(0.0, 0.05, n))
    if kind == 1:
        x[: n // 4] *= 1.3  # a warm-up
    if kind == 2:
        x[n // 2:] *= 0.9  # a step
    if kind == 3:
        x = np.round(x, 2)  # ties: segments of equal values reach the variance floor
    return x


@pytest.mark.parametrize("cost", ["meanvar", "mean"])
def test_the_table_loop_finds_what_the_numpy_loop_finds(monkeypatch, cost):
    rng = np.random.default_rng(11)
    cases = [(_series(rng, int(n), k % 4), float(f) * np.log(n), int(s))
             for k, (n, f, s) in enumerate(zip(rng.choice([20, 30, 60, 150], 160), rng.choice([1.0, 4.0, 8.0], 160),
                                               rng.choice([1, 2, 5], 160), strict=True))]
    make = cp.MeanVarCost.of if cost == "meanvar" else (lambda x: cp.MeanCost.of(x / x.std()))
    table = [cp.optimal_partition(make(x), pen, size) for x, pen, size in cases]
    monkeypatch.setattr(cp, "TABLE_POSITIONS", 0)  # every series through the numpy loop
    plain = [cp.optimal_partition(make(x), pen, size) for x, pen, size in cases]
    assert sum(c.size > 0 for c in plain) >= 40  # changes found, not only empty answers
    for a, b in zip(table, plain, strict=True):
        np.testing.assert_array_equal(a, b)
