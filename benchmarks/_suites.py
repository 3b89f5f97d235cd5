"""The generated suite the pipeline benchmarks time (run as ``python benchmarks/X.py``)."""

from __future__ import annotations

import numpy as np
import perfrigor as pr


def make_suite(n: int, runs: int, seed: int = 0) -> pr.Suite:
    """``n`` benchmarks x 2 systems x ``runs``: log-normal times (sd 5%), the candidate ~5% faster; fresh per seed."""
    rng = np.random.default_rng(seed)
    data = {}
    for i in range(n):
        mu = rng.uniform(0, 3)
        data[f"bench{i:05d}"] = {"old": np.exp(rng.normal(mu, 0.05, runs)),
                                 "new": np.exp(rng.normal(mu - 0.05, 0.05, runs))}
    return pr.Suite(data)
