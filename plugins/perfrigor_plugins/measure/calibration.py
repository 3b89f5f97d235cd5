"""The stopping rule's calibration by simulation: false alarms, rounds to a decision, drift.

Every figure in docs/methods/measure.md comes from these functions (``benchmarks/measure_calibration.py``
prints the tables; ``tests/measure`` holds the A/A bound): many sessions drawn at once from a
:class:`~.simulation.SessionNoise` and the rule replayed on all of them
(:func:`~.sequential.first_decisions`, the arithmetic the runner uses live), in chunks of
sessions so memory stays bounded.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from . import sequential as seq
from .simulation import SessionNoise

CHUNK = 1000


@attrs.frozen
class Stops:
    """How the rule ended over ``sessions`` simulated measurements (shares, and rounds used)."""

    sessions: int
    faster: float
    slower: float
    same: float
    unclear: float
    mean_rounds: float
    median_rounds: float

    @property
    def changed(self) -> float:
        """The share that decided "faster" or "slower": false alarms when the truth is no change."""
        return self.faster + self.slower

    @property
    def error(self) -> float:
        """Monte-Carlo standard error of :attr:`changed`."""
        return math.sqrt(max(self.changed * (1 - self.changed), 1e-12) / self.sessions)


def _stops(outcome: np.ndarray, rounds: np.ndarray) -> Stops:
    n = outcome.size
    share = {code: float(np.mean(outcome == code)) for code in seq.OUTCOME_NAMES}
    return Stops(n, share[seq.FASTER], share[seq.SLOWER], share[seq.SAME], share[seq.UNDECIDED],
                 float(np.mean(rounds)), float(np.median(rounds)))


def replay(noise: SessionNoise, speedup: float, sessions: int, max_rounds: int,
           rule: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], random_state: Any = None) -> Stops:
    """Draw ``sessions`` interleaved sessions of ``max_rounds`` rounds and stop each by ``rule``
    (``d -> (outcome, rounds)``, e.g. a partial of :func:`~.sequential.first_decisions`)."""
    rng = pr.check_random_state(random_state)
    outcomes, rounds = [], []
    for start in range(0, sessions, CHUNK):
        d = noise.log_speedups(min(CHUNK, sessions - start), max_rounds, speedup, rng)
        o, r = rule(d)
        outcomes.append(o)
        rounds.append(r)
    return _stops(np.concatenate(outcomes), np.concatenate(rounds))


def sequential_rule(confidence: float = 0.95, threshold: float = 0.01, prior_scale: float = seq.PRIOR_SCALE,
                    min_rounds: int = 5) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """``perfrigor measure --until clear``'s rule, as a function of the rounds' log speedups."""
    return lambda d: seq.first_decisions(d, confidence, threshold, prior_scale, min_rounds)


def naive_rule(confidence: float = 0.95, min_rounds: int = 5) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Stop at the first round where a fixed-n paired t-test is significant."""
    return lambda d: seq.first_significance(d, confidence, min_rounds)


def fixed_rule(confidence: float = 0.95) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A fixed design: one paired t-test after all the rounds."""
    def rule(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        from scipy import stats

        n = d.shape[-1]
        res = stats.ttest_1samp(d, 0.0, axis=-1)
        significant = res.pvalue < 1 - confidence
        outcome = np.where(significant, np.where(res.statistic > 0, seq.FASTER, seq.SLOWER), seq.UNDECIDED)
        return outcome.astype(np.int8), np.full(d.shape[0], n)
    return rule


def fixed_rounds_for_power(sd: float, effect: float, power: float, confidence: float = 0.95,
                           limit: int = 1_000_000) -> int | None:
    """The fewest rounds at which a fixed paired t-test (two-sided, at ``confidence``) has ``power``
    against a mean log speedup ``effect`` with pairs of sd ``sd`` (non-central t; None beyond ``limit``).

    Searched upward from just below the normal approximation, a block of counts at a time.
    """
    from scipy import stats

    if not (0 < power < 1 and effect > 0 and sd > 0):
        return None
    guess = seq.fixed_rounds(sd, effect, confidence, power) or 2
    start = max(2, guess - 4)
    while start <= limit:
        n = np.arange(start, min(start + 64, limit + 1))
        df = n - 1.0
        q = stats.t.ppf(0.5 + confidence / 2.0, df)
        nc = effect / sd * np.sqrt(n)
        got = stats.nct.sf(q, df, nc) + stats.nct.cdf(-q, df, nc)
        hit = np.nonzero(got >= power)[0]
        if hit.size:
            return int(n[hit[0]])
        start += 64
    return None


def pair_sd(noise: SessionNoise, rounds: int = 200, sessions: int = 2000, random_state: Any = 0) -> float:
    """The sd of one round's log speedup under ``noise`` (within sessions, pooled)."""
    d = noise.log_speedups(sessions, rounds, 1.0, random_state)
    return float(np.sqrt(np.mean(np.var(d, axis=1, ddof=1))))


def drift_rates(noise: SessionNoise, rounds: int, sessions: int, speedup: float = 1.0,
                confidence: float = 0.95, threshold: float = 0.01, prior_scale: float = seq.PRIOR_SCALE,
                random_state: Any = None) -> dict[str, float]:
    """Share of sessions that conclude a change, per design and analysis, at a fixed number of rounds.

    ``one-after-the-other, Welch``: all the baseline's runs then all the candidate's, Welch's t on
    log times (what a tool that runs commands in turn and tests them gives); ``interleaved, Welch``:
    rounds in random order, the same unpaired test; ``interleaved, paired t``: the rounds as pairs;
    ``interleaved, sequential``: the stopping rule within ``rounds`` rounds.
    """
    from scipy import stats

    rng = pr.check_random_state(random_state)
    alpha = 1 - confidence
    out: dict[str, list[np.ndarray]] = {"one-after-the-other, Welch": [], "interleaved, Welch": [],
                                        "interleaved, paired t": [], "interleaved, sequential": []}
    for start in range(0, sessions, CHUNK):
        count = min(CHUNK, sessions - start)
        a, b = noise.sessions(count, rounds, speedup, False, rng)
        out["one-after-the-other, Welch"].append(
            stats.ttest_ind(np.log(a), np.log(b), axis=1, equal_var=False).pvalue < alpha)
        a, b = noise.sessions(count, rounds, speedup, True, rng)
        out["interleaved, Welch"].append(stats.ttest_ind(np.log(a), np.log(b), axis=1, equal_var=False).pvalue
                                         < alpha)
        d = np.log(a) - np.log(b)
        out["interleaved, paired t"].append(stats.ttest_1samp(d, 0.0, axis=1).pvalue < alpha)
        o, _ = seq.first_decisions(d, confidence, threshold, prior_scale, 5)
        out["interleaved, sequential"].append((o == seq.FASTER) | (o == seq.SLOWER))
    return {k: float(np.mean(np.concatenate(v))) for k, v in out.items()}
