"""``perfrigor plan DATA --costs ...``: repetitions per level from a pilot experiment (Kalibera & Jones).

Contributed to the command line through the ``perfrigor_commands`` hook: the
core knows nothing of experiment planning.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import perfrigor as pr


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", metavar="DATA", help="a pilot experiment (hierarchical measurements)")
    p.add_argument("--costs", required=True, metavar="C1,C2,...",
                   help="cost of one repetition at each level, lowest level first, e.g. 10,200")
    p.add_argument("--budget", type=float, metavar="TIME",
                   help="time available for the experiment, in the data's unit (e.g. seconds); converted to "
                        "measurements with the pilot's mean measurement time unless --measurement-time is given")
    p.add_argument("--measurement-time", type=float, metavar="TIME",
                   help="time of one lowest-level measurement, in the budget's unit")
    p.add_argument("--target-half-width", type=float, metavar="X",
                   help="wanted half-width of the interval as a fraction of the mean (0.02: ±2%%)")
    p.add_argument("--confidence", type=float, metavar="X")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")


def params_from(args: argparse.Namespace) -> dict[str, Any]:
    """The ``experiment-plan`` parameters the options ask for (ConfigError on a bad option)."""
    try:
        costs = [float(c) for c in args.costs.split(",") if c.strip()]
    except ValueError:
        raise pr.ConfigError(f"--costs {args.costs!r}: expected numbers separated by commas, e.g. 10,200") from None
    if not costs:
        raise pr.ConfigError("--costs: give one cost per level, lowest level first, e.g. 10,200")
    params: dict[str, Any] = {"costs": costs}
    if args.budget is not None:
        params["budget"] = args.budget
        params["measurement_time"] = args.measurement_time if args.measurement_time is not None else "mean"
    elif args.measurement_time is not None:
        raise pr.ConfigError("--measurement-time only makes sense with --budget")
    if args.target_half_width is not None:
        params["target_half_width"] = args.target_half_width
    if args.confidence is not None:
        params["confidence"] = args.confidence
    return params


def run(args: argparse.Namespace, context: pr.CommandContext) -> int:
    component = pr.get("experiment-plan", **params_from(args))
    data = context.read(args.data)
    targets = ([(None, None, data)] if isinstance(data, pr.Sample) else
               [(b, s, sample) for b, systems in data.data.items() for s, sample in systems.items()])
    results = [(b, s, component.estimate(sample)) for b, s, sample in targets]
    if args.format == "json":
        doc = [{"benchmark": b, "system": s, **r.to_dict()} for b, s, r in results]
        context.stdout.write(json.dumps(doc[0] if len(doc) == 1 else doc, indent=2, allow_nan=False) + "\n")
        return 0
    out = []
    for b, s, r in results:
        if b is not None:
            out.append(("\n" if out else "") + f"{b} / {s}:")
        out.append(r.text or r.describe())
        out += [f"warning: {w}" for w in r.warnings]
    context.stdout.write("\n".join(out).rstrip() + "\n")
    return 0


PLAN = pr.Command(name="plan", help="how many repetitions per level, from costs (Kalibera & Jones)",
                  add_arguments=add_arguments, run=run, input_options=True)
