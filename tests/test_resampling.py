"""perfrigor.resampling: the shared hierarchical bootstrap (Kalibera & Jones 2013, §6.2, §7.2.1, Fig. 1-2)."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import resampling as rs

# Table V of the paper (old system): 3 binaries x 2 executions x 2 measurements.
OLD = np.array([[[9, 11], [5, 6]], [[16, 13], [12, 8]], [[15, 7], [10, 14]]], dtype=float)

# Table VI: the three bootstrap replicates, as indices (0-based) chosen at each level.
# Replicate 1: binaries (1, 2, 1) -> B1:(9,11),(5,5)  B2:(12,8),(8,12)  B1:(9,9),(11,9)
# Replicate 2: binaries (3, 2, 2) -> B3:(14,10),(15,7)  B2:(13,13),(8,12)  B2:(8,8),(16,13)
# Replicate 3: binaries (3, 1, 1) -> B3:(7,7),(15,15)  B1:(11,11),(9,11)  B1:(9,9),(9,9)
TABLE_VI_BINARIES = np.array([[0, 1, 0], [2, 1, 1], [2, 0, 0]])
TABLE_VI_EXECUTIONS = np.array([
    [[0, 1], [1, 1], [0, 0]],
    [[1, 0], [0, 1], [1, 0]],
    [[0, 0], [0, 0], [0, 0]],
])
TABLE_VI_MEASUREMENTS = np.array([
    [[[0, 1], [0, 0]], [[0, 1], [1, 0]], [[0, 0], [1, 0]]],
    [[[1, 0], [0, 1]], [[1, 1], [1, 0]], [[1, 1], [0, 1]]],
    [[[1, 1], [0, 0]], [[1, 1], [0, 1]], [[0, 0], [0, 0]]],
])


def test_table_vi_replicates_from_the_papers_indices():
    indices = (TABLE_VI_BINARIES, TABLE_VI_EXECUTIONS, TABLE_VI_MEASUREMENTS)
    replicates = rs.gather(OLD, indices)
    assert replicates.shape == (3, 3, 2, 2)
    np.testing.assert_array_equal(replicates[0].reshape(-1), [9, 11, 5, 5, 12, 8, 8, 12, 9, 9, 11, 9])
    np.testing.assert_array_equal(replicates[1].reshape(-1), [14, 10, 15, 7, 13, 13, 8, 12, 8, 8, 16, 13])
    np.testing.assert_array_equal(replicates[2].reshape(-1), [7, 7, 15, 15, 11, 11, 9, 11, 9, 9, 9, 9])
    # the paper's replicate means 9.0, 11.4, 10.2 (exact 108/12, 137/12, 122/12)
    np.testing.assert_allclose(replicates.reshape(3, -1).mean(axis=1), [9.0, 137 / 12, 122 / 12])


@pytest.mark.parametrize("levels", ["all", "RRN", "RNN", "top", "flat", "NRR", "NNR", "RNR", "NRN", "NNN"])
def test_fast_means_equal_the_mean_of_gathered_replicates(levels):
    values = np.random.default_rng(5).normal(size=(4, 3, 5))
    means = rs.bootstrap_means(values, 50, random_state=11, levels=levels, chunk_size=50)
    replicates = rs.gather(values, rs.resample_indices(values.shape, 50, random_state=11, levels=levels))
    np.testing.assert_allclose(means, replicates.reshape(50, -1).mean(axis=1), rtol=1e-12)


def test_chunks_draw_in_turn_and_cover_all_replicates():
    values = np.random.default_rng(1).normal(size=(5, 4, 6))
    whole = rs.bootstrap_means(values, 30, random_state=3, chunk_size=30)
    chunked = rs.bootstrap_means(values, 30, random_state=3, chunk_size=7)
    first = rs.bootstrap_means(values, 7, random_state=3, chunk_size=7)
    np.testing.assert_array_equal(chunked[:7], first)  # the first chunk is drawn as a call of its size
    assert chunked.shape == whole.shape == (30,)
    assert not np.array_equal(whole, chunked)  # documented: replicates depend on chunk_size too


def test_children_are_redrawn_for_each_selected_parent():
    values = np.arange(2 * 50 * 50, dtype=float).reshape(2, 50, 50)
    reps = rs.gather(values, rs.resample_indices(values.shape, 20, random_state=0))
    for rep in reps:
        tops = rep[:, 0, 0] // 2500  # which original top unit each copy came from
        if tops[0] == tops[1]:  # the same parent twice: independent child sets
            assert not np.array_equal(rep[0], rep[1])
        # every value of a copy comes from the parent chosen for it
        assert np.all(rep // 2500 == tops[:, None, None])


def test_variants_keep_the_levels_they_should():
    values = np.arange(3 * 4 * 5, dtype=float).reshape(3, 4, 5)
    rrn = rs.gather(values, rs.resample_indices(values.shape, 10, 1, levels="RRN"))
    rows = {tuple(r) for r in values.reshape(-1, 5)}
    assert all(tuple(r) in rows for r in rrn.reshape(-1, 5))  # each execution intact
    rnn = rs.gather(values, rs.resample_indices(values.shape, 10, 1, levels="RNN"))
    assert all(any(np.array_equal(unit, v) for v in values) for unit in rnn.reshape(-1, 4, 5))
    flat = rs.gather(values, rs.resample_indices(values.shape, 10, 1, levels="flat"))
    assert flat.shape == (10, 3, 4, 5) and set(flat.reshape(-1)) <= set(values.reshape(-1))
    nnn = rs.bootstrap_means(values, 5, 1, levels="NNN")
    np.testing.assert_array_equal(nnn, np.full(5, values.mean()))
    assert rs.resampling_scheme([True, False, True], 3) == (True, False, True)
    assert rs.resampling_scheme("top", 2) == (True, False)
    assert rs.resampling_scheme(None, 2) == (True, True)
    assert rs.resampling_scheme("flat", 3) is None


def test_flat_sample_bootstrap_variance_is_the_plugin_variance_over_n():
    # For 1-D data the bootstrap variance of the mean is (1/n) * (1/n) * sum (x - mean)^2.
    x = np.random.default_rng(2).gamma(2.0, size=25)
    means = rs.bootstrap_means(x, 40_000, random_state=4)
    expected = x.var(ddof=0) / x.size
    assert means.var() == pytest.approx(expected, rel=0.03)
    assert means.mean() == pytest.approx(x.mean(), abs=4 * np.sqrt(expected / 40_000))


def test_two_level_bootstrap_variance_matches_its_closed_form():
    # RR on (a, b): Var* = sb2/a + sw2/(a*b), with sb2 the ML variance of unit means and
    # sw2 the mean ML within-unit variance (each level resampled, children fresh per parent).
    y = np.random.default_rng(8).normal(size=(6, 8)) + np.arange(6)[:, None]
    a, b = y.shape
    expected = y.mean(axis=1).var() / a + y.var(axis=1).mean() / (a * b)
    means = rs.bootstrap_means(y, 40_000, random_state=9)
    assert means.var() == pytest.approx(expected, rel=0.03)


def test_ratio_uses_independent_draws_of_both_samples():
    rng = np.random.default_rng(6)
    num, den = rng.normal(9, 1, (4, 5)), rng.normal(10, 1, (3, 5))
    ratios = rs.bootstrap_ratio(num, den, 200, random_state=7, chunk_size=200)
    joint = rs.bootstrap_means_joint([num, den], 200, random_state=7, chunk_size=200)
    np.testing.assert_allclose(ratios, joint[0] / joint[1])
    gen = np.random.default_rng(7)
    m_num = rs.gather(num, rs.resample_indices(num.shape, 200, gen)).reshape(200, -1).mean(axis=1)
    m_den = rs.gather(den, rs.resample_indices(den.shape, 200, gen)).reshape(200, -1).mean(axis=1)
    np.testing.assert_allclose(joint, [m_num, m_den])
    assert abs(np.corrcoef(joint)[0, 1]) < 0.2


def test_reproducible_with_seed_and_generator():
    values = np.random.default_rng(0).normal(size=(5, 6))
    a = rs.bootstrap_means(values, 100, random_state=42)
    np.testing.assert_array_equal(a, rs.bootstrap_means(values, 100, random_state=42))
    np.testing.assert_array_equal(a, rs.bootstrap_means(values, 100, random_state=np.random.default_rng(42)))
    assert not np.array_equal(a, rs.bootstrap_means(values, 100, random_state=43))


def test_generic_statistic_matches_gathered_replicates():
    values = np.random.default_rng(3).normal(size=(4, 6))

    def median(r):
        return np.median(r.reshape(len(r), -1), axis=1)

    got = rs.bootstrap(values, median, 40, random_state=5, chunk_size=40)
    reps = rs.gather(values, rs.resample_indices(values.shape, 40, 5))
    np.testing.assert_array_equal(got, median(reps))
    flat = rs.bootstrap(values, median, 40, random_state=5, levels="flat", chunk_size=40)
    reps = rs.gather(values, rs.resample_indices(values.shape, 40, 5, levels="flat"))
    np.testing.assert_array_equal(flat, median(reps))
    with pytest.raises(pr.ConfigError, match="one number per replicate"):
        rs.bootstrap(values, lambda r: r, 10, random_state=1)


def test_progress_is_advanced_per_chunk():
    seen = []

    class Recorder:
        def start(self, total, description):
            seen.append(("start", total, description))
            return lambda n=1: seen.append(("advance", n))

        def finish(self):
            seen.append(("finish",))

    previous = pr.progress.set_reporter(Recorder())
    try:
        rs.bootstrap_ratio(np.ones((3, 4)), np.ones((3, 4)), 25, random_state=0, chunk_size=10)
    finally:
        pr.progress.set_reporter(previous)
    assert seen[0][:2] == ("start", 25)
    assert [s[1] for s in seen if s[0] == "advance"] == [10, 10, 5]
    assert seen[-1] == ("finish",)


def test_default_chunks_bound_the_memory():
    assert rs.default_chunk_size((10, 10, 100), (10, 10, 100)) * 2 * 10_000 <= rs.CHUNK_DRAWS
    assert rs.default_chunk_size((10**7,)) == 1


def test_percentile_interval_takes_the_papers_order_statistics():
    # §6.2: with 1000 replicates, the 25th and 975th ordered values.
    reps = np.random.default_rng(0).permutation(np.arange(1.0, 1001.0))
    assert rs.percentile_interval(reps, 0.95) == (25.0, 975.0)
    with pytest.raises(pr.DataError, match="NaN"):
        rs.percentile_interval([1.0, np.nan], 0.95)


def test_bad_input_is_reported():
    with pytest.raises(pr.ConfigError, match="pattern"):
        rs.bootstrap_means(np.ones((2, 3)), 10, levels="RRN")
    with pytest.raises(pr.ConfigError, match="R/N"):
        rs.bootstrap_means(np.ones((2, 3)), 10, levels="bogus")
    with pytest.raises(pr.ConfigError, match="one bool per level"):
        rs.bootstrap_means(np.ones((2, 3)), 10, levels=3)
    with pytest.raises(pr.ConfigError, match="n_bootstrap"):
        rs.bootstrap_means(np.ones(3), 0)
    with pytest.raises(pr.ConfigError, match="chunk_size"):
        rs.bootstrap_means(np.ones(3), 10, chunk_size=0)
    with pytest.raises(pr.DataError, match="not a finite number"):
        rs.bootstrap_means([1.0, np.nan, 2.0], 10)
    with pytest.raises(pr.DataError, match="level 1"):
        rs.gather(OLD, (TABLE_VI_BINARIES, TABLE_VI_EXECUTIONS[:, :2], TABLE_VI_MEASUREMENTS))
    with pytest.raises(pr.DataError, match=r"\[0, 2\)"):
        rs.gather(OLD, (TABLE_VI_BINARIES, TABLE_VI_EXECUTIONS + 1, TABLE_VI_MEASUREMENTS))


@pytest.mark.parametrize("levels", ["all", "RN", "flat"])
def test_batches_are_bootstrapped_each_on_its_own(levels):
    data = np.random.default_rng(4).normal(size=(7, 3, 4)) + np.arange(7)[:, None, None]
    got = rs.bootstrap_means(data, 30, random_state=2, levels=levels, batch_axes=1, chunk_size=30)
    assert got.shape == (30, 7)
    if levels == "flat":  # pooling within each data set = resampling its values reshaped to one level
        flags, shape = [False, True], (7, 12)
    else:
        flags, shape = [False, *rs.resampling_scheme(levels, 2)], data.shape
    reps = rs.gather(data.reshape(shape), rs.resample_indices(shape, 30, random_state=2, levels=flags))
    np.testing.assert_allclose(got, reps.reshape(30, 7, -1).mean(axis=2))
    # every data set stays itself: its replicate means come from its own values
    assert np.all(np.abs(got - data.mean(axis=(1, 2))) < 3)
    with pytest.raises(pr.DataError, match="batch shape"):
        rs.bootstrap_means_joint([data, data[:3]], 10, batch_axes=1)
