"""Writing reports safely: never a half-written file in place of a good one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomically(path: str | os.PathLike, text: str | bytes, encoding: str = "utf-8") -> None:
    """Write ``text`` (or bytes: a picture) to ``path`` all at once, or not at all.

    The text goes to a temporary file in the same folder, flushed to disk, which then
    replaces ``path`` with ``os.replace`` (atomic on POSIX and Windows within a file
    system). If anything fails, ``path`` keeps its old content and the temporary file is
    removed. A new file gets the permissions the umask gives; a replaced one keeps its own.
    """
    target = Path(path)
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    # the temporary name is never longer than the target's (a 250-byte name would otherwise overflow the
    # file system's 255); its first characters say whose it is should a crash leave it behind
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:16]}.", suffix=".tmp")
    try:
        binary = isinstance(text, bytes)
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else encoding,
                       newline=None if binary else "") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not exc.filename:  # a full disk says "No space left": name the file
            exc.filename = str(path)
        raise


def _umask() -> int:
    """The process's umask (read by setting it, then restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
