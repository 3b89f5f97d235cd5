"""Calibration of the ``history`` detector by simulation (``benchmarks/calibration.py --history``).

    python benchmarks/calibration.py --history [--replicates 200] [--suites 20] [--seed 0]

Histories of 50, 200 and 1,000 commits with 1 or 10 runs per commit; runs with 1% noise (log
scale) and the commits with 0.2% noise of their own; four noise models:

- ``iid``: independent commits;
- ``AR(1) 0.5``: the commits' own noise follows an AR(1) process with coefficient 0.5;
- ``outliers``: 2% of the runs 30% slower;
- ``spikes``: 1% of the commits (every run) 20% slower, as a warm-up or a busy runner makes them.

Without change (A/A): the share of single-benchmark histories with a false change, and over
suites of 100 benchmarks the false discovery rate (all changes are false, so the share of suites
with any). With one step of 2% or 5% at the middle commit (iid noise): the power (a change found),
and the coverage (the true commit inside the reported range). Each cell has ``replicates``
histories (``suites`` suites); its Monte-Carlo standard error is about sqrt(p (1 - p) / replicates).
"""

from __future__ import annotations

import math
import time

import numpy as np
import perfrigor as pr

LENGTHS = (50, 200, 1000)
RUNS = (1, 10)
NOISES = ("iid", "AR(1) 0.5", "outliers", "spikes")
STEPS = (0.02, 0.05)
RUN_SD, COMMIT_SD = 0.01, 0.002


def simulate(rng: np.random.Generator, benchmarks: int, commits: int, runs: int, noise: str,
             step: float = 0.0) -> pr.History:
    """``benchmarks`` histories; with ``step``, each slower by ``step`` from the middle commit."""
    shape = (benchmarks, commits)
    own = rng.normal(0, COMMIT_SD, shape)
    if noise == "AR(1) 0.5":
        from scipy import signal

        own = signal.lfilter([1.0], [1.0, -0.5], rng.normal(0, COMMIT_SD * math.sqrt(0.75), shape), axis=1)
    level = own + np.where(np.arange(commits) >= commits // 2, math.log1p(step), 0.0)
    logs = level[..., None] + rng.normal(0, RUN_SD, (*shape, runs))
    if noise == "outliers":
        logs += np.where(rng.random(logs.shape) < 0.02, math.log(1.3), 0.0)
    if noise == "spikes":
        logs += np.where(rng.random(shape) < 0.01, math.log(1.2), 0.0)[..., None]
    values = np.exp(logs)
    c, r = np.indices((commits, runs))
    bench = {f"b{i}": pr.BenchmarkHistory(f"b{i}", c.ravel(), r.ravel(), values[i].ravel())
             for i in range(benchmarks)}
    return pr.History([f"c{i}" for i in range(commits)], bench)


def null_rates(replicates: int, suites: int, seed: int) -> list[dict]:
    detector = pr.get("history")
    rng = np.random.default_rng(seed)
    rows = []
    for n in LENGTHS:
        for runs in RUNS:
            for noise in NOISES:
                start = time.perf_counter()
                single = sum(bool(detector.detect(simulate(rng, 1, n, runs, noise)).changes)
                             for _ in range(replicates))
                many = [detector.detect(simulate(rng, 100, n, runs, noise)) for _ in range(suites)]
                rows.append({"commits": n, "runs": runs, "noise": noise, "series": single / replicates,
                             "fdr": sum(bool(r.changes) for r in many) / suites,
                             "per_series": sum(len(r.changes) for r in many) / (100 * suites),
                             "pending": sum(len(r.pending) for r in many) / (100 * suites),
                             "seconds": time.perf_counter() - start})
    return rows


def power_rates(replicates: int, seed: int) -> list[dict]:
    detector = pr.get("history")
    rng = np.random.default_rng(seed + 1)
    rows = []
    for step in STEPS:
        for n in LENGTHS:
            for runs in RUNS:
                found = covered = exact = 0
                for _ in range(replicates):
                    res = detector.detect(simulate(rng, 1, n, runs, "iid", step))
                    true = n // 2
                    hit = [c for c in res.changes if c.outcome == "slower" and abs(c.index - true) <= max(5, n // 20)]
                    found += bool(hit)
                    covered += any(c.first_index <= true <= c.last_index for c in hit)
                    exact += any(c.index == true for c in hit)
                rows.append({"step": step, "commits": n, "runs": runs, "power": found / replicates,
                             "coverage": covered / max(found, 1), "exact": exact / max(found, 1)})
    return rows


def render(nulls: list[dict], powers: list[dict], replicates: int, suites: int) -> str:
    out = ["No change: false changes per single-benchmark history, and over suites of 100 benchmarks the "
           f"false discovery rate (share of suites with any change); {replicates} histories, {suites} suites "
           "per cell.", "",
           "| commits | runs | noise | false change (one series) | FDR (100 series) | false changes per series "
           "(suites) | pending per series |", "|---:|---:|---|---:|---:|---:|---:|"]
    for r in nulls:
        out.append(f"| {r['commits']} | {r['runs']} | {r['noise']} | {r['series']:.1%} | {r['fdr']:.1%} | "
                   f"{r['per_series']:.2%} | {r['pending']:.2%} |")
    out += ["", "One step at the middle commit (iid noise, 1% per run): power, and among the changes found how "
            "often the true commit lies in the reported 95% range (coverage) and is the reported commit.", "",
            "| step | commits | runs | power | coverage | exact commit |", "|---:|---:|---:|---:|---:|---:|"]
    for r in powers:
        out.append(f"| {r['step']:.0%} | {r['commits']} | {r['runs']} | {r['power']:.1%} | {r['coverage']:.1%} | "
                   f"{r['exact']:.1%} |")
    return "\n".join(out)


def check(nulls: list[dict], powers: list[dict], replicates: int, suites: int) -> list[str]:
    """The issue's bounds: false changes per series and the FDR at most 5% (plus 2 Monte-Carlo
    standard errors); the coverage of the ranges at least 95% (less 2 standard errors)."""
    bad = []
    for r in nulls:
        for key, k in (("series", replicates), ("fdr", suites)):
            if r[key] > 0.05 + 2 * math.sqrt(0.05 * 0.95 / k):
                bad.append(f"{r['commits']} commits x {r['runs']} runs, {r['noise']}: {key} {r[key]:.1%}")
    for r in powers:
        if r["power"] and r["coverage"] < 0.95 - 2 * math.sqrt(0.05 * 0.95 / replicates):
            bad.append(f"step {r['step']:.0%}, {r['commits']} commits x {r['runs']} runs: coverage {r['coverage']:.1%}")
    return bad


def main(replicates: int, suites: int, seed: int) -> int:
    start = time.perf_counter()
    nulls = null_rates(replicates, suites, seed)
    powers = power_rates(replicates, seed)
    print(render(nulls, powers, replicates, suites))
    bad = check(nulls, powers, replicates, suites)
    for line in bad:
        print(f"OUT OF BOUNDS: {line}")
    print(f"\n({time.perf_counter() - start:.0f} s)")
    return 1 if bad else 0
