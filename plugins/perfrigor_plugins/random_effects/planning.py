"""Experiment planning (Kalibera & Jones §6.1, §7.4, §7.5): optimal repetition counts per level.

Cost model (eq. 13), in the paper's units: every cost is a number of lowest-level
measurements that could be taken in the same time. For levels 1 (lowest) .. n+1 (top),
``c_i`` (1 <= i <= n) is the overhead paid each time a new unit of level i+1 is started:

* ``c_1``: a new execution (process/VM start-up plus the warm-up measurements thrown away),
* ``c_2``: a new build (compilation time / time of one measurement), and so on.

The top level has no cost of its own: its count follows from the budget. The total cost is
``c = (c_n + ... (c_2 + (c_1 + n_1) n_2) n_3 ... n_n) n_{n+1}``, and the counts that give the
narrowest interval for a given cost are (eq. 14, with ``c_0 = 1``)
``n_i = sqrt(c_i / c_{i-1} · σ_i² / σ_{i+1}²)`` for 1 <= i <= n.

libkalibera (``Data.optimalreps(i, costs)``) instead takes one cost per level, **highest
level first**, in any time unit, the last being the time of one measurement: its
``(100, 20, 3)`` means "a build costs 100, an execution 20, a measurement 3", i.e. the
paper's ``c = [20/3, 100/3]``: ``c_i = cost[level i+1] / cost[level 1]``
(:func:`costs_from_libkalibera`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import perfrigor as pr


def _floats(values: Sequence[float], what: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float).reshape(-1)
    if not np.all(np.isfinite(arr)):
        raise pr.ConfigError(f"{what} must be finite numbers, got {list(values)}")
    return arr


def costs_from_libkalibera(costs: Sequence[float]) -> np.ndarray:
    """The paper's ``[c_1, ..., c_n]`` from libkalibera's per-level costs (highest level first, time units)."""
    lk = _floats(costs, "costs")
    if lk.size < 2 or np.any(lk <= 0):
        raise pr.ConfigError(f"libkalibera costs need one positive cost per level (highest first, the last "
                             f"being one measurement), got {list(costs)}")
    per_level = lk[::-1]  # lowest first: [measurement, execution, build, ...]
    return per_level[1:] / per_level[0]


def optimal_repetitions(variances: Sequence[float], costs: Sequence[float]) -> np.ndarray:
    """Unrounded optimal ``[n_1, ..., n_n]`` (eq. 14) from ``[σ_1², ..., σ_{n+1}²]`` and ``[c_1, ..., c_n]``.

    Needs σ_i² > 0 above level 1 (remove levels with T_i² <= 0 first) and positive costs.
    """
    s = _floats(variances, "variances")
    c = _floats(costs, "costs")
    if c.size != s.size - 1:
        raise pr.ConfigError(f"{c.size} cost(s) for {s.size} levels: give n_levels - 1 costs "
                             "(c_1 .. c_n, lowest level first)")
    if np.any(c <= 0):
        raise pr.ConfigError(f"costs must be positive (in measurements), got {c.tolist()}")
    if np.any(s[1:] <= 0) or s[0] < 0:
        raise pr.DataError(f"variances {s.tolist()}: the optimum needs σ_i² > 0 above the lowest level "
                           "(remove levels whose T_i² <= 0 first)")
    previous = np.concatenate(([1.0], c[:-1]))  # c_0 = 1: a measurement costs one measurement
    return np.sqrt(c / previous * s[:-1] / s[1:])


def drop_level_costs(costs: Sequence[float], position: int) -> tuple[list[float], float]:
    """Costs after running one unit of the level at ``position`` (2 .. n+1, lowest = 1) per parent.

    With n_i = 1, eq. 13 has (c_i + c_{i-1} + k_{i-1}) n_{i+1}: starting a unit of level i+1
    now costs c_{i-1} + c_i. For the top level (one unit only), c_n is paid once.
    Returns the new costs and the one-off cost.
    """
    c = [float(v) for v in costs]
    if not 2 <= position <= len(c) + 1:
        raise pr.ConfigError(f"level position {position} cannot be dropped from {len(c) + 1} levels")
    if position == len(c) + 1:
        return c[:-1], c[-1]
    c[position - 2: position] = [c[position - 2] + c[position - 1]]
    return c, 0.0


def round_repetitions(optimal: Sequence[float]) -> list[int]:
    """Round up (as the paper does), never below 1."""
    return [max(1, math.ceil(v - 1e-9)) for v in optimal]


def cost_per_top_unit(repetitions: Sequence[float], costs: Sequence[float]) -> float:
    """Cost (in measurements) of one top-level unit: ``c_n + k_n`` with ``k_1 = n_1``, ``k_i = (c_{i-1} + k_{i-1}) n_i``."""
    n = _floats(repetitions, "repetitions")
    c = _floats(costs, "costs")
    if c.size != n.size:
        raise pr.ConfigError(f"{c.size} cost(s) for {n.size} repetition count(s) below the top level")
    if n.size == 0:
        return 1.0  # a flat experiment: each top-level unit is one measurement
    k = n[0]
    for i in range(1, n.size):
        k = (c[i - 1] + k) * n[i]
    return float(c[-1] + k)


def experiment_cost(counts: Sequence[float], costs: Sequence[float]) -> float:
    """Total cost (eq. 13) of an experiment with ``counts = [n_1, ..., n_{n+1}]``."""
    n = _floats(counts, "counts")
    return cost_per_top_unit(n[:-1], costs) * float(n[-1])


def affordable_top_count(budget: float, repetitions: Sequence[float], costs: Sequence[float],
                         overhead: float = 0.0) -> int:
    """The number of top-level units a budget pays for, floored as in §8.5."""
    return max(0, math.floor((budget - overhead) / cost_per_top_unit(repetitions, costs) + 1e-9))


def predicted_half_width(variances: Sequence[float], counts: Sequence[float], confidence: float = 0.95) -> float:
    """Half-width of the t-interval a planned experiment should give: t_{1-α/2, n_top-1} sqrt(var(Ȳ)) (eq. 10)."""
    from scipy import stats
    n_top = int(counts[-1])
    if n_top < 2:
        return math.inf
    t = float(stats.t.ppf(0.5 + confidence / 2, n_top - 1))
    return t * math.sqrt(pr.hierarchy.predicted_variance_of_mean(variances, counts))


def top_count_for_half_width(variances: Sequence[float], repetitions: Sequence[float], half_width: float,
                             confidence: float = 0.95, limit: int = 10**7) -> int | None:
    """The fewest top-level units (>= 2) whose predicted t-interval half-width is <= ``half_width``.

    None when even ``limit`` units are not enough.
    """
    from scipy import stats
    if half_width <= 0:
        raise pr.ConfigError(f"the target half-width must be positive, got {half_width!r}")
    # variance contributed by one top-level unit: σ_{n+1}² + σ_n²/n_n + σ_{n-1}²/(n_{n-1} n_n) + ...
    unit_var = pr.hierarchy.predicted_variance_of_mean(variances, [*repetitions, 1])
    if unit_var == 0:
        return 2
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    guess = unit_var * (z / half_width) ** 2  # normal approximation; the t quantile needs a few more
    upper = min(limit, max(16, int(4 * guess) + 16))
    m = np.arange(2, upper + 1)
    ok = stats.t.ppf(0.5 + confidence / 2, m - 1) * np.sqrt(unit_var / m) <= half_width
    if not ok.any():
        return None
    return int(m[np.argmax(ok)])
