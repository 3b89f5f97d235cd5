"""The machine a measurement ran on, and the warnings it deserves.

Stored with the runs (the runs file's header), so a result can be read beside the machine's
state: CPU model and count, frequency governor and turbo, load average, kernel, Python and
perfrigor versions. A loaded machine or a governor that moves the clock adds noise (rounds
to a decision); interleaving keeps that noise from biasing the comparison, but not from
costing runs.
"""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import perfrigor as pr

CPUFREQ = Path("/sys/devices/system/cpu")
#: governors that keep the clock where it is (the others move it with the load)
STEADY_GOVERNORS = ("performance",)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip() or None
    except OSError:
        return None


def cpu_model() -> str | None:
    """The CPU's model name (Linux /proc/cpuinfo; else what ``platform`` says)."""
    info = _read(Path("/proc/cpuinfo")) or ""
    for line in info.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "Hardware", "cpu model") and value.strip():
            return value.strip()
    return platform.processor() or None


def governors(root: Path = CPUFREQ) -> list[str]:
    """The frequency governors of the CPUs, each once (empty where the kernel exposes none, e.g. VMs)."""
    found = {_read(p) for p in sorted(root.glob("cpu[0-9]*/cpufreq/scaling_governor"))}
    return sorted(g for g in found if g)


def turbo(root: Path = CPUFREQ) -> bool | None:
    """Whether turbo boost is on (Intel pstate's ``no_turbo`` or cpufreq's ``boost``), None if unknown."""
    no_turbo = _read(root / "intel_pstate" / "no_turbo")
    if no_turbo in ("0", "1"):
        return no_turbo == "0"
    boost = _read(root / "cpufreq" / "boost")
    return boost == "1" if boost in ("0", "1") else None


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def environment() -> dict[str, Any]:
    """The machine and software now, as stored with the runs."""
    return {
        "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "cpus": os.cpu_count(),
        "governor": ", ".join(governors()) or None,
        "turbo": turbo(),
        "load_average": load_average(),
        "system": f"{platform.system()} {platform.release()}".strip(),
        "python": platform.python_version(),
        "perfrigor": pr.__version__,
    }


def noise_warnings(env: Mapping[str, Any], own_load: float = 0.0) -> list[str]:
    """What in ``env`` will add noise: load beyond half the CPUs (``own_load``: the measurement's
    own share of it), a governor that moves the clock, turbo boost."""
    out = []
    load, cpus = env.get("load_average"), env.get("cpus") or 1
    if load and load[0] - own_load > max(1.0, cpus / 2):
        out.append(f"load average {load[0]:g} on {cpus} CPU(s): other processes compete with the commands; "
                   "their noise costs rounds (interleaving keeps it from biasing the comparison)")
    governor = env.get("governor")
    if governor and any(g not in STEADY_GOVERNORS for g in governor.split(", ")):
        out.append(f"CPU frequency governor {governor!r}: the clock follows the load (for steadier runs: "
                   "cpupower frequency-set -g performance)")
    if env.get("turbo"):
        out.append("turbo boost is on: the clock depends on temperature and on the other cores' load")
    return out
