"""Timing of the hpt comparator: a suite of 1,000 benchmarks x 30 runs (and smaller ones).

The r-Speedup search re-runs both HPT levels at every hundredth of speedup; it must stay
well under a second for 1,000 benchmarks. Each suite is timed twice: from Samples (what
``pr.read`` gives) and from plain arrays (which are validated into Samples first).
Run: ``python benchmarks/hpt.py``.
"""

from __future__ import annotations

import _timing
import numpy as np
import perfrigor as pr


def suite(n_benchmarks: int, runs: int, speedup: float, seed: int = 0) -> tuple[dict, dict]:
    """Times of a baseline and of a candidate ``speedup`` times faster on average (log-normal noise)."""
    rng = np.random.default_rng(seed)
    scale = rng.lognormal(0.0, 1.0, n_benchmarks)[:, None]
    per_bench = rng.lognormal(np.log(speedup), 0.2, n_benchmarks)[:, None]
    base = scale * rng.lognormal(0.0, 0.05, (n_benchmarks, runs))
    cand = scale / per_bench * rng.lognormal(0.0, 0.05, (n_benchmarks, runs))
    names = [f"bench{i:04d}" for i in range(n_benchmarks)]
    return dict(zip(names, base, strict=True)), dict(zip(names, cand, strict=True))


def best_of(fn, repeat: int = 3) -> float:
    return _timing.best_of(fn, repeat, warmup=1)  # warm the caches of the exact null distributions


def main() -> None:
    hpt = pr.get("hpt")
    for n, m, s in [(12, 5, 1.3), (100, 30, 1.3), (1000, 30, 1.3), (1000, 30, 3.0), (1000, 5, 1.3), (30, 1000, 1.3)]:
        base, cand = suite(n, m, s)
        samples = ({b: pr.Sample(v) for b, v in base.items()}, {b: pr.Sample(v) for b, v in cand.items()})
        t_samples = best_of(lambda: hpt.compare(*samples))  # noqa: B023 - timed immediately
        t_arrays = best_of(lambda: hpt.compare(base, cand))  # noqa: B023
        res = hpt.compare(*samples)
        print(f"{n:5d} benchmarks x {m:4d} runs, true speedup {s}: {t_samples * 1e3:7.1f} ms from Samples, "
              f"{t_arrays * 1e3:7.1f} ms from arrays (0.95-Speedup {res.estimate}, "
              f"GM-Speedup {res.details['gm_speedup']:.3f})")


if __name__ == "__main__":
    main()
