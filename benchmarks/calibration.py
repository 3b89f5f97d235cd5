"""Calibration of every decision the default pipeline makes: A/A false alarms and power, by noise model.

    python benchmarks/calibration.py [--replicates 600] [--models a,b] [--sizes 10,30] [--power 1.01]
                                     [--jobs 1] [--markdown] [--steps] [--seed 0]

For every noise model of ``perfrigor.simulate`` and each of its sizes, draws ``replicates``
A/A benchmarks (the same program on both sides) and as many with the candidate truly
``--power`` times faster, and counts how often each answer says "changed" (A/A: "faster" or
"slower"; a test: "reject") and "faster" (the power), each with its Monte-Carlo standard error:

- the verdict **alone** (each benchmark judged on its own runs: ``dependence = "benchmark"``) and
  **in a suite** (the benchmarks run as suites of SUITE_OF of the model, the serial dependence
  pooled over each: ``dependence = "suite"``), neither adjusted for multiple testing
  (``suite_control = "none"``: per-benchmark rates); and the wrong-direction calls ("slower"
  when the candidate is truly faster);
- the share of the verdict's intervals that hold the true speedup (the smaller of the A/A and the
  power experiments': interval coverage);
- the plain tests a user would run instead, two-sided at 5% on the same data: Mann-Whitney,
  Welch, and for declared hierarchies Welch on the top-level (fork) means; the best of those
  whose A/A rate holds 5% (+ two standard errors) is the "best plain test" of the row;
- with ``--steps``, every per-benchmark step of the default pipeline that the verdict reads
  or answers beside (speedup-test, fieller, mode-comparison) and the Speedup-Test's one-sided
  Welch and Wilcoxon-Mann-Whitney tests (bootstrap-ratio's 10,000 resamples a benchmark are left out
  for time: its rows are in the table of issue 10's docs history).

docs/methods/verdict.md shows the table (``--markdown``).

    python benchmarks/calibration.py --flags [--replicates 600] [--markdown]

The independence check's flags ("dependent", "trending", a step of the level) on clean
series (independent normal, t3 and log-normal runs at 10, 20, 30 and 3,000 runs, the last with
a +0.5% drift below the 1% relevance): how often each fires.

    python benchmarks/calibration.py --history [--replicates 200] [--suites 20] [--seed 0]

The ``change-scan`` detector over simulated histories of commits (``history_calibration.py``: false
changes per series and the false discovery rate over suites without change, power and range
coverage with one step); docs/methods/history.md shows its table.

    python benchmarks/calibration.py --suites 100 [--jobs 1] [--markdown] [--by-model] [--seed 0]

The regression gate over suites (``--fail-on-regression`` exits 1 when some verdict is
"slower"): SEEDS suites of 100 benchmarks of 10, 20 or 30 runs each (drawn per benchmark), their
noise models taken in turn from the flat models of ``perfrigor.simulate`` at 30 runs
(``simulate.suite``), all A/A, and as many with 10 benchmarks truly 5%% slower (``--models`` to
choose others; undeclared-hierarchy is left out by default, see SUITE_MODELS); per
``suite_control`` of the verdict, how often the gate fires on the A/A suites, how often it fires
on the others, the share of the 10 it finds, and the false "slower" verdicts per suite; and the
same for the plain gate (Mann-Whitney per benchmark, Benjamini-Hochberg over the suite). The
verdicts are computed once per suite (the verdict step alone: it runs the diagnostics it reads
itself, so it answers as in the default preset) and revised by each control; ``--by-model`` adds the
slowdowns found per noise model and run count, by the default control and by the plain gate.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import sys
import time
from pathlib import Path

import numpy as np
import perfrigor as pr
from perfrigor import simulate

EXTRA_TESTS = [{"component": "welch-t"}, {"component": "wilcoxon-mann-whitney"}]
#: the default preset's steps the per-step table shows (beside the verdict's own evidence)
STEPS = ("speedup-test", "fieller", "independence", "mode-comparison")
#: the acceptance bounds of the verdict (issues 10, 22): A/A false alarms at most 5% plus Monte-Carlo
#: error in every model, power at least 90% for a 1% speedup at 1% noise with 30 runs
ALARM_BOUND, POWER_BOUND = 0.05, 0.90
#: the benchmarks of a simulated suite for the verdict "in a suite" (its dependence pooled over them)
SUITE_OF = 20
ALONE, POOLED = "verdict", "verdict in a suite"


def calibration_pipeline(steps: bool = False) -> pr.Pipeline:
    """The verdict's evidence (and with ``steps`` the default preset's other comparing steps and two tests), the
    verdict alone and the verdict in a suite, neither adjusted for multiple testing."""
    extra = [{"component": c} for c in STEPS if c not in ("independence", "mode-comparison")] if steps else []
    return pr.Pipeline([*extra, {"component": "independence"}, {"component": "mode-comparison"},
                        *(EXTRA_TESTS if steps else []),
                        {"component": "verdict", "id": ALONE, "dependence": "benchmark", "suite_control": "none"},
                        {"component": "verdict", "id": POOLED, "dependence": "suite", "suite_control": "none"}],
                       name="calibration")


def plain_tests(noise: simulate.NoiseModel, size: int, speedup: float, replicates: int, seed: int) -> dict:
    """Two-sided plain tests at 5% on the replicates ``simulate.calibrate`` draws (same seed, same data):
    {test: (share "changed", share "faster")}."""
    from scipy import stats as sps
    tests: dict[str, list[tuple[bool, bool]]] = {"Mann-Whitney": [], "Welch": []}
    if noise.levels:
        tests["Welch on fork means"] = []
    for a, b in noise.pairs(size, replicates, speedup, seed):
        x, y = a.flat, b.flat
        p = sps.mannwhitneyu(x, y).pvalue
        tests["Mann-Whitney"].append((p < 0.05, p < 0.05 and np.median(y) < np.median(x)))
        p = sps.ttest_ind(x, y, equal_var=False).pvalue
        tests["Welch"].append((p < 0.05, p < 0.05 and y.mean() < x.mean()))
        if noise.levels:
            tx, ty = a.top_means(), b.top_means()
            p = sps.ttest_ind(tx, ty, equal_var=False).pvalue
            tests["Welch on fork means"].append((p < 0.05, p < 0.05 and ty.mean() < tx.mean()))
    return {t: (float(np.mean([c for c, _ in v])), float(np.mean([f for _, f in v]))) for t, v in tests.items()}


def run(models: list[str], replicates: int, power: float, seed: int, executor,
        sizes: set[int] | None = None, steps: bool = False) -> list[dict]:
    pipeline = calibration_pipeline(steps=steps)
    rows = []
    for name in models:
        noise = simulate.model(name)
        for size in noise.sizes:
            if sizes and size not in sizes:
                continue
            start = time.perf_counter()
            aa = simulate.calibrate(pipeline, noise, size, 1.0, replicates, seed, executor, suites_of=SUITE_OF)
            faster = simulate.calibrate(pipeline, noise, size, power, replicates, seed + 1, executor,
                                        suites_of=SUITE_OF)
            plain_aa = plain_tests(noise, size, 1.0, replicates, seed)
            plain_power = plain_tests(noise, size, power, replicates, seed + 1)
            for step, rates in aa.items():
                if (step not in (ALONE, POOLED) and set(rates.counts) <= {"unclear"}
                        and set(faster[step].counts) <= {"unclear"}):
                    continue  # a step that never concludes has no false alarms to show
                covers = [r.coverage for r in (rates, faster.get(step)) if r is not None and r.coverage is not None]
                rows.append({"model": name, "size": size, "step": step, "alarm": rates.alarm,
                             "power": faster[step].faster if step in faster else None,
                             "wrong": faster[step].counts.get("slower", 0) if step in faster else 0,
                             "coverage": min(covers) if covers else None})
            for test, (alarm, _) in plain_aa.items():
                rows.append({"model": name, "size": size, "step": test, "alarm": alarm,
                             "power": plain_power[test][1], "wrong": None, "plain": True})
            print(f"  {name} n={size}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return rows


def _best_plain(rows: list[dict], replicates: int) -> dict | None:
    slack = 2 * simulate.Rates.standard_error(ALARM_BOUND, replicates)
    calibrated = [r for r in rows if r.get("plain") and r["alarm"] <= ALARM_BOUND + slack]
    return max(calibrated, key=lambda r: r["power"]) if calibrated else None


def summary_rows(rows: list[dict], replicates: int) -> list[dict]:
    """One row per (model, n): the verdict alone and in a suite, and the best calibrated plain test."""
    out = []
    keys = list(dict.fromkeys((r["model"], r["size"]) for r in rows))
    for model, size in keys:
        cell = [r for r in rows if (r["model"], r["size"]) == (model, size)]
        by = {r["step"]: r for r in cell}
        out.append({"model": model, "size": size, "alone": by.get(ALONE), "pooled": by.get(POOLED),
                    "best": _best_plain(cell, replicates),
                    "plain": {r["step"]: r for r in cell if r.get("plain")}})
    return out


def render(rows: list[dict], replicates: int, power: float, markdown: bool, steps: bool = False) -> str:
    se = simulate.Rates.standard_error

    def rate(x: float | None) -> str:
        return "-" if x is None else f"{x:.1%} ± {se(x, replicates):.1%}"

    if steps:
        head = ["noise model", "n", "step", "A/A false alarms", f"power ({power - 1:.0%} faster)"]
        body = [[r["model"], str(r["size"]), f"**{r['step']}**" if markdown and r["step"] in (ALONE, POOLED)
                 else r["step"], rate(r["alarm"]), rate(r["power"])] for r in rows]
    else:
        head = ["noise model", "n", "verdict alone: A/A", "power", "in a suite: A/A", "power",
                "interval coverage (alone, suite)", "best plain test (A/A): power", "Mann-Whitney A/A, power",
                "Welch A/A, power"]
        body = []
        for s in summary_rows(rows, replicates):
            a, p, best, plain = s["alone"], s["pooled"], s["best"], s["plain"]
            if a is None or p is None:
                continue
            wrong = sum(x["wrong"] or 0 for x in (a, p))
            cover = ", ".join("-" if x.get("coverage") is None else f"{x['coverage']:.1%}" for x in (a, p))
            cells = [s["model"], str(s["size"]), rate(a["alarm"]), rate(a["power"]), rate(p["alarm"]),
                     rate(p["power"]) + (f" ({wrong} wrong-way)" if wrong else ""), cover,
                     "none calibrated" if best is None else f"{best['step']} ({best['alarm']:.1%}): "
                     f"{best['power']:.1%}"]
            for t in ("Mann-Whitney", "Welch"):
                cells.append(f"{plain[t]['alarm']:.1%}, {plain[t]['power']:.1%}")
            body.append(cells)
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                         + ["| " + " | ".join(c) + " |" for c in body])
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in [head, *body])


def check(rows: list[dict], replicates: int, power: float) -> list[str]:
    """The verdict's rows that break the acceptance bounds (alarm <= 5% + 2 SE; iid power >= 90% - 2 SE)."""
    bad = []
    slack = 2 * simulate.Rates.standard_error(ALARM_BOUND, replicates)
    for r in rows:
        if r["step"] not in (ALONE, POOLED):
            continue
        if r["alarm"] > ALARM_BOUND + slack:
            bad.append(f"{r['model']} n={r['size']} ({r['step']}): A/A false alarms {r['alarm']:.1%}")
        if (r["model"] == "iid-normal" and r["size"] == 30 and abs(power - 1.01) < 1e-9
                and r["power"] < POWER_BOUND - 2 * simulate.Rates.standard_error(POWER_BOUND, replicates)):
            bad.append(f"iid-normal n=30 ({r['step']}): power {r['power']:.1%} for a 1% speedup")
    return bad


# ------------------------------------------------------------------ the independence check's flags on clean runs

FLAG_SERIES = {"normal": lambda rng, n: rng.normal(1.0, 0.01, n),
               "t3": lambda rng, n: 1.0 + 0.01 * rng.standard_t(3, n),
               "log-normal": lambda rng, n: np.exp(0.1 * rng.standard_normal(n)),
               "normal, +0.5% drift": lambda rng, n: rng.normal(1.0, 0.01, n) * (1 + 0.005 * np.linspace(0, 1, n))}
FLAG_SIZES = {"normal": (10, 20, 30, 3000), "t3": (10, 20, 30), "log-normal": (10, 20, 30),
              "normal, +0.5% drift": (3000,)}


def run_flags(replicates: int, seed: int) -> list[dict]:
    """How often the independence check flags clean series: dependent, trending, a step of the level."""
    rng = np.random.default_rng(seed)
    est = pr.get("independence")
    rows = []
    for name, draw in FLAG_SERIES.items():
        for n in FLAG_SIZES[name]:
            count = replicates if n < 1000 else max(replicates // 6, 50)
            checks = [est.estimate(draw(rng, n)) for _ in range(count)]
            rows.append({"series": name, "n": n, "replicates": count,
                         "dependent": float(np.mean([c.dependent for c in checks])),
                         "trending": float(np.mean([c.trending for c in checks])),
                         "step": float(np.mean([bool(c.steps) for c in checks]))})
            print(f"  flags {name} n={n}", file=sys.stderr)
    return rows


def render_flags(rows: list[dict], markdown: bool) -> str:
    se = simulate.Rates.standard_error
    head = ["clean series", "n", "dependent", "trending", "a step of the level"]
    body = [[r["series"], str(r["n"])] + [f"{r[k]:.1%} ± {se(r[k], r['replicates']):.1%}"
                                          for k in ("dependent", "trending", "step")] for r in rows]
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                         + ["| " + " | ".join(c) + " |" for c in body])
    return "\n".join("  ".join(f"{c:<22}" for c in row) for row in [head, *body])


# ------------------------------------------------------------------ suites: the regression gate

#: the suite calibration (issues 17, 22): 100-benchmark suites of 10, 20 or 30 runs each, 10 of them truly 5% slower
SUITE_BENCHMARKS, SUITE_SIZES, SUITE_CHANGED, SUITE_SLOWDOWN = 100, (10, 20, 30), 10, 1.05
#: the suites' noise models: every flat model at 30 runs but undeclared-hierarchy, whose A/A false alarms
#: (within the single-benchmark bound) come with p-values that no adjustment can tell from a change
#: (docs/methods/verdict.md); declared levels (or interleaved runs) are the remedy, not the suite control
SUITE_MODELS = tuple(m for m in simulate.suite_models(max(SUITE_SIZES)) if m != "undeclared-hierarchy")
#: the verdict's suite controls, and "pooled off": Benjamini-Hochberg with each benchmark's dependence its own
CONTROLS = ("none", "holm", "benjamini-hochberg", "benjamini-hochberg, dependence per benchmark")


def suite_verdicts(seed: int, changed: int, executor=None, benchmarks: int = SUITE_BENCHMARKS,
                   sizes: tuple[int, ...] = SUITE_SIZES, models: tuple[str, ...] = SUITE_MODELS
                   ) -> tuple[pr.Suite, dict[str, pr.Result], list[str]]:
    """One simulated suite's unrevised verdicts ``{benchmark: {key: Verdict}}`` and its truly slower benchmarks."""
    suite, moved = simulate.suite(benchmarks, sizes, changed, 1.0 / SUITE_SLOWDOWN, models=models,
                                  random_state=seed)
    report = pr.Pipeline(["verdict"], name="gate").run(suite, executor=executor, revise=False)
    return suite, {b: r["verdict"] for b, r in report.benchmark_results.items() if "verdict" in r}, moved


def gate(suite: pr.Suite, verdicts: dict, control: str) -> list[str]:
    """The benchmarks ``--fail-on-regression`` reports under ``control``: those whose verdict is "slower"."""
    name, _, rest = control.partition(", ")
    step = pr.get("verdict", suite_control=name, dependence="benchmark" if rest else "suite")
    revised = step.revise(suite, verdicts) or verdicts
    return [b for b, res in revised.items() for v in res.values() if isinstance(v, pr.Verdict) and v.outcome == "slower"]


def plain_gate(suite: pr.Suite) -> list[str]:
    """The benchmarks a plain gate reports: two-sided Mann-Whitney per benchmark, Benjamini-Hochberg over the
    suite, the candidate's median larger (scipy; what a user without perfrigor would run)."""
    from scipy import stats as sps
    names, pvalues, slower = [], [], []
    for b in suite.benchmarks:
        old, new = (suite[b][s].flat for s in suite.systems[:2])
        names.append(b)
        pvalues.append(float(sps.mannwhitneyu(old, new).pvalue))
        slower.append(bool(np.median(new) > np.median(old)))
    adjusted = sps.false_discovery_control(pvalues, method="bh")
    return [b for b, p, s in zip(names, adjusted, slower, strict=True) if p < 0.05 and s]


def run_suites(seeds: int, seed: int, executor=None, models: tuple[str, ...] = SUITE_MODELS,
               by_model: dict | None = None) -> list[dict]:
    """Per control: the A/A gate rate (seeds where any verdict is "slower"), and with 10 of 100 truly 5%
    slower the gate rate, the share of those found and the false "slower" verdicts per suite; and the same
    for the plain gate (Mann-Whitney and Benjamini-Hochberg). ``by_model``, when given, is filled with the
    slowdowns per (noise model, runs) and how many of them each gate found (where the power goes)."""
    rows = (*CONTROLS, "plain: Mann-Whitney + Benjamini-Hochberg")
    tallies = {c: {"aa": 0, "fired": 0, "found": 0, "false": 0} for c in rows}

    def slower_of(suite, verdicts, c):
        return plain_gate(suite) if c.startswith("plain") else gate(suite, verdicts, c)

    for i in range(seeds):
        start = time.perf_counter()
        suite, verdicts, _ = suite_verdicts(seed + 2 * i, 0, executor, models=models)
        for c in rows:
            tallies[c]["aa"] += bool(slower_of(suite, verdicts, c))
        suite, verdicts, moved = suite_verdicts(seed + 2 * i + 1, SUITE_CHANGED, executor, models=models)
        for c in rows:
            slower = set(slower_of(suite, verdicts, c))
            tallies[c]["fired"] += bool(slower & set(moved))
            tallies[c]["found"] += len(slower & set(moved))
            tallies[c]["false"] += len(slower - set(moved))
            if by_model is not None:
                for b in moved:
                    cell = by_model.setdefault((b.split("-", 1)[1], len(suite[b][suite.systems[0]])), {})
                    cell[c] = cell.get(c, 0) + (b in slower)
                    cell["slowdowns"] = cell.get("slowdowns", 0) + (c == rows[0])
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


def render_by_model(by_model: dict, markdown: bool) -> str:
    """The slowdowns per noise model and run count, and the share each gate found (``--by-model``)."""
    default, plain = pr.get("verdict").suite_control, "plain: Mann-Whitney + Benjamini-Hochberg"
    head = ["noise model", "runs", "slowdowns", f"found: verdict ({default})", "found: Mann-Whitney + BH"]
    body = [[model, str(n), str(c["slowdowns"]), f"{c.get(default, 0) / c['slowdowns']:.0%}",
             f"{c.get(plain, 0) / c['slowdowns']:.0%}"] for (model, n), c in sorted(by_model.items())]
    if markdown:
        return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                         + ["| " + " | ".join(c) + " |" for c in body])
    return "\n".join("  ".join(f"{c:<26}" for c in row) for row in [head, *body])


def check_suites(rows: list[dict], seeds: int) -> list[str]:
    """The default control's A/A gate rate must stay at most 5% plus two Monte-Carlo standard errors."""
    default = pr.get("verdict").suite_control
    slack = 2 * simulate.Rates.standard_error(ALARM_BOUND, seeds)
    return [f"suite_control={r['control']}: the gate fires on {r['aa']:.1%} of A/A suites"
            for r in rows if r["control"] == default and r["aa"] > ALARM_BOUND + slack]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--replicates", type=int, default=600)
    ap.add_argument("--suites", type=int, default=0, metavar="SEEDS",
                    help="instead of the per-benchmark table: the regression gate on SEEDS A/A suites and as many "
                         f"with {SUITE_CHANGED} of {SUITE_BENCHMARKS} benchmarks truly {(SUITE_SLOWDOWN - 1) * 100:.0f}%% slower")
    ap.add_argument("--by-model", action="store_true", help="with --suites: also the slowdowns found per noise "
                    "model and run count (where the gate's power goes)")
    ap.add_argument("--flags", action="store_true", help="instead: the independence check's flags on clean series")
    ap.add_argument("--steps", action="store_true", help="after the summary, every comparing step's row")
    ap.add_argument("--models", default="", help="noise models (default: every one; with --suites: every flat "
                    "model at 30 runs but undeclared-hierarchy)")
    ap.add_argument("--power", type=float, default=1.01, help="true speedup of the power runs (default 1.01)")
    ap.add_argument("--seed", default="0", help="the random seed; with --suites several, e.g. 0,777,4242: SEEDS "
                    "suites from each, pooled (held-out seeds beside the ones the docs were measured on)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--sizes", default="", help="only these sizes, e.g. 10,30 (default: every model's)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--save", default="", help="also write the rows as JSON to this file")
    ap.add_argument("--load", default="", help="render the rows of a --save file instead of simulating")
    ap.add_argument("--history", action="store_true", help="calibrate the change-scan detector instead (see "
                    "history_calibration.py; --replicates histories and --suites suites of 100 per cell)")
    args = ap.parse_args()
    seeds = [int(x) for x in args.seed.split(",") if x.strip()]
    if len(seeds) != 1 and not args.suites:
        ap.error("several --seed values only with --suites")
    args.seed = seeds[0]
    if args.history:
        import history_calibration

        return history_calibration.main(args.replicates, args.suites or 20, args.seed)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    if args.flags:
        print(render_flags(run_flags(args.replicates, args.seed), args.markdown))
        return 0
    pool = cf.ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    if args.suites:
        try:
            by_model: dict | None = {} if args.by_model else None
            per_seed = [run_suites(args.suites, s, pool, tuple(models) or SUITE_MODELS, by_model) for s in seeds]
        finally:
            if pool is not None:
                pool.shutdown()
        rows = [{**r, **{k: float(np.mean([p[i][k] for p in per_seed])) for k in ("aa", "fired", "found", "false")}}
                for i, r in enumerate(per_seed[0])]
        if len(seeds) > 1:
            print(f"{args.suites} + {args.suites} suites from each of the seeds {', '.join(map(str, seeds))}, pooled")
        print(render_suites(rows, args.suites * len(seeds), args.markdown))
        if by_model is not None:
            print()
            print(render_by_model(by_model, args.markdown))
        bad = check_suites(rows, args.suites * len(seeds))
        for line in bad:
            print(f"OUT OF BOUNDS: {line}", file=sys.stderr)
        return 1 if bad else 0
    try:
        sizes = {int(x) for x in args.sizes.split(",") if x.strip()}
        if args.load:
            rows = json.loads(Path(args.load).read_text(encoding="utf-8"))
        else:
            rows = run(models or list(simulate.names()), args.replicates, args.power, args.seed, pool, sizes, args.steps)
    finally:
        if pool is not None:
            pool.shutdown()
    if args.save:
        Path(args.save).write_text(json.dumps(rows), encoding="utf-8")
    print(render(rows, args.replicates, args.power, args.markdown))
    if args.steps:
        print()
        print(render(rows, args.replicates, args.power, args.markdown, steps=True))
    bad = check(rows, args.replicates, args.power)
    for line in bad:
        print(f"OUT OF BOUNDS: {line}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
