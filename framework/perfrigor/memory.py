"""How much memory this machine lets a process use, and a refusal of counts that cannot fit.

A resampling count (bootstrap replicates, refits) whose memory exceeds the machine's is refused
when the component is built (``int_param(bytes_each=...)``), naming the limit, instead of
failing later, half-way through a run.
"""

from __future__ import annotations

import os

#: where Linux states a container's memory limit (cgroup v2, then v1); "max" or a huge number: none
_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")


def machine_memory() -> int | None:
    """Memory this process may use, in bytes: the physical memory, or a container's smaller
    limit (cgroups); None where the system does not say."""
    try:
        total: int | None = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        total = None
    for path in _CGROUP_LIMITS:
        try:
            with open(path, encoding="ascii") as handle:
                limit = int(handle.read().strip())
        except (OSError, ValueError):  # absent, or "max"
            continue
        if total is None or limit < total:
            total = limit
        break
    return total


def _size(n_bytes: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n_bytes < 1024 or unit == "PiB":
            return f"{n_bytes:.3g} {unit}" if unit != "bytes" else f"{n_bytes:.0f} bytes"
        n_bytes /= 1024
    raise AssertionError  # pragma: no cover


def check_memory(name: str, count: int, bytes_each: float) -> None:
    """ValueError when ``count`` units of ``bytes_each`` bytes cannot fit in this machine's memory."""
    total = machine_memory()
    need = float(count) * bytes_each
    if total is not None and need > total:
        largest = max(1, int(total // bytes_each))
        raise ValueError(f"{name} = {count} needs about {_size(need)} of memory, more than this machine's "
                         f"{_size(total)} (at most about {largest} fit)")
