"""Writing reports safely: never a half-written file in place of a good one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_atomically(path: str | os.PathLike, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` all at once, or not at all.

    The text goes to a temporary file in the same folder, flushed to disk, which then
    replaces ``path`` with ``os.replace`` (atomic on POSIX and Windows within a file
    system). If anything fails, ``path`` keeps its old content and the temporary file is
    removed. A new file gets the permissions the umask gives; a replaced one keeps its own.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
