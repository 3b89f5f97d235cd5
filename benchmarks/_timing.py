"""Best-of-N wall-clock timing shared by the benchmark scripts (run as ``python benchmarks/X.py``)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], repeat: int = 3, warmup: int = 0) -> float:
    """The fastest of ``repeat`` calls of ``fn``, in seconds, after ``warmup`` untimed calls (caches)."""
    for _ in range(warmup):
        fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def timed(label: str, fn: Callable[[], object], repeat: int = 3, width: int = 58, digits: int = 1) -> None:
    """Print ``label`` and the best-of-``repeat`` time of ``fn`` in milliseconds."""
    print(f"{label:<{width}} {best_of(fn, repeat) * 1e3:9.{digits}f} ms")
