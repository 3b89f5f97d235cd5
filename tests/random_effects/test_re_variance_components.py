"""Estimator variance-components (Kalibera & Jones §6.1, Tables III and IV)."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest

from .kj_data import TABLE_III, TABLE_IV


def test_table_iii():
    r = pr.get("variance-components").estimate(pr.Sample(TABLE_III))
    assert r.levels == ("iteration", "invocation", "build")
    assert r.counts == (2, 2, 3)
    np.testing.assert_allclose(r.S2, [16.5, 2.5833333, 3.5625])
    np.testing.assert_allclose(r.T2, [16.5, -5.6666667, 2.2708333])
    assert r.drop == ("invocation",)
    assert len(r.warnings) == 1 and "invocation" in r.warnings[0] and "<= 0" in r.warnings[0]
    assert r.mean == 6.5
    assert sum(r.share) == pytest.approx(1.0)
    assert r.share[1] == 0.0
    assert "T² <= 0 at invocation" in r.describe()
    json.dumps(r.to_dict())


def test_table_iv_all_positive_no_warning():
    r = pr.get("variance-components").estimate(TABLE_IV)
    np.testing.assert_allclose(r.T2, [12.7222222, 0.3819444], rtol=1e-6)
    assert r.drop == () and r.warnings == ()
    np.testing.assert_allclose(r.share, np.array([12.7222222, 0.3819444]) / 13.1041667, rtol=1e-6)


def test_flat_data_one_level():
    x = [10.1, 10.4, 9.8, 10.0, 10.3]
    r = pr.get("variance-components").estimate(x)
    assert r.S2 == r.T2 == (pytest.approx(np.var(x, ddof=1)),)
    assert r.share == (1.0,)


def test_warmup_drops_leading_measurements_and_is_recorded():
    y = np.array(TABLE_III, dtype=float)
    warm = np.concatenate([np.full((3, 2, 3), 50.0), y], axis=2)  # 3 slow warm-up iterations
    r = pr.get("variance-components", warmup=3).estimate(warm)
    np.testing.assert_allclose(r.T2, [16.5, -5.6666667, 2.2708333])
    assert r.details["warmup"] == 3
    assert r.details["measurements_per_unit_before_warmup"] == 5
    with pytest.raises(pr.DataError, match="warmup 5"):
        pr.get("variance-components", warmup=5).estimate(warm)
    with pytest.raises(pr.ConfigError):
        pr.get("variance-components", warmup=-1)


def test_level_names_come_from_the_sample():
    s = pr.Sample(TABLE_III, levels=("binary", "execution", "measurement"), name="fft")
    r = pr.get("variance-components").estimate(s)
    assert r.levels == ("measurement", "execution", "binary")
    assert r.warnings[0].startswith("fft:")


def test_zero_variance_is_reported():
    r = pr.get("variance-components").estimate(np.full((3, 2, 4), 7.0))
    assert r.share is None
    assert any("equal" in w for w in r.warnings)


def test_bad_input():
    with pytest.raises(pr.DataError, match="unbalanced"):
        pr.get("variance-components").estimate([[1, 2], [3]])
    with pytest.raises(pr.DataError, match="unit per parent"):
        pr.get("variance-components").estimate([[1.0, 2.0, 3.0]])
    with pytest.raises(pr.DataError):
        pr.get("variance-components").estimate([[1.0, np.nan], [2.0, 3.0]])
