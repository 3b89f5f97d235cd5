"""Timings of the gmm plugin: BIC search (EM for G = 1..9, models E and V) and KSfit.

Run: ``python benchmarks/gmm.py [--ksfit-replicates 500]``. Prints wall-clock
seconds (small searches: the mean of repeated runs, as a pipeline fits one
small sample per benchmark), each on fresh data. ``benchmarks/vs_r.py`` measures the same against
R in one run (docs/performance.md). For comparison, R's ``mclust::Mclust(x, G = 1:9, modelNames = c("E", "V"))``
on the same kind of data takes about 0.1 s, 0.7 s and 6.4 s at n = 10^3, 10^4, 10^5
on an idle machine of this class (0.24 s, 1.25 s, 9.1 s, and 86 s for 500 refits
at n = 1000, measured here beside perfrigor's 0.11 s, 0.40 s, 2.9 s and 20 s;
see docs/methods/gmm.md). mclust initialises on a random subset of 2000 points
when n > 2000; perfrigor always initialises on all the data, deterministically.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from perfrigor_plugins.gmm import em, ksfit
from perfrigor_plugins.gmm.mixture import Mixture

TRUTH = Mixture([0.5, 0.35, 0.15], [2.0, 8.0, 25.0], [0.5, 0.5, 0.5])  # the paper's Fig. 6 "plain"


def timed(fn, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def timed_search(x: np.ndarray, rng: np.random.Generator) -> tuple[float, em.BicSearch]:
    """Seconds per BIC search, averaged over ~1 s of repeats for small n, each on fresh data."""
    seconds, fit = timed(em.bic_search, x[None])
    repeats = int(min(100, 1.0 / max(seconds, 1e-4)))
    if repeats > 1:
        fresh = TRUTH.sample((repeats, x.size), rng)
        seconds, _ = timed(lambda: [em.bic_search(row[None]) for row in fresh])
        seconds /= repeats
    return seconds, fit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="40,1000,10000,100000")
    parser.add_argument("--ksfit-n", default="240,1000")
    parser.add_argument("--ksfit-replicates", type=int, default=500)
    args = parser.parse_args()
    rng = np.random.default_rng(2016)
    for n in (int(s) for s in args.sizes.split(",")):
        x = TRUTH.sample(n, rng)
        seconds, fit = timed_search(x, rng)
        print(f"BIC search, n = {n:>7,}: {seconds:8.4f} s  (chose G = {fit.n_components[0]}, "
              f"model {em.MODELS[fit.model[0]]})")
    for n in (int(s) for s in args.ksfit_n.split(",")):
        x = TRUTH.sample(n, rng)
        seconds, out = timed(ksfit.ksfit_batch, x[None], args.ksfit_replicates, rng)
        pvalue, _ = ksfit.bootstrap_pvalue(float(out.statistic[0]), out.bootstrap[0], 0.05)
        print(f"KSfit, n = {n:,}, {args.ksfit_replicates} bootstrap refits: {seconds:7.2f} s "
              f"(p-value {pvalue:.3f}; {seconds / args.ksfit_replicates * 1e3:.0f} ms per refit of G = 1..9, "
              "E and V)")


if __name__ == "__main__":
    main()
