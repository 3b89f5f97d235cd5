"""What a pipeline task computes for many samples at once (independence checks, the verdict's segments' factors and
steady-state checks, the bootstrap's interval): the numbers of one sample at a time, exactly."""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr
import pytest
from perfrigor_plugins.gmm.fitting import _with_warnings, fit_mixture
from perfrigor_plugins.independence import serial
from perfrigor_plugins.independence.estimator import Independence, check_series, prepare_runs
from perfrigor_plugins.verdict import dependence
from perfrigor_plugins.verdict.shift import _median


def _rows(rng: np.random.Generator, n: int, count: int = 40) -> np.ndarray:
    """Noise, ties, a step, a random walk, a constant series, a warm-up, a drift, levels that move twice, AR(1)."""
    x = rng.normal(10.0, 1.0, (count, n))
    x[1::9] = np.round(x[1::9])
    x[2::9, n // 2:] += 3.0
    x[3::9] = 50.0 + np.cumsum(rng.normal(0.0, 1.0, (len(x[3::9]), n)), axis=1)
    x[4::9] = 3.0
    x[5::9, :3] += 50.0
    x[6::9] += np.linspace(0.0, 3.0, n)
    x[7::9, n // 3:] += 3.0
    x[7::9, 2 * n // 3:] -= 3.0
    ar = x[8::9]
    for t in range(1, n):
        ar[:, t] += 0.7 * (ar[:, t - 1] - 10.0)
    return x + 1.0


@pytest.mark.parametrize("n", [3, 9, 10, 12, 20, 30, 61, 200])
@pytest.mark.parametrize("steps", [True, False])
def test_check_series_of_rows_is_each_row_check(n, steps):
    rng = np.random.default_rng(n)
    z = _rows(rng, n)
    offsets = rng.integers(0, 5, z.shape[0])
    batched = check_series(z, "run", 0.95, 0.01, offset=offsets, steps=steps)
    alone = [check_series(row, "run", 0.95, 0.01, offset=int(o), steps=steps)[0] for row, o in zip(z, offsets,
                                                                                                  strict=True)]
    assert [repr(b) for b in batched] == [repr(a) for a in alone]
    if n >= 30 and steps:
        assert any(c.steps for c in alone) and any(c.dependent for c in alone)  # the step and dependence branches ran


@pytest.mark.parametrize("n", [3, 10, 31])
def test_ranks_pettitt_and_residuals_of_rows(n):
    z = _rows(np.random.default_rng(50 + n), n)
    ranks = serial.rank_rows(z)
    np.testing.assert_array_equal(ranks, np.array([pr.stats.rank_average(r) for r in z]))
    if n >= 10:
        at, p = serial.pettitt(ranks)
        for i, row in enumerate(z):
            assert serial.level_step(row)[::2] == (int(at[i]), float(p[i]))
    for line in (False, True):
        fitted, rest = serial.residual_rows(ranks, line)
        for r, row in zip(rest, ranks, strict=True):
            f, alone = serial.residuals(row, [], line)
            assert f == fitted
            np.testing.assert_array_equal(r, alone)


def test_independence_reads_what_prepare_put_in_the_workspace():
    rng = np.random.default_rng(9)
    samples = [pr.Sample(r) for r in _rows(rng, 30)] + [pr.Sample(r) for r in _rows(rng, 12, 5)] \
        + [pr.Sample(_rows(rng, 20, 6).reshape(2, 3, 20))]  # hierarchical: checked as before, not prepared
    check = Independence(relevance=0.02)
    expected = [repr(check.estimate(s)) for s in samples]
    with pr.Workspace() as ws:
        assert prepare_runs([(check, s) for s in samples]) == len({s.values.tobytes() for s in samples[:45]})
        assert len(ws) > 0
        assert [repr(check.estimate(s)) for s in samples] == expected


@pytest.mark.parametrize("n", [5, 19, 20, 30, 200, 1001])
def test_block_factors_of_rows_are_each_row_factor(n):
    z = _rows(np.random.default_rng(70 + n), n)
    for rows in (z, np.array([pr.stats.rank_average(r) for r in z])):
        assert dependence.block_factors(rows) == [dependence.block_factor(r) for r in rows]
        assert [e.tolist() for e in dependence.level_segments_rows(rows)] == \
            [dependence.level_segments(r).tolist() for r in rows]
    if 20 <= n <= 1000:
        assert any(k >= 3 for _, k in dependence.block_factors(z))  # levels that move: the segments' branch ran


def test_a_pipeline_task_gives_the_reports_of_benchmarks_one_at_a_time():
    """Prepared together (a batch) or alone (a batch of one): every result the same."""
    rng = np.random.default_rng(4)
    rows = _rows(rng, 30, 18)
    suite = pr.Suite({f"b{i}": {"old": rows[i], "new": rows[i] * rng.choice([1.0, 0.97]) + 0.01}
                      for i in range(len(rows))})
    def results(report: pr.Report, bench: str) -> dict:
        return {(step, str(key)): r.to_dict() for b, step, key, r in report.iter_results()
                if b == bench and step != "verdict"}

    together = pr.pipeline("default").run(suite)
    for b in ("b2", "b5", "b8"):
        alone = pr.pipeline("default").run(pr.Suite({b: suite.data[b]}))
        assert results(together, b) == results(alone, b)
        assert len(results(alone, b)) >= 8
        assert together.verdicts[b].details["steady"] == alone.verdicts[b].details["steady"]


@pytest.mark.parametrize("size", [2, 3, 10, 101, 1000, 10_000])
def test_interval_with_error_is_the_three_calls(size):
    rng = np.random.default_rng(size)
    for reps in (rng.lognormal(0.0, 0.1, size), np.round(rng.normal(1.0, 0.1, size), 2)):
        for confidence in (0.5, 0.95, 0.999):
            r = pr.resampling
            expected = (*r.percentile_interval(reps, confidence), *r.percentile_error(reps, confidence),
                        float(np.median(reps)))
            assert r.interval_with_error(reps, confidence) == expected
    with pytest.raises(pr.DataError):
        pr.resampling.interval_with_error([1.0])


def test_median_of_the_tail_weight_is_numpys_with_signed_zeros():
    rng = np.random.default_rng(0)
    for n in range(1, 40):
        for v in (rng.normal(0, 1, n), np.round(rng.normal(0, 1, n), 0), np.where(rng.random(n) < 0.5, -0.0, 0.0)):
            expected = float(np.median(v))
            got = _median(v)
            assert got == expected and np.signbit(got) == np.signbit(expected)


def test_a_fit_with_warnings_is_the_evolved_fit():
    _, _, fit = fit_mixture(np.random.default_rng(1).normal(10.0, 1.0, 40))
    assert _with_warnings(fit, ["a", "b"]) == attrs.evolve(fit, warnings=("a", "b"))
    assert fit.warnings == ()  # the shared fit is not touched
