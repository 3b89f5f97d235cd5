"""Calibration of ``perfrigor measure --until clear``: the tables of docs/methods/measure.md.

    python benchmarks/measure_calibration.py [--sessions 10000] [--verdict-sessions 100] [--seed 0]

Simulated sessions (``perfrigor_plugins.measure.simulation.SessionNoise``) replayed through the
stopping rule (``calibration.replay``: the arithmetic the runner uses live), printed as markdown:

1. A/A false alarms under the rule, beside stopping at the first significant paired t-test and a
   fixed design of 200 rounds, per noise model (at most 200 rounds, at least 5);
2. rounds to a decision for 1%, 2%, 5% changes at 1-3% noise (at most 1000 rounds), against the
   rounds a fixed design needs for the same power (non-central t);
3. the mixture's width (``prior_scale``): mean rounds to a decision over the same grid;
4. under drift: interleaved rounds against one command after the other, at 30 rounds, with
   Welch's t, the paired t, the rule, and perfrigor's verdict on the unpaired runs (what
   ``perfrigor run`` on the runs file, or on a file of one-after-the-other runs, gives).

Single process; about 5 minutes on a quiet machine, most of it the verdict's column.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import perfrigor as pr
from perfrigor_plugins.measure import calibration as cal
from perfrigor_plugins.measure import sequential as seq
from perfrigor_plugins.measure.simulation import SessionNoise

AA_MODELS = {
    "log-normal noise 1%": SessionNoise(cv=0.01),
    "log-normal noise 3%": SessionNoise(cv=0.03),
    "noise 2% + slow wander 3% (AR(1), 0.98 per run)": SessionNoise(cv=0.02, wander=0.03),
    "noise 2% + drift +10% over 400 runs": SessionNoise(cv=0.02, drift=0.10),
    "noise 2% + 5% of runs 1.5-3x slower": SessionNoise(cv=0.02, outliers=0.05),
    "noise 2% + first run of a round 3% slower": SessionNoise(cv=0.02, first_penalty=0.03),
}
DRIFT_MODELS = {
    "none (noise 2%)": SessionNoise(cv=0.02),
    "drift +5% over the session": SessionNoise(cv=0.02, drift=0.05, span=60),
    "slow wander 3%": SessionNoise(cv=0.02, wander=0.03),
}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def aa_table(sessions: int, seed: int) -> list[str]:
    out = ["| noise model | rule: false alarms | rule: 'same' | rule: mean rounds | first significance | "
           "fixed 200 rounds |", "|---|---|---|---|---|---|"]
    for name, noise in AA_MODELS.items():
        rule = cal.replay(noise, 1.0, sessions, 200, cal.sequential_rule(), seed)
        naive = cal.replay(noise, 1.0, sessions, 200, cal.naive_rule(), seed)
        fixed = cal.replay(noise, 1.0, sessions, 200, cal.fixed_rule(), seed)
        out.append(f"| {name} | {pct(rule.changed)} ± {pct(rule.error)} | {pct(rule.same)} | "
                   f"{rule.mean_rounds:.0f} | {pct(naive.changed)} | {pct(fixed.changed)} |")
    return out


def rounds_table(sessions: int, seed: int) -> list[str]:
    out = ["| noise | change | rule: mean (median) rounds | decided right | wrong way | unclear at 1000 | "
           "fixed design, same power | mean / fixed | fixed design, 80% power |",
           "|---|---|---|---|---|---|---|---|---|"]
    for cv in (0.01, 0.02, 0.03):
        noise = SessionNoise(cv=cv)
        sd = cal.pair_sd(noise)
        for change in (0.01, 0.02, 0.05):
            s = cal.replay(noise, 1 + change, sessions, 1000, cal.sequential_rule(), seed)
            power = min(s.faster, 0.999)
            fixed = cal.fixed_rounds_for_power(sd, math.log1p(change), power)
            ratio = f"{s.mean_rounds / fixed:.2f}" if fixed else "-"
            usual = cal.fixed_rounds_for_power(sd, math.log1p(change), 0.8)
            out.append(f"| {pct(cv)} | {pct(change)} | {s.mean_rounds:.0f} ({s.median_rounds:.0f}) | "
                       f"{pct(s.faster)} | {pct(s.slower)} | {pct(s.unclear)} | {fixed} | {ratio} | {usual} |")
    return out


def scale_table(sessions: int, seed: int) -> list[str]:
    cells = [(cv, change) for cv in (0.01, 0.02, 0.03) for change in (0.01, 0.02, 0.05)]
    head = " | ".join(f"{pct(cv)}, {pct(ch)}" for cv, ch in cells)
    out = [f"| prior_scale | {head} | total |", "|---" * (len(cells) + 2) + "|"]
    for scale in (0.25, 0.5, 1.0, 2.0):
        means = [cal.replay(SessionNoise(cv=cv), 1 + ch, sessions, 1000,
                            cal.sequential_rule(prior_scale=scale), seed).mean_rounds for cv, ch in cells]
        out.append(f"| {scale:g}{' (default)' if scale == seq.PRIOR_SCALE else ''} | "
                   + " | ".join(f"{m:.0f}" for m in means) + f" | {sum(means):.0f} |")
    return out


def verdict_rates(noise: SessionNoise, speedup: float, sessions: int, interleaved: bool, seed: int) -> float:
    """Share of sessions whose verdict (on the unpaired runs) is "faster" or "slower"."""
    verdict = pr.get("verdict")
    a, b = noise.sessions(sessions, 30, speedup, interleaved, seed)
    hits = [verdict.compare(x, y).outcome in ("faster", "slower") for x, y in zip(a, b, strict=True)]
    return float(np.mean(hits))


def drift_table(sessions: int, verdict_sessions: int, seed: int) -> list[str]:
    out = ["| drift | change | one after the other: Welch | one after the other: verdict | interleaved: Welch | "
           "interleaved: verdict | interleaved: paired t | interleaved: rule |", "|---|---|---|---|---|---|---|---|"]
    for name, noise in DRIFT_MODELS.items():
        for speedup in (1.0, 1.02):
            r = cal.drift_rates(noise, 30, sessions, speedup, random_state=seed)
            v_seq = verdict_rates(noise, speedup, verdict_sessions, False, seed)
            v_int = verdict_rates(noise, speedup, verdict_sessions, True, seed)
            what = "none (A/A)" if speedup == 1.0 else "2% faster"
            out.append(f"| {name} | {what} | {pct(r['one-after-the-other, Welch'])} | {pct(v_seq)} | "
                       f"{pct(r['interleaved, Welch'])} | {pct(v_int)} | {pct(r['interleaved, paired t'])} | "
                       f"{pct(r['interleaved, sequential'])} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10000)
    parser.add_argument("--verdict-sessions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for title, make in (("A/A false alarms (at most 200 rounds)", lambda: aa_table(args.sessions, args.seed)),
                        ("Rounds to a decision", lambda: rounds_table(args.sessions // 2, args.seed)),
                        ("The mixture's width", lambda: scale_table(args.sessions // 10, args.seed)),
                        ("Under drift, 30 rounds",
                         lambda: drift_table(args.sessions // 2, args.verdict_sessions, args.seed))):
        start = time.perf_counter()
        lines = make()
        print(f"### {title}\n\n" + "\n".join(lines) + f"\n\n({time.perf_counter() - start:.0f} s)\n", flush=True)


if __name__ == "__main__":
    main()
