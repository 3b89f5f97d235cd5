"""Start-up of the command line against a bare import, whole processes, in one run.

    python benchmarks/startup.py [--runs 15]

``perfrigor list``, ``--help`` and ``--version`` are timed against ``python -c "import numpy"``
(issue 23.6 asks for at most 3x), and ``perfrigor compare`` on two 10-value files against
``python -c "import scipy.stats"`` (at most 2x: the fixed cost of a comparison is its imports
and the default pipeline's set-up on a tiny input). Each command is started ``--runs`` times
(after one warm-up), alternating with its reference, and the wall-clock time of the whole
process (interpreter start-up and imports included) is taken; the ratio is the median of the
pairs' ratios, so a drift of the machine's speed hits both. (The same can be had from
``/usr/bin/time -v`` or ``hyperfine``.)

Python's bytecode caches (``__pycache__``) must exist, as they do after any ``pip install``:
with ``PYTHONDONTWRITEBYTECODE=1`` and none written, every start compiles perfrigor's sources
and the ratios are 20-40% higher. The script compiles them first.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import perfrigor

NUMPY = [sys.executable, "-c", "import numpy"]
SCIPY = [sys.executable, "-c", "import scipy.stats"]


def wall(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    for package in (Path(perfrigor.__file__).parent, Path(perfrigor.__file__).parents[1] / "perfrigor_plugins",
                    Path(perfrigor.__file__).parents[2] / "plugins" / "perfrigor_plugins"):
        if package.is_dir():
            compileall.compile_dir(package, quiet=1, legacy=False)
    script = shutil.which("perfrigor")  # the installed console script, as a user starts it
    base = [script] if script else [sys.executable, "-m", "perfrigor"]
    with tempfile.TemporaryDirectory() as tmp:
        rng = np.random.default_rng(0)
        old, new = os.path.join(tmp, "old.txt"), os.path.join(tmp, "new.txt")
        np.savetxt(old, rng.lognormal(0, 0.1, 10))
        np.savetxt(new, rng.lognormal(0, 0.1, 10))
        commands = {
            "perfrigor list": (["list"], NUMPY, "import numpy", 3),
            "perfrigor --help": (["--help"], NUMPY, "import numpy", 3),
            "perfrigor --version": (["--version"], NUMPY, "import numpy", 3),
            "perfrigor compare (10 values)": (["compare", old, new], SCIPY, "import scipy.stats", 2),
        }
        print(f"{'command':<30} {'median ms':>10} {'reference':>20} {'ms':>6} {'ratio':>6}  goal")
        for label, (argv, reference, ref_label, goal) in commands.items():
            cmd = base + argv
            wall(cmd), wall(reference)  # warm-up: file caches
            ratios, ours, ref = [], [], []
            for _ in range(args.runs):
                a, b = wall(cmd), wall(reference)
                ours.append(a)
                ref.append(b)
                ratios.append(a / b)
            print(f"{label:<30} {statistics.median(ours) * 1e3:10.0f} {ref_label:>20} "
                  f"{statistics.median(ref) * 1e3:6.0f} {statistics.median(ratios):5.2f}x  <= {goal}x")


if __name__ == "__main__":
    main()
