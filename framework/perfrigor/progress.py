"""Progress reporting for long computations (bootstraps), shown only by the CLI.

Library code calls ``with progress.task(total, "bootstrap") as advance: advance(k)``.
By default nothing is shown; the CLI installs a reporter that draws a bar on
stderr once a task has run for more than a second. Components never print.
"""

from __future__ import annotations

import contextlib
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
