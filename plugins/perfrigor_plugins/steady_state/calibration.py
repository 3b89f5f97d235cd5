"""The penalty of the steady-state segmentation, calibrated by simulation (``python -m
perfrigor_plugins.steady_state.calibration`` recomputes it; docs/methods/steady-state.md has the table).

Barrett et al. fixed the penalty at 15 log n. Here it is the smallest factor c such that a series
without any change of state, of any length in ``LENGTHS`` and any noise of ``NOISE`` (the noise
of in-process iterations: Gaussian, heavy-tailed, skewed, serially dependent), needs a penalty
above ``c log n`` to show a false change in at most ``FALSE_RATE`` of cases. Each simulated series
goes through the estimator's own steps (outliers left out, segment length ``min_size(n)``);
the penalty it needs is that of one split or two (``perfrigor.changepoints.no_change_penalty``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import numpy as np
from perfrigor import changepoints as cp

from .series import PENALTY_FACTOR, outlier_mask

FALSE_RATE = 0.05
LENGTHS = (100, 300, 1000, 3000)
#: coefficient of variation of the simulated iterations (the penalty does not depend on it:
#: the cost is scale-free; it only keeps the values positive)
CV = 0.02


def _ar1(e: np.ndarray, phi: float) -> np.ndarray:
    """An AR(1) series per row with innovations ``e`` (stationary start); a loop over time only."""
    x = np.empty_like(e)
    x[:, 0] = e[:, 0] / math.sqrt(1 - phi * phi)
    for t in range(1, e.shape[1]):
        x[:, t] = phi * x[:, t - 1] + e[:, t]
    return x


def _unit(e: np.ndarray) -> np.ndarray:
    return e / e.std()


#: noise families of iterations without a change of state: (rng, count, n) -> values
NOISE: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "normal": lambda r, k, n: r.normal(size=(k, n)),
    "t(5)": lambda r, k, n: _unit(r.standard_t(5, (k, n))),
    "lognormal(0.5)": lambda r, k, n: _unit(np.exp(r.normal(0, 0.5, (k, n))) - 1),
    "AR(1) 0.3": lambda r, k, n: _ar1(r.normal(size=(k, n)), 0.3),
    "AR(1) 0.6": lambda r, k, n: _ar1(r.normal(size=(k, n)), 0.6),
    "AR(1) 0.6, t(5)": lambda r, k, n: _ar1(r.standard_t(5, (k, n)), 0.6),
}


def min_size(n: int) -> int:
    """The shortest segment for a series of n iterations (2, as Barrett's, up to 10 for long series)."""
    return max(2, min(10, n // 50))


def needed_factors(noise: str, n: int, n_sim: int, rng: np.random.Generator) -> np.ndarray:
    """For ``n_sim`` change-free series: the penalty factor each needs to show no change."""
    x = 1.0 + CV * NOISE[noise](rng, n_sim, n)
    out = np.empty(n_sim)
    for i, row in enumerate(x):
        kept = row[~outlier_mask(row)]
        cost = cp.MeanVarCost.of(kept / np.median(kept))
        out[i] = cp.no_change_penalty(cost, min(min_size(n), kept.size // 4)) / math.log(kept.size)
    return out


def calibrate(lengths: tuple[int, ...] = LENGTHS, n_sim: int = 200, false_rate: float = FALSE_RATE,
              random_state: int = 20261126) -> tuple[float, dict[str, dict[int, float]]]:
    """``(factor, table)``: the calibrated factor and, per noise and length, the factor that leaves
    ``false_rate`` false changes (its ``1 - false_rate`` quantile over ``n_sim`` series)."""
    rng = np.random.default_rng(random_state)
    table = {noise: {n: float(np.quantile(needed_factors(noise, n, n_sim, rng), 1 - false_rate)) for n in lengths}
             for noise in NOISE}
    return max(v for row in table.values() for v in row.values()), table


def main(argv: list[str] | None = None) -> int:
    n_sim = int((argv or sys.argv[1:] or ["200"])[0])
    factor, table = calibrate(n_sim=n_sim)
    print("| noise | " + " | ".join(f"n = {n}" for n in LENGTHS) + " |")
    print("|---|" + "---:|" * len(LENGTHS))
    for noise, row in table.items():
        print(f"| {noise} | " + " | ".join(f"{row[n]:.1f}" for n in LENGTHS) + " |")
    print(f"\ncalibrated factor (the largest): {factor:.1f}; in use: {PENALTY_FACTOR}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
