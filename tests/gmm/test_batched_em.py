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


def long_data_sets() -> list[tuple[str, np.ndarray]]:
    """Longer series (300 values), one with a tight cluster far from the centre."""
    rng = np.random.default_rng(2016)
    n = 300
    labels = rng.integers(0, 3, (2, n))
    return [
        ("three clusters", rng.normal(np.array([2.0, 8.0, 25.0])[labels], 0.5)),
        ("tight far cluster", rng.normal(np.array([10.0, 12.0, 30.0])[labels], np.array([0.5, 0.5, 2e-4])[labels])),
        ("skewed, ties", np.round(rng.exponential(1.0, (2, n)), 2)),
    ]


@pytest.mark.parametrize(("name", "x"), long_data_sets(), ids=[name for name, _ in long_data_sets()])
def test_padded_em_equals_per_g_em_on_long_series(monkeypatch, name, x):
    test_padded_em_equals_per_g_em(monkeypatch, name, x, 9, ("E", "V"))


def test_a_row_fits_the_same_alone_and_in_a_batch():
    # each row's arithmetic is its own (KSfit's windowed search relies on it: a replicate's fits must not
    # depend on which other replicates share its loops)
    x = np.concatenate([x for _, x in long_data_sets()])
    with np.errstate(all="ignore"):
        batch = em.bic_search(x)
        for r in range(x.shape[0]):
            alone = em.bic_search(x[r:r + 1])
            for field in ("bic", "weights", "means", "sds"):
                np.testing.assert_array_equal(getattr(batch, field)[r], getattr(alone, field)[0], err_msg=f"{r} {field}")
