"""Simulation checks of HPT's statistical claims (slow; CI runs them).

- Under H0 (both systems draw every benchmark's runs from the same distribution) the HPT
  confidence reaches 0.95 in at most about 5% of suites (the test is conservative: most
  benchmarks tie, and ties carry no evidence).
- The r-Speedup is a lower confidence bound: with a true speedup s on every benchmark, the
  0.95-Speedup reaches s in at most about 5% of suites.
"""

from __future__ import annotations

import numpy as np
import pytest
from perfrigor_plugins.hpt.engine import Engine
from perfrigor_plugins.hpt.scores import prepare

REPS = 300
LIMIT = 0.05 + 3 * np.sqrt(0.05 * 0.95 / REPS)  # 0.05 plus three standard errors


def null_suites(rng, n, m, speedup=1.0):
    """Log-normal times with a benchmark-specific scale and spread; candidate = baseline law / speedup."""
    scale = rng.lognormal(0, 1, (REPS, n, 1))
    spread = rng.uniform(0.02, 0.2, (REPS, n, 1))
    base = scale * rng.lognormal(0, 1, (REPS, n, m)) ** spread
    cand = scale / speedup * rng.lognormal(0, 1, (REPS, n, m)) ** spread
    names = [f"b{i}" for i in range(n)]
    for r in range(REPS):
        yield dict(zip(names, base[r], strict=True)), dict(zip(names, cand[r], strict=True))


@pytest.mark.slow
@pytest.mark.parametrize(("n", "m"), [(14, 5), (30, 3), (12, 15)])  # exact/exact, normal level 2, normal level 1
def test_type_one_error_at_most_alpha(n, m):
    rng = np.random.default_rng(20260101 + n + m)
    conf = np.array([Engine(prepare(b, c)).evaluate(1.0).confidence for b, c in null_suites(rng, n, m)])
    assert np.mean(conf >= 0.95) <= LIMIT


@pytest.mark.slow
@pytest.mark.parametrize(("n", "m", "speedup"), [(14, 5, 1.5), (26, 7, 1.2)])
def test_r_speedup_is_a_lower_confidence_bound(n, m, speedup):
    rng = np.random.default_rng(7 + n)
    estimates = [Engine(prepare(b, c)).r_speedup(0.95, 10)[0] for b, c in null_suites(rng, n, m, speedup)]
    over = np.mean([e is not None and e >= speedup for e in estimates])
    assert over <= LIMIT
    # and it is not vacuous: most suites support a good part of the true speedup
    assert np.mean([e is not None and e >= 1 + (speedup - 1) / 2 for e in estimates]) > 0.5
