"""Components that misbehave in worker processes (imported by name there): die, or hang."""

from __future__ import annotations

import os
import time
from pathlib import Path

import attrs
import perfrigor as pr


@attrs.define(repr=False)
class DiesInWorker(pr.Estimator):
    """Kills the process it runs in, unless that is the test's own process."""

    name = "dies-in-worker"
    parent: int = 0

    def estimate(self, sample):
        if os.getpid() != self.parent:
            os._exit(9)
        return pr.Estimate(estimate=1.0)


@attrs.define(repr=False)
class Sleeps(pr.Estimator):
    """Takes ``seconds`` per benchmark; then touches ``finished`` (a path) when given: a test can tell
    whether anyone waited for it without timing the wait."""

    name = "sleeps"
    seconds: float = 5.0
    finished: str = ""

    def estimate(self, sample):
        time.sleep(self.seconds)
        if self.finished:
            Path(self.finished).touch()
        return pr.Estimate(estimate=1.0)


def die(*args, **kwargs):
    """A task that kills the worker process running it."""
    os._exit(9)
