"""The suite's pooled dependence: a point shrunk toward the suite, tails from the suite's own mixture.

The rule (plugins/perfrigor_plugins/verdict/dependence.py, ``factor_mixtures`` and ``tail_ratio``;
docs/methods/verdict.md, "Over a suite"): the lag-1 autocorrelations' distribution over the suite is
estimated by nonparametric maximum likelihood on a grid (Kiefer-Wolfowitz); a benchmark whose own
runs cannot place it (10 runs in a suite with a dependent minority) has its p-value taken over its
factor's posterior, realised as one variance factor so that its intervals agree with it.
"""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import simulate
from perfrigor_plugins.verdict import dependence
from scipy import stats as sps


def test_the_tail_ratio_makes_the_comparisons_pvalue_the_mixtures():
    weights, relative = (0.7, 0.3), (0.7, 1.7)
    for p in (0.04, 1e-4, 1e-9):
        ratio = dependence.tail_ratio(p, (weights, relative))
        z = sps.norm.isf(p / 2)
        mixed = sum(w * 2 * sps.norm.sf(z / np.sqrt(f)) for w, f in zip(weights, relative, strict=True))
        assert 2 * sps.norm.sf(z / np.sqrt(ratio)) == pytest.approx(mixed, rel=1e-9)
        assert ratio > 1.0
    # the further in the tail, the more the heavier component counts
    assert dependence.tail_ratio(1e-9, (weights, relative)) > dependence.tail_ratio(0.04, (weights, relative))


def test_known_or_evidence_free_comparisons_keep_their_variance():
    assert dependence.tail_ratio(1e-4, ((), ())) == 1.0
    assert dependence.tail_ratio(1e-4, ((1.0,), (1.0,))) == 1.0
    assert dependence.tail_ratio(1.0, ((0.5, 0.5), (0.5, 1.5))) == 1.0
    assert dependence.tail_ratio(0.0, ((0.5, 0.5), (0.5, 1.5))) == 1.0


def _observations(r1, runs):
    return [dependence.Observation((n, n), (float(r), 0.0), (float(r), 0.0, 0.0), 1, (1.0, 1.0))
            for r, n in zip(r1, runs, strict=True)]


def test_a_suite_that_depends_alike_keeps_its_intervals():
    # 100 benchmarks of independent runs, 30 a side: the suite's posterior is narrow, nothing is widened
    rng = np.random.default_rng(1)
    r1 = rng.normal(0.0, np.sqrt(1 / 60), 100)
    for w in dependence.pooled(_observations(r1, [30] * 100)):
        assert dependence.tail_ratio(1e-4, w.mixture) < 1.1


def test_ten_runs_in_a_suite_with_a_dependent_minority_get_the_minoritys_tails():
    # 80 independent benchmarks and 20 with lag-1 autocorrelation 0.6, 10 runs a side (the estimate's standard
    # error about 0.37): one whose runs happen to look independent may be of either kind
    rng = np.random.default_rng(2)
    rho = np.r_[np.zeros(80), np.full(20, 0.6)]
    r1 = rho + rng.normal(0.0, 0.37, 100)
    r1[:2] = 0.05, 0.0
    runs = [10] * 99 + [300]
    widenings = dependence.pooled(_observations(r1, runs))
    assert dependence.tail_ratio(1e-4, widenings[0].mixture) > 1.1
    assert dependence.tail_ratio(1e-6, widenings[0].mixture) > dependence.tail_ratio(1e-4, widenings[0].mixture)
    # 300 runs place a benchmark on their own: no mixture to speak of
    assert dependence.tail_ratio(1e-4, widenings[99].mixture) < 1.01


def test_segments_that_set_the_widening_leave_no_mixture():
    obs = dependence.Observation((30, 30), (0.1, 0.0), (0.1, 0.0, 0.0), 1, (1.0, 1.0), blocks=(6.0, 1.0),
                                 segments=(3.0, 1.0))
    widening = dependence._with_blocks(dependence.Widening((1.0, 1.0), mixture=((0.5, 0.5), (0.5, 1.5))), 1.0, obs)
    assert widening.mixture == ((), ())


@pytest.mark.slow
def test_an_unchanged_suite_with_dependent_members_does_not_fire_the_gate(monkeypatch):
    # benchmarks/calibration.py --suites, held-out seed 777, suite 22 (random_state 821): with the dependence
    # shrunk toward a mostly independent suite, an unchanged AR(1) benchmark with a 2% drift (20 runs) read
    # "slower"; its tails from the suite's mixture keep it unclear
    models = [m for m in simulate.suite_models(30) if m != "undeclared-hierarchy"]
    suite, _ = simulate.suite(100, (10, 20, 30), 0, 1.0, models=models, random_state=821)

    unrevised = {b: r["verdict"] for b, r in pr.Pipeline(["verdict"]).run(suite, revise=False).benchmark_results.items()}

    def slower():
        revised = pr.get("verdict").revise(suite, unrevised)
        return [b for b, r in revised.items() for v in r.values() if v.outcome == "slower"]

    assert slower() == []
    monkeypatch.setattr(dependence, "tail_ratio", lambda pvalue, mixture: 1.0)
    assert slower() == ["b008-ar1-drift"]


@pytest.mark.parametrize("n", [(10, 10), (20, 20), (30, 10)])
def test_the_lag1_variance_is_that_of_independent_runs(n):
    # Moran (1948): Var r_1 = (n - 2)² / (n² (n - 1)) for independent normal runs, then the bias correction's scale;
    # an Observation averages its two series' with the runs as weights. Checked on 20,000 simulated pairs
    rng = np.random.default_rng(9)
    each = [pr.stats.unbiased_autocorrelation(pr.stats.autocorrelation(rng.standard_normal((20_000, k)), 1)[:, 0], k)
            for k in n]
    pooled = (n[0] * each[0] + n[1] * each[1]) / sum(n)
    assert pooled.var() == pytest.approx(dependence.lag1_variance(n), rel=0.05)
