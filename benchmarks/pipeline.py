"""Time a pipeline over a 200-benchmark suite: serial vs a local process pool (vs dask, optionally).

    python benchmarks/pipeline.py [--benchmarks 200] [--runs 30] [--workers 2] [--steps a,b,c] [--dask]

The suite is generated (log-normal times, 30 runs per system, candidate ~5% faster);
the default steps are per-benchmark components that do real work (bootstrap, mixture
fits, Fieller). Prints wall-clock seconds per executor and checks that every executor
gives the same report.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import time

import perfrigor as pr
from _suites import make_suite

DEFAULT_STEPS = ["fieller", "bootstrap-ratio", "gmm", "speedup-test", "prob-faster"]


def steps_from(names: list[str]) -> list:
    known = pr.components()
    steps = []
    for name in names:
        if name not in known:
            print(f"(skipping {name!r}: not registered)")
            continue
        params = pr.get_registry().component_class(name).param_names()
        step: dict = {"component": name}
        if "random_state" in params:
            step["random_state"] = 0
        steps.append(step)
    return steps


def timed(label: str, fn) -> tuple[float, str]:
    start = time.perf_counter()
    report = fn()
    seconds = time.perf_counter() - start
    print(f"{label:<28} {seconds:8.2f} s   ({len(report.errors)} step error(s))", flush=True)
    return seconds, json.dumps(report.to_dict(), sort_keys=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--benchmarks", type=int, default=200)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--steps", default=",".join(DEFAULT_STEPS))
    ap.add_argument("--dask", action="store_true", help="also time a dask LocalCluster (processes)")
    args = ap.parse_args()
    suite = make_suite(args.benchmarks, args.runs)
    steps = steps_from(args.steps.split(","))
    if not steps:
        raise SystemExit("no registered component among --steps")
    pipeline = pr.Pipeline(steps)
    print(f"pipeline {[s.id for s in pipeline.steps]} on {len(suite)} benchmarks x 2 systems x {args.runs} runs")
    serial, ref = timed("serial", lambda: pipeline.run(suite))
    with cf.ProcessPoolExecutor(max_workers=args.workers) as pool:
        pool.submit(int).result()  # start the workers before timing
        pooled, out = timed(f"process pool ({args.workers} workers)", lambda: pipeline.run(suite, executor=pool))
    print(f"speed-up of the pool: {serial / pooled:.2f}x; same report: {out == ref}")
    if args.dask:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            _, out = timed(f"dask ({args.workers} workers)", lambda: pipeline.run(suite, executor=client.get_executor()))
        print(f"dask: same report: {out == ref}")


if __name__ == "__main__":
    main()
