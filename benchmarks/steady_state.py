"""Validation of the ``steady-state`` estimator: simulated warm-ups, clean series, labelled real forks.

    python benchmarks/steady_state.py simulate [--replicates 100] [--seed 0] [--markdown]
    python benchmarks/steady_state.py labelled DIR [--markdown]

``simulate``: series of 3,000 iterations (fewer for short warm-ups) whose steady state starts at a
known iteration w (5 to 2,000): a step down from a slower start (JIT compilation: +10% or +50%),
or a fading warm-up: an exponential decay from +50% that comes within the relevance threshold of
the steady level at w (5% by default, or 1% analysed with ``relevance = 0.01``) and is steady from
there (a decay has no end but the one a threshold gives it; the detector can only see where the
level is within relevance); noise 2% (Gaussian, AR(1) 0.5, or with 1% outliers). Prints per case the share classified warmup, and the share whose steady start
lies within 10% of the series length of w (the issue's acceptance: >= 90%). Then clean series of
each noise (no warm-up): the share not classified flat (false alarms), and the share the
``independence`` step calls "trending".

``labelled DIR``: forks labelled by Traini et al. (EMSE 2022), as the AIPT replication package
holds them (``DIR/timeseries/*.json``: a list of forks per benchmark; ``DIR/classification/*.json``:
``forks`` "steady state" / "no steady state" and ``steady_state_starts``). Prints the agreement
table of docs/methods/steady-state.md: two-class agreement, steady start within 10% of the length,
per benchmark, and the share of forks labelled steady that ``independence`` calls trending.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import perfrigor as pr

N = 3000
WARMUPS = (5, 20, 100, 500, 1000, 2000)
NOISES = ("gaussian", "AR(1) 0.5", "1% outliers")
SHAPES = ("step +10%", "step +50%", "fading from +50%", "fading to 1%, relevance 1%")


def noise(kind: str, rng: np.random.Generator, n: int, cv: float = 0.02) -> np.ndarray:
    """Relative noise of iterations: Gaussian, AR(1) with phi 0.5, or Gaussian with 1% outliers (+30%)."""
    e = rng.normal(size=n)
    if kind == "AR(1) 0.5":
        out = np.empty(n)
        out[0] = e[0]
        for t in range(1, n):
            out[t] = 0.5 * out[t - 1] + math.sqrt(0.75) * e[t]
        e = out
    x = cv * e
    if kind == "1% outliers":
        x = x + np.where(rng.random(n) < 0.01, 0.3, 0.0)
    return x


def warmup_series(shape: str, w: int, n: int, rng: np.random.Generator, kind: str) -> np.ndarray:
    """Iteration times whose steady state (level 1) starts at iteration ``w``."""
    t = np.arange(n)
    if shape.startswith("step"):
        excess = np.where(t < w, 0.10 if "10" in shape else 0.50, 0.0)
    else:  # 0.5 exp(-t / tau) falls to the relevance threshold at w, and is steady from there
        excess = np.where(t < w, 0.5 * np.exp(-t * math.log(0.5 / relevance(shape)) / w), 0.0)
    return (1.0 + excess) * (1.0 + noise(kind, rng, n))


def relevance(shape: str) -> float:
    """The relevance threshold a shape's series are analysed with (the default 5%, or 1%)."""
    return 0.01 if "relevance 1%" in shape else 0.05


def simulate(replicates: int, seed: int) -> tuple[list[dict], list[dict]]:
    est = pr.get("steady-state")
    ind = pr.get("independence")
    rng = np.random.default_rng(seed)
    rows = []
    for shape in SHAPES:
        for kind in NOISES:
            for w in WARMUPS:
                n = N if w > 100 else 1000
                hits = warm = 0
                shaped = est.with_params(relevance=relevance(shape))
                for _ in range(replicates):
                    r = shaped.estimate(warmup_series(shape, w, n, rng, kind))
                    warm += r.classification == "warmup"
                    hits += r.steady_start is not None and abs(r.steady_start - w) <= 0.1 * n
                rows.append({"shape": shape, "noise": kind, "w": w, "n": n, "warmup": warm / replicates,
                             "within": hits / replicates})
    clean = []
    for kind in NOISES:
        for n in (300, 1000, N):
            alarms = trending = 0
            for _ in range(replicates):
                x = 1.0 + noise(kind, rng, n)
                alarms += est.estimate(x).classification != "flat"
                trending += ind.estimate(x).trending
            clean.append({"noise": kind, "n": n, "not flat": alarms / replicates, "trending": trending / replicates})
    return rows, clean


def labelled(directory: Path) -> tuple[list[dict], dict]:
    est = pr.get("steady-state")
    ind = pr.get("independence")
    rows = []
    totals = {"forks": 0, "agree": 0, "steady": 0, "within": 0, "trending": 0, "late": 0, "late_within": 0,
              "never": 0, "never_found": 0}
    for path in sorted((directory / "timeseries").glob("*.json")):
        forks = json.loads(path.read_text())
        label = json.loads((directory / "classification" / path.name).read_text())
        agree = steady = within = trending = 0
        for x, cls, start in zip(forks, label["forks"], label["steady_state_starts"], strict=True):
            x = np.asarray(x, dtype=float)
            r = est.estimate(x)
            ours_steady = r.classification in ("flat", "warmup", "slowdown")
            agree += ours_steady == (cls == "steady state")
            if cls == "steady state":
                steady += 1
                ok = r.steady_start is not None and abs(r.steady_start - start) <= 0.1 * x.size
                within += ok
                trending += ind.estimate(x).trending
                if start >= 200:
                    totals["late"] += 1
                    totals["late_within"] += ok
            else:
                totals["never"] += 1
                totals["never_found"] += not ours_steady
        rows.append({"benchmark": _short(path.stem), "forks": len(forks), "agree": agree, "steady": steady,
                     "within": within, "trending": trending})
        for k in ("agree", "steady", "within", "trending"):
            totals[k] += rows[-1][k]
        totals["forks"] += len(forks)
    return rows, totals


def _short(stem: str) -> str:
    """``system method (parameter values)`` from ``owner__system#package.Class.method#k=v&k=v``."""
    system, _, rest = stem.partition("__")
    signature, _, params = rest.partition("#")[2].partition("#")
    values = ", ".join(kv.partition("=")[2] for kv in params.split("&") if kv)
    return f"{system} {signature.rsplit('.', 2)[-2]}.{signature.rsplit('.', 1)[-1]}" + (f" ({values})" if values else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("simulate", "labelled"))
    ap.add_argument("directory", nargs="?", type=Path)
    ap.add_argument("--replicates", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    start = time.perf_counter()
    if args.mode == "simulate":
        rows, clean = simulate(args.replicates, args.seed)
        print("| warm-up | noise | " + " | ".join(f"w = {w}" for w in WARMUPS) + " |")
        print("|---|---|" + "---:|" * len(WARMUPS))
        for shape in SHAPES:
            for kind in NOISES:
                cells = [r for r in rows if r["shape"] == shape and r["noise"] == kind]
                print(f"| {shape} | {kind} | " + " | ".join(f"{r['within']:.0%}" for r in cells) + " |")
        worst = min(r["within"] for r in rows)
        print(f"\nsteady start within 10% of the length: worst case {worst:.0%}, all cases "
              f"{np.mean([r['within'] for r in rows]):.1%} ({args.replicates} series per cell)\n")
        print("| noise (no warm-up) | n | not flat | independence: trending |")
        print("|---|---:|---:|---:|")
        for c in clean:
            print(f"| {c['noise']} | {c['n']} | {c['not flat']:.1%} | {c['trending']:.1%} |")
    else:
        if args.directory is None:
            ap.error("labelled needs the directory of the labelled data")
        rows, t = labelled(args.directory)
        print("| benchmark | forks | two-class agreement | labelled steady | start within 10% | trending |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['benchmark']} | {r['forks']} | {r['agree']} | {r['steady']} | {r['within']} | "
                  f"{r['trending']} |")
        print(f"| **all** | {t['forks']} | {t['agree'] / t['forks']:.1%} | {t['steady']} | "
              f"{t['within'] / t['steady']:.1%} | {t['trending'] / t['steady']:.1%} |")
        print(f"\nlate starts (labelled >= 200): {t['late_within']} of {t['late']} within 10%; labelled no steady "
              f"state: {t['never_found']} of {t['never']} found")
    print(f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
