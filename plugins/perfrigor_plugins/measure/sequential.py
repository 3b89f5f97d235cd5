"""The stopping rule: an anytime-valid confidence sequence for the speedup of paired rounds.

Round ``i`` runs the baseline and the candidate once each, in a random order; its log speedup
is ``d_i = log(baseline_i / candidate_i)`` (times; the other way round for rates). For
normal ``d`` with mean ``mu`` and unknown sd, the t-test's Bayes factor with a normal prior
``N(0, g)`` on the standardised effect ``(mu - mu0) / sd`` and the right-Haar prior on the sd
(Rouder, Speckman, Sun, Morey & Iverson 2009, eq. 11 with a normal in place of the Cauchy),

    BF_n(mu0) = (1 + n g)^(-1/2) [(1 + t²/v) / (1 + t²/(v (1 + n g)))]^(n/2),
    t = sqrt(n) (mean - mu0) / s,   v = n - 1,

is a non-negative martingale under ``mu = mu0`` whatever the sd (Pérez-Ortiz, Lardy, de
Heide & Grünwald, "E-statistics, group invariance and anytime-valid testing", Ann. Statist.
2024: the Bayes factor with the right-Haar prior on a scale is an e-process). Ville's
inequality then gives ``P(BF_n(mu) >= 1/alpha for some n) <= alpha``: the set of ``mu0``
with ``BF_n(mu0) < 1/alpha``, ``mean ± c_n s / sqrt(n)``, covers ``mu`` at every round at
once, so stopping whenever it first decides keeps the error rate. ``c_n`` has a closed form
(:func:`critical_t`). Everything here is vectorised over leading axes, so the calibration
replays thousands of simulated measurements in one call (:func:`first_decisions`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

#: outcome codes of :func:`decide` (arrays of small ints, for simulations) and their names
UNDECIDED, FASTER, SLOWER, SAME = 0, 1, 2, 3
OUTCOME_NAMES = {UNDECIDED: "unclear", FASTER: "faster", SLOWER: "slower", SAME: "same"}
#: the prior's sd of the standardised effect (sqrt(g)): where the interval is tightest
#: (chosen by the calibration in docs/methods/measure.md, "The mixture's width")
PRIOR_SCALE = 0.5


def critical_t(n: Any, confidence: float, prior_scale: float = PRIOR_SCALE) -> np.ndarray:
    """``c_n`` with ``BF_n = 1/alpha`` at ``|t| = c_n``: the confidence sequence is ``mean ± c_n s/sqrt(n)``.

    From the Bayes factor above with ``x = t²/v``: ``(1 + x)/(1 + x/(1 + n g)) = r``,
    ``r = ((1 + n g)^(1/2) / alpha)^(2/n)``, so ``x = (r - 1) / (1 - r/(1 + n g))``.
    ``inf`` where no t reaches ``1/alpha`` (the factor is bounded by ``(1 + n g)^((n-1)/2)``:
    a few rounds cannot decide anything) and for ``n < 2``. Written by hand: scipy has no
    sequential t-test.
    """
    n = np.asarray(n, dtype=float)
    g = float(prior_scale) ** 2
    alpha = 1.0 - float(confidence)
    ng1 = 1.0 + n * g
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = np.exp(2.0 * (math.log(1.0 / alpha) + 0.5 * np.log(ng1)) / n)
        x = (r - 1.0) / (1.0 - r / ng1)
        c = np.sqrt(x * (n - 1.0))
    return np.where((n >= 2) & (r < ng1), c, np.inf)


def log_evidence(t: Any, n: Any, prior_scale: float = PRIOR_SCALE) -> np.ndarray:
    """``log BF_n`` at a t statistic on ``n`` pairs (the e-process against "no change" when t is at 0)."""
    t, n = np.asarray(t, dtype=float), np.asarray(n, dtype=float)
    ng1 = 1.0 + n * float(prior_scale) ** 2
    v = np.maximum(n - 1.0, 1.0)
    x = np.square(t) / v
    with np.errstate(over="ignore", invalid="ignore"):
        out = -0.5 * np.log(ng1) + 0.5 * n * (np.log1p(x) - np.log1p(x / ng1))
    # an infinite t (pairs that do not vary) is the factor's supremum
    sup = 0.5 * (n - 1.0) * np.log(ng1)
    return np.where(n >= 2, np.where(np.isfinite(x), out, sup), 0.0)


def running(d: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(n, mean, sd)`` of the first 1, 2, ... values along the last axis (sd NaN for n = 1)."""
    d = np.asarray(d, dtype=float)
    n = np.arange(1, d.shape[-1] + 1, dtype=float)
    # centred on the first value: the running variance stays accurate when the mean is far from 0
    shifted = d - d[..., :1]
    s1, s2 = np.cumsum(shifted, axis=-1), np.cumsum(shifted * shifted, axis=-1)
    mean = s1 / n
    with np.errstate(divide="ignore", invalid="ignore"):
        var = np.maximum(s2 - n * mean * mean, 0.0) / (n - 1.0)
    return n, mean + d[..., :1], np.sqrt(var)


def interval(n: Any, mean: Any, sd: Any, confidence: float,
             prior_scale: float = PRIOR_SCALE) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` of the mean log speedup after ``n`` rounds with this mean and sd (±inf: none yet)."""
    n, mean, sd = np.asarray(n, dtype=float), np.asarray(mean, dtype=float), np.asarray(sd, dtype=float)
    c = critical_t(n, confidence, prior_scale)
    with np.errstate(invalid="ignore", divide="ignore"):
        half = np.where(np.isfinite(c), c * sd / np.sqrt(n), np.inf)
    half = np.where(np.isnan(half), np.inf, half)
    return mean - half, mean + half


def intervals(d: Any, confidence: float, prior_scale: float = PRIOR_SCALE) -> tuple[np.ndarray, np.ndarray]:
    """The confidence sequence after every round: ``(low, high)`` of the mean log speedup (±inf: none yet)."""
    n, mean, sd = running(d)
    return interval(n, mean, sd, confidence, prior_scale)


class Running:
    """The rounds' mean and sd kept as they come, with the very arithmetic of :func:`running`
    (sums of the values less the first), so a live decision is the replayed one to the bit."""

    def __init__(self) -> None:
        self.n, self._first, self._s1, self._s2 = 0, 0.0, 0.0, 0.0

    def add(self, value: float) -> None:
        if self.n == 0:
            self._first = value
        x = value - self._first
        self._s1 += x
        self._s2 += x * x
        self.n += 1

    def stats(self) -> tuple[float, float, float]:
        """``(n, mean, sd)`` so far (sd NaN before 2 values)."""
        n = float(self.n)
        mean = self._s1 / n
        sd = float(np.sqrt(max(self._s2 - n * mean * mean, 0.0) / (n - 1.0))) if n > 1 else float("nan")
        return n, mean + self._first, sd


def band(threshold: float) -> float:
    """Half-width of the band of "same" on the log scale: speedups in [1/(1+t), 1+t], the verdict's band."""
    return math.log1p(threshold)


def decide(low: Any, high: Any, threshold: float) -> np.ndarray:
    """Outcome codes of intervals of the log speedup, as the verdict reads an interval.

    "same" when it lies within the band ±log(1 + threshold); else "faster" when it excludes no
    change from above, "slower" from below; else undecided.
    """
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    edge = band(threshold)
    same = (low >= -edge) & (high <= edge) & (threshold > 0)
    return np.where(same, SAME, np.where(low > 0, FASTER, np.where(high < 0, SLOWER, UNDECIDED))).astype(np.int8)


def first_decisions(d: Any, confidence: float, threshold: float, prior_scale: float = PRIOR_SCALE,
                    min_rounds: int = 2, max_rounds: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Where the rule stops on each series of paired log speedups (rows of ``d``): ``(outcome, rounds)``.

    The first round ``>= min_rounds`` whose interval decides, else ``UNDECIDED`` at the last
    round (``max_rounds`` or the series' length). What ``perfrigor measure --until clear``
    does round by round, replayed at once on many simulated measurements.
    """
    d = np.atleast_2d(np.asarray(d, dtype=float))
    if max_rounds is not None:
        d = d[..., :max_rounds]
    low, high = intervals(d, confidence, prior_scale)
    codes = decide(low, high, threshold)
    codes[..., : max(min_rounds, 1) - 1] = UNDECIDED
    decided = codes != UNDECIDED
    first = np.where(decided.any(axis=-1), decided.argmax(axis=-1), d.shape[-1] - 1)
    outcome = np.take_along_axis(codes, first[..., None], axis=-1)[..., 0]
    return outcome, first + 1


def first_significance(d: Any, confidence: float, min_rounds: int = 2,
                       max_rounds: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The naive rule, for comparison: stop when a fixed-n paired t-test first rejects no change.

    ``(outcome, rounds)`` as :func:`first_decisions` (FASTER / SLOWER / UNDECIDED). Its error
    rate grows with every look: it is what the calibration shows the stopping rule must avoid.
    """
    from scipy import stats

    d = np.atleast_2d(np.asarray(d, dtype=float))
    if max_rounds is not None:
        d = d[..., :max_rounds]
    n, mean, sd = running(d)
    q = np.where(n >= 2, stats.t.ppf(0.5 + confidence / 2.0, np.maximum(n - 1.0, 1.0)), np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.nan_to_num(q * sd / np.sqrt(n), nan=np.inf)
    codes = decide(mean - half, mean + half, 0.0)
    codes[..., : max(min_rounds, 2) - 1] = UNDECIDED
    decided = codes != UNDECIDED
    first = np.where(decided.any(axis=-1), decided.argmax(axis=-1), d.shape[-1] - 1)
    return np.take_along_axis(codes, first[..., None], axis=-1)[..., 0], first + 1


def fixed_rounds(sd: float, effect: float, confidence: float, power: float = 0.8) -> int | None:
    """Rounds a fixed design needs to show a change of ``effect`` (log scale) with ``power``: the
    paired test's normal approximation ``((z_(1-alpha/2) + z_power) sd / effect)²``; None if no effect."""
    from statistics import NormalDist

    if not (effect > 0 and sd > 0 and math.isfinite(sd)):
        return None
    z = NormalDist().inv_cdf
    return max(2, math.ceil(((z(0.5 + confidence / 2.0) + z(power)) * sd / effect) ** 2))
