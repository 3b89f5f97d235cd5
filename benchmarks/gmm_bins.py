"""Does fitting a mixture through bins of neighbouring runs change anything? Binned against every run, same data.

    python benchmarks/gmm_bins.py [--sizes 30000,100000] [--seeds 2] [--bins 10000] [--converged]

Above ``em.BIN_ABOVE`` runs, ``em.bic_search`` fits bins of neighbouring runs (about
``em.BINS`` of them; none wider than 1/``em.BIN_WIDTHS`` of the interquartile range, none
across an initial quantile class) with the runs' own counts and sums of squares
(docs/methods/gmm.md). For each size, kind of data and seed this fits the same sample both
ways (``BIN_ABOVE`` moved out of the way for the unbinned fit) and prints: whether the chosen
G and model agree, the largest BIC difference over the whole table (G = 1..9, E and V), the
largest difference of the chosen model's means in standard errors (sd / sqrt(n w)), and
the CPU time of each. ``--converged`` also fits both with a tolerance of 1e-8 (EM run to
convergence), which separates what binning changes from where mclust's stopping rule
(relative change 1e-5) happens to stop each fit, and prints the latter for scale.
"""

from __future__ import annotations

import argparse
import resource
from collections.abc import Callable

import numpy as np
from perfrigor_plugins.gmm import em


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def kinds(n: int, rng: np.random.Generator) -> dict[str, Callable[[], np.ndarray]]:
    third = n * 35 // 100
    return {
        "normal": lambda: rng.normal(10, 1, n),
        "log-normal": lambda: rng.lognormal(0, 0.5, n),
        "t3 (heavy tails)": lambda: 10 + rng.standard_t(3, n),
        "three modes": lambda: np.concatenate([rng.normal(2, 0.5, n // 2), rng.normal(8, 0.5, third),
                                               rng.normal(25, 0.5, n - n // 2 - third)]),
        "60 runs in a narrow mode": lambda: np.concatenate([rng.normal(10, 1, n - 60), rng.normal(20, 0.01, 60)]),
    }


def search(x: np.ndarray, binned: bool, tol: float) -> tuple[em.BicSearch, float]:
    saved = em.BIN_ABOVE, em.TOL
    em.BIN_ABOVE, em.TOL = (saved[0] if binned else x.size), tol
    try:
        start = cpu_seconds()
        out = em.bic_search(x[None], 9)
        return out, cpu_seconds() - start
    finally:
        em.BIN_ABOVE, em.TOL = saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="30000,100000")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--bins", type=int, default=em.BINS, help="bins to aim at (em.BINS)")
    ap.add_argument("--converged", action="store_true", help="also fit to convergence (slow: minutes per size)")
    args = ap.parse_args()
    em.BINS = args.bins
    print(f"bins: above {em.BIN_ABOVE:,} runs, about {em.BINS:,} bins, none wider than IQR / {em.BIN_WIDTHS}")
    print(f"{'n':>8} {'data':<26} {'seed':>4} {'G, model':>12} {'max |dBIC|':>11} {'|dmean|/SE':>11} "
          f"{'cpu all':>8} {'cpu bins':>9}" + ("  converged: binning |dBIC|, stopping rule |dBIC|"
                                               if args.converged else ""))
    for n in (int(v) for v in args.sizes.split(",")):
        for seed in range(args.seeds):
            for name, make in kinds(n, np.random.default_rng(seed)).items():
                x = make()
                full, t_full = search(x, False, em.TOL)
                binned, t_binned = search(x, True, em.TOL)
                g, m = int(full.n_components[0]), int(full.model[0])
                same = (g, m) == (int(binned.n_components[0]), int(binned.model[0]))
                choice = f"{g}{em.MODELS[m]}" + ("" if same else f" vs {binned.n_components[0]}"
                                                  f"{em.MODELS[binned.model[0]]}")
                se = full.sds[0, :g] / np.sqrt(np.maximum(full.weights[0, :g] * n, 1.0))
                dmean = float(np.max(np.abs(full.means[0, :g] - binned.means[0, :g]) / se)) if same else np.nan
                line = (f"{n:>8,} {name:<26} {seed:>4} {choice:>12} {np.nanmax(np.abs(full.bic - binned.bic)):11.3g} "
                        f"{dmean:11.2g} {t_full:7.2f}s {t_binned:8.2f}s")
                if args.converged:
                    tight, _ = search(x, False, 1e-8)
                    tight_binned, _ = search(x, True, 1e-8)
                    line += (f"  {np.nanmax(np.abs(tight.bic - tight_binned.bic)):9.3g} "
                             f"{np.nanmax(np.abs(tight.bic - full.bic)):9.3g}")
                print(line, flush=True)


if __name__ == "__main__":
    main()
