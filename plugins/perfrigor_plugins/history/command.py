"""``perfrigor history DATA...``: changes over a history of commits.

DATA: a tidy table (columns benchmark, commit, optionally order or date, optional levels such as
run or fork, value), or result files one per commit (named by their stems, in name order), or a
directory of them (with a ``manifest.csv`` of ``commit,file`` rows, else in name order);
``--manifest FILE`` names the manifest. Settings come from the options, or from a TOML/JSON
``--config`` whose ``[history]`` table names the ``detector`` and its parameters (and an
``[history.input]`` table the reader's options). Exit code 1 with ``--fail-on-change=slower``
(or ``any``) when such a change is confirmed.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import perfrigor as pr

from .render import FORMATS, render

#: the detector used unless --detector or the config names another
DEFAULT = "change-scan"
SUFFIXES = {".txt": "text", ".md": "markdown", ".json": "json", ".html": "html", ".htm": "html"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", nargs="*", metavar="DATA",
                   help="a tidy table (benchmark, commit, [order|date], [run, fork...], value), or result files "
                        "one per commit, or a directory of them")
    p.add_argument("--manifest", metavar="FILE", help="CSV of commit,file rows: the result files in commit order")
    p.add_argument("--detector", metavar="NAME", help="the detector (default: change-scan; e-divisive for the "
                                                       "anchors' E-divisive)")
    p.add_argument("--config", metavar="FILE", help="TOML/JSON with a [history] table: detector = \"...\" and "
                                                     "its parameters; [history.input]: the reader's options")
    p.add_argument("--fdr", type=float, metavar="X", help="false discovery rate over benchmarks x commits "
                                                          "(change-scan detector; default 0.05)")
    p.add_argument("--confidence", type=float, metavar="X", help="level of the ranges and intervals (default 0.95)")
    p.add_argument("--min-size", type=int, metavar="N", help="commits that must follow a change to confirm it "
                                                             "(change-scan detector; default 3)")
    p.add_argument("--seed", type=int, metavar="N", help="seed of the detector's random draws (default 0)")
    p.add_argument("--jobs", type=int, metavar="N", help="analyse the benchmarks in N processes (the same result)")
    p.add_argument("--commit", metavar="COLUMN", help="the tidy table's commit column (default: 'commit', ...)")
    p.add_argument("--order", metavar="COLUMN", help="the column to order commits by (a number or an ISO date; "
                                                     "default: 'order' or 'date' if present, else as they appear)")
    p.add_argument("--format", "-f", choices=FORMATS, help="output format (default: text, or from -o's suffix)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of the console")
    p.add_argument("--fail-on-change", nargs="?", const="slower", choices=("slower", "any"),
                   help="exit 1 when a change (slower: a regression, the default; any) is confirmed")


def _config(path: str | None) -> dict[str, Any]:
    if path is None:
        return {}
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise pr.ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        if p.suffix.lower() == ".json":
            import json

            doc = json.loads(raw)
        else:
            import tomllib

            doc = tomllib.loads(raw.decode("utf-8"))
    except ValueError as exc:
        raise pr.ConfigError(f"{path}: not valid {'JSON' if p.suffix.lower() == '.json' else 'TOML'}: {exc}") from None
    table = doc.get("history", {}) if isinstance(doc, dict) else None
    if not isinstance(table, dict):
        raise pr.ConfigError(f"{path}: [history] must be a table (detector = \"...\" and its parameters)")
    return dict(table)


def detector_from(args: argparse.Namespace) -> tuple[pr.Detector, dict[str, Any]]:
    """The detector the options and the config ask for, and the reader's options from the config."""
    table = _config(args.config)
    reader = table.pop("input", {})
    if not isinstance(reader, dict):
        raise pr.ConfigError(f"{args.config}: [history.input] must be a table of reader options")
    name = args.detector or table.pop("detector", DEFAULT)
    table.pop("detector", None)
    for option, param in (("fdr", "fdr"), ("confidence", "confidence"), ("min_size", "min_size"),
                          ("seed", "random_state")):
        value = getattr(args, option)
        if value is not None:
            table[param] = value
    detector = pr.get(name, **table)
    if not isinstance(detector, pr.Detector):
        raise pr.ConfigError(f"{name!r} is a {detector.kind}, not a detector; detectors: "
                             + ", ".join(n for n, k in pr.components().items() if k == "detector"))
    return detector, reader


def read(args: argparse.Namespace, context: pr.CommandContext, reader: dict[str, Any]) -> pr.History:
    options = {**reader, **{k: v for k, v in context.reader_options.items()}}
    if args.commit:
        options["commit"] = args.commit
    if args.order:
        options["order"] = args.order
    if not args.data and not args.manifest:
        raise pr.ConfigError("perfrigor history: give the data (a tidy table, result files or a directory) or "
                             "--manifest")
    return pr.History.read(*args.data, manifest=args.manifest, **options)


def _detect(detector: pr.Detector, history: pr.History, jobs: int | None) -> Any:
    if jobs is not None and jobs < 1:
        raise pr.ConfigError(f"--jobs {jobs}: give a number of processes >= 1")
    import concurrent.futures as cf
    import inspect

    if not jobs or jobs == 1 or "executor" not in inspect.signature(detector.detect).parameters:
        return detector.detect(history)

    with cf.ProcessPoolExecutor(jobs) as pool:
        return detector.detect(history, executor=pool)


def run(args: argparse.Namespace, context: pr.CommandContext) -> int:
    fmt = args.format or (SUFFIXES.get(Path(args.output).suffix.lower()) if args.output else None) or "text"
    detector, reader = detector_from(args)
    history = read(args, context, reader)
    result = _detect(detector, history, args.jobs)
    out = render(result, fmt, history.source)
    if args.output:
        target = Path(args.output)
        if target.is_dir():
            raise pr.ConfigError(f"-o {args.output}: is a directory; give a file name")
        try:
            target.write_text(out, encoding="utf-8")
        except OSError as exc:
            raise pr.ConfigError(f"-o {args.output}: cannot write: {exc.strerror or exc}") from None
    else:
        context.stdout.write(out)
    if args.fail_on_change:
        hit = [c for c in result.changes if args.fail_on_change == "any" or c.outcome == "slower"]
        return 1 if hit else 0
    return 0


HISTORY = pr.Command(name="history", help="changes over a history of commits (change points, FDR-controlled)",
                     description=__doc__.split("\n\n")[1].replace("\n", " "), add_arguments=add_arguments, run=run,
                     input_options=True)
