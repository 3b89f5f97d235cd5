"""Do a system's modes persist in time? The Wald-Wolfowitz runs test of its runs' membership in a mode.

Runs that fall into modes at random (strata: a cache hit or miss, a branch) switch between them
as often as chance says; modes that persist in time (invocations nobody declared, a machine that
changed state) come in long stretches: too few runs of one membership (Wald & Wolfowitz 1940).
The verdict's modes path trusts a mode's own answer over the typical run's unless the modes
persist (:func:`.paths.modes`). scipy has no runs test: the exact distribution is written here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: above this many runs the number of stretches is taken as normal (its exact sum would be long)
EXACT_UP_TO = 1000


def runs_pvalue(member: np.ndarray) -> float:
    """One-sided p-value of "too few stretches" for a boolean sequence in run order: the probability, over the
    orders of the same runs, of at most as many stretches of equal values (1 when one value is absent)."""
    member = np.asarray(member, dtype=bool)
    n = member.size
    n1 = int(member.sum())
    n2 = n - n1
    if n1 == 0 or n2 == 0:
        return 1.0
    stretches = 1 + int(np.count_nonzero(member[1:] != member[:-1]))
    if n > EXACT_UP_TO:
        from scipy import special
        mean = 1.0 + 2.0 * n1 * n2 / n
        var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0))
        return float(special.ndtr((stretches + 0.5 - mean) / math.sqrt(var))) if var > 0 else 1.0
    total = math.lgamma(n + 1) - math.lgamma(n1 + 1) - math.lgamma(n2 + 1)

    def log_comb(a: int, b: int) -> float:
        if b < 0 or b > a:
            return -math.inf
        return math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1)

    p = 0.0
    for r in range(2, stretches + 1):
        m = r // 2
        if r % 2 == 0:
            log_p = math.log(2.0) + log_comb(n1 - 1, m - 1) + log_comb(n2 - 1, m - 1)
            p += math.exp(log_p - total) if log_p > -math.inf else 0.0
        else:
            for a, b in ((m, m - 1), (m - 1, m)):
                log_p = log_comb(n1 - 1, a) + log_comb(n2 - 1, b)
                p += math.exp(log_p - total) if log_p > -math.inf else 0.0
    return min(1.0, p)


def modes_persist(labels: Sequence[Sequence[int]], mode: int, alpha: float) -> bool:
    """Whether either system's runs keep to the mode (or away from it) in stretches longer than chance: the runs
    test of each system's membership in ``mode`` (``labels``: per system, every run's mode in run order)."""
    return any(runs_pvalue(np.asarray(lab) == mode) < alpha for lab in labels if len(lab) >= 2)
