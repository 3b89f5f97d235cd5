"""Which files a command opened: recorded where files are opened, so ``-o`` refuses every input.

A report written over a file it was computed from destroys the measurements. The files a run
reads are not only those named on the command line: a Speedup-Test ``.cfg`` names its sample
files, a criterion folder holds a ``sample.json`` per benchmark, a third-party reader reads what
it likes. So the command line records every file opened while it works (Python's audit event
``open``, raised by ``open()``, ``os.open`` and everything built on them, whoever calls them),
and refuses to write onto any of them (:func:`same_file`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterable, Iterator

_lock = threading.Lock()
_installed = False
#: the sets being filled, one per active :func:`recording` (usually none: the hook then returns at once)
_sinks: list[set[str]] = []


def _hook(event: str, args: tuple) -> None:
    if event != "open" or not _sinks:
        return
    path = args[0]
    if isinstance(path, int):  # a file descriptor (os.fdopen): already opened by path
        return
    try:
        name = os.path.abspath(os.fsdecode(path))
    except (TypeError, ValueError):
        return
    for sink in list(_sinks):
        sink.add(name)


@contextlib.contextmanager
def recording() -> Iterator[set[str]]:
    """A set that receives the absolute path of every file opened in this process inside the block."""
    global _installed
    with _lock:
        if not _installed:  # an audit hook cannot be removed: installed once, idle outside the blocks
            sys.addaudithook(_hook)
            _installed = True
    sink: set[str] = set()
    _sinks.append(sink)
    try:
        yield sink
    finally:
        _sinks.remove(sink)


def same_file(target: str | os.PathLike, paths: Iterable[str | os.PathLike]) -> str | None:
    """The first of ``paths`` that is the existing file ``target`` (through symbolic or hard links), else None.

    A ``target`` that does not exist is none of them: nothing was read from it.
    """
    try:
        st = os.stat(target)
    except (OSError, ValueError):
        return None
    for path in paths:
        try:
            other = os.stat(path)
        except (OSError, ValueError):
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return os.fspath(path)
    return None
