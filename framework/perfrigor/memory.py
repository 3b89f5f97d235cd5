"""How much memory a process may use and can take now, and a refusal of counts that cannot fit.

A resampling count (bootstrap replicates, refits) whose memory exceeds what is available is
refused when the component is built (``int_param(bytes_each=...)``), naming the limit, instead
of failing later, half-way through a run.
"""

from __future__ import annotations

import os

#: where Linux states a container's memory limit and use (cgroup v2, then v1); a limit of "max" or a huge
#: number: none
_CGROUP_LIMITS = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
_CGROUP_USAGE = ("/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory/memory.usage_in_bytes")
#: where Linux states the memory available to new work without swapping (free, and caches it can drop)
_MEMINFO = "/proc/meminfo"


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as handle:
            return int(handle.read().strip())
    except (OSError, ValueError):  # absent, or "max"
        return None


def _container_limit() -> tuple[int, int | None] | None:
    """(limit, use) of this process's container (cgroups), None where it has no limit."""
    for limit_path, usage_path in zip(_CGROUP_LIMITS, _CGROUP_USAGE, strict=True):
        limit = _read_int(limit_path)
        if limit is not None:
            return limit, _read_int(usage_path)
    return None


def machine_memory() -> int | None:
    """Memory this process may use, in bytes: the physical memory, or a container's smaller
    limit (cgroups); None where the system does not say."""
    try:
        total: int | None = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        total = None
    container = _container_limit()
    if container is not None and (total is None or container[0] < total):
        total = container[0]
    return total


def available_memory() -> int | None:
    """Memory this process can take now, in bytes: what the system has available (Linux's
    MemAvailable: free memory and the caches it can drop; else the free pages), or what is left
    of a container's limit when less; the machine's memory where neither is known."""
    available: int | None = None
    try:
        with open(_MEMINFO, encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    available = int(line.split()[1]) * 1024  # kB
                    break
    except (OSError, ValueError, IndexError):
        pass
    if available is None:
        try:
            available = int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_AVPHYS_PAGES"))
        except (AttributeError, ValueError, OSError):
            available = None
    container = _container_limit()
    if container is not None:
        limit, used = container
        left = max(0, limit - (used or 0))
        available = left if available is None else min(available, left)
    return available if available is not None else machine_memory()


def _size(n_bytes: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n_bytes < 1024 or unit == "PiB":
            return f"{n_bytes:.3g} {unit}" if unit != "bytes" else f"{n_bytes:.0f} bytes"
        n_bytes /= 1024
    raise AssertionError  # pragma: no cover


def check_memory(name: str, count: int, bytes_each: float) -> None:
    """ValueError when ``count`` units of ``bytes_each`` bytes cannot fit in the memory available now
    (not the machine's total: what other programs hold is not ours to take)."""
    free = available_memory()
    need = float(count) * bytes_each
    if free is not None and need > free:
        largest = max(1, int(free // bytes_each))
        raise ValueError(f"{name} = {count} needs about {_size(need)} of memory, more than the "
                         f"{_size(free)} available now (at most about {largest} fit)")
