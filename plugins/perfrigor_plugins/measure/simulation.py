"""Simulated commands: a noise model of a measurement session standing in for real processes.

:class:`SessionNoise` says how a machine disturbs runs over a session: run-to-run noise, a
slow wander of the machine's speed shared by runs close in time (temperature, background
load), a linear drift, occasional slow runs (interrupts), and a penalty for the first run
of each round (cold caches). :meth:`SessionNoise.sessions` draws many whole sessions at once
(vectorised, for the calibration); :class:`SimulatedExecutor` draws run by run from the same
model and plugs into the runner in place of :class:`~.executors.ProcessExecutor`, so the
calibration speaks for the loop ``perfrigor measure`` runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from .executors import RunResult
from .plan import MeasuredCommand


@attrs.frozen
class SessionNoise:
    """How a session disturbs the runs, relative to a command's true time ``scale`` (seconds).

    ``cv``: run-to-run noise (log-normal sd); ``wander``: sd of an AR(1) wander of the machine's
    speed with lag-1 correlation ``wander_phi`` per run; ``drift``: total relative slow-down
    over ``span`` runs (linear); ``outliers``: share of runs slowed 1.5x to 3x; ``first_penalty``:
    the first run of a round is this much slower; ``iteration_cv``: noise of in-process
    iterations around their run's value.
    """

    cv: float = 0.02
    wander: float = 0.0
    wander_phi: float = 0.98
    drift: float = 0.0
    span: int = 400
    outliers: float = 0.0
    first_penalty: float = 0.0
    iteration_cv: float = 0.01
    scale: float = 0.05

    def factors(self, rng: np.random.Generator, t: np.ndarray, first: np.ndarray, wander: np.ndarray) -> np.ndarray:
        """The multiplicative disturbance of runs at times ``t`` (run counts since the session began)."""
        x = np.exp(self.cv * rng.standard_normal(t.shape) + wander)
        x *= 1.0 + self.drift * t / self.span
        x *= np.where(first, 1.0 + self.first_penalty, 1.0)
        if self.outliers:
            slow = rng.random(t.shape) < self.outliers
            x *= np.where(slow, rng.uniform(1.5, 3.0, t.shape), 1.0)
        return x

    def wander_series(self, rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
        """Stationary AR(1) wander along the last axis, sd ``wander`` (zeros without)."""
        if not self.wander:
            return np.zeros(shape)
        from scipy.signal import lfilter  # the recursion as a filter, in C

        phi = self.wander_phi
        e = rng.standard_normal(shape) * np.sqrt(1.0 - phi * phi)
        e[..., 0] = rng.standard_normal(shape[:-1])
        return self.wander * lfilter([1.0], [1.0, -phi], e, axis=-1)

    def sessions(self, count: int, rounds: int, speedup: float = 1.0, interleaved: bool = True,
                 random_state: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """``count`` sessions of ``rounds`` runs of a baseline and a candidate ``speedup`` times faster.

        Interleaved: round ``r`` runs both, in a random order (times ``2r`` and ``2r + 1``); else one
        after the other: all the baseline's runs, then all the candidate's (times ``r`` and
        ``rounds + r``). Returns the baseline's and the candidate's values, each ``(count, rounds)``.
        """
        rng = pr.check_random_state(random_state)
        r = np.arange(rounds)
        if interleaved:
            second = rng.random((count, rounds)) < 0.5  # the baseline runs second in this round
            t_base, t_cand = 2 * r + second, 2 * r + ~second
            first_base, first_cand = ~second, second
        else:
            t_base, t_cand = np.broadcast_to(r, (count, rounds)), np.broadcast_to(rounds + r, (count, rounds))
            first_base = first_cand = np.zeros((count, rounds), dtype=bool)
        wander = self.wander_series(rng, (count, 2 * rounds))
        w_base = np.take_along_axis(wander, np.asarray(t_base), axis=1)
        w_cand = np.take_along_axis(wander, np.asarray(t_cand), axis=1)
        base = self.scale * self.factors(rng, np.asarray(t_base, dtype=float), first_base, w_base)
        cand = self.scale / speedup * self.factors(rng, np.asarray(t_cand, dtype=float), first_cand, w_cand)
        return base, cand

    def log_speedups(self, count: int, rounds: int, speedup: float = 1.0, random_state: Any = None) -> np.ndarray:
        """The rounds' paired log speedups of interleaved sessions, ``(count, rounds)``: what the rule sees."""
        base, cand = self.sessions(count, rounds, speedup, True, random_state)
        return np.log(base) - np.log(cand)


class SimulatedExecutor:
    """Runs :class:`MeasuredCommand` s in a simulated session: an executor for the runner.

    ``speedups`` maps each command's name to how many times faster it is than the true time
    ``noise.scale``; runs are drawn one at a time from ``noise``, in the order the runner asks
    for them, the first of every ``len(speedups)`` runs counting as a round's first.
    The clock is the sum of the simulated times. ``fail`` names commands that exit with code 1.
    """

    def __init__(self, noise: SessionNoise, speedups: Mapping[str, float], random_state: Any = None,
                 fail: Sequence[str] = ()) -> None:
        self.noise = noise
        self.speedups = dict(speedups)
        self.rng = pr.check_random_state(random_state)
        self.fail = set(fail)
        self.runs = 0
        self._time = 0.0
        self._wander = 0.0
        self._k = len(speedups)

    def clock(self) -> float:
        return self._time

    def setup(self, command: MeasuredCommand) -> None:
        pass

    def prepare(self, command: MeasuredCommand) -> None:
        pass

    def _speedup(self, command: MeasuredCommand) -> float:
        try:
            return float(self.speedups[command.name])
        except KeyError:
            raise pr.ConfigError(f"simulated command {command.name!r} has no speedup (given: "
                                 f"{', '.join(map(repr, self.speedups))})") from None

    def run(self, command: MeasuredCommand, iterations: int) -> RunResult:
        noise, rng = self.noise, self.rng
        if noise.wander:
            phi = noise.wander_phi
            self._wander = (phi * self._wander + noise.wander * np.sqrt(1 - phi * phi) * rng.standard_normal()
                            if self.runs else noise.wander * rng.standard_normal())
        t = np.array([float(self.runs)])
        first = np.array([self.runs % self._k == 0])
        value = noise.scale / self._speedup(command) * float(noise.factors(rng, t, first, np.array([self._wander]))[0])
        self.runs += 1
        self._time += value * iterations
        if iterations > 1:
            values = tuple(float(v) for v in value * np.exp(noise.iteration_cv * rng.standard_normal(iterations)))
        else:
            values = (value,)
        return RunResult(values, 1 if command.name in self.fail else 0, "simulated failure" if
                         command.name in self.fail else "")
