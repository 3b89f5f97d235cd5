"""Timings of the random-effects components on data the size of the paper's Mono study.

150 builds x 100 invocations x 45 iterations (675 000 measurements), as in Kalibera &
Jones §8.1. Run: ``python benchmarks/random_effects.py``.
"""

from __future__ import annotations

import numpy as np
import perfrigor as pr
from _timing import timed


def main() -> None:
    rng = np.random.default_rng(0)
    shape = (150, 100, 45)
    y = (1.0 + rng.normal(0, 0.034, (shape[0], 1, 1)) + rng.normal(0, 0.082, (*shape[:2], 1))
         + rng.normal(0, 0.014, shape))
    sample = pr.Sample(y)
    small = pr.Sample(y[:6, :5, :8])
    print(f"data: {shape} = {y.size} measurements")
    timed("hierarchy.level_statistics", lambda: pr.hierarchy.level_statistics(sample))
    timed("variance-components", lambda: pr.get("variance-components").estimate(sample))
    timed("mean-ci t", lambda: pr.get("mean-ci").estimate(sample))
    timed("experiment-plan costs [19, 5343], budget 96174",
          lambda: pr.get("experiment-plan", costs=[19, 5343], budget=96174).estimate(sample))
    timed("experiment-plan, target ±0.5%",
          lambda: pr.get("experiment-plan", costs=[19, 5343], target_half_width=0.005).estimate(sample))
    timed("mean-ci bootstrap, 200 replicates",
          lambda: pr.get("mean-ci", method="bootstrap", n_bootstrap=200, random_state=0).estimate(sample),
          repeat=1)
    timed("mean-ci bootstrap, 10000 replicates, 6x5x8 pilot",
          lambda: pr.get("mean-ci", method="bootstrap", random_state=0).estimate(small))


if __name__ == "__main__":
    main()
