"""The EM loop that fits every G at once (padded components) gives the per-G fits bit for bit.

Small BIC searches run all (G, model) fits in one loop (``em.fit_sizes``);
larger ones fit each G on its own (``em.fit_batch``). Both must give the same
numbers exactly, failures included (mclust agreement is tested on the padded
path by test_mclust_agreement.py, the per-G path is the one tested before).
"""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor_plugins.gmm import em


def data_sets() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(2016)
    labels = rng.integers(0, 3, (4, 60))
    return [
        ("normal", rng.normal(10, 0.5, (4, 40))),
        ("three clusters", rng.normal(np.array([2.0, 8.0, 25.0])[labels], 0.5)),
        ("ties", np.round(rng.normal(10, 0.5, (4, 30)), 1)),
        ("far from zero", 1e6 + rng.normal(0, 1e-3, (4, 25))),
        ("degenerate clusters (fits fail)", rng.normal(np.array([1.0, 1.001])[labels[:, :12] % 2], 1e-9)),
        ("skewed, ties", np.round(rng.exponential(1.0, (4, 50)), 2)),
    ]


@pytest.mark.parametrize("max_components", [3, 9, 12])
@pytest.mark.parametrize("models", [("E", "V"), ("V",)])
@pytest.mark.parametrize(("name", "x"), data_sets(), ids=[name for name, _ in data_sets()])
def test_padded_em_equals_per_g_em(monkeypatch, name, x, max_components, models):
    with np.errstate(all="ignore"):
        padded = em.bic_search(x, max_components, models)
        monkeypatch.setattr(em, "PAD_MAX_ELEMENTS", 0)
        per_g = em.bic_search(x, max_components, models)
    for field in ("bic", "loglik", "n_components", "model", "weights", "means", "sds"):
        np.testing.assert_array_equal(getattr(padded, field), getattr(per_g, field), err_msg=f"{name}: {field}")


def test_fits_that_fail_fail_in_both_loops():
    x = data_sets()[4][1]
    with np.errstate(all="ignore"):
        search = em.bic_search(x)
    assert np.isnan(search.bic).any() and not np.isnan(search.bic).all()


def test_padded_sums_round_like_unpadded_rows():
    rng = np.random.default_rng(1)
    a = rng.random((40, 12)) * 10.0 ** rng.uniform(-5, 5, (40, 12))
    sizes = rng.integers(2, 13, 40)
    pad = em._Padding.of(sizes, 12)
    padded = np.where(pad.ones > 0, 0.0, a)
    expected = [a[r:r + 1, :sizes[r]].sum(axis=1)[0] for r in range(40)]
    np.testing.assert_array_equal(pad.row_sums(padded), expected)


@pytest.mark.parametrize(("rows", "runs", "threaded"), [(1020, 50, False), (40, 600, True)])
def test_short_rows_are_fitted_in_turn_long_ones_side_by_side_to_the_same_numbers(monkeypatch, rows, runs, threaded):
    """Threads fit the G of long rows side by side; rows of at most SHORT_SERIES runs (a suite's samples) are
    fitted in turn (threads cost them more CPU than they save). Either way the numbers are one G at a time's."""
    x = np.random.default_rng(7).lognormal(0, 0.1, (rows, runs))
    pools = []
    monkeypatch.setattr(em, "ThreadPoolExecutor", lambda n, made=em.ThreadPoolExecutor: pools.append(n) or made(n))
    search = em.bic_search(x, 5, threads=4)
    assert bool(pools) == threaded
    alone = em.bic_search(x, 5, threads=1)
    for field in ("bic", "loglik", "n_components", "model", "weights", "means", "sds"):
        np.testing.assert_array_equal(getattr(search, field), getattr(alone, field), err_msg=field)
