"""Executors whose workers can vanish: a lost worker becomes a clear error, never a hang.

A process pool already reports a dead worker (``BrokenProcessPool``, turned into
:class:`~perfrigor.errors.ExecutionError` by the pipeline). A dask cluster does not:
when its last worker dies the scheduler waits for a new one forever. :class:`Watched`
wraps such an executor and fails the pending tasks once no worker has been alive for
``grace`` seconds.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

from .errors import ExecutionError


class Watched(cf.Executor):
    """``inner`` with its tasks failed (ExecutionError) when ``workers()`` stays 0 for ``grace`` seconds.

    Before any worker has been seen, the wait is ``startup`` seconds instead (a cluster that
    scales up on demand may take a while to start its first worker).

    Errors of the executor's own machinery (exception classes from ``foreign_modules``, e.g.
    dask's ``KilledWorker`` after a task killed its workers) become ExecutionErrors too.
    """

    def __init__(self, inner: cf.Executor, workers: Callable[[], int], what: str = "the executor",
                 grace: float = 10.0, poll: float = 0.5, foreign_modules: tuple[str, ...] = ("distributed",),
                 startup: float = 120.0) -> None:
        self.inner, self.workers, self.what = inner, workers, what
        self.grace, self.poll, self.foreign_modules, self.startup = grace, poll, foreign_modules, startup
        self._seen = False  # has a worker been alive yet?
        self._pending: set[cf.Future] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future:
        outer: cf.Future = cf.Future()
        inner = self.inner.submit(fn, *args, **kwargs)

        def copy(done: Any) -> None:
            with self._lock:
                self._pending.discard(outer)
            try:
                result = done.result()
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
                _settle(outer, exception=self._translate(exc))
            else:
                _settle(outer, result=result)

        with self._lock:
            self._pending.add(outer)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="perfrigor-watch", daemon=True)
                self._thread.start()
        inner.add_done_callback(copy)
        return outer

    def _translate(self, exc: BaseException) -> BaseException:
        module = type(exc).__module__ or ""
        if any(module == m or module.startswith(m + ".") for m in self.foreign_modules):
            return ExecutionError(f"{self.what}: a task failed in the cluster: {type(exc).__name__}: "
                                  f"{' '.join(str(exc).split())[:300]}")
        return exc

    def _watch(self) -> None:
        idle_since: float | None = None
        while not self._stop.wait(self.poll):
            with self._lock:
                pending = [f for f in self._pending if not f.done()]
            if not pending:
                idle_since = None
                continue
            try:
                alive = self.workers()
            except Exception:  # noqa: BLE001 - the scheduler itself is gone: as good as no worker
                alive = 0
            if alive:
                idle_since, self._seen = None, True
                continue
            idle_since = idle_since if idle_since is not None else time.monotonic()
            limit = self.grace if self._seen else self.startup
            if time.monotonic() - idle_since >= limit:
                why = (f"no worker has been alive for {limit:g} s while {len(pending)} task(s) waited (a worker "
                       "died?)" if self._seen else f"no worker joined in {limit:g} s while {len(pending)} task(s) "
                       "waited")
                error = ExecutionError(f"{self.what}: {why}; start workers and rerun")
                for f in pending:
                    _settle(f, exception=error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._stop.set()
        if cancel_futures:
            self.inner.shutdown(wait=wait, cancel_futures=True)
        else:  # (dask's executor knows no cancel_futures)
            self.inner.shutdown(wait=wait)


def _settle(future: cf.Future, result: Any = None, exception: BaseException | None = None) -> None:
    """Set a future's outcome unless it already has one (the watcher and the task can race)."""
    with contextlib.suppress(cf.InvalidStateError):
        if exception is not None:
            future.set_exception(exception)
        else:
            future.set_result(result)


def stop_pool(pool: cf.Executor) -> None:
    """Shut a process pool down without waiting for stuck tasks: cancel what is queued and
    terminate its worker processes (after a timeout or an interrupt)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
