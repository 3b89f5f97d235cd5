"""The suite's own work at 10^3 .. 10^5 benchmarks in seconds, not the hour a real run of the stages takes.

    python benchmarks/suite_step.py [--sizes 1000,10000,30000] [--base 500] [--json] [--profile]

The default preset runs once for real on a generated suite of ``--base`` benchmarks (2 systems x 30 runs);
then, for each size B, a suite of B benchmarks whose samples repeat the base suite's runs through the
same pipeline with its per-benchmark stages replaced by the base run's results (benchmark i gets those
of base benchmark i mod base, before any revision), so that only what a run does in the calling process
after each stage is real: every step's ``revise`` (the verdict's revision over the suite: pooled
dependence, the changes decided together, every interval recomputed at the suite's level) and
``summarize``, the suite steps (accelerated-proportion, HPT), and the report. Printed per size: CPU
seconds of each of those and of the whole run (this process's: a busy machine disturbs it least), per
benchmark, and with ``--json`` the JSON report's rendering, its CPU and this process's peak memory then.
Work that grows faster than B shows as a growing per-benchmark figure. ``--profile`` prints the
largest cumulative times of the last size. Replaces private parts of the scheduler (``_Run``) for the
measurement only.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import time

import perfrigor as pr
from _suites import make_suite
from perfrigor import scheduler


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000,30000")
    ap.add_argument("--base", type=int, default=500)
    ap.add_argument("--json", action="store_true", help="also render the JSON report")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    pipeline = pr.pipeline("default")
    base = make_suite(args.base, 30, seed=5)
    names = base.benchmarks

    # the base run, its per-benchmark results kept as each stage made them (before revise)
    made: dict[str, dict] = {}
    finish = scheduler._Run.finish

    def keep(run, step):
        for b in run.suite.benchmarks:
            if step.id in run.outcome.per_benchmark[b]:
                made.setdefault(b, {})[step.id] = run.outcome.per_benchmark[b][step.id]
        return finish(run, step)

    scheduler._Run.finish = keep
    pipeline.run(base)
    scheduler._Run.finish = finish

    cpu: dict[str, float] = {}

    def stage(run, steps, pool):  # the base run's results in place of the stage's tasks
        for i, b in enumerate(run.suite.benchmarks):
            source = made[names[i % len(names)]]
            run.outcome.per_benchmark[b].update({s.id: source[s.id] for s in steps if s.id in source})
        for s in steps:
            start = time.process_time()
            run.finish(s)
            cpu[f"{s.id} revise+summary"] = time.process_time() - start

    suite_step = scheduler._Run.suite_step

    def timed(run, step):
        start = time.process_time()
        suite_step(run, step)
        cpu[f"{step.id} (suite step)"] = time.process_time() - start

    scheduler._Run.stage, scheduler._Run.suite_step = stage, timed
    print(f"default preset, its per-benchmark results replicated from a real run of {args.base} benchmarks; "
          "CPU seconds in this process")
    for n in (int(s) for s in args.sizes.split(",")):
        suite = pr.Suite({f"b{i:06d}": dict(base[names[i % len(names)]]) for i in range(n)})
        cpu.clear()
        profile = cProfile.Profile() if args.profile else None
        start = time.process_time()
        if profile:
            profile.enable()
        report = pipeline.run(suite)
        if profile:
            profile.disable()
        total = time.process_time() - start
        largest = sorted(cpu.items(), key=lambda kv: -kv[1])[:4]
        line = (f"{n:>8,} benchmarks: the run {total:7.2f} s, {total / n * 1e3:.3f} ms a benchmark; largest: "
                + ", ".join(f"{k} {v:.2f} s" for k, v in largest))
        if args.json:
            start = time.process_time()
            text = report.render("json")
            seconds = time.process_time() - start
            line += f"; JSON {len(text) / 2**20:,.0f} MiB in {seconds:.2f} s ({seconds / n * 1e3:.3f} ms a benchmark)"
            del text
        print(line + f"; peak {peak_mib():,.0f} MiB", flush=True)
        del report
        if profile:
            pstats.Stats(profile).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
