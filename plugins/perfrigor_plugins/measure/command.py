"""``perfrigor measure CMD CMD...``: interleaved rounds until the answer is clear (the measure plugin's command).

The options build a ``[measure]`` table (:mod:`.config`; ``--config FILE`` starts from a
file's), the runner measures (:mod:`.runner`), and the report is the analysis pipeline's on
the runs, with the sequential verdict last under ``--until clear``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import attrs
import perfrigor as pr

EXIT_INTERRUPTED = 130
#: options that map to a key of the [measure] table (dest -> key); None values are not given
OPTION_KEYS = ("until", "runs", "min_runs", "max_runs", "max_time", "confidence", "threshold", "prior_scale",
               "warmup", "iterations", "seed", "benchmark", "cwd", "timer")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("commands", nargs="*", metavar="CMD",
                   help="commands to compare, the first the baseline (quote each: 'python old.py')")
    g = p.add_argument_group("running the commands (as hyperfine)")
    g.add_argument("--name", "-n", action="append", default=[], metavar="NAME",
                   help="a command's name in the runs and the report (repeat: one per command)")
    g.add_argument("--setup", "-s", action="append", default=[], metavar="CMD",
                   help="run once before the first run (one for all commands, or one per command)")
    g.add_argument("--prepare", "-p", action="append", default=[], metavar="CMD",
                   help="run before every run, untimed (one for all commands, or one per command)")
    g.add_argument("--warmup", "-w", type=int, metavar="N", help="N untimed rounds first (default 0)")
    g.add_argument("--shell", action="store_true", default=None,
                   help="run the commands through /bin/sh -c (default: split into words and run directly)")
    g.add_argument("--cwd", metavar="DIR", help="working directory of the commands")
    g.add_argument("--iterations", "-k", type=int, metavar="K",
                   help="each run prints K in-process times, lines 'perfrigor-time: VALUE [UNIT]' (levels "
                        "invocation x iteration)")
    g.add_argument("--timer", choices=("wall", "cpu"),
                   help="a run's value: its wall-clock time (default) or the CPU time it used (user + system: "
                        "far less disturbed by other processes on a busy machine)")
    g.add_argument("--ignore-failure", "-i", action="store_true", default=None,
                   help="keep measuring (and keep the runs of) commands that exit with a non-zero code")
    g = p.add_argument_group("when to stop")
    g.add_argument("--until", choices=("clear", "runs"),
                   help="clear: stop when the verdict is decided (faster, slower or same), with its error rate "
                        "kept under optional stopping; runs: a fixed number of rounds (default)")
    g.add_argument("--runs", "-r", type=int, metavar="N", help="rounds of the fixed design (default 10)")
    g.add_argument("--min-runs", type=int, metavar="N", help="--until clear: at least N rounds (default 5)")
    g.add_argument("--max-runs", type=int, metavar="N", help="at most N rounds (default 200)")
    g.add_argument("--max-time", type=float, metavar="SECONDS", help="stop starting rounds after SECONDS")
    g.add_argument("--confidence", type=float, metavar="X", help="level of the verdict (default 0.95)")
    g.add_argument("--threshold", type=float, metavar="X",
                   help="an interval within ±X is 'same' (default: the verdict step's, 0.01)")
    g.add_argument("--prior-scale", type=float, metavar="X", help="width of the rule's mixture (advanced)")
    g.add_argument("--seed", type=int, metavar="N", help="seed of the rounds' random order (default: random, "
                                                          "recorded)")
    g = p.add_argument_group("records and report")
    g.add_argument("-o", "--output", metavar="RUNS.csv",
                   help="write every run to this tidy CSV (or .json) as it goes")
    g.add_argument("--force", action="store_true", default=None, help="replace an existing -o file")
    g.add_argument("--benchmark", metavar="NAME", help="the benchmark's name (default: -o's stem, else 'measure')")
    g.add_argument("--config", "-c", metavar="FILE",
                   help="a measure config (TOML/JSON): a [measure] table, and the analysis pipeline beside it")
    g.add_argument("--pipeline", metavar="NAME", help="analysis preset (default: default)")
    g.add_argument("--candidate", metavar="NAME", help="which command the report compares with the first "
                                                       "(default: the second)")
    g.add_argument("--format", "-f", metavar="FORMAT", help="report format: text (default), markdown, json, html")
    g.add_argument("--report", metavar="FILE", help="write the report to FILE (format from --format or the suffix)")
    g.add_argument("--verbose", "-v", action="store_true", help="show every step's parameters too")
    g.add_argument("--fail-on-regression", nargs="?", const="fail", choices=("fail", "warn"), metavar="=warn",
                   help="exit 1 when the verdict is 'slower'; =warn: say what would have failed, exit 0")
    g.add_argument("--github", action="store_true",
                   help="GitHub Actions: the report to $GITHUB_STEP_SUMMARY, ::error/::warning for a slower/"
                        "unclear verdict, regressions=N to $GITHUB_OUTPUT (docs/ci.md)")


def settings_from(args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, Any] | str | None]:
    """The ``[measure]`` table the options ask for (a config's, overridden), and the analysis."""
    from .config import load_config

    settings: dict[str, Any] = {}
    analysis: dict[str, Any] | str | None = None
    if args.config:
        settings, analysis = load_config(args.config)
    if args.commands:
        if settings.get("commands"):
            raise pr.ConfigError(f"commands given on the command line and in {args.config}: give them in one place")
        settings["commands"] = list(args.commands)
    for key in OPTION_KEYS:
        value = getattr(args, key)
        if value is not None:
            settings[key] = value
    for key in ("shell", "ignore_failure", "force"):
        if getattr(args, key):
            settings[key] = True
    if args.output:
        settings["output"] = args.output
    if args.pipeline:
        if analysis is not None:
            raise pr.ConfigError(f"--pipeline and an analysis in {args.config}: give one")
        analysis = args.pipeline
    return settings, analysis


def _commands(settings: dict[str, Any], args: argparse.Namespace) -> None:
    """--name, --setup and --prepare applied to the command line's commands."""
    from .plan import commands

    if not (args.name or args.setup or args.prepare):
        return
    given = settings.get("commands") or []
    if not all(isinstance(c, str) for c in given) or not args.commands:
        raise pr.ConfigError("--name, --setup and --prepare go with commands on the command line "
                             "(in a config, set them in each [[measure.commands]] table)")
    built = commands(given, args.name, bool(settings.get("shell")), args.setup, args.prepare, settings.get("cwd"))
    settings["commands"] = [{"command": c.command, "name": c.name, "setup": c.setup, "prepare": c.prepare}
                            for c in built]


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return args.format
    if args.report:
        suffix = Path(args.report).suffix.lower()
        known = {".txt": "text", ".md": "markdown", ".markdown": "markdown", ".json": "json", ".html": "html",
                 ".htm": "html"}
        if suffix not in known:
            raise pr.ConfigError(f"--report {args.report}: cannot tell the format from {suffix!r}; give --format")
        return known[suffix]
    return "text"


def run(args: argparse.Namespace, context: pr.CommandContext) -> int:
    from .config import plan_from
    from .runner import measure

    settings, analysis = settings_from(args)
    _commands(settings, args)
    output = settings.pop("output", None)
    force = bool(settings.pop("force", False))
    if output and "benchmark" not in settings:
        settings["benchmark"] = Path(output).stem or "measure"
    if "threshold" not in settings:
        found = _verdict_threshold(analysis)
        if found is not None:
            settings["threshold"] = found
    plan = plan_from(settings, f"{args.config} [measure]" if args.config else "measure")
    pipeline = _analysis(analysis, settings.get("threshold"))
    fmt = _format(args)
    options = {"verbose": True} if args.verbose else {}
    pr.get_registry().renderer(fmt)  # a bad format fails now, not after the measurement
    if args.report:
        target = Path(args.report).resolve()
        if not target.parent.is_dir():
            raise pr.ConfigError(f"--report {args.report}: no such directory {str(target.parent)!r}")
        if output and target == Path(output).resolve():
            raise pr.ConfigError(f"--report {args.report}: is the runs file (-o); give another name")
    if args.candidate and args.candidate not in plan.names[1:]:
        raise pr.ConfigError(f"--candidate {args.candidate!r} is not one of the commands after the first "
                             f"({', '.join(map(repr, plan.names[1:]))})")

    with pr.progress.status("perfrigor measure") as show:
        measurement = measure(plan, output=output, overwrite=force, on_round=lambda p: show(p.line()),
                              on_warning=pr.progress.notice)
    where = f"; runs in {output}" if output else ""
    print(f"perfrigor measure: {measurement.summary()}{where}", file=sys.stderr)
    try:
        report = measurement.report(pipeline, args.candidate)
    except pr.DataError as exc:
        if measurement.stopped != "interrupted":
            raise
        print(f"perfrigor measure: interrupted too early to report: {exc}", file=sys.stderr)
        return EXIT_INTERRUPTED
    text = report.render(fmt, **options)
    if args.report:
        Path(args.report).write_text(text, encoding="utf-8")
        print(f"perfrigor measure: wrote {fmt} report to {args.report}", file=sys.stderr)
    else:
        context.stdout.write(pr.github.guarded(text) if args.github else text)
    if args.github:
        pr.github.publish(report, stream=context.stdout)
    if measurement.stopped == "interrupted":
        return EXIT_INTERRUPTED
    return _gate(report, args.fail_on_regression)


def _gate(report: pr.Report, gate: str | None) -> int:
    """--fail-on-regression as the analysis commands apply it: exit 1 on a 'slower' verdict (=warn: 0)."""
    if not gate:
        return 0
    found = report.regressions()
    for line in found:
        print(f"perfrigor: regression{' (warn only)' if gate == 'warn' else ''}: {line}", file=sys.stderr)
    if found and gate == "warn":
        print(f"perfrigor: --fail-on-regression=warn: {len(found)} regression(s) would have failed this run "
              "(exit 1); exit 0", file=sys.stderr)
        return 0
    return 1 if found else 0


def _verdict_threshold(analysis: dict[str, Any] | str | None) -> float | None:
    """The threshold of the analysis' verdict step (the rule's band is the verdict's), if it has one."""
    for step in _analysis(analysis).steps:
        if step.component.name == "verdict":
            value = step.component.get_params().get("threshold")
            return float(value) if isinstance(value, int | float) else None
    return None


def _analysis(analysis: dict[str, Any] | str | None, threshold: float | None = None) -> pr.Pipeline:
    """The analysis pipeline (a preset's name, a config mapping, or the default preset), its verdict
    step given ``threshold`` when one was asked for."""
    pipeline = pr.Pipeline.from_config(analysis) if isinstance(analysis, dict) else pr.pipeline(analysis or
                                                                                                 "default")
    if threshold is None:
        return pipeline
    steps = [attrs.evolve(step, component=step.component.with_params(threshold=threshold))
             if step.component.name == "verdict" else step for step in pipeline.steps]
    return pr.Pipeline(steps, name=pipeline.name, description=pipeline.description, baseline=pipeline.baseline,
                       candidate=pipeline.candidate, input_options=pipeline.input_options)


MEASURE = pr.Command(
    name="measure", help="run commands in interleaved rounds until the answer is clear (--until clear)",
    description="Runs two or more commands in rounds (each round every command once, in a fresh seeded random "
                "order), records every run as it goes (-o runs.csv), and reports the verdict. With --until "
                "clear it stops when the verdict is decided, its error rate kept under optional stopping "
                "(docs/measure.md).",
    add_arguments=add_arguments, run=run)
