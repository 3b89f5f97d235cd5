"""The steady-state analysis of many series at once (a pipeline task's): each series' result as analysed alone."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.steady_state import series
from perfrigor_plugins.steady_state.estimator import SteadyStateEstimator, prepare_series

OPTIONS = {"penalty_factor": 8.0, "relevance": 0.05, "tail": 0.2, "confidence": 0.95, "min_size": None,
           "lower_is_better": True}


def _rows(rng: np.random.Generator, n: int) -> np.ndarray:
    """Flat, warm-up, slowdown, step, ties, constant, outliers, trend, levels that switch, heavy tails."""
    x = np.exp(rng.normal(1.0, 0.05, (40, n)))
    x[1::10, : max(1, n // 5)] *= np.linspace(1.5, 1.0, max(1, n // 5))
    x[2::10, : max(1, n // 4)] *= 0.8
    x[3::10, n // 2:] *= 1.2
    x[4::10] = np.round(x[4::10], 1)
    x[5::10] = 2.0
    x[6::10, rng.integers(0, n, 2)] *= 4.0
    x[7::10] *= np.exp(np.linspace(0.0, 0.3, n))
    x[8::10] = rng.integers(10, 13, (4, n)) / 10
    x[9::10] = np.exp(1.0 + 0.05 * rng.standard_t(2, (4, n)))
    return x


@pytest.mark.parametrize("n", [3, 19, 20, 30, 57, 100, 200, 260])
@pytest.mark.parametrize("options", [{}, {"min_size": 3}, {"outliers": False}, {"lower_is_better": False, "tail": 0.3}])
def test_analyse_many_gives_each_series_analysis(n, options):
    x = _rows(np.random.default_rng(n), n)
    kw = {**OPTIONS, **options}
    batched = series.analyse_many(x, **kw)
    alone = [series.analyse(row, **kw) for row in x]
    assert [repr(b) for b in batched] == [repr(a) for a in alone]  # every value, bit for bit, and the keys' order
    if n >= 57:
        assert len({a["classification"] for a in alone} & {"flat", "warmup", "slowdown", "no steady state"}) >= 3


@pytest.mark.parametrize("n", [5, 30, 200, 201, 450])
def test_outlier_masks_are_each_series_mask(n):
    x = _rows(np.random.default_rng(100 + n), n)
    np.testing.assert_array_equal(series.outlier_masks(x), np.array([series.outlier_mask(r) for r in x]))


def test_estimate_reads_what_prepare_put_in_the_workspace():
    rng = np.random.default_rng(5)
    samples = [pr.Sample(row) for row in _rows(rng, 30)] + [pr.Sample(_rows(rng, 40)[:12].reshape(3, 4, 40))]
    check = SteadyStateEstimator(relevance=0.02)
    expected = [repr(check.estimate(s)) for s in samples]
    distinct = len({row.tobytes() for s in samples for row in s.values.reshape(-1, s.values.shape[-1])})
    with pr.Workspace() as ws:
        assert prepare_series([(check, s) for s in samples]) == distinct  # a series given twice: analysed once
        assert len(ws) == distinct
        assert [repr(check.estimate(s)) for s in samples] == expected
        other = SteadyStateEstimator()  # other settings: not what was prepared, analysed afresh
        assert repr(other.estimate(samples[0])) == repr(SteadyStateEstimator().estimate(samples[0]))
