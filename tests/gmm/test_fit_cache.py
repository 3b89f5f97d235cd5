"""The mixture-fit cache: a pipeline task fits each distinct sample once, many at once, same results."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from perfrigor_plugins.gmm import em, fitting


def _fit_dict(fit):
    return json.dumps(fit.to_dict(), sort_keys=True)


def _fits(samples, max_components, model):
    """Each sample's fit (as JSON) or its error message, one at a time."""
    out = []
    for x in samples:
        try:
            out.append(_fit_dict(fitting.fit_mixture(x, max_components, model)[2]))
        except pr.DataError as exc:
            out.append(str(exc))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), sizes=st.lists(st.sampled_from([5, 12, 30]), min_size=1, max_size=6),
       model=st.sampled_from(["auto", "E", "V"]), max_components=st.integers(1, 5))
def test_batched_fits_equal_one_at_a_time(seed, sizes, model, max_components):
    rng = np.random.default_rng(seed)
    samples = []
    for n in sizes:
        kind = rng.integers(3)
        if kind == 0:
            x = rng.lognormal(1.0, 0.05, n)
        elif kind == 1:
            x = np.r_[rng.normal(5, 0.1, n // 2), rng.normal(7, 0.2, n - n // 2)]
        else:
            x = np.round(rng.normal(10, 2, n))  # ties; possibly too few distinct values
        samples.append(x)
    samples.append(samples[0].copy())  # the same values twice: fitted once
    fresh = _fits(samples, max_components, model)
    with pr.Workspace():
        fitting.fit_many(samples, max_components, model)
        cached = _fits(samples, max_components, model)
    assert cached == fresh


def test_fit_many_needs_a_workspace_and_skips_what_is_there():
    x = np.random.default_rng(0).lognormal(0, 0.1, 30)
    assert fitting.fit_many([x]) == 0  # no workspace: nothing is kept anywhere
    with pr.Workspace() as ws:
        assert fitting.fit_many([x, x.copy(), [1.0, 2.0, 1.0, 2.0]]) == 1  # duplicate and unfittable skipped
        # one fit, and the distinct-value counts of the two different samples (kept for the task's other steps)
        assert fitting.fit_many([x]) == 0 and len(ws) == 3
        assert fitting.fit_many([x], max_components=4) == 1  # other options: another fit


def _count_searches(monkeypatch):
    rows: list[int] = []
    real = em.bic_search

    def counting(x, *args, **kwargs):
        rows.append(np.atleast_2d(x).shape[0])
        return real(x, *args, **kwargs)

    monkeypatch.setattr(em, "bic_search", counting)
    return rows


def test_a_pipeline_fits_each_sample_once_in_one_batched_search(monkeypatch):
    rng = np.random.default_rng(3)
    suite = pr.Suite({f"b{i}": {"old": rng.lognormal(i, 0.05, 30), "new": rng.lognormal(i, 0.05, 30)}
                      for i in range(6)})
    steps = ["gmm", "prob-faster", "mean-difference", "prob-fastest"]
    rows = _count_searches(monkeypatch)
    report = pr.Pipeline(steps).run(suite)
    assert rows == [12]  # 6 benchmarks x 2 systems, one batched search, shared by the 4 steps
    rows.clear()
    again = pr.Pipeline(steps).run(suite)
    assert rows == [12]  # a new run fits again: nothing is cached across runs
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(report.to_dict(), sort_keys=True)
    rows.clear()
    one_by_one = pr.Pipeline(steps).run(suite, batch_size=1)
    assert rows == [2] * 6
    assert json.dumps(one_by_one.to_dict(), sort_keys=True) == json.dumps(report.to_dict(), sort_keys=True)


def test_direct_calls_fit_fresh_every_time(monkeypatch):
    x = np.random.default_rng(4).lognormal(0, 0.1, 30)
    rows = _count_searches(monkeypatch)
    gmm = pr.get("gmm")
    assert gmm.estimate(x) == gmm.estimate(x)
    assert rows == [1, 1]  # outside a pipeline (no workspace) nothing is memoised


@pytest.mark.parametrize("bad", [[1.0, 2.0] * 10, [3.0] * 12])
def test_unfittable_samples_are_reported_by_their_benchmark(bad):
    rng = np.random.default_rng(5)
    suite = pr.Suite({"ok": {"old": rng.lognormal(0, 0.1, 20), "new": rng.lognormal(0, 0.1, 20)},
                      "bad": {"old": bad, "new": rng.lognormal(0, 0.1, 20)}})
    report = pr.Pipeline(["gmm", "prob-faster"]).run(suite)
    assert {(e.step, e.benchmark) for e in report.errors} == {("gmm", "bad")}
    assert report.result("prob-faster", "bad").details["parametric"] is None  # non-parametric still there
