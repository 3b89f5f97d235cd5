"""Timings of the Speedup-Test and of the shared rank primitives (not part of the test run).

    python benchmarks/speedup_test.py
"""

from __future__ import annotations

from pathlib import Path

import _timing
import numpy as np
import perfrigor as pr

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "speedup-test-samples"


def timed(label: str, fn, repeat: int = 3) -> None:
    _timing.timed(label, fn, repeat, width=62, digits=2)


def main() -> None:
    rng = np.random.default_rng(0)
    x, y = rng.normal(10, 1, 35), rng.normal(9.5, 1, 35)
    xt, yt = np.round(x), np.round(y)
    big_x, big_y = rng.normal(10, 1, 5000), rng.normal(9.9, 1, 5000)

    def fresh(fn):
        def run():
            pr.stats._rank_sum_pmf.cache_clear()
            fn()
        return run

    timed("rank_sum_distribution(49, 49), uncached", fresh(lambda: pr.stats.rank_sum_distribution(49, 49)))
    timed("rank_sum_distribution(300, 300), uncached", fresh(lambda: pr.stats.rank_sum_distribution(300, 300)))
    timed("signed_rank_distribution(49)", lambda: pr.stats._signed_rank_pmf.__wrapped__(49))
    timed("wilcoxon_rank_sum 35 vs 35 (exact, cached distribution)", lambda: pr.stats.wilcoxon_rank_sum(x, y))
    timed("wilcoxon_rank_sum 5000 vs 5000 (normal approximation)",
          lambda: pr.stats.wilcoxon_rank_sum(big_x, big_y))
    timed("ks_two_sample 35 vs 35 with ties (exact)", lambda: pr.stats.ks_two_sample(xt, yt))
    timed("ks_two_sample 99 vs 100 (exact, largest default)",
          lambda: pr.stats.ks_two_sample(big_x[:99], big_y[:100]))
    timed("ks_two_sample 1 vs 9999 (exact, longest lattice walk)",
          lambda: pr.stats.ks_two_sample(big_x[:1], np.r_[big_y, big_x[:4999]]))
    mean, median = pr.get("speedup-test"), pr.get("speedup-test", statistic="median")
    timed("speedup-test mean, 35 vs 35 (with max_confidence search)", lambda: mean.compare(x, y))
    timed("speedup-test median, 35 vs 35 (with max_confidence search)", lambda: median.compare(x, y))
    for cfg in ("manual_example/bench.cfg", "SPECOMP2001/speedup-test-omp2001-icc.cfg"):
        path = DATA / cfg
        if path.exists():
            suite = pr.read(path)
            timed(f"preset speedup-test on {cfg} ({len(suite)} benchmarks)",
                  lambda suite=suite: pr.pipeline("speedup-test").run(suite), repeat=1)


if __name__ == "__main__":
    main()
