"""The default pipeline on growing suites: serial and on a dask LocalCluster, time, memory, same results.

    python benchmarks/scale.py [--sizes 100,1000,10000] [--workers 2] [--runs 30] [--no-serial | --no-dask]
                               [--dask-log-length N]

For each suite size (generated: log-normal times, 2 systems x 30 runs, candidate ~5% faster)
the default preset runs on a ``distributed.LocalCluster`` of ``--workers`` single-threaded
worker processes, and serially in this process; the two reports must be identical (a
SHA-256 of each report's ``to_dict()``, JSON with sorted keys, built benchmark by benchmark
so that a report of 10^5 benchmarks is never held as one JSON text; each report is dropped
once hashed). With ``--sample K`` (for sizes whose serial run would take too long: use it
with ``--no-serial``) K benchmarks drawn at random are run serially as a suite of their own and
each of their per-benchmark results is compared with the cluster's, step by step (a step whose
result depends on the rest of the suite, such as a suite-level multiplicity adjustment, can
differ there: the count per step says which; it is printed before the serial run). Printed per size: seconds, milliseconds per benchmark, the progress updates
the pipeline gave, and memory: this process's peak resident set (it holds the suite and
one report) and the largest worker's (bounded: a worker holds one batch of benchmarks at a
time, the pipeline at most a few batches in flight); under the row, the seconds each run spent after its
last per-benchmark stage (the suite's own work in this process: the verdict's revision over the suite, the
summaries, the report) and what hashing one report took. From 10^4 benchmarks on, stderr says how far each stage
of each run got (benchmarks through that stage), when it ended and when the run did, and the cluster's half
of the row is printed as soon as it is known (the serial run of 10^5 benchmarks takes 17 minutes or more).
Issue 13 asked for 10,000 benchmarks on 2 workers, identical to serial, with bounded memory; issue 23 for 10^5.

The cluster's scheduler runs in this process; its low-level logs and the client's keep
``--dask-log-length`` messages each (default: what ``perfrigor --dask`` keeps,
``perfrigor.executors.DASK_LOG_LENGTH``; dask's own default, 1000, keeps the tasks sent with
their arguments, which is most of this process's memory at 10^4 benchmarks). ``--no-dask`` runs
the serial pipeline alone, so that its peak memory is its own.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
import time

import attrs
import numpy as np
import perfrigor as pr
from _suites import make_suite
from perfrigor.executors import DASK_LOG_LENGTH


def cpu_seconds() -> float:
    """User + system CPU seconds of the calling process so far (robust to a busy machine)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_mib() -> float:
    """Peak resident set of the calling process, MiB (Linux: ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Counter:
    """A progress reporter that counts the updates of the per-benchmark stages; on a large suite it says how far
    each stage got (benchmarks of that stage: a pipeline of two stages goes through every benchmark twice) and when
    it ends, so that the suite-level work after the last stage (the verdict's revision, the summaries) shows as
    the time between that line and the run's end."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.updates = 0
        self.began = time.perf_counter()
        self.stage_ended = self.began  # when the last per-benchmark stage ended
        self.depth = 0  # tasks open now: the outermost is a stage of the pipeline

    def say(self, text: str) -> None:
        print(f"  {self.label}: {text}, {time.perf_counter() - self.began:.0f} s", file=sys.stderr, flush=True)

    def start(self, total: int, description: str):
        self.depth += 1
        if self.depth > 1:  # a task inside a benchmark's step (a bootstrap, run serially): not a stage
            return lambda n=1: None
        done, shown = [0], [0]
        self.stage = (total, description.split(" (")[0])

        def advance(n: int = 1) -> None:
            self.updates += 1
            done[0] += n
            if total >= 10_000 and done[0] - shown[0] >= total // 20:  # a long run says how far it got
                shown[0] = done[0]
                self.say(f"{done[0]:,} of {total:,} benchmarks through {self.stage[1]}")
        return advance

    def finish(self) -> None:
        self.depth -= 1
        if self.depth:
            return
        self.stage_ended = time.perf_counter()
        total, steps = self.stage
        if total >= 10_000:
            self.say(f"all {total:,} benchmarks through {steps}; then the suite's own work")


def digest(report: pr.Report) -> str:
    """SHA-256 of the report's to_dict() as sorted JSON, part by part (no single text of it all)."""
    h = hashlib.sha256()
    h.update(json.dumps(attrs.evolve(report, benchmark_results={}).to_dict(), sort_keys=True).encode())
    for name in sorted(report.benchmark_results):  # each as to_dict() writes it
        steps = report.benchmark_results[name]
        part = {step: {str(k): r.to_dict() for k, r in res.items()} for step, res in steps.items()}
        h.update(json.dumps([name, part], sort_keys=True).encode())
    return h.hexdigest()


def _benchmark_digests(report: pr.Report, names: list[str]) -> dict[str, dict[str, str]]:
    """{benchmark: {step: SHA-256 of its results' to_dict()}} for ``names``."""
    out = {}
    for name in names:
        out[name] = {step: hashlib.sha256(json.dumps({str(k): r.to_dict() for k, r in res.items()},
                                                     sort_keys=True).encode()).hexdigest()
                     for step, res in report.benchmark_results[name].items()}
    return out


def sampled_check(pipeline: pr.Pipeline, suite: pr.Suite, cluster: dict[str, dict[str, str]]) -> str:
    """Run the sampled benchmarks serially as a suite of their own; per step, how many equal the cluster's."""
    names = sorted(cluster)
    start = time.perf_counter()
    serial = _benchmark_digests(pipeline.run(pr.Suite({b: dict(suite[b]) for b in names})), names)
    equal: dict[str, int] = {}
    for name in names:
        for step, value in cluster[name].items():
            equal[step] = equal.get(step, 0) + (serial[name].get(step) == value)
    return (f"sampled check, {len(names)} benchmarks run serially on their own ({time.perf_counter() - start:.0f} s); "
            "equal to the cluster's, per step: " + ", ".join(f"{s} {k}/{len(names)}" for s, k in equal.items()))


def counted_run(pipeline: pr.Pipeline, suite: pr.Suite, label: str, **options) -> tuple[pr.Report, Counter, float]:
    """``pipeline.run(suite, **options)`` with a :class:`Counter` as the progress reporter; the report, the counter
    and the seconds after the last per-benchmark stage (the suite's own work: revision, summaries, the report)."""
    counter = Counter(label)
    previous = pr.progress.set_reporter(counter)
    try:
        report = pipeline.run(suite, **options)
    finally:
        pr.progress.set_reporter(previous)
    after = time.perf_counter() - counter.stage_ended
    if len(suite) >= 10_000:
        counter.say(f"the run's end ({after:.0f} s after its last stage)")
    return report, counter, after


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--no-serial", action="store_true", help="skip the serial run (and the comparison)")
    ap.add_argument("--no-dask", action="store_true", help="the serial run only (its memory alone)")
    ap.add_argument("--dask-log-length", type=int, default=DASK_LOG_LENGTH,
                    help="messages kept by each of dask's low-level logs (default: the CLI's; dask's own: 1000)")
    ap.add_argument("--sample", type=int, default=0,
                    help="also run this many benchmarks (drawn at random) serially and compare them, step by step")
    args = ap.parse_args()
    import dask
    from distributed import Client, LocalCluster

    pipeline = pr.pipeline("default")
    pipeline.run(make_suite(3, args.runs, seed=99))  # imports before timing
    print(f"default preset: {', '.join(s.id for s in pipeline.steps)}")
    print("wall seconds, and CPU milliseconds per benchmark (all workers' CPU for dask; this process's for "
          "serial: the measure a busy machine disturbs least)")
    print(f"{'benchmarks':>10} {'dask s':>8} {'cpu ms/b':>9} {'updates':>8} {'worker MiB':>11} "
          f"{'serial s':>9} {'cpu ms/b':>9} {'main MiB':>9}  same")
    print(f"this process before the suites (imports, a 3-benchmark warm-up): {peak_mib():.0f} MiB", flush=True)
    if args.no_dask:
        for n in (int(s) for s in args.sizes.split(",")):
            suite = make_suite(n, args.runs, seed=n)
            cpu, start = cpu_seconds(), time.perf_counter()
            serial_report, _, serial_after = counted_run(pipeline, suite, "serial")
            serial_s, serial_cpu = time.perf_counter() - start, cpu_seconds() - cpu
            print(f"{n:>10,} {'-':>8} {'-':>9} {'-':>8} {'-':>11} {serial_s:9.1f} {serial_cpu / n * 1e3:9.2f} "
                  f"{peak_mib():9.0f}  -", flush=True)
            print(f"{'':>10} after the last stage (the suite's own work): serial {serial_after:.1f} s", flush=True)
            del serial_report
        return
    # the scheduler of a LocalCluster lives in this process: its logs, as the client's, as the CLI keeps them
    with dask.config.set({"distributed.admin.low-level-log-length": args.dask_log_length}), \
            LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster, Client(cluster) as client:
        executor = client.get_executor()
        pipeline.run(make_suite(3, args.runs, seed=98), executor=executor)  # workers import too
        print(f"this process with the cluster started (its scheduler runs here): {peak_mib():.0f} MiB", flush=True)
        for n in (int(s) for s in args.sizes.split(",")):
            suite = make_suite(n, args.runs, seed=n)
            cpu = sum(client.run(cpu_seconds).values())
            start = time.perf_counter()
            distributed_report, counter, dask_after = counted_run(pipeline, suite, "dask", executor=executor)
            dask_s = time.perf_counter() - start
            dask_cpu = sum(client.run(cpu_seconds).values()) - cpu
            worker_mib = max(client.run(peak_mib).values())
            drawn = sorted(np.random.default_rng(n).choice(suite.benchmarks, min(args.sample, n), replace=False))
            sampled = _benchmark_digests(distributed_report, [str(b) for b in drawn])
            start = time.perf_counter()
            distributed_digest = digest(distributed_report)
            hashed = time.perf_counter() - start
            del distributed_report
            if n >= 10_000:  # the cluster's half of the row at once: a long serial run may not be waited for
                counter.say(f"its report hashed in {hashed:.0f} s")
                print(f"{n:>10,} {dask_s:8.1f} {dask_cpu / n * 1e3:9.2f} {counter.updates:>8} {worker_mib:11.0f} "
                      f"{'(serial next)':>19} {peak_mib():9.0f}", flush=True)
            if sampled:
                print(sampled_check(pipeline, suite, sampled), flush=True)
            serial_s, serial_cpu, serial_after, same = float("nan"), float("nan"), float("nan"), "-"
            if not args.no_serial:
                cpu, start = cpu_seconds(), time.perf_counter()
                serial_report, _, serial_after = counted_run(pipeline, suite, "serial")
                serial_s, serial_cpu = time.perf_counter() - start, cpu_seconds() - cpu
                same = "yes" if digest(serial_report) == distributed_digest else "NO"
                del serial_report
            print(f"{n:>10,} {dask_s:8.1f} {dask_cpu / n * 1e3:9.2f} {counter.updates:>8} {worker_mib:11.0f} "
                  f"{serial_s:9.1f} {serial_cpu / n * 1e3:9.2f} {peak_mib():9.0f}  {same}", flush=True)
            print(f"{'':>10} after the last stage (the suite's own work, in this process): dask {dask_after:.1f} s, "
                  f"serial {serial_after:.1f} s; hashing a report {hashed:.1f} s", flush=True)


if __name__ == "__main__":
    main()
