"""Time the hierarchical bootstrap against numpy's floor: drawing and gathering as many values.

10^4 replicates of a ratio of two 10 x 10 x 100 experiments resample 2 * 10^8 measurements.
The floor is what numpy needs to draw that many uniform indices (``rng.integers``) and
gather the values (``np.take``) in cache-sized chunks, without any hierarchy. The ratio
of the two times says how much the hierarchy costs. Run: ``python benchmarks/bootstrap.py``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import perfrigor as pr


def timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def numpy_floor(values: np.ndarray, n_values: int, chunk: int, rng: np.random.Generator) -> float:
    """Draw ``n_values`` uniform indices into ``values`` and sum what they gather, chunk by chunk."""
    flat = values.reshape(-1)
    total = 0.0
    for start in range(0, n_values, chunk):
        idx = rng.integers(0, flat.size, size=min(chunk, n_values - start))
        total += flat.take(idx).sum()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=10_000)
    parser.add_argument("--shape", type=int, nargs="+", default=[10, 10, 100])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    shape = tuple(args.shape)
    old = rng.normal(10.0, 0.5, size=shape)
    new = rng.normal(9.5, 0.5, size=shape)
    n_values = 2 * args.replicates * old.size
    chunk = pr.resampling.CHUNK_DRAWS

    # Interleave the floor and each variant, and compare paired runs: the machine's load
    # changes between runs (shared cores), and a ratio of paired runs cancels most of it.
    variants = ("all", "RRN" if len(shape) == 3 else "top", "top", "flat")
    floors, times = [], {v: [] for v in variants}
    for _ in range(args.repeat):
        floors.append(timed(lambda: numpy_floor(old, n_values, chunk, rng)))
        for levels in variants:
            times[levels].append(timed(lambda lv=levels: pr.resampling.bootstrap_ratio(
                new, old, args.replicates, random_state=1, levels=lv)))
    floor = min(floors)
    print(f"numpy draw + gather of {n_values:.3g} values: {floor:.3f} s ({1e9 * floor / n_values:.2f} ns/value)")
    for levels in variants:
        ratio = float(np.median(np.array(times[levels]) / np.array(floors)))
        print(f"bootstrap_ratio levels={levels:<5} {args.replicates} replicates of 2 x {shape}: "
              f"{min(times[levels]):.3f} s, {ratio:.2f} x the numpy floor (median of paired runs)")


if __name__ == "__main__":
    main()
