"""Progress reporting for long computations (bootstraps), shown only by the CLI.

Library code calls ``with progress.task(total, "bootstrap") as advance: advance(k)``.
By default nothing is shown; the CLI installs a reporter that draws a bar on
stderr once a task has run for more than a second. Components never print.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Protocol


class Reporter(Protocol):
    def start(self, total: int, description: str) -> Callable[[int], None]: ...

    def finish(self) -> None: ...


_reporter: Reporter | None = None


def set_reporter(reporter: Reporter | None) -> Reporter | None:
    """Install a reporter (None to silence); returns the previous one."""
    global _reporter
    previous, _reporter = _reporter, reporter
    return previous


@contextlib.contextmanager
def task(total: int, description: str) -> Iterator[Callable[[int], None]]:
    """A context giving ``advance(n)``; a no-op unless a reporter is installed."""
    if _reporter is None:
        yield lambda n=1: None
        return
    advance = _reporter.start(total, description)
    try:
        yield advance
    finally:
        _reporter.finish()


class StderrBar:
    """Draws ``description [#####.....] 52%   3 s`` on a terminal once a task has run ``delay`` seconds.

    The CLI installs it when stderr is a TTY (never in pipes or logs). Nested
    tasks show the innermost one; the line is cleared when a task finishes.
    """

    def __init__(self, stream=None, delay: float = 1.0, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.width = width
        self._stack: list[list] = []  # [total, done, description, started, last_draw]

    def start(self, total: int, description: str) -> Callable[[int], None]:
        state = [max(int(total), 1), 0, description, time.monotonic(), 0.0]
        self._stack.append(state)

        def advance(n: int = 1) -> None:
            state[1] = min(state[1] + n, state[0])
            now = time.monotonic()
            # redraw at most 10 times a second, and only once the task is slow enough to notice
            if now - state[3] >= self.delay and now - state[4] >= 0.1:
                state[4] = now
                self._draw(state)

        return advance

    def _draw(self, state: list) -> None:
        total, done, description = state[0], state[1], state[2]
        filled = int(self.width * done / total)
        bar = "#" * filled + "." * (self.width - filled)
        elapsed = time.monotonic() - state[3]
        self.stream.write(f"\r{description} [{bar}] {done / total:4.0%} {elapsed:5.0f} s")
        self.stream.flush()

    def finish(self) -> None:
        state = self._stack.pop() if self._stack else None
        if state is not None and state[4]:  # something was drawn: clear the line
            self.stream.write("\r" + " " * (len(state[2]) + self.width + 18) + "\r")
            self.stream.flush()
