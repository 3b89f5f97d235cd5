"""The default pipeline on one benchmark of n runs per side, n = 10^3 .. 10^6: time, growth, memory.

    python benchmarks/scale_n.py [--sizes 1000,10000,100000,1000000] [--repeat 3] [--steps]
    python benchmarks/scale_n.py --cli [--sizes ...] [--repeat ...]

Each measurement runs in a fresh process (so that its peak memory is its own), after a
warm-up run on 30 runs a side (imports and caches are paid before timing). The samples are
generated in memory: log-normal times (sd 10%), the candidate 2% faster, fresh per repeat.
Sizes alternate within each repeat, so a change of the machine's speed hits all of them;
the figures are medians over the repeats. Printed per size:

* wall and CPU seconds of ``pipeline.run``; the growth t(n) / t(first size) (CPU);
* the same work as a multiple of a reference timed in the same process: numpy sorting the
  2n values (an O(n log n) yardstick: the multiple stays flat when the pipeline is n log n);
* peak memory: the growth of the process's peak resident set during the run, as a multiple of
  the data's own size (2n float64 values); at small n the fixed costs dominate it;
* with ``--steps``: the CPU seconds of each step (its ``prepare`` included).

With ``--cli`` the whole command is timed instead: ``perfrigor compare a.txt b.txt`` on two
values files of n runs each (written beforehand, outside the timing), beside a reference
process timed in the same round: numpy reading the same two files (``np.loadtxt``) and sorting
their 2n values. Printed per size: wall and CPU seconds of both processes (children's own
``getrusage``), their ratio, and the command's peak resident memory, also as a multiple of the
data's own size after subtracting the command's peak on two 10-value files (its fixed cost).

Issue 23's goals: t(10^5)/t(10^3) <= 150, 10^5 per side <= 3 s, 10^6 <= 30 s on this 2-core
machine, peak memory <= 20x the data.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def child(n: int, seed: int) -> dict:
    """One measurement at n runs per side (run in a fresh process)."""
    import numpy as np
    import perfrigor as pr
    from perfrigor import scheduler

    steps: dict[str, float] = defaultdict(float)
    run_step, prepare = scheduler._run_step, scheduler._prepare

    def timed(fn):
        def wrapper(step_id, *args):
            start = _cpu()
            try:
                return fn(step_id, *args)
            finally:
                steps[step_id] += _cpu() - start
        return wrapper

    scheduler._run_step, scheduler._prepare = timed(run_step), timed(prepare)
    pipeline = pr.pipeline("default")
    rng = np.random.default_rng(seed)
    pipeline.run(pr.Suite({"b": {"old": rng.lognormal(0, 0.1, 30), "new": rng.lognormal(-0.02, 0.1, 30)}}))
    steps.clear()
    base = _rss_mib()
    old, new = rng.lognormal(0, 0.1, n), rng.lognormal(-0.02, 0.1, n)
    suite = pr.Suite({"b": {"old": old, "new": new}})
    start_cpu, start = _cpu(), time.perf_counter()
    report = pipeline.run(suite)
    wall, cpu = time.perf_counter() - start, _cpu() - start_cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ref_cpu = _cpu()
    for _ in range(3):
        np.sort(np.concatenate([old, new]))
    ref = (_cpu() - ref_cpu) / 3
    return {"n": n, "wall": wall, "cpu": cpu, "sort": ref, "peak_mib": peak - base,
            "data_mib": 2 * n * 8 / 2**20, "errors": [e.message for e in report.errors],
            "outcome": report.verdicts["b"].outcome, "steps": dict(steps)}


_REFERENCE = ("import sys, numpy as np; "
              "np.sort(np.concatenate([np.loadtxt(sys.argv[1]), np.loadtxt(sys.argv[2])]))")


def _process(argv: list[str]) -> dict:
    """Wall and CPU seconds and peak resident MiB of one child process (its own rusage)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):  # 1: a regression found, still a result
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{proc.stderr.read().decode()}")
    proc.stderr.close()
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024}


def cli(sizes: list[int], repeat: int) -> None:
    """``perfrigor compare`` end to end on two values files of n runs, beside numpy reading and sorting them."""
    import tempfile

    import numpy as np

    compare = [sys.executable, "-m", "perfrigor", "compare"]
    runs: dict[int, list[dict]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(repeat):
            for n in [10, *sizes]:
                rng = np.random.default_rng(rep)
                files = [f"{tmp}/old{n}.txt", f"{tmp}/new{n}.txt"]
                np.savetxt(files[0], rng.lognormal(0, 0.1, n))
                np.savetxt(files[1], rng.lognormal(-0.02, 0.1, n))
                runs[n].append({"cmd": _process([*compare, *files]),
                                "ref": _process([sys.executable, "-c", _REFERENCE, *files])})
    med = {n: {side: {k: statistics.median(r[side][k] for r in runs[n]) for k in ("wall", "cpu", "peak_mib")}
               for side in ("cmd", "ref")} for n in runs}
    fixed = med[10]["cmd"]["peak_mib"]
    print(f"perfrigor compare old.txt new.txt, n runs per file, end to end; median of {repeat} "
          "(reference: numpy loadtxt of both files and a sort of their 2n values, timed in the same round)")
    print(f"{'n':>9} {'wall s':>8} {'cpu s':>8} {'ref wall':>9} {'ref cpu':>8} {'x ref cpu':>9} "
          f"{'peak MiB':>9} {'x data':>7}")
    for n in [10, *sizes]:
        cmd, ref = med[n]["cmd"], med[n]["ref"]
        times = (f"{n:>9,} {cmd['wall']:8.2f} {cmd['cpu']:8.2f} {ref['wall']:9.2f} {ref['cpu']:8.2f} "
                 f"{cmd['cpu'] / ref['cpu']:9.1f} {cmd['peak_mib']:9.0f} ")
        print(times + (f"{(cmd['peak_mib'] - fixed) / (2 * n * 8 / 2**20):7.1f}" if n > 10 else "      -"))
    print("(10: start-up and imports; the command's peak there is subtracted before 'x data')")
    print("goals (issue 23): 10^5 <= 3 s; 10^6 <= 30 s; peak memory <= 20x the data")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--steps", action="store_true", help="CPU seconds per step")
    ap.add_argument("--cli", action="store_true", help="time `perfrigor compare` on two files, end to end")
    ap.add_argument("--child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.cli:
        cli(sizes, args.repeat)
        return
    runs: dict[int, list[dict]] = defaultdict(list)
    for rep in range(args.repeat):
        for n in sizes:
            done = subprocess.run([sys.executable, __file__, "--child", str(n), str(rep)], capture_output=True,
                                  text=True)
            if done.returncode:
                raise SystemExit(f"n = {n}: the measurement failed:\n{done.stderr}")
            runs[n].append(json.loads(done.stdout.splitlines()[-1]))
    print(f"default preset, one benchmark, n runs per side; median of {args.repeat} (fresh data, fresh process)")
    print(f"{'n':>9} {'wall s':>8} {'cpu s':>8} {'growth':>8} {'x sort':>8} {'peak MiB':>9} {'x data':>7}  verdict")
    first = None
    for n in sizes:
        med = {k: statistics.median(r[k] for r in runs[n]) for k in ("wall", "cpu", "sort", "peak_mib", "data_mib")}
        first = first or med["cpu"]
        errors = {e for r in runs[n] for e in r["errors"]}
        print(f"{n:>9,} {med['wall']:8.2f} {med['cpu']:8.2f} {med['cpu'] / first:8.1f} "
              f"{med['cpu'] / max(med['sort'], 1e-9):8.0f} {med['peak_mib']:9.0f} "
              f"{med['peak_mib'] / med['data_mib']:7.1f}  {runs[n][0]['outcome']}"
              + (f"  ERRORS: {sorted(errors)}" if errors else ""))
    if args.steps:
        print("CPU seconds per step (median):")
        names = list(runs[sizes[0]][0]["steps"])
        print(f"{'step':<24}" + "".join(f"{n:>11,}" for n in sizes))
        for name in names:
            print(f"{name:<24}" + "".join(f"{statistics.median(r['steps'].get(name, 0.0) for r in runs[n]):11.3f}"
                                          for n in sizes))
    print("goals (issue 23): growth 10^5 / 10^3 <= 150; 10^5 <= 3 s; 10^6 <= 30 s; peak memory <= 20x the data")


if __name__ == "__main__":
    main()
