"""An EM iteration's cost, in nanoseconds per value and component, against another version of em.py.

    git show main:plugins/perfrigor_plugins/gmm/em.py > /tmp/em_main.py
    python benchmarks/em_iteration.py --baseline /tmp/em_main.py [--n 1000] [--replicates 60] [--repeat 3]

Both versions fit the same bootstrap-like rows (``--replicates`` samples of ``--n`` values from
log-normal, gamma, t3 and three-normal data, both models stacked as ``bic_search`` stacks them)
with G = 2..9 components, one G at a time (``em.fit_batch``, as KSfit's searches do), alternately
in this one process; CPU time over the EM iterations done (the sum over rows of iterations x n x G).
The printed ratio is the figure: absolute times move with the machine's load.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import statistics

import numpy as np
from perfrigor_plugins.gmm import em


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load(path: str):
    spec = importlib.util.spec_from_file_location("em_baseline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows(n: int, replicates: int, rng: np.random.Generator) -> np.ndarray:
    """Standardised sorted samples of several kinds, twice (models "E" and "V")."""
    kinds = [lambda k: rng.lognormal(0.0, 0.5, (k, n)), lambda k: rng.gamma(2.0, 1.0, (k, n)),
             lambda k: 10.0 + rng.standard_t(3, (k, n)),
             lambda k: rng.normal(np.array([2.0, 8.0, 25.0])[rng.choice(3, (k, n), p=[0.5, 0.35, 0.15])], 0.5)]
    x = np.sort(np.concatenate([make(replicates // len(kinds)) for make in kinds]), axis=1)
    x = (x - x.mean(axis=1, keepdims=True)) / x.std(axis=1, keepdims=True)
    return np.concatenate([x, x])


def timed(module, x: np.ndarray, gs: range) -> tuple[float, float, list[np.ndarray]]:
    """CPU seconds, value-components iterated, and the log-likelihoods of every G."""
    b, n = x.shape
    equal = np.arange(b) < b // 2
    zero = np.zeros(b)
    start = cpu_seconds()
    work, lls = 0.0, []
    with np.errstate(all="ignore"):
        for g in gs:
            fit = module.fit_batch(x, g, equal, zero)
            work += float(fit.iterations.sum()) * n * g
            lls.append(fit.loglik)
    return cpu_seconds() - start, work, lls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", required=True, help="another version's em.py")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--replicates", type=int, default=60)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    old = load(args.baseline)
    x = rows(args.n, args.replicates, np.random.default_rng(0))
    gs = range(2, 10)
    timed(old, x[:4], gs), timed(em, x[:4], gs)  # warm caches and work arrays
    per = {"baseline": [], "this": []}
    for _ in range(args.repeat):
        for name, module in (("baseline", old), ("this", em)):
            seconds, work, lls = timed(module, x, gs)
            per[name].append(seconds / work * 1e9)
            if name == "baseline":
                reference, work_old = lls, work
            else:
                ll_old, ll_new = np.concatenate(reference), np.concatenate(lls)
                both = np.isfinite(ll_old) & np.isfinite(ll_new)
                diff = np.max(np.abs(ll_old[both] - ll_new[both]) / np.abs(ll_old[both]))
    before, after = statistics.median(per["baseline"]), statistics.median(per["this"])
    print(f"n = {args.n}, {x.shape[0]} rows, G = 2..9: EM iterations {work_old:.3g} (baseline) and "
          f"{work:.3g} (this) value-components")
    print(f"ns per value and component: baseline {before:.2f}, this {after:.2f}: {before / after:.2f}x faster "
          f"(runs: {', '.join(f'{a:.2f}/{b:.2f}' for a, b in zip(per['baseline'], per['this'], strict=True))})")
    print(f"log-likelihoods: largest relative difference {diff:.1e}; fits failing in one only: "
          f"{int(np.count_nonzero(np.isfinite(ll_old) != np.isfinite(ll_new)))}")


if __name__ == "__main__":
    main()
