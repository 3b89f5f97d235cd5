"""Progress reporting for long computations (bootstraps), shown only by the CLI.

Library code calls ``with progress.task(total, "bootstrap") as advance: advance(k)``,
``progress.notice(message)`` to say up front that some work will take long, and
``with progress.status(description) as show: show(text)`` for one line of live status
(``perfrigor measure``'s rounds, time left and current interval).
By default nothing is shown; the CLI installs a reporter that draws a bar on
stderr once a task has run for more than a second (ticking even while one long
piece of work runs between two ``advance`` calls), and prints notices as
``perfrigor: note: ...`` lines. Components never print.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol


class Reporter(Protocol):
    def start(self, total: int, description: str) -> Callable[[int], None]: ...

    def finish(self) -> None: ...


_reporter: Reporter | None = None
_notifier: Callable[[str], None] | None = None


def set_reporter(reporter: Reporter | None) -> Reporter | None:
    """Install a reporter (None to silence); returns the previous one."""
    global _reporter
    previous, _reporter = _reporter, reporter
    return previous


def set_notifier(notifier: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """Install what shows notices (None to silence, the default); returns the previous one."""
    global _notifier
    previous, _notifier = _notifier, notifier
    return previous


def notice(message: str) -> None:
    """Say something about the work ahead (e.g. that it will take long); a no-op unless a notifier is set."""
    if _notifier is not None:
        _notifier(message)


#: a top-level task whose first steps forecast more than this many seconds is announced (notice)
LONG_TASK = 120.0
_depth = 0  # tasks open now: only the outermost one forecasts (inner ones are part of it)


@contextlib.contextmanager
def task(total: int, description: str) -> Iterator[Callable[[int], None]]:
    """A context giving ``advance(n)``; a no-op unless a reporter or a notifier is installed.

    With a notifier, the outermost task forecasts its duration from its first ``advance``
    and announces (``notice``) one that will take longer than ``LONG_TASK`` seconds.
    """
    global _depth
    forecast = _forecaster(total, description) if _notifier is not None and _depth == 0 else None
    if _reporter is None and forecast is None:
        yield lambda n=1: None
        return
    shown = _reporter.start(total, description) if _reporter is not None else None

    def advance(n: int = 1) -> None:
        if shown is not None:
            shown(n)
        if forecast is not None:
            forecast(n)

    _depth += 1
    try:
        yield advance
    finally:
        _depth -= 1
        if _reporter is not None:
            _reporter.finish()


@contextlib.contextmanager
def status(description: str) -> Iterator[Callable[[str], None]]:
    """A context giving ``show(text)``: one line of live status (where a long measurement stands),
    redrawn in place under ``description``; a no-op unless the reporter draws such lines (the CLI's
    ``StderrBar``, on a terminal only)."""
    reporter = _reporter
    start = getattr(reporter, "start_status", None)
    if start is None:
        yield lambda text: None
        return
    show = start(description)
    try:
        yield show
    finally:
        reporter.finish()  # type: ignore[union-attr]


def _forecaster(total: int, description: str) -> Callable[[int], None]:
    """``advance`` that, on its first call, announces a task forecast to exceed ``LONG_TASK``."""
    started, state = time.monotonic(), {"done": 0, "said": False}

    def forecast(n: int = 1) -> None:
        state["done"] += n
        done = state["done"]
        if state["said"] or not 0 < done < total:
            return
        state["said"] = True
        elapsed = time.monotonic() - started
        expected = elapsed * total / done
        if expected > LONG_TASK:
            notice(f"{description}: will take about {duration(expected)} at this pace "
                   f"({done} of {total} done in {duration(elapsed)})")

    return forecast


def duration(seconds: float) -> str:
    """A duration for people: '40 s', '12 min', '3.5 h'."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def silence() -> None:
    """No bar and no notices (a worker process's initializer: only the parent speaks)."""
    set_reporter(None)
    set_notifier(None)


class StderrBar:
    """Draws ``description [#####.....] 52%   3 s`` on a terminal once a task has run ``delay`` seconds.

    The CLI installs it when stderr is a TTY (never in pipes or logs). Nested
    tasks show the innermost one; the line is cleared when a task finishes. A
    background thread redraws it every ``tick`` seconds, so the elapsed time moves
    even while a long piece of work runs between two ``advance`` calls.
    """

    def __init__(self, stream=None, delay: float = 1.0, width: int = 30, tick: float = 0.5) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self.width = width
        self.tick = tick
        self._stack: list[list] = []  # [total, done, description, started, last_draw]
        self._lock = threading.RLock()
        self._ticker: threading.Thread | None = None
        self._drawn = 0  # length of the status line on the terminal (to overwrite a longer one)

    def start(self, total: int, description: str) -> Callable[[int], None]:
        state = [max(int(total), 1), 0, description, time.monotonic(), 0.0]
        with self._lock:
            self._stack.append(state)
            self._start_ticker()

        def advance(n: int = 1) -> None:
            state[1] = min(state[1] + n, state[0])
            self._maybe_draw(state)

        return advance

    def start_status(self, description: str) -> Callable[[str], None]:
        """A status line in place of a bar (``progress.status``): ``description  12 s · TEXT``, drawn
        at every ``show(text)``, its clock moved by the ticker in between."""
        state = [0, 0, description, time.monotonic(), 0.0, ""]
        with self._lock:
            self._stack.append(state)
            self._start_ticker()

        def show(text: str) -> None:
            with self._lock:
                state[5] = text
                state[4] = time.monotonic()
                self._draw(state)

        return show

    def _maybe_draw(self, state: list) -> None:
        now = time.monotonic()
        # redraw at most 10 times a second, and only once the task is slow enough to notice
        with self._lock:
            if now - state[3] >= self.delay and now - state[4] >= 0.1:
                state[4] = now
                self._draw(state)

    def _start_ticker(self) -> None:
        if self._ticker is not None or self.tick <= 0:
            return

        def tick() -> None:
            while True:
                time.sleep(self.tick)
                with self._lock:
                    if not self._stack:
                        self._ticker = None
                        return
                    self._maybe_draw(self._stack[-1])

        self._ticker = threading.Thread(target=tick, name="perfrigor-progress", daemon=True)
        self._ticker.start()

    def _draw(self, state: list) -> None:
        total, done, description = state[0], state[1], state[2]
        elapsed = time.monotonic() - state[3]
        if len(state) > 5:  # a status line, cut to the terminal's width (a wrapped line is not redrawn)
            line = f"{description} {elapsed:5.0f} s · {state[5]}"[: shutil.get_terminal_size().columns - 1]
            self.stream.write("\r" + line.ljust(self._drawn))
            self._drawn = len(line)
            self.stream.flush()
            return
        filled = int(self.width * done / total)
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{description} [{bar}] {done / total:4.0%} {elapsed:5.0f} s")
        self.stream.flush()

    def finish(self) -> None:
        with self._lock:
            state = self._stack.pop() if self._stack else None
            if state is not None and state[4]:  # something was drawn: clear the line
                wide = max(len(state[2]) + self.width + 18, self._drawn)
                self.stream.write("\r" + " " * wide + "\r")
                self.stream.flush()
                self._drawn = 0
