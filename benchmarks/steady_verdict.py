"""The verdict on warmed-up data: comparing the steady parts, beside the verdict without them and plain tests.

    python benchmarks/steady_verdict.py [--replicates 100] [--seed 0] [--markdown] [--families a,b]
    python benchmarks/steady_verdict.py --timing [--runs 100000]
    python benchmarks/steady_verdict.py --real DIR [--markdown]

Families (``FAMILIES``; every system drawn alike, the candidate truly ``--power`` times faster
or not at all):

- ``warmup-forks``: 6 forks x 400 iterations a system (1% iteration noise, 0.5% fork effect);
  70% of the forks warm up for 0-250 iterations from 10-50% slower (a step or a fading decay),
  10% never settle (their last 15% of iterations 5-15% slower), the others are flat;
- ``unsteady-forks``: the same with 40% of the forks warming up and 40% never settling (their last
  15% 5-15% slower): forks that disagree;
- ``warmup-flat``: one series of 600 runs a system (1% noise) warming up for 0-300 runs from
  10-50% slower (a step or a fading decay);
- ``clean-flat``: 600 independent runs at 1% noise (what must not change).

Per family, the A/A false alarms ("faster" or "slower"), the power ("faster" when truly faster)
and the wrong-direction calls ("slower" when truly faster) of the verdict (its default: the
steady parts), of the verdict with ``steady = false``, for forks of the verdict keeping the
forks that never settle whole (``steady.NEVER_STEADY_KEPT_WHOLE``: the alternative to leaving
them out), and of the plain tests on the same data,
two-sided at 5%: Mann-Whitney on all iterations, and Welch on the fork means (forks) or on all
runs (flat). ``--timing``: the verdict's time on two flat samples of ``--runs`` runs, and on 10 forks x
3,000 iterations a side, with and without the steady-state check, as a ratio (one process, the
same data). ``--real DIR``: real JMH
forks (Traini et al.'s, as the AIPT replication package holds them: ``DIR/timeseries/*.json``, 10
forks of 3,000 iterations per benchmark) split 5 against 5 in two ways (forks 1-5 against 6-10,
odd against even): unchanged code (A/A), and the second half's times divided by 1.05 (5% faster)
or multiplied by it (5% slower); the verdict with and without the steady parts, and Welch on the
fork means. docs/methods/steady-state.md shows the tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import perfrigor as pr
from perfrigor import simulate
from perfrigor_plugins.verdict import steady

FORKS, ITERATIONS, FLAT_RUNS = 6, 400, 600
WHOLE = "verdict, never-steady forks kept whole"


def _warm(rng: np.random.Generator, n: int, longest: int) -> np.ndarray:
    """A multiplicative warm-up profile of ``n`` values: 0-``longest`` values from 10-50% slower, a step or a
    fading decay (reaching 1% at its end), 1 after it."""
    w = int(rng.integers(0, longest + 1))
    height = rng.uniform(0.1, 0.5)
    profile = np.ones(n)
    if w:
        if rng.random() < 0.5:
            profile[:w] += height
        else:
            profile[:w] += height * np.exp(np.log(0.01 / height) * np.arange(w) / w)
    return profile


def _forks(warming: float, never: float) -> simulate.Draw:
    """Forks: a share ``warming`` warm up, a share ``never`` never settle (their last 15% 5-15% slower)."""
    def draw(rng: np.random.Generator, size: int) -> np.ndarray:
        out = np.empty((size, ITERATIONS))
        for i in range(size):
            x = (1.0 + 0.005 * rng.standard_normal()) * (1.0 + 0.01 * rng.standard_normal(ITERATIONS))
            kind = rng.random()
            if kind < warming:
                x *= _warm(rng, ITERATIONS, 250)
            elif kind < warming + never:
                x[int(0.85 * ITERATIONS):] *= 1.0 + rng.uniform(0.05, 0.15)
            out[i] = x
        return out
    return draw


def _flat(rng: np.random.Generator, size: int) -> np.ndarray:
    return (1.0 + 0.01 * rng.standard_normal(size)) * _warm(rng, size, 300)


def _clean(rng: np.random.Generator, size: int) -> np.ndarray:
    return 1.0 + 0.01 * rng.standard_normal(size)


FAMILIES = {
    "warmup-forks": simulate.NoiseModel(
        "warmup-forks", f"{FORKS} forks x {ITERATIONS} iterations, 70% warming up 0-250 iterations from 10-50% slower, "
        "10% never steady", _forks(0.7, 0.1), (FORKS,), ("fork", "iteration")),
    "unsteady-forks": simulate.NoiseModel(
        "unsteady-forks", f"{FORKS} forks x {ITERATIONS} iterations, 40% warming up, 40% never steady (forks "
        "disagree)", _forks(0.4, 0.4), (FORKS,), ("fork", "iteration")),
    "warmup-flat": simulate.NoiseModel(
        "warmup-flat", f"{FLAT_RUNS} runs warming up 0-300 runs from 10-50% slower", _flat, (FLAT_RUNS,)),
    "clean-flat": simulate.NoiseModel("clean-flat", f"{FLAT_RUNS} independent runs, 1% noise", _clean, (FLAT_RUNS,)),
}


def answers(noise: simulate.NoiseModel, speedup: float, replicates: int, seed: int) -> dict[str, list[str]]:
    """Each method's answer per replicate: "faster", "slower" or anything else (no call)."""
    from scipy import stats as sps

    verdicts = {"verdict": pr.get("verdict", dependence="benchmark", suite_control="none"),
                "verdict, steady = false": pr.get("verdict", dependence="benchmark", suite_control="none",
                                                  steady=False)}
    out: dict[str, list[str]] = {name: [] for name in (*verdicts, "Mann-Whitney, all iterations", "Welch")}
    welch = "Welch on fork means" if noise.levels else "Welch, all runs"
    out[welch] = out.pop("Welch")

    def call(p: float, old: float, new: float) -> str:
        return "" if p >= 0.05 else "faster" if new < old else "slower"

    if noise.levels:  # the alternative for forks that never settle: kept whole rather than left out
        out[WHOLE] = []
    for a, b in noise.pairs(noise.sizes[0], replicates, speedup, seed):
        for name, v in verdicts.items():
            out[name].append(v.compare(a, b).outcome)
        if noise.levels:
            steady.NEVER_STEADY_KEPT_WHOLE = True
            try:
                out[WHOLE].append(verdicts["verdict"].compare(a, b).outcome)
            finally:
                steady.NEVER_STEADY_KEPT_WHOLE = False
        x, y = a.flat, b.flat
        out["Mann-Whitney, all iterations"].append(call(sps.mannwhitneyu(x, y).pvalue, np.median(x), np.median(y)))
        tx, ty = (a.top_means(), b.top_means()) if noise.levels else (x, y)
        out[welch].append(call(sps.ttest_ind(tx, ty, equal_var=False).pvalue, tx.mean(), ty.mean()))
    return out


def table(families: list[str], replicates: int, power: float, seed: int) -> list[dict]:
    rows = []
    for name in families:
        start = time.perf_counter()
        noise = FAMILIES[name]
        aa, changed = answers(noise, 1.0, replicates, seed), answers(noise, power, replicates, seed + 1)
        for method in aa:
            rows.append({"family": name, "method": method,
                         "alarm": float(np.mean([o in ("faster", "slower") for o in aa[method]])),
                         "power": float(np.mean([o == "faster" for o in changed[method]])),
                         "wrong": int(sum(o == "slower" for o in changed[method]))})
        print(f"  {name}: {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return rows


def markdown(rows: list[dict], replicates: int, power: float) -> str:
    se = simulate.Rates.standard_error(0.05, replicates)
    lines = [f"| family | method | A/A false alarms | power ({power - 1:.0%} faster) | wrong direction |",
             "|---|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['family']} | {r['method']} | {r['alarm']:.1%} | {r['power']:.1%} | {r['wrong']} |")
    lines.append(f"\n{replicates} replicates a cell; Monte-Carlo standard error of a 5% rate: {se:.1%}.")
    return "\n".join(lines)


def timing(runs: int, seed: int) -> str:
    """The verdict's time with and without the steady-state check (best of two), on ``runs`` flat runs a side and
    on 10 forks x 3,000 iterations a side."""
    rng = np.random.default_rng(seed)
    lines = []
    for what, shape, levels in ((f"{runs} flat runs", (runs,), None),
                                ("10 forks x 3,000 iterations", (10, 3000), ("fork", "iteration"))):
        a, b = (pr.Sample(1.0 + 0.01 * rng.standard_normal(shape), levels=levels) for _ in range(2))
        took: dict[bool, float] = {}
        for on in (False, True, False, True):
            v = pr.get("verdict", steady=on)
            start = time.perf_counter()
            v.compare(a, b)
            took[on] = min(took.get(on, np.inf), time.perf_counter() - start)
        lines.append(f"{what} a side: verdict {took[False]:.2f} s without the steady-state check, {took[True]:.2f} s "
                     f"with it (ratio {took[True] / took[False]:.2f})")
    return "\n".join(lines)


def real(directory: Path) -> list[dict]:
    """The verdicts on real forks split 5 against 5, unchanged and with a 5% change either way (one row per
    method and change: its calls)."""
    from scipy import stats as sps

    verdicts = {"verdict": pr.get("verdict"), "verdict, steady = false": pr.get("verdict", steady=False)}
    calls: dict[tuple[str, float], list[str]] = {}
    for path in sorted((directory / "timeseries").glob("*.json")):
        forks = np.asarray(json.loads(path.read_text()), dtype=float)
        if forks.ndim != 2 or forks.shape[0] < 4:
            continue
        half = forks.shape[0] // 2
        for first, second in ((forks[:half], forks[half:2 * half]), (forks[0::2], forks[1::2])):
            for factor in (1.0, 1.05, 1 / 1.05):
                a = pr.Sample(first, unit="s", levels=("fork", "iteration"))
                b = pr.Sample(second / factor, unit="s", levels=("fork", "iteration"))
                for name, v in verdicts.items():
                    calls.setdefault((name, factor), []).append(v.compare(a, b).outcome)
                tx, ty = a.top_means(), b.top_means()
                p = sps.ttest_ind(tx, ty, equal_var=False).pvalue
                calls.setdefault(("Welch on fork means", factor), []).append(
                    "" if p >= 0.05 else "faster" if ty.mean() < tx.mean() else "slower")
        print(f"  {path.stem[:60]}", file=sys.stderr)
    rows = []
    for method in (*verdicts, "Welch on fork means"):
        aa, up, down = (calls[(method, f)] for f in (1.0, 1.05, 1 / 1.05))
        rows.append({"method": method, "splits": len(aa),
                     "alarm": sum(o in ("faster", "slower") for o in aa),
                     "found": sum(o == "faster" for o in up) + sum(o == "slower" for o in down),
                     "wrong": sum(o == "slower" for o in up) + sum(o == "faster" for o in down)})
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--replicates", type=int, default=100)
    p.add_argument("--power", type=float, default=1.05)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--markdown", action="store_true")
    p.add_argument("--timing", action="store_true")
    p.add_argument("--runs", type=int, default=100_000)
    p.add_argument("--real", type=Path, metavar="DIR")
    args = p.parse_args(argv)
    if args.real is not None:
        print("| method | splits | A/A calls | ±5% found (of 2x splits) | wrong direction |\n|---|---:|---:|---:|---:|")
        for r in real(args.real):
            print(f"| {r['method']} | {r['splits']} | {r['alarm']} | {r['found']} of {2 * r['splits']} | {r['wrong']} |")
        return
    if args.timing:
        print(timing(args.runs, args.seed))
        return
    rows = table(args.families.split(","), args.replicates, args.power, args.seed)
    if args.markdown:
        print(markdown(rows, args.replicates, args.power))
    else:
        for r in rows:
            print(f"{r['family']:14} {r['method']:32} alarm {r['alarm']:6.1%} power {r['power']:6.1%} "
                  f"wrong {r['wrong']}")


if __name__ == "__main__":
    main()
