"""The default pipeline per benchmark, as a multiple of a floor measured in the same run.

    python benchmarks/pipeline_floor.py [--benchmarks 200] [--runs 30] [--repeat 3] [--pipeline default]

The floor is what any tool must at least do per benchmark to say something sound about two
samples: scipy's Welch t test and Mann-Whitney U test, and a 10^4-replicate vectorised numpy
bootstrap of the ratio of means (with its percentile interval). The suite is generated
(log-normal times, candidate ~5% faster), fresh for every timed run (no cache can flatter it).
Pipeline and floor runs alternate, so a drift of the machine's speed hits both; the ratio is
that of the medians. Issue 13 asks for at most 4x on 200 benchmarks x 2 systems x 30 runs.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import perfrigor as pr
from _suites import make_suite
from scipy import stats

N_BOOTSTRAP = 10_000


def floor(suite: pr.Suite, seed: int = 0) -> None:
    """Welch t + Mann-Whitney + a 10^4-replicate bootstrap of the ratio of means, per benchmark."""
    rng = np.random.default_rng(seed)
    for b in suite.benchmarks:
        x, y = np.asarray(suite[b]["old"]).ravel(), np.asarray(suite[b]["new"]).ravel()
        stats.ttest_ind(x, y, equal_var=False)
        stats.mannwhitneyu(x, y)
        ix = rng.integers(0, x.size, (N_BOOTSTRAP, x.size))
        iy = rng.integers(0, y.size, (N_BOOTSTRAP, y.size))
        np.quantile(x[ix].mean(axis=1) / y[iy].mean(axis=1), [0.025, 0.975])


def seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--benchmarks", type=int, default=200)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--pipeline", default="default")
    args = ap.parse_args()
    pipeline = pr.pipeline(args.pipeline)
    pipeline.run(make_suite(5, args.runs, seed=99))  # imports (scipy ...) happen before timing
    floor(make_suite(5, args.runs, seed=99))
    ours, ref = [], []
    for rep in range(args.repeat):
        ref.append(seconds(lambda rep=rep: floor(make_suite(args.benchmarks, args.runs, seed=2 * rep))))
        ours.append(seconds(lambda rep=rep: pipeline.run(make_suite(args.benchmarks, args.runs, seed=2 * rep + 1))))
    per = 1e3 / args.benchmarks
    a, b = statistics.median(ours), statistics.median(ref)
    print(f"pipeline {args.pipeline!r} steps: {', '.join(s.id for s in pipeline.steps)}")
    print(f"{args.benchmarks} benchmarks x 2 systems x {args.runs} runs, median of {args.repeat}:")
    print(f"  pipeline {args.pipeline:<10} {a * per:8.2f} ms per benchmark")
    print(f"  floor               {b * per:8.2f} ms per benchmark (Welch t + Mann-Whitney + "
          f"{N_BOOTSTRAP:,}-replicate bootstrap)")
    print(f"  ratio               {a / b:8.2f}x  (issue 13 goal: <= 4x)")


if __name__ == "__main__":
    main()
