"""Speed of ``perfrigor history`` on 1,000 commits x 100 benchmarks x 10 runs (issue 26: <= 30 s).

    python benchmarks/history_speed.py [--commits 1000] [--benchmarks 100] [--runs 10] [--jobs 2]

Writes a tidy CSV (benchmark, commit, run, value; a 5% step in every tenth benchmark), then times,
in the same run: the reference (reading the file with Python's csv module and converting the
values to floats: the floor of any reader), ``perfrigor history FILE --format json`` end to end
(start-up, reading, detection, output), and the same with ``--jobs N`` (whose JSON must be
identical). Prints seconds and ratios to the reference (docs/performance.md, docs/methods/history.md).
"""

from __future__ import annotations

import argparse
import csv
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write(path: Path, commits: int, benchmarks: int, runs: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    with path.open("w") as f:
        f.write("benchmark,commit,run,value\n")
        for b in range(benchmarks):
            level = np.ones(commits)
            if b % 10 == 0:
                level[commits // 2:] *= 1.05
            values = level[:, None] * np.exp(rng.normal(0, 0.01, (commits, runs)) + rng.normal(0, 0.002, (commits, 1)))
            f.write("".join(f"b{b:03d},c{c:04d},{r},{values[c, r]:.6g}\n" for c in range(commits) for r in range(runs)))


def reference(path: Path) -> float:
    start = time.perf_counter()
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    np.array([r[3] for r in rows[1:]], dtype=float)
    return time.perf_counter() - start


def command(path: Path, *extra: str) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "perfrigor", "history", str(path), "--format", "json", *extra],
                         capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--benchmarks", type=int, default=100)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "history.csv"
        write(path, args.commits, args.benchmarks, args.runs)
        ref = reference(path)
        serial, out = command(path)
        spread, out_jobs = command(path, "--jobs", str(args.jobs))
    import json

    found = json.loads(out)["changes"]
    rows = args.commits * args.benchmarks * args.runs
    print(f"{args.commits} commits x {args.benchmarks} benchmarks x {args.runs} runs ({rows} rows): "
          f"{len(found)} changes found ({math.ceil(args.benchmarks / 10)} planted)")
    print(f"reference (csv module + floats): {ref:.2f} s")
    print(f"perfrigor history, end to end:   {serial:.2f} s ({serial / ref:.1f}x the reference)")
    print(f"  with --jobs {args.jobs}:              {spread:.2f} s ({spread / ref:.1f}x); same JSON: {out == out_jobs}")
    return 0 if out == out_jobs else 1


if __name__ == "__main__":
    raise SystemExit(main())
