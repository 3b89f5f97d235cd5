"""Calibration of the ``change-scan`` detector by simulation (``benchmarks/calibration.py --history``).

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
and the coverage (the true commit inside the reported range). Beside it the plain test: Welch's
t-test of the commit means before against after each commit, unadjusted (testing every commit at
5%) and with Bonferroni over the commits. Each cell has ``replicates``
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


def plain(h: pr.History, min_size: int = 3) -> tuple[float, int]:
    """The plain test beside the detector: Welch's t-test of the commits' mean log before against after
    every commit (``min_size`` commits each side); ``(p-value, commit)`` of the largest t. Unadjusted it
    is what testing every commit at 5% does; times the number of commits, Bonferroni's."""
    from scipy import stats

    b = next(iter(h.benchmarks.values()))
    c, v = b.commit, np.log(b.values)
    y = np.bincount(c, weights=v) / np.bincount(c)
    n = y.size
    k = np.arange(min_size, n - min_size + 1)
    s1, s2 = np.cumsum(y), np.cumsum(y * y)
    m1 = s1[k - 1] / k
    m2 = (s1[-1] - s1[k - 1]) / (n - k)
    v1 = np.maximum(s2[k - 1] - k * m1 * m1, 1e-300) / (k - 1)
    v2 = np.maximum((s2[-1] - s2[k - 1]) - (n - k) * m2 * m2, 1e-300) / (n - k - 1)
    se2 = v1 / k + v2 / (n - k)
    dof = se2 ** 2 / ((v1 / k) ** 2 / (k - 1) + (v2 / (n - k)) ** 2 / (n - k - 1))
    t = np.abs(m1 - m2) / np.sqrt(se2)
    i = int(np.argmax(t))  # the most significant commit (p-values underflow to 0 for large steps)
    return float(2 * stats.t.sf(t[i], dof[i])), int(k[i])


def null_rates(replicates: int, suites: int, seed: int) -> list[dict]:
    detector = pr.get("change-scan")
    rng = np.random.default_rng(seed)
    rows = []
    for n in LENGTHS:
        for runs in RUNS:
            for noise in NOISES:
                start = time.perf_counter()
                single = naive = bonferroni = 0
                for _ in range(replicates):
                    h = simulate(rng, 1, n, runs, noise)
                    single += bool(detector.detect(h).changes)
                    p, _ = plain(h)
                    naive += p < 0.05
                    bonferroni += p * (n - 5) < 0.05
                many = [detector.detect(simulate(rng, 100, n, runs, noise)) for _ in range(suites)]
                rows.append({"commits": n, "runs": runs, "noise": noise, "series": single / replicates,
                             "naive": naive / replicates, "bonferroni": bonferroni / replicates,
                             "fdr": sum(bool(r.changes) for r in many) / suites,
                             "per_series": sum(len(r.changes) for r in many) / (100 * suites),
                             "pending": sum(len(r.pending) for r in many) / (100 * suites),
                             "seconds": time.perf_counter() - start})
    return rows


def power_rates(replicates: int, seed: int) -> list[dict]:
    detector = pr.get("change-scan")
    rng = np.random.default_rng(seed + 1)
    rows = []
    for step in STEPS:
        for n in LENGTHS:
            for runs in RUNS:
                found = covered = exact = welch = welch_exact = 0
                for _ in range(replicates):
                    h = simulate(rng, 1, n, runs, "iid", step)
                    res = detector.detect(h)
                    true = n // 2
                    p, at = plain(h)
                    welch += p * (n - 5) < 0.05 and abs(at - true) <= max(5, n // 20)
                    welch_exact += p * (n - 5) < 0.05 and at == true
                    hit = [c for c in res.changes if c.outcome == "slower" and abs(c.index - true) <= max(5, n // 20)]
                    found += bool(hit)
                    covered += any(c.first_index <= true <= c.last_index for c in hit)
                    exact += any(c.index == true for c in hit)
                rows.append({"step": step, "commits": n, "runs": runs, "power": found / replicates,
                             "welch": welch / replicates, "welch_exact": welch_exact / max(welch, 1),
                             "coverage": covered / max(found, 1), "exact": exact / max(found, 1)})
    return rows


def render(nulls: list[dict], powers: list[dict], replicates: int, suites: int) -> str:
    out = ["No change: false changes per single-benchmark history, and over suites of 100 benchmarks the "
           f"false discovery rate (share of suites with any change); {replicates} histories, {suites} suites "
           "per cell.", "",
           "| commits | runs | noise | false change (one series) | plain: Welch at every commit, 5% | "
           "Welch, Bonferroni | FDR (100 series) | false changes per series (suites) | pending per series |",
           "|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in nulls:
        out.append(f"| {r['commits']} | {r['runs']} | {r['noise']} | {r['series']:.1%} | {r['naive']:.1%} | "
                   f"{r['bonferroni']:.1%} | {r['fdr']:.1%} | {r['per_series']:.2%} | {r['pending']:.2%} |")
    out += ["", "One step at the middle commit (iid noise, 1% per run): power, and among the changes found how "
            "often the true commit lies in the reported 95% range (coverage) and is the reported commit.", "",
            "| step | commits | runs | power | coverage | exact commit | Welch, Bonferroni: power | exact commit |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in powers:
        out.append(f"| {r['step']:.0%} | {r['commits']} | {r['runs']} | {r['power']:.1%} | {r['coverage']:.1%} | "
                   f"{r['exact']:.1%} | {r['welch']:.1%} | {r['welch_exact']:.1%} |")
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
