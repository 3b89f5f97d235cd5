"""Large samples (issue 23): no overflow, exact selections in O(n log n), work that does not grow as n².

Speed itself is measured in benchmarks/scale_n.py, never here: these tests count work
(differences gathered, values drawn) or compare with brute force on small cases.
"""

from __future__ import annotations

import math

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import stats


@pytest.mark.parametrize(("m", "n"), [(1, 1), (3, 3), (7, 6), (40, 60), (499, 499)])
def test_rank_sum_min_pvalue_is_two_over_the_arrangements(m, n):
    assert stats.rank_sum_min_pvalue(m, n) == min(1.0, 2.0 / math.comb(m + n, m))


@pytest.mark.parametrize(("m", "n"), [(520, 520), (600, 600), (10**6, 10**6), (2, 10**6)])
def test_rank_sum_min_pvalue_never_overflows(m, n):
    p = stats.rank_sum_min_pvalue(m, n)
    assert 0.0 <= p < 1e-10


def test_600_runs_a_side_get_a_verdict():
    # the reproduction: `perfrigor compare a.txt b.txt` with 600 log-normal runs each exited 3
    rng = np.random.default_rng
    suite = pr.Suite({"b": {"old": rng(0).lognormal(0, 0.1, 600), "new": rng(1).lognormal(0, 0.1, 600)}})
    report = pr.pipeline("default").run(suite)
    assert not report.errors
    assert report.verdicts["b"].outcome in ("faster", "slower", "same", "unclear")


def _brute(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.sort(np.subtract.outer(x, y), axis=None)


CASES = {
    "normal": lambda rng, m, n: (rng.normal(0, 1, m), rng.normal(0.3, 1, n)),
    "grid (ties)": lambda rng, m, n: (rng.integers(0, 5, m) * 0.1, rng.integers(0, 5, n) * 0.1),
    "all equal": lambda rng, m, n: (np.full(m, 3.0), np.full(n, 3.0)),
    "heavy tails": lambda rng, m, n: (np.round(rng.standard_cauchy(m), 2), np.log(rng.lognormal(0, 1, n))),
}


@pytest.mark.parametrize("kind", CASES)
def test_selection_finds_the_very_order_statistics_sorting_finds(kind, monkeypatch):
    # forced through the selection's rounds (tiny samples, nothing gathered at once) on small cases
    monkeypatch.setattr(stats, "_SELECT_GATHER", 1)
    monkeypatch.setattr(stats, "_SELECT_SAMPLE", 64)
    monkeypatch.setattr(stats, "_MAX_SORTED_PAIRS", 0)
    rng = np.random.default_rng(len(kind))
    for _ in range(40):
        m, n = (int(v) for v in rng.integers(1, 200, 2))
        x, y = CASES[kind](rng, m, n)
        want = _brute(x, y)
        ks = sorted({1, want.size, (want.size + 1) // 2, int(rng.integers(1, want.size + 1))})
        assert stats.pairwise_order_statistics(x, y, ks) == [float(want[k - 1]) for k in ks]


def test_exact_counts_compare_the_rounded_differences():
    rng = np.random.default_rng(3)
    for t in range(200):
        m, n = (int(v) for v in rng.integers(1, 50, 2))
        x, y = np.sort(np.round(rng.normal(0, 1, m), 1)), np.sort(np.round(rng.normal(0, 1, n), 1))
        d = np.subtract.outer(x, y[::-1])
        value = float(d.ravel()[rng.integers(d.size)]) + (0.0 if t % 2 else 1e-9)
        for strict in (True, False):
            want = (d < value).sum(axis=1) if strict else (d <= value).sum(axis=1)
            assert (stats._exact_counts(x, y, value, strict) == want).all()


def test_a_failed_check_reruns_with_exact_counts(monkeypatch):
    # counts that are off by one everywhere: the check catches it and the exact rerun answers right
    monkeypatch.setattr(stats, "_SELECT_GATHER", 1)
    monkeypatch.setattr(stats, "_SELECT_SAMPLE", 64)
    rng = np.random.default_rng(4)
    x, y = np.sort(rng.normal(0, 1, 150)), np.sort(rng.normal(0, 1, 120))

    def wrong(xs, ys, value, strict):
        return np.minimum(stats._fast_counts(xs, ys, value, strict) + 1, ys.size)

    k = 9000
    assert stats._select_pairwise(x, y, k, wrong) == float(_brute(x, y)[k - 1])


def test_selection_gathers_at_most_twice_the_values(monkeypatch):
    # 3000 x 2000 = 6e6 differences: the selection never holds more than 2 (m + n) of them at once
    largest = []
    real = stats._row_values

    def spy(xs, ys, rows, q):
        largest.append(np.size(q))
        return real(xs, ys, rows, q)

    monkeypatch.setattr(stats, "_row_values", spy)
    monkeypatch.setattr(stats, "_SELECT_GATHER", 1)
    rng = np.random.default_rng(5)
    x, y = rng.normal(0, 1, 3000), rng.normal(0, 1, 2000)
    res = stats.hodges_lehmann(x, y)
    assert max(largest) <= 2 * (x.size + y.size)
    monkeypatch.setattr(stats, "_row_values", real)
    monkeypatch.setattr(stats, "_MAX_SORTED_PAIRS", 10**8)
    sorted_way = stats.hodges_lehmann(x, y)
    assert (res.estimate, res.ci_low, res.ci_high, res.pvalue) == (
        sorted_way.estimate, sorted_way.ci_low, sorted_way.ci_high, sorted_way.pvalue)


def test_order_statistics_out_of_range_are_config_errors():
    with pytest.raises(pr.ConfigError, match="out of range"):
        stats.pairwise_order_statistics([1.0, 2.0], [1.0], [3])
