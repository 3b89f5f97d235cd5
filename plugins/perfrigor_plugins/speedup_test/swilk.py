"""Shapiro-Wilk W and p-value exactly as R's ``shapiro.test`` (Royston 1995, AS R94), in double precision.

Hand-written because scipy's compiled port differs from R by up to ~1e-6 relative in the
p-value for large samples (thousands of runs); the formulas and constants are Royston's,
as R's ``swilk.c`` uses them.
"""

from __future__ import annotations

import math

import numpy as np

# Royston's polynomial coefficients (AS R94)
_C1 = (0.0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056)
_C2 = (0.0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633)
_C3 = (0.544, -0.39978, 0.025054, -6.714e-4)
_C4 = (1.3822, -0.77857, 0.062767, -0.0020322)
_C5 = (-1.5861, -0.31082, -0.083751, 0.0038915)
_C6 = (-0.4803, -0.082676, 0.0030302)
_G = (-2.273, 0.459)


def _poly(c: tuple[float, ...], x: float) -> float:
    return float(np.polynomial.polynomial.polyval(x, c))


def shapiro_wilk(x: np.ndarray) -> tuple[float, float]:
    """(W, p-value) of a sample of 3 to 5000 values that are not all equal (the caller checks)."""
    from scipy import special
    from scipy import stats as sps
    x = np.sort(np.asarray(x, dtype=float))
    n = x.size
    half = n // 2
    if n == 3:
        a = np.array([math.sqrt(0.5)])
    else:
        # expected normal order statistics (negative: the lower half), then Royston's corrections
        m = special.ndtri((np.arange(1, half + 1) - 0.375) / (n + 0.25))
        summ2 = 2.0 * float(np.sum(m * m))
        ssumm2 = math.sqrt(summ2)
        rsn = 1.0 / math.sqrt(n)
        a1 = _poly(_C1, rsn) - m[0] / ssumm2
        a = -m / ssumm2
        if n > 5:
            a2 = -m[1] / ssumm2 + _poly(_C2, rsn)
            fac = math.sqrt((summ2 - 2 * m[0] ** 2 - 2 * m[1] ** 2) / (1 - 2 * a1 ** 2 - 2 * a2 ** 2))
            a = -m / fac
            a[0], a[1] = a1, a2
        else:
            fac = math.sqrt((summ2 - 2 * m[0] ** 2) / (1 - 2 * a1 ** 2))
            a = -m / fac
            a[0] = a1
    coef = np.zeros(n)  # antisymmetric weights of the order statistics
    coef[:half] = a
    coef[n - half:] = -a[::-1]
    xs = (x - x.mean()) / (x[-1] - x[0])
    cs = coef - coef.mean()
    ssa, ssx, sax = float(cs @ cs), float(xs @ xs), float(cs @ xs)
    root = math.sqrt(ssa * ssx)
    w1 = (root - sax) * (root + sax) / (ssa * ssx)
    w = 1.0 - w1
    if n == 3:
        pw = 6 / math.pi * (math.asin(math.sqrt(w)) - math.pi / 3)
        return w, max(pw, 0.0)
    y = math.log(w1)
    lxx = math.log(n)
    if n <= 11:  # Royston's small-sample normalising transformation
        gamma = _poly(_G, n)
        if y >= gamma:
            return w, 1e-99
        y = -math.log(gamma - y)
        mu = _poly(_C3, n)
        s = math.exp(_poly(_C4, n))
    else:
        mu = _poly(_C5, lxx)
        s = math.exp(_poly(_C6, lxx))
    return w, float(sps.norm.sf(y, mu, s))
