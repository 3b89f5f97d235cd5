"""Start-up of the command line against ``python -c "import numpy"``, whole processes, in one run.

    python benchmarks/startup.py [--runs 15]

Each command is started ``--runs`` times (after one warm-up), alternating with the
reference, and the wall-clock time of the whole process (interpreter start-up and imports
included) is taken; the ratio is that of the medians of each pair, so a drift of the
machine's speed hits both. Issue 13 asks for at most 3x for ``perfrigor list``,
``perfrigor --help`` and ``perfrigor --version``. (The same can be had from
``/usr/bin/time -v`` or ``hyperfine``.)
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

REFERENCE = [sys.executable, "-c", "import numpy"]
COMMANDS = {
    "perfrigor list": ["list"],
    "perfrigor --help": ["--help"],
    "perfrigor --version": ["--version"],
}


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    script = shutil.which("perfrigor")  # the installed console script, as a user starts it
    base = [script] if script else [sys.executable, "-m", "perfrigor"]
    print(f"{'command':<22} {'median ms':>10} {'numpy ms':>9} {'ratio':>6}  (goal <= 3x)")
    for label, argv in COMMANDS.items():
        cmd = base + argv
        wall(cmd), wall(REFERENCE)  # warm-up: file caches
        ratios, ours, ref = [], [], []
        for _ in range(args.runs):
            a, b = wall(cmd), wall(REFERENCE)
            ours.append(a)
            ref.append(b)
            ratios.append(a / b)
        print(f"{label:<22} {statistics.median(ours) * 1e3:10.0f} {statistics.median(ref) * 1e3:9.0f} "
              f"{statistics.median(ratios):6.2f}x")


if __name__ == "__main__":
    main()
