"""Property tests (hypothesis): metrics are probabilities where they should be, symmetric where they should be."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from perfrigor_plugins.gmm import metrics
from perfrigor_plugins.gmm.mixture import Mixture

values = st.lists(st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False), min_size=1, max_size=40)


@st.composite
def mixtures(draw) -> Mixture:
    k = draw(st.integers(1, 4))
    w = np.array(draw(st.lists(st.floats(0.05, 1.0), min_size=k, max_size=k)))
    mu = draw(st.lists(st.floats(-50, 50), min_size=k, max_size=k))
    sd = draw(st.lists(st.floats(0.01, 10), min_size=k, max_size=k))
    return Mixture(w / w.sum(), mu, sd)


@settings(max_examples=150, deadline=None)
@given(values, values, st.floats(-5, 5))
def test_nonparametric_i2_is_a_probability_and_half_ties_are_complementary(x, y, delta):
    x, y = np.array(x), np.array(y)
    p = metrics.prob_less(x, y, delta)
    assert 0.0 <= p <= 1.0
    # strict: P(X < Y) + P(Y < X) + P(tie) = 1; with ties counted 1/2 the two sum to exactly 1
    tie = np.mean(x[:, None] == y[None, :])
    assert metrics.prob_less(x, y) + metrics.prob_less(y, x) + tie == pytest.approx(1.0)
    assert metrics.prob_less(x, y, ties="half") + metrics.prob_less(y, x, ties="half") == pytest.approx(1.0)
    assert p == pytest.approx(np.mean(x[:, None] < y[None, :] + delta))


@settings(max_examples=100, deadline=None)
@given(values, values, values)
def test_nonparametric_i3_matches_brute_force_and_sums_to_one_without_ties(a, b, c):
    a, b, c = np.array(a), np.array(b), np.array(c)
    brute = np.mean(a[:, None, None] < np.minimum(b[None, :, None], c[None, None, :]))
    assert metrics.prob_smallest([a, b, c]) == pytest.approx(brute)
    total = sum(metrics.prob_smallest(order, ties="half") for order in ([a, b, c], [b, a, c], [c, a, b]))
    if np.unique(np.concatenate([a, b, c])).size == a.size + b.size + c.size:
        assert total == pytest.approx(1.0)


@settings(max_examples=150, deadline=None)
@given(values, values)
def test_nonparametric_i1_is_symmetric_and_matches_brute_force(x, y):
    x, y = np.array(x), np.array(y)
    d = metrics.mean_abs_difference(x, y)
    assert d == pytest.approx(np.abs(x[:, None] - y[None, :]).mean(), rel=1e-9, abs=1e-9)
    assert d == pytest.approx(metrics.mean_abs_difference(y, x), rel=1e-12, abs=1e-9)
    assert d >= 0


@settings(max_examples=80, deadline=None)
@given(mixtures(), mixtures(), mixtures(), st.floats(-5, 5))
def test_parametric_metrics(fx, fy, fz, delta):
    p = metrics.prob_less_gm(fx, fy, delta)
    assert 0.0 <= p <= 1.0
    # continuous: P(X < Y) + P(Y < X) = 1, and P(X < Y + d) = 1 - P(Y < X - d)
    assert metrics.prob_less_gm(fx, fy) + metrics.prob_less_gm(fy, fx) == pytest.approx(1.0, abs=1e-12)
    assert p == pytest.approx(1.0 - metrics.prob_less_gm(fy, fx, -delta), abs=1e-12)
    i1 = metrics.mean_abs_difference_gm(fx, fy)
    assert i1 == pytest.approx(metrics.mean_abs_difference_gm(fy, fx), rel=1e-12)
    assert i1 >= abs(fx.mean - fy.mean) - 1e-9  # Jensen: E|X - Y| >= |E X - E Y|
    i3 = [metrics.prob_smallest_gm(o) for o in ([fx, fy, fz], [fy, fx, fz], [fz, fx, fy])]
    assert all(-1e-12 <= v <= 1 + 1e-12 for v in i3)
    assert sum(i3) == pytest.approx(1.0, abs=1e-7)
    assert i3[0] <= min(metrics.prob_less_gm(fx, fy), metrics.prob_less_gm(fx, fz)) + 1e-7


@settings(max_examples=60, deadline=None)
@given(mixtures())
def test_modes_are_local_maxima_within_the_means(f):
    modes = f.modes()
    assert 1 <= modes.size <= f.n_components
    assert np.all(modes >= f.means.min() - 1e-9) and np.all(modes <= f.means.max() + 1e-9)
    h = 1e-6 * max(1.0, float(np.ptp(f.means)))
    for m in modes:  # (flat tops, e.g. two normals 2 sd apart, tie to rounding)
        assert f.pdf(m) >= f.pdf(m - h) * (1 - 1e-12) and f.pdf(m) >= f.pdf(m + h) * (1 - 1e-12)
    far = Mixture([0.5, 0.5], [0.0, 1e4], [1.0, 1.0])  # responsibilities underflow at the means
    np.testing.assert_allclose(far.modes(), [0.0, 1e4], atol=1e-9)
