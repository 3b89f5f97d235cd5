"""Calibration of every decision the default pipeline makes: A/A false alarms and power, by noise model.

    python benchmarks/calibration.py [--replicates 1000] [--models a,b] [--sizes 10,30] [--power 1.01]
                                     [--jobs 2] [--markdown] [--seed 0]

For every noise model of ``perfrigor.simulate`` and each of its sizes, draws ``replicates``
A/A benchmarks (the same program on both sides) and as many with the candidate truly
``--power`` times faster, runs the default pipeline (its per-benchmark steps, plus the
Speedup-Test's one-sided Welch and Wilcoxon-Mann-Whitney tests) on them, and prints per
step the false-alarm rate (A/A: "faster" or "slower"; a test: "reject") and the power
("faster"), each with its Monte-Carlo standard error. The verdict's row is the one users
act on; every other row shows why the verdict picks what it picks. docs/methods/verdict.md
shows this table (``--markdown``).

    python benchmarks/calibration.py --suites 100 [--jobs 2] [--markdown] [--seed 0]

    python benchmarks/calibration.py --history [--replicates 200] [--suites 20] [--seed 0]

The ``change-scan`` detector over simulated histories of commits (``history_calibration.py``: false
changes per series and the false discovery rate over suites without change, power and range
coverage with one step); docs/methods/history.md shows its table.

The regression gate over suites (``--fail-on-regression`` exits 1 when some verdict is
"slower"): SEEDS suites of 100 benchmarks at 30 runs, their noise models taken in turn from
the flat models of ``perfrigor.simulate`` at 30 runs (``simulate.suite``), all A/A, and as many
with 10 benchmarks truly 5%% slower (``--models`` to choose others; undeclared-hierarchy is left out by
default, see SUITE_MODELS); per ``suite_control`` of the verdict, how often the gate fires
on the A/A suites, how often it fires on the others, the share of the 10 it finds, and the false
"slower" verdicts per suite. The verdicts are computed once per suite (the verdict step alone: it
runs the diagnostics it reads itself, so it answers as in the default preset) and adjusted by
each control.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import sys
import time

import perfrigor as pr
from perfrigor import simulate

EXTRA_TESTS = [{"component": "welch-t"}, {"component": "wilcoxon-mann-whitney"}]
#: the acceptance bounds of the verdict (issue 10): A/A false alarms at most 5% plus Monte-Carlo
#: error in every model, power at least 90% for a 1% speedup at 1% noise with 30 runs
ALARM_BOUND, POWER_BOUND = 0.05, 0.90


def calibration_pipeline() -> pr.Pipeline:
    """The default preset's per-benchmark steps (suite steps do not apply to one benchmark) and two tests."""
    preset = pr.get_registry().preset("default")
    steps = [s for s in preset["steps"] if pr.get_registry().component_class(s["component"]).scope == "benchmark"]
    return pr.Pipeline([*steps[:-1], *EXTRA_TESTS, steps[-1]], name="calibration")


def run(models: list[str], replicates: int, power: float, seed: int, executor,
        sizes: set[int] | None = None) -> list[dict]:
    pipeline = calibration_pipeline()
    rows = []
    for name in models:
        noise = simulate.model(name)
        for size in noise.sizes:
            if sizes and size not in sizes:
                continue
            start = time.perf_counter()
            aa = simulate.calibrate(pipeline, noise, size, 1.0, replicates, seed, executor)
            faster = simulate.calibrate(pipeline, noise, size, power, replicates, seed + 1, executor)
            for step, rates in aa.items():
                if set(rates.counts) <= {"unclear"} and set(faster[step].counts) <= {"unclear"}:
                    continue  # a step that never concludes (I2, I1) has no false alarms to show
                rows.append({"model": name, "size": size, "step": step, "alarm": rates.alarm,
                             "power": faster[step].faster if step in faster else None,
                             "unclear": rates.counts.get("unclear", 0) / replicates,
                             "same": rates.counts.get("same", 0) / replicates})
            print(f"  {name} n={size}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return rows


def render(rows: list[dict], replicates: int, power: float, markdown: bool) -> str:
    se = simulate.Rates.standard_error
    out = []
    if markdown:
        out += [f"| noise model | n | step | A/A false alarms | power ({power - 1:.0%} faster) |",
                "|---|---|---|---|---|"]
    else:
        out.append(f"{'noise model':<22} {'n':>4}  {'step':<24} {'A/A alarms':>16} {'power':>16}")
    for r in rows:
        alarm = f"{r['alarm']:.1%} ± {se(r['alarm'], replicates):.1%}"
        pw = "-" if r["power"] is None else f"{r['power']:.1%} ± {se(r['power'], replicates):.1%}"
        step = f"**{r['step']}**" if markdown and r["step"] == "verdict" else r["step"]
        if markdown:
            out.append(f"| {r['model']} | {r['size']} | {step} | {alarm} | {pw} |")
        else:
            out.append(f"{r['model']:<22} {r['size']:>4}  {step:<24} {alarm:>16} {pw:>16}")
    return "\n".join(out)


def check(rows: list[dict], replicates: int, power: float) -> list[str]:
    """The verdict's rows that break the acceptance bounds (alarm <= 5% + 2 SE; iid power >= 90% - 2 SE)."""
    bad = []
    slack = 2 * simulate.Rates.standard_error(ALARM_BOUND, replicates)
    for r in rows:
        if r["step"] != "verdict":
            continue
        if r["alarm"] > ALARM_BOUND + slack:
            bad.append(f"{r['model']} n={r['size']}: A/A false alarms {r['alarm']:.1%}")
        if (r["model"] == "iid-normal" and r["size"] == 30 and abs(power - 1.01) < 1e-9
                and r["power"] < POWER_BOUND - 2 * simulate.Rates.standard_error(POWER_BOUND, replicates)):
            bad.append(f"iid-normal n=30: power {r['power']:.1%} for a 1% speedup")
    return bad


# ------------------------------------------------------------------ suites: the regression gate

#: the suite calibration (issue 17): 100-benchmark suites at 30 runs, 10 of them truly 5% slower
SUITE_BENCHMARKS, SUITE_SIZE, SUITE_CHANGED, SUITE_SLOWDOWN = 100, 30, 10, 1.05
#: the suites' noise models: every flat model at 30 runs but undeclared-hierarchy, whose A/A false alarms
#: (4% per benchmark, within the single-benchmark bound) come with p-values down to 1e-17 that no
#: adjustment can tell from a change: 9 such benchmarks in 100 fire the gate on 13% of A/A suites
#: (docs/methods/verdict.md); declared levels (or interleaved runs) are the remedy, not the suite control
SUITE_MODELS = tuple(m for m in simulate.suite_models(SUITE_SIZE) if m != "undeclared-hierarchy")
CONTROLS = ("none", "holm", "benjamini-hochberg")


def suite_verdicts(seed: int, changed: int, executor=None, benchmarks: int = SUITE_BENCHMARKS,
                   size: int = SUITE_SIZE, models: tuple[str, ...] = SUITE_MODELS
                   ) -> tuple[pr.Suite, dict[str, pr.Result], list[str]]:
    """One simulated suite's unadjusted verdicts ``{benchmark: {key: Verdict}}`` and its truly slower benchmarks."""
    suite, moved = simulate.suite(benchmarks, size, changed, 1.0 / SUITE_SLOWDOWN, models=models,
                                  random_state=seed)
    report = pr.Pipeline(["verdict"], name="gate").run(suite, executor=executor, revise=False)
    return suite, {b: r["verdict"] for b, r in report.benchmark_results.items() if "verdict" in r}, moved


def gate(suite: pr.Suite, verdicts: dict, control: str) -> list[str]:
    """The benchmarks ``--fail-on-regression`` reports under ``control``: those whose verdict is "slower"."""
    revised = pr.get("verdict", suite_control=control).revise(suite, verdicts) or verdicts
    return [b for b, res in revised.items() for v in res.values() if isinstance(v, pr.Verdict) and v.outcome == "slower"]


def run_suites(seeds: int, seed: int, executor=None, models: tuple[str, ...] = SUITE_MODELS) -> list[dict]:
    """Per control: the A/A gate rate (seeds where any verdict is "slower"), and with 10 of 100 truly 5%
    slower the gate rate, the share of those found and the false "slower" verdicts per suite."""
    tallies = {c: {"aa": 0, "fired": 0, "found": 0, "false": 0} for c in CONTROLS}
    for i in range(seeds):
        start = time.perf_counter()
        suite, verdicts, _ = suite_verdicts(seed + 2 * i, 0, executor, models=models)
        for c in CONTROLS:
            tallies[c]["aa"] += bool(gate(suite, verdicts, c))
        suite, verdicts, moved = suite_verdicts(seed + 2 * i + 1, SUITE_CHANGED, executor, models=models)
        for c in CONTROLS:
            slower = set(gate(suite, verdicts, c))
            tallies[c]["fired"] += bool(slower & set(moved))
            tallies[c]["found"] += len(slower & set(moved))
            tallies[c]["false"] += len(slower - set(moved))
        print(f"  suite seed {i + 1}/{seeds}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return [{"control": c, "aa": t["aa"] / seeds, "fired": t["fired"] / seeds,
             "found": t["found"] / (seeds * SUITE_CHANGED), "false": t["false"] / seeds}
            for c, t in tallies.items()]


def render_suites(rows: list[dict], seeds: int, markdown: bool) -> str:
    se = simulate.Rates.standard_error
    head = ["suite_control", "A/A: gate fires", f"{SUITE_CHANGED} truly slower: gate fires",
            f"share of the {SUITE_CHANGED} found", "false 'slower' per suite"]
    lines = []
    for r in rows:
        cells = [r["control"], f"{r['aa']:.1%} ± {se(r['aa'], seeds):.1%}", f"{r['fired']:.1%} ± {se(r['fired'], seeds):.1%}",
                 f"{r['found']:.1%} ± {se(r['found'], seeds * SUITE_CHANGED):.1%}", f"{r['false']:.2f}"]
        lines.append(cells)
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                         + ["| " + " | ".join(c) + " |" for c in lines])
    return "\n".join("  ".join(f"{c:<28}" for c in row) for row in [head, *lines])


def check_suites(rows: list[dict], seeds: int) -> list[str]:
    """The default control's A/A gate rate must stay at most 5% plus two Monte-Carlo standard errors."""
    default = pr.get("verdict").suite_control
    slack = 2 * simulate.Rates.standard_error(ALARM_BOUND, seeds)
    return [f"suite_control={r['control']}: the gate fires on {r['aa']:.1%} of A/A suites"
            for r in rows if r["control"] == default and r["aa"] > ALARM_BOUND + slack]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--suites", type=int, default=0, metavar="SEEDS",
                    help="instead of the per-benchmark table: the regression gate on SEEDS A/A suites and as many "
                         f"with {SUITE_CHANGED} of {SUITE_BENCHMARKS} benchmarks truly {SUITE_SLOWDOWN - 1:.0%} slower")
    ap.add_argument("--models", default="", help="noise models (default: every one; with --suites: every flat "
                    "model at 30 runs but undeclared-hierarchy)")
    ap.add_argument("--power", type=float, default=1.01, help="true speedup of the power runs (default 1.01)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--sizes", default="", help="only these sizes, e.g. 10,30 (default: every model's)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--history", action="store_true", help="calibrate the change-scan detector instead (see "
                    "history_calibration.py; --replicates histories and --suites suites of 100 per cell)")
    args = ap.parse_args()
    if args.history:
        import history_calibration

        return history_calibration.main(args.replicates, args.suites or 20, args.seed)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    pool = cf.ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    if args.suites:
        try:
            rows = run_suites(args.suites, args.seed, pool, tuple(models) or SUITE_MODELS)
        finally:
            if pool is not None:
                pool.shutdown()
        print(render_suites(rows, args.suites, args.markdown))
        bad = check_suites(rows, args.suites)
        for line in bad:
            print(f"OUT OF BOUNDS: {line}", file=sys.stderr)
        return 1 if bad else 0
    try:
        sizes = {int(x) for x in args.sizes.split(",") if x.strip()}
        rows = run(models or list(simulate.names()), args.replicates, args.power, args.seed, pool, sizes)
    finally:
        if pool is not None:
            pool.shutdown()
    print(render(rows, args.replicates, args.power, args.markdown))
    bad = check(rows, args.replicates, args.power)
    for line in bad:
        print(f"OUT OF BOUNDS: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
