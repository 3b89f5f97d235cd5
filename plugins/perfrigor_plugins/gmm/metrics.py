"""The paper's comparison metrics I1, I2, I3 (section 6), parametric and non-parametric.

Conventions (Worms & Touati 2016): X, Y, X_j are single-run performances where
*lower is better* (times); callers negate throughputs first. Non-parametric
estimators (the paper's tilde) use the raw samples, parametric ones (hat)
the fitted mixtures. ``ties``: "strict" is the paper's formula (a tie counts
0), "half" counts a tie 1/2 (the Mann-Whitney convention VARCORE's printed
output suggests); it is the mean of the strict and the non-strict estimate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .mixture import Mixture

SQRT_2_OVER_PI = float(np.sqrt(2.0 / np.pi))
#: where I3's quadrature breaks its range around the other versions' components (in their sds)
STEPS = np.array([-8.0, -4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 4.0, 8.0])


# ------------------------------------------------------------------ I1 = E|X - Y|

def mean_abs_difference(x: np.ndarray, y: np.ndarray) -> float:
    """I1 tilde = (1/nm) sum_ij |x_i - y_j| in O((n + m) log m): sorted y and prefix sums."""
    x = np.asarray(x, dtype=float).ravel()
    y = np.sort(np.asarray(y, dtype=float).ravel())
    prefix = np.concatenate([[0.0], np.cumsum(y)])
    k = np.searchsorted(y, x, side="right")  # y_j <= x_i
    below = x * k - prefix[k]
    above = (prefix[-1] - prefix[k]) - x * (y.size - k)
    return float((below + above).sum() / (x.size * y.size))


def mean_abs_difference_gm(fx: Mixture, fy: Mixture) -> float:
    """I1 hat (eq. 7): sum_ij pi_i pi'_j E|N(mu_i - mu'_j, sqrt(s_i^2 + s'_j^2))|."""
    from scipy import special
    mu = fx.means[:, None] - fy.means[None, :]
    s = np.sqrt(fx.sds[:, None] ** 2 + fy.sds[None, :] ** 2)
    e_abs = mu * (2.0 * special.ndtr(mu / s) - 1.0) + SQRT_2_OVER_PI * s * np.exp(-0.5 * (mu / s) ** 2)
    return float(fx.weights @ e_abs @ fy.weights)


# ------------------------------------------------------------------ I2 = P[X < Y + delta]

def _count_greater(sorted_y: np.ndarray, t: np.ndarray, ties: str) -> np.ndarray:
    strict = sorted_y.size - np.searchsorted(sorted_y, t, side="right")  # y > t
    if ties == "strict":
        return strict.astype(float)
    weak = sorted_y.size - np.searchsorted(sorted_y, t, side="left")  # y >= t
    return 0.5 * (strict + weak)


def prob_less(x: np.ndarray, y: np.ndarray, delta: float = 0.0, ties: str = "strict") -> float:
    """I2 tilde (eq. 9 and the boxed Delta form): (1/nm) #{(i, j): x_i < y_j + delta}."""
    x = np.asarray(x, dtype=float).ravel()
    y = np.sort(np.asarray(y, dtype=float).ravel()) + delta  # y_j + delta, as the formula (not x_i - delta)
    return float(_count_greater(y, x, ties).sum() / (x.size * y.size))


def prob_less_gm(fx: Mixture, fy: Mixture, delta: float = 0.0) -> float:
    """I2 hat (eq. 10): sum_ij pi_i pi'_j Phi((delta + mu'_j - mu_i) / sqrt(s_i^2 + s'_j^2))."""
    from scipy import special
    s = np.sqrt(fx.sds[:, None] ** 2 + fy.sds[None, :] ** 2)
    p = special.ndtr((delta + fy.means[None, :] - fx.means[:, None]) / s)
    # weights sum to 1 only up to rounding: keep the probability inside [0, 1]
    return float(np.clip(fx.weights @ p @ fy.weights, 0.0, 1.0))


# ------------------------------------------------------------------ I3 = P[X_1 < min(X_2..X_r)]

def prob_smallest(samples: Sequence[np.ndarray], ties: str = "strict") -> float:
    """I3 tilde (eq. 12) in its exact factorised form (spec 6.3):
    (1/n_1) sum_i prod_{j >= 2} #{x_{k,j} > x_{i,1}} / n_j, O(sum n_j log n_j).
    """
    first = np.asarray(samples[0], dtype=float).ravel()
    others = [np.sort(np.asarray(s, dtype=float).ravel()) for s in samples[1:]]

    def estimate(rule: str) -> float:
        prod = np.ones(first.size)
        for y in others:
            side = "right" if rule == "strict" else "left"
            prod *= (y.size - np.searchsorted(y, first, side=side)) / y.size
        return float(prod.mean())

    if ties == "strict":
        return estimate("strict")
    return 0.5 * (estimate("strict") + estimate("weak"))


def prob_smallest_gm(mixtures: Sequence[Mixture]) -> float:
    """I3 hat (eq. 13, with the paper's "1 -" typo corrected, spec 6.3):
    integral of f_1(x) prod_{j >= 2} S_j(x) dx.

    Integrated component by component of X_1 in standard units z (x = mu + sigma z)
    by adaptive quadrature (scipy's ``quad``), with break points around the other
    versions' components, since those can be far narrower (sigma = 0.004 s
    in the paper's example) than a fixed grid could see.
    """
    from scipy import integrate
    first, others = mixtures[0], mixtures[1:]
    total = 0.0
    for w, mu, sd in zip(first.weights, first.means, first.sds, strict=True):
        def integrand(z: float, mu: float = mu, sd: float = sd) -> float:
            x = mu + sd * z
            surv = 1.0
            for m in others:
                surv *= float(m.sf(x))
            return float(np.exp(-0.5 * z * z) / np.sqrt(2.0 * np.pi)) * surv

        # break points around every other component (mean +- a few sds), in this component's z units
        pts = np.concatenate([((m.means[:, None] + m.sds[:, None] * STEPS) - mu).ravel() / sd for m in others])
        pts = np.unique(np.clip(pts, -12.0, 12.0))
        pts = pts[(pts > -12.0) & (pts < 12.0)]
        value, _ = integrate.quad(integrand, -12.0, 12.0, points=pts if pts.size else None,
                                  limit=400, epsabs=1e-13, epsrel=1e-11)
        total += w * value
    return float(total)
