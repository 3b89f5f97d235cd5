"""Executors: local process pools that stop at once, and clusters whose workers can vanish.

:func:`process_pool` makes the local pool of ``--jobs`` and ``executor="process"``: its
workers leave interrupts to the parent (which stops them, :func:`stop_pool`) and draw no
progress bars. A process pool reports a dead worker (``BrokenProcessPool``, turned into
:class:`~perfrigor.errors.ExecutionError` by the scheduler). A dask cluster does not:
when its last worker dies the scheduler waits for a new one forever. :class:`Watched`
wraps such an executor and fails the pending tasks once no worker has been alive for
``grace`` seconds.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from . import progress
from .errors import ExecutionError

#: how long a stopped worker gets to end on SIGTERM before it is killed
STOP_GRACE = 1.0


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS, Windows
        return os.cpu_count() or 1


#: messages kept by each of dask.distributed's low-level logs (``distributed.admin.low-level-log-length``).
#: dask keeps 1,000, and its log of what a client sent the scheduler keeps the tasks with their
#: arguments (a batch of benchmarks' samples and earlier results): in a suite of 10^5 benchmarks,
#: those of up to 64,000 of them, in the calling process. The logs are for debugging dask itself.
DASK_LOG_LENGTH = 10


def dask_client(address: Any, **kwargs: Any) -> Any:
    """A ``distributed.Client`` of ``address`` (a scheduler's address or a cluster) whose low-level logs keep
    :data:`DASK_LOG_LENGTH` messages; other schedulers, workers and clients are left as dask's settings make them."""
    import dask
    import distributed

    with dask.config.set({"distributed.admin.low-level-log-length": DASK_LOG_LENGTH}):
        return distributed.Client(address, **kwargs)


#: the signals that stop a run: held back while the workers are forked, left to the parent in them
STOPPING = (signal.SIGINT, signal.SIGTERM)


def _worker_init() -> None:
    """A pool worker: no bars nor notices (only the parent speaks), and no interrupt handling of its
    own: Ctrl-C (sent to the whole terminal group) is the parent's to handle, and SIGTERM, the
    parent's way of stopping it, ends it at once (a handler inherited from the parent would not)."""
    progress.silence()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)  # held back by the parent while it forked


def process_pool(workers: int) -> cf.ProcessPoolExecutor:
    """A local process pool of ``workers`` processes, started (see :func:`stop_pool` to stop it at once).

    The workers are started here with SIGINT and SIGTERM held back: a signal arriving while Python
    forks would be raised inside the fork's own callbacks, where it is ignored (the run would go on).
    Held back, it is raised once they are started, and the pool is stopped.
    """
    pool = cf.ProcessPoolExecutor(max(1, workers), initializer=_worker_init)
    hold = hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING) if hold else None
        try:
            pool.submit(int).result()  # starts every worker (a fork context starts them all at once)
        finally:
            if held is not None:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
    except BaseException:
        stop_pool(pool)
        raise
    return pool


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


def stop_pool(pool: cf.Executor, grace: float = STOP_GRACE) -> None:
    """Shut a process pool down without waiting for stuck tasks (after a timeout or an interrupt):
    cancel what is queued, terminate its worker processes, and wait for them (``grace`` seconds,
    then kill), so none outlives the run."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # (shutdown forgets it)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(grace)
    # the pool's manager thread sees its workers gone and closes its pipes: let it finish first, or
    # the interpreter's exit may write to a pipe it is closing (a traceback on Python 3.11)
    if manager is not None and manager is not threading.current_thread():
        manager.join(grace)
