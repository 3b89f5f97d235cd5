"""The ``perfrigor`` command: argparse front end, the only place that prints or exits.

Commands: ``list``, ``compare``, ``run``, ``describe``, ``demo``, and those
plugins add (hook ``perfrigor_commands``; see docs/cli.md). Exit codes: 0 done; 1 the analysis ran but a requested
check failed (``--fail-on-regression``); 2 bad input or usage (a one-line
``perfrigor: error: ...`` on stderr, no traceback); 3 an internal error (a bug:
one line too, ``--debug`` shows the traceback).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import inspect
import json
import os
import re
import signal
import sys
import threading
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import examples, github, opened, progress
from .commands import Command, CommandContext
from .config import PipelineSpec, parse_config
from .data import Sample, Suite
from .errors import ConfigError, PerfrigorError, did_you_mean
from .executors import Watched, cpu_count, dask_client, process_pool, stop_pool
from .inputs import as_suite, data_files
from .output import write_atomically
from .params import ParamInfo
from .pipelines import Pipeline, Step
from .readers import read
from .records import StepSkip
from .registry import get_registry
from .report import Report, StepInfo, check_render_options, judge, load_report
from .results import to_jsonable
from .textsafe import terminal_safe

EXIT_OK, EXIT_CHECK_FAILED, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
#: --fail-on-regression's modes: exit 1 on a regression, or only report what would have failed
GATE_FAIL, GATE_WARN = "fail", "warn"
#: the shell's codes for a run stopped by SIGINT (Ctrl-C) and by SIGTERM: 128 + the signal
EXIT_INTERRUPTED, EXIT_TERMINATED = 128 + signal.SIGINT, 128 + signal.SIGTERM
DEFAULT_PRESET = "default"
#: the picture formats ``describe --plot`` writes
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


class UsageError(PerfrigorError):
    """Wrong use of the command line (exit 2)."""


class Terminated(BaseException):
    """SIGTERM (a CI job cancelled, ``kill``): raised in the main thread so that the run stops its
    worker processes on the way out, as on Ctrl-C (a BaseException: no ``except Exception`` keeps it)."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated


@contextlib.contextmanager
def _stoppable() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` while the command runs (in the main thread; the
    previous handler is put back after), so workers are stopped, never left behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class _Parser(argparse.ArgumentParser):
    """argparse, with errors as one line naming the command (no usage dump)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        # a bare --fail-on-regression is --fail-on-regression=fail: its optional value (=warn) is
        # then never taken from the next word, which may be a file (--fail-on-regression old.txt)
        if args is not None:
            args = list(args)
            end = args.index("--") if "--" in args else len(args)
            args[:end] = [f"{a}={GATE_FAIL}" if a == "--fail-on-regression" else a for a in args[:end]]
        return super().parse_known_args(args, namespace)


class _Version(argparse.Action):
    """``--version``: the installed version, read only when asked (reading metadata slows every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS, help: str = "show the version and exit") -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        _print_version()
        parser.exit()


def _print_version() -> None:
    from . import __version__

    sys.stdout.write(f"perfrigor {__version__}\n")  # on stdout, as argparse's own version action


# ---------------------------------------------------------------- parser


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", "-f", metavar="FORMAT",
                   help="output format: text (default), markdown, json, html, or a plugin's")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write the report to FILE (format from --format, else from the suffix); -o -: to "
                        "standard output")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="show every step's parameters too (text, markdown, html)")
    p.add_argument("--max-plots", type=int, metavar="N",
                   help="html: draw plots for at most N benchmarks, changed and unclear first (default 60)")
    p.add_argument("--max-chars", type=int, metavar="N",
                   help="markdown: at most N characters, what matters first (default 60000, a GitHub comment; "
                        "0: no limit)")


def _add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("--input-format", metavar="NAME", help="reader to use instead of guessing (see 'perfrigor list')")
    p.add_argument("--metric", metavar="NAME",
                   help="which metric of a file with several: cpu_time (Google Benchmark), B/op or allocs/op (Go), "
                        "a secondary metric (JMH); same as --input metric=NAME")
    p.add_argument("--input", action="append", default=[], metavar="KEY=VALUE",
                   help="reader option, value in TOML syntax, e.g. --input value=time_ms "
                        "--input 'levels=[\"invocation\",\"iteration\"]' (repeatable)")
    p.add_argument("--max-input-size", metavar="SIZE",
                   help="refuse an input larger than SIZE, on disk or gunzipped (default 1G; 500M, 4G, 'none'); "
                        "gzip data unpacking to over 100 times its size is refused too")


def _add_analysis(p: argparse.ArgumentParser, pipeline_choice: bool = True) -> None:
    if pipeline_choice:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--pipeline", "-p", metavar="NAME", help=f"preset to run (default: {DEFAULT_PRESET})")
        g.add_argument("--config", "-c", metavar="FILE", help="pipeline config (TOML or JSON)")
    p.add_argument("--confidence", type=float, metavar="X", help="set 'confidence' on every step that has it")
    p.add_argument("--param", action="append", default=[], metavar="STEP.KEY=VALUE",
                   help="set a step's parameter (STEP: step id or component name; VALUE in TOML syntax)")
    p.add_argument("--seed", type=int, metavar="N", help="set 'random_state' on every step that has it")
    p.add_argument("--jobs", "-j", type=int, metavar="N", help="run per-benchmark steps on N processes")
    p.add_argument("--dask", metavar="ADDRESS", help="run per-benchmark steps on a dask.distributed scheduler")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="give up (exit 2) when a task of benchmarks takes longer (without --jobs or --dask: "
                        "the tasks run in one worker process, which can be stopped)")
    p.add_argument("--baseline", dest="baseline_system", metavar="SYSTEM",
                   help="which system of the data is the baseline (default: the first)")
    p.add_argument("--candidate", dest="candidate_system", metavar="SYSTEM",
                   help="which system of the data is the candidate (default: the second)")
    p.add_argument("--fail-on-regression", nargs="?", type=_gate, metavar="=warn",
                   help="exit 1 when a benchmark's verdict is 'slower'; =warn: say what would have failed, "
                        "exit 0 (see docs/cli.md)")
    if pipeline_choice:  # the commands that give verdicts
        p.add_argument("--github", action="store_true",
                       help="GitHub Actions: the report to $GITHUB_STEP_SUMMARY, ::error/::warning for slower/"
                            "unclear benchmarks, regressions=N to $GITHUB_OUTPUT (see docs/ci.md)")
        p.add_argument("--only-changed", action="store_true",
                       help="print (or write) no report when every verdict is 'same' (for a comment only when "
                            "something changed)")
    _add_input(p)
    _add_output(p)
    if pipeline_choice:
        p.add_argument("--full-report", metavar="FILE",
                       help="also write the whole report to FILE (format from its suffix: .html, .json, .md...); "
                            "a shortened Markdown report points to it")


def _gate(value: str) -> str:
    if value not in (GATE_FAIL, GATE_WARN):
        raise argparse.ArgumentTypeError(f"{value!r}: give --fail-on-regression, or --fail-on-regression=warn "
                                         "to report what would fail and exit 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="perfrigor", description="Is a performance change real, and how big is it?",
                     epilog="Exit codes: 0 done, 1 a requested check failed, 2 bad input or usage.")
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("list", help="components, presets, input and output formats (NAME: one of them in full)")
    p.add_argument("name", nargs="?", metavar="NAME",
                   help="a component (its parameters with defaults, ranges and help), preset, format or command")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text")

    p = sub.add_parser("compare", help="compare a baseline with a candidate",
                       description="perfrigor compare BASELINE CANDIDATE  or  perfrigor compare FILE (a file holding "
                                   "both systems, e.g. what perfrigor measure writes)")
    p.add_argument("baseline", metavar="BASELINE", help="measurements of the baseline (any input format)")
    p.add_argument("candidate", metavar="CANDIDATE", nargs="?",
                   help="measurements of the candidate; omitted: BASELINE holds both systems")
    _add_analysis(p)

    p = sub.add_parser("run", help="run a pipeline config (or a preset) on data",
                       description="perfrigor run CONFIG [DATA...]  or  perfrigor run --pipeline NAME DATA...")
    p.add_argument("files", nargs="*", metavar="CONFIG|DATA")
    _add_analysis(p)
    _add_shorthands(p)

    p = sub.add_parser("describe", help="describe each system's measurements (summary, mixture, CI, variance)")
    p.add_argument("data", metavar="DATA")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw each system's measurements with what the results add (fitted densities, modes, "
                        "intervals); .png, .svg or .pdf; several systems: FILE-BENCHMARK-SYSTEM.png")
    _add_analysis(p, pipeline_choice=False)

    p = sub.add_parser("render", help="render a saved JSON report (-o report.json) in another format",
                       description="perfrigor render REPORT.json --format html|markdown|text: the report as it was "
                                   "rendered when it was made; needs no plugin")
    p.add_argument("report", metavar="REPORT.json", help="a report saved with --format json (or -o FILE.json)")
    _add_output(p)

    p = sub.add_parser("demo", help=f"run the {DEFAULT_PRESET!r} preset on bundled example data")
    p.add_argument("example", nargs="?", default="two-versions",
                   help="bundled data set (default: two-versions)")
    p.add_argument("--copy", metavar="DIR",
                   help="write the bundled examples into DIR under the README tour's names (old.txt, new.txt, "
                        "bench.cfg, suite.csv, ...) and stop; the tour starts there")
    _add_analysis(p)
    for rec in get_registry().commands.values():
        if rec.name in COMMANDS:
            raise ConfigError(f"plugin {rec.plugin}: command {rec.name!r} is a built-in command of perfrigor")
        command: Command = rec.obj
        p = sub.add_parser(command.name, help=_literal(command.help), description=command.description)
        if command.add_arguments is not None:
            command.add_arguments(p)
        if command.input_options:
            _add_input(p)
    for p in sub.choices.values():  # after the command too: the crash message says "rerun with --debug"
        if "--debug" not in p._option_string_actions:
            p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                           help="show tracebacks of internal errors")
    return parser


def _add_shorthands(p: argparse.ArgumentParser) -> None:
    """``--NAME`` for every parameter a registered component offers as a shorthand (its ``shorthands``)."""
    taken = {opt for action in p._actions for opt in action.option_strings}
    owners: dict[str, list[str]] = {}
    infos: dict[str, ParamInfo] = {}
    for rec in get_registry().components.values():
        if not rec.shorthands:
            continue  # known without importing the component
        params = {info.name: info for info in rec.obj.param_info()}
        for name in rec.shorthands:
            if name in params:
                owners.setdefault(name, []).append(rec.name)
                infos.setdefault(name, params[name])
    for name, comps in owners.items():
        flag = "--" + name.replace("_", "-")
        if flag in taken:
            continue
        info = infos[name]
        kind = {"float": float, "int": int}.get(info.type or "", toml_value)
        what = f"shorthand for --param STEP.{name}=VALUE on every step that has it ({', '.join(sorted(comps))})"
        p.add_argument(flag, dest=f"shorthand_{name}", type=kind, choices=info.choices,
                       metavar=None if info.choices else name.upper(),
                       help=f"{what}: {_literal(info.help)}" if info.help else what)


def _literal(text: str | None) -> str | None:
    """A plugin's help text as argparse shows it literally (it %-formats help: "5%" ended --help in a crash)."""
    return None if text is None else text.replace("%", "%%")


# ---------------------------------------------------------------- helpers


def toml_value(text: str) -> Any:
    """A command-line value in TOML syntax (numbers, booleans, arrays, strings); bare words are strings."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _key_value(item: str, option: str) -> tuple[str, Any]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"{option} {item!r}: expected KEY=VALUE")
    return key.strip(), toml_value(value.strip())


def _reader_options(args: argparse.Namespace, base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    options = dict(base or {})
    options.update(_key_value(item, "--input") for item in args.input)
    if args.input_format:
        options["format"] = args.input_format
    if getattr(args, "metric", None):
        options["metric"] = args.metric
    if getattr(args, "max_input_size", None) is not None:
        options["max_input_size"] = args.max_input_size
    return options


def _read(path: str, options: Mapping[str, Any]) -> Sample | Suite:
    opts = dict(options)
    return read(path, opts.pop("format", None), **opts)


def load_inputs(paths: Sequence[str], options: Mapping[str, Any]) -> list[Any]:
    """Read data files into what ``Pipeline.run`` takes: one Suite, by the one input path
    (:func:`perfrigor.inputs.as_suite`) that ``Pipeline.run`` and the examples use too."""
    return [as_suite(*paths, options=options)]


def _step_params(pipeline: Pipeline, args: argparse.Namespace, extra: Mapping[str, Any] | None = None) -> Pipeline:
    """The pipeline with --confidence, --seed, --param and shorthand overrides applied."""
    overrides: dict[str, dict[str, Any]] = {s.id: {} for s in pipeline.steps}
    by_component: dict[str, list[str]] = {}
    for s in pipeline.steps:
        by_component.setdefault(s.component.name, []).append(s.id)

    def everywhere(key: str, value: Any, option: str, required: bool = True) -> None:
        hit = [s.id for s in pipeline.steps if key in s.component.param_names()]
        if not hit and required:
            raise UsageError(f"{option}: no step of pipeline {pipeline.name!r} has a parameter {key!r} "
                             f"(steps: {', '.join(s.id for s in pipeline.steps)})")
        for sid in hit:
            overrides[sid][key] = value

    if getattr(args, "confidence", None) is not None:
        everywhere("confidence", args.confidence, "--confidence")
    if getattr(args, "seed", None) is not None:
        everywhere("random_state", args.seed, "--seed", required=False)
    for key, (value, option) in (extra or {}).items():
        everywhere(key, value, option)
    for item in getattr(args, "param", []) or []:
        target, value = _key_value(item, "--param")
        step, dot, key = target.rpartition(".")
        if not dot or not step:
            raise UsageError(f"--param {item!r}: expected STEP.KEY=VALUE")
        ids = [step] if step in overrides else by_component.get(step, [])
        if not ids:
            raise UsageError(f"--param {item!r}: no step {step!r} in pipeline {pipeline.name!r}"
                             f"{did_you_mean(step, dict.fromkeys([*overrides, *by_component]))} "
                             f"(steps: {', '.join(overrides)})")
        for sid in ids:
            overrides[sid][key] = value
    if not any(overrides.values()):
        return pipeline
    steps = [Step(_with_params(s, overrides[s.id]) if overrides[s.id] else s.component, s.id)
             for s in pipeline.steps]
    return Pipeline(steps, name=pipeline.name, description=pipeline.description, baseline=pipeline.baseline,
                    candidate=pipeline.candidate, input_options=pipeline.input_options)


def _with_params(step: Step, params: Mapping[str, Any]) -> Any:
    """The step's component with command-line parameters; a ConfigError names the step."""
    try:
        return step.component.with_params(**params)
    except ConfigError as exc:
        raise ConfigError(f"step {step.id!r}: {exc}" if step.id != step.component.name else str(exc)) from None


def _pipeline_spec(args: argparse.Namespace, config: str | None = None) -> PipelineSpec:
    """The chosen pipeline as a parsed config, merged with its preset (not built yet).

    Data are read before the pipeline is built, so a bad data file is reported
    as such even when a component of the pipeline is missing.
    """
    config = config or getattr(args, "config", None)
    if config:
        spec = parse_config(config)
        _output_config(args, spec.output)
        return spec
    name = getattr(args, "pipeline", None) or DEFAULT_PRESET
    registry = get_registry()
    if name not in registry.presets:
        known = ", ".join(sorted(registry.presets)) or "none"
        raise ConfigError(f"no pipeline preset {name!r} is registered{did_you_mean(name, registry.presets)} "
                          f"(known: {known}); "
                          "give --pipeline NAME or --config FILE")
    return parse_config(registry.preset(name), f"preset {name!r}")


def _output_config(args: argparse.Namespace, output: Mapping[str, Any]) -> None:
    """The config's [output] (format, gates, GitHub), where the command line did not say otherwise."""
    for key, value in output.items():
        if key == "fail_on_regression":
            value = GATE_WARN if value == GATE_WARN else GATE_FAIL if value else None
        if getattr(args, key, None) in (None, False):
            setattr(args, key, value)


def _build_pipeline(args: argparse.Namespace, spec: PipelineSpec) -> Pipeline:
    pipeline = Pipeline.from_spec(spec)
    if getattr(args, "baseline_system", None):
        pipeline.baseline = args.baseline_system
    if getattr(args, "candidate_system", None):
        pipeline.candidate = args.candidate_system
    return pipeline


@contextlib.contextmanager
def _executor(args: argparse.Namespace, benchmarks: int) -> Iterator[cf.Executor | None]:
    """The executor of --jobs (a process pool, at most one worker per CPU and per benchmark) or --dask."""
    jobs, dask = getattr(args, "jobs", None), getattr(args, "dask", None)
    if jobs is not None and dask:
        raise UsageError("give --jobs or --dask, not both")
    if dask:
        try:
            import distributed  # noqa: F401 - dask_client needs it: say so before connecting
        except ImportError:
            raise UsageError("--dask needs the 'distributed' package (pip install 'perfrigor[dask]')") from None
        try:
            client = dask_client(dask, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--dask {dask}: cannot connect to the scheduler: {exc}") from None
        watched = Watched(client.get_executor(), lambda: len(client.scheduler_info().get("workers", {})),
                          what=f"--dask {dask}")
        try:
            yield watched
        finally:
            watched.shutdown(wait=False)
            client.close()
        return
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    used = min(jobs or 1, cpu_count(), benchmarks)
    if jobs is not None and used < jobs:  # more workers than CPUs or benchmarks would only wait
        print(f"perfrigor: note: --jobs {jobs}: using {used} process{'es' if used > 1 else ''} ({cpu_count()} "
              f"CPU(s), {benchmarks} benchmark(s))", file=sys.stderr)
    if used == 1:  # (with --timeout, Pipeline.run runs the tasks in one worker process, which can be stopped)
        yield None
        return
    pool = process_pool(used)
    try:
        yield pool
    except BaseException:
        stop_pool(pool)  # a timeout or an interrupt: do not wait for the stuck tasks
        raise
    pool.shutdown()


def _timeout(args: argparse.Namespace) -> float | None:
    """--timeout in seconds, None for none (one beyond any wait, 1e308 or inf, is none too: the scheduler)."""
    timeout = getattr(args, "timeout", None)
    if timeout is not None and not timeout > 0:
        raise UsageError(f"--timeout {timeout}: give a number of seconds > 0")
    return timeout


#: what --fail-on-regression fails on (kept under its earlier name): :meth:`Report.regressions`
regressions = Report.regressions


def _emit(text: str, args: argparse.Namespace, fmt: str, stdout) -> None:
    output = _output(args)
    # a plugin renderer's too: no control sequence or bidirectional override from a name reaches a terminal,
    # and a lone surrogate from a JSON name (which UTF-8 cannot write) is shown escaped
    text = terminal_safe(text)
    if output:
        try:
            write_atomically(Path(output).resolve(), text)
        except OSError as exc:
            raise UsageError(f"-o {output}: cannot write: {exc.strerror or exc}") from None
        print(f"perfrigor: wrote {fmt} report to {output}", file=sys.stderr)
    else:
        stdout.write(text)


def _input_paths(args: argparse.Namespace) -> list[str]:
    """Every file the command reads: those named on the command line (data, config, a saved report), and
    every file opened since the command started (a .cfg's samples, a criterion folder's files; see
    perfrigor.opened)."""
    paths = [getattr(args, name, None) for name in ("baseline", "candidate", "data", "config", "report")]
    if getattr(args, "example", None) in examples.names():  # demo: the bundled files it reads
        paths += data_files(examples.path(args.example))
    named = [str(p) for p in [*paths, *(getattr(args, "files", None) or [])] if p]
    return named + sorted(getattr(args, "opened", None) or ())


def _output(args: argparse.Namespace) -> str | None:
    """The file ``-o`` names; None for standard output (no ``-o``, or ``-o -``)."""
    output = getattr(args, "output", None)
    return None if output == "-" else output


def _check_output(args: argparse.Namespace) -> None:
    """Refuse a bad ``-o`` target before the analysis, not after it (see :func:`_check_target`)."""
    if getattr(args, "output", None) == "":  # e.g. -o "$UNSET": not standard output in silence
        raise UsageError("-o '': give a file name, or -o - for standard output")
    output = _output(args)
    if output:
        _check_target("-o", output, _input_paths(args), "the report")


def _check_target(option: str, given: str, inputs: Sequence[str], what: str) -> None:
    """A file the command will write: refuse, before any work, a missing or read-only folder,
    a directory, or one of the command's own input files (symlinks resolved)."""
    if os.path.exists(given) and not os.path.isdir(given) and not os.path.isfile(given):  # /dev/stdout, a pipe
        stdout_hint = "; for standard output leave out -o or give -o -" if option == "-o" else ""
        raise UsageError(f"{option} {given}: not a regular file (a device, pipe or socket), which cannot be "
                         f"replaced atomically; give a file name{stdout_hint}")
    target = Path(given).resolve()
    if not target.parent.is_dir():
        raise UsageError(f"{option} {given}: cannot write: no such directory {str(Path(given).parent)!r}")
    longest = _name_max(target.parent)
    if longest is not None and len(os.fsencode(target.name)) > longest:
        raise UsageError(f"{option} {given}: cannot write: the file name is {len(os.fsencode(target.name))} bytes "
                         f"long, more than the {longest} its folder's file system allows")
    if target.is_dir():
        raise UsageError(f"{option} {given}: is a directory; give a file name")
    if target.exists() and not target.is_file():
        raise UsageError(f"{option} {given}: not a regular file; give a file name")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {given}: cannot write: the folder {str(target.parent)!r} is not writable")
    if target.exists() and not os.access(target, os.W_OK):
        raise UsageError(f"{option} {given}: cannot write: the file is read-only")
    read = opened.same_file(target, inputs)  # through symbolic or hard links too
    if read is not None:
        raise UsageError(f"{option} {given}: is the input file {read}; {what} would replace it")


def _name_max(folder: Path) -> int | None:
    """The longest file name (bytes) the file system of ``folder`` allows; None where the system does not say."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (AttributeError, OSError, ValueError):
        return None


def _render_options(args: argparse.Namespace, fmt: str) -> dict[str, Any]:
    """The renderer options the command line asked for (checked against the renderer before the work)."""
    options: dict[str, Any] = {}
    if getattr(args, "verbose", False):
        options["verbose"] = True
    if getattr(args, "max_plots", None) is not None:
        if args.max_plots < 0:
            raise UsageError(f"--max-plots {args.max_plots}: give a number >= 0")
        options["max_plots"] = args.max_plots
    comment = _comment_options(args)  # for a Markdown report, or the --github summary
    if comment and _takes(fmt, comment):
        options.update(comment)
    elif "max_chars" in comment and not getattr(args, "github", False):
        raise UsageError(f"--max-chars: the {fmt} format has no size limit (it is markdown's, and --github's summary's)")
    if options:
        try:
            check_render_options(get_registry().renderer(fmt), fmt, options)
        except ConfigError as exc:
            flags = ", ".join("--" + k.replace("_", "-") for k in options)
            raise UsageError(f"{flags}: {exc}") from None
    return options


def _comment_options(args: argparse.Namespace) -> dict[str, Any]:
    """--max-chars, and --full-report's file for the note of a shortened Markdown report."""
    from .renderers.markdown import MIN_CHARS  # here, not at the top: start-up

    options: dict[str, Any] = {}
    if getattr(args, "max_chars", None) is not None:
        if args.max_chars < 0 or 0 < args.max_chars < MIN_CHARS:
            raise UsageError(f"--max-chars {args.max_chars}: give 0 (no limit) or at least {MIN_CHARS}")
        options["max_chars"] = args.max_chars
    if getattr(args, "full_report", None):
        options["full_report"] = args.full_report
    return options


def _takes(fmt: str, options: Mapping[str, Any]) -> bool:
    """Whether the renderer of ``fmt`` takes these options."""
    try:
        check_render_options(get_registry().renderer(fmt), fmt, options)
    except ConfigError:
        return False
    return True


def _render(renderer: Any, report: Report, fmt: str, args: argparse.Namespace) -> str:
    """The report in ``fmt`` with the options the command line asked for."""
    return renderer.render(report, **_render_options(args, fmt))


def _format(args: argparse.Namespace) -> str:
    """--format, else the format whose suffix matches -o FILE, else text."""
    output = _output(args)
    _check_output(args)  # before the work, not after it
    if getattr(args, "format", None):
        return args.format
    return _suffix_format(output, "-o") if output else "text"


def _suffix_format(path: str, option: str) -> str:
    """The format whose suffix ``path`` has (text when it has none)."""
    suffix = Path(path).suffix.lower()
    aliases = {".htm": "html", ".markdown": "markdown", ".text": "text"}
    for rec in get_registry().renderers.values():
        if getattr(rec.obj, "suffix", None) == suffix:
            return rec.name
    if suffix in aliases:
        return aliases[suffix]
    if suffix:
        raise UsageError(f"{option} {path}: cannot tell the format from {suffix!r}; give --format")
    return "text"


def _analyse(args: argparse.Namespace, pipeline: Pipeline, inputs: Sequence[Any], stdout,
             extra: Mapping[str, Any] | None = None) -> int:
    fmt = _format(args)
    renderer = get_registry().renderer(fmt)  # fail on a bad format (or option) before the work
    _render_options(args, fmt)
    full = _full_report(args)
    pipeline = _step_params(pipeline, args, extra)
    suite, timeout = as_suite(*inputs), _timeout(args)  # (load_inputs made it one Suite): its size caps --jobs
    with _executor(args, len(suite)) as executor:
        report = pipeline.run(suite, executor=executor, timeout=timeout)
    on_github = getattr(args, "github", False)
    if not (getattr(args, "only_changed", False) and _all_same(report)):
        if full:
            fmt_full, renderer_full = full
            whole = {"max_chars": 0} if _takes(fmt_full, {"max_chars": 0}) else {}
            _emit(renderer_full.render(report, **whole), argparse.Namespace(output=args.full_report), fmt_full, stdout)
        text = _render(renderer, report, fmt, args)
        _emit(github.guarded(text) if on_github and not _output(args) else text, args, fmt, stdout)
    if on_github:  # after the report (its commands paused), on the same stream: in order in the log
        github.publish(report, file=getattr(args, "candidate", None), stream=stdout, **_comment_options(args))
    gate = getattr(args, "fail_on_regression", None)
    if gate:
        found, judged = judge(report)
        for line in found:
            print(f"perfrigor: regression{' (warn only)' if gate == GATE_WARN else ''}: {terminal_safe(line)}",
                  file=sys.stderr)
        if found and gate == GATE_WARN:
            print(f"perfrigor: --fail-on-regression=warn: {len(found)} regression(s) would have failed this run "
                  "(exit 1); exit 0", file=sys.stderr)
        elif found:
            return EXIT_CHECK_FAILED
        if not judged:  # a check that cannot fail must not pass silently (e.g. in CI)
            raise UsageError(f"--fail-on-regression: no step of pipeline {pipeline.name!r} can show a slowdown "
                             "on this data: it has no verdict step and its comparisons are one-sided (they "
                             "only look for a speedup) or draw no conclusion; add a step that gives verdicts, "
                             f"or use a preset (they all end with one), e.g. --pipeline {DEFAULT_PRESET}")
    return EXIT_OK


def _all_same(report: Report) -> bool:
    """Whether every benchmark has a verdict and every verdict is "same" (--only-changed: nothing to say)."""
    verdicts = report.verdicts
    return bool(verdicts) and len(verdicts) == len(report.benchmarks) and not report.only_in \
        and all(v.outcome == "same" for v in verdicts.values())


def _full_report(args: argparse.Namespace) -> tuple[str, Any] | None:
    """--full-report FILE: its format (from the suffix) and renderer, checked before the work."""
    target = getattr(args, "full_report", None)
    if not target:
        return None
    _check_target("--full-report", target, _input_paths(args), "the report")
    if _output(args) and Path(_output(args)).resolve() == Path(target).resolve():
        raise UsageError(f"--full-report {target}: is the -o file too; give another name")
    fmt = _suffix_format(target, "--full-report")
    return fmt, get_registry().renderer(fmt)


# ---------------------------------------------------------------- commands


def _plain(docstring: str) -> str:
    """A docstring for a terminal: reST's double back-quotes and roles dropped (``x`` -> x)."""
    return re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", docstring).replace("``", "")


def cmd_list(args: argparse.Namespace, stdout) -> int:
    registry = get_registry()
    if args.name:
        return _list_one(registry, args.name, args.format, stdout)
    comps = [{"name": r.name, "kind": r.kind, "scope": r.scope, "plugin": r.plugin,
              "version": r.version, "description": r.description}
             for r in sorted(registry.components.values(), key=lambda r: r.name)]
    presets = [{"name": r.name, "plugin": r.plugin, "description": r.obj.get("description", ""),
                "steps": [s["component"] if isinstance(s, Mapping) else str(s) for s in r.obj.get("steps", [])]}
               for r in sorted(registry.presets.values(), key=lambda r: r.name)]
    readers = [{"name": r.name, "plugin": r.plugin, "suffixes": list(getattr(r.obj, "suffixes", ())),
                "description": _first_line(r.obj)} for r in registry.readers.values()]
    renderers = [{"name": r.name, "plugin": r.plugin, "description": _first_line(r.obj)}
                 for r in registry.renderers.values()]
    if args.format == "json":
        doc = {"components": comps, "presets": presets, "readers": readers, "renderers": renderers}
        stdout.write(json.dumps(doc, indent=2) + "\n")
        return EXIT_OK
    def width(rows: list[dict], key=lambda r: r["name"]) -> int:
        return max((len(key(r)) for r in rows), default=0)

    lines = ["Components:"]
    wn = width(comps)
    wk = width(comps, lambda c: c["kind"] + ", suite")
    wp = width(comps, lambda c: f"{c['plugin']} {c['version'] or ''}")
    for c in comps:
        where = f"{c['plugin']}" + (f" {c['version']}" if c["version"] else "")
        kind = c["kind"] + (", suite" if c["scope"] == "suite" else "")
        lines.append(f"  {c['name']:<{wn}}  {kind:<{wk}}  {where:<{wp}}  {c['description']}")
    if not comps:
        lines.append("  (none: no method plugin is installed)")
    lines += ["", "Presets (perfrigor compare --pipeline NAME):"]
    wn = width(presets)
    lines += [f"  {p['name']:<{wn}}  {' -> '.join(p['steps'])}\n  {'':<{wn}}  {p['description']}" for p in presets] \
        or ["  (none)"]
    lines += ["", "Input formats (--input-format NAME):"]
    wn = width(readers)
    ws = width(readers, lambda r: " ".join(r["suffixes"]) or "-")
    lines += [f"  {r['name']:<{wn}}  {' '.join(r['suffixes']) or '-':<{ws}}  {r['description']}" for r in readers]
    lines += ["", "Output formats (--format NAME):"]
    wn = width(renderers)
    lines += [f"  {r['name']:<{wn}}  {r['description']}" for r in renderers]
    stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def _list_one(registry: Any, name: str, fmt: str, stdout) -> int:
    """``perfrigor list NAME``: one component in full (parameters, defaults, ranges, help), or one preset,
    input format, output format or command."""
    tables = {"component": registry.components, "preset": registry.presets, "input format": registry.readers,
              "output format": registry.renderers, "command": registry.commands}
    found = [(what, table[name]) for what, table in tables.items() if name in table]
    if not found:
        everything = [n for table in tables.values() for n in table]
        raise ConfigError(f"nothing is registered as {name!r}{did_you_mean(name, everything)} (see 'perfrigor list')")
    docs, lines = [], []
    for what, rec in found:
        doc: dict[str, Any] = {"name": rec.name, "type": what, "plugin": rec.plugin, "version": rec.version}
        where = rec.plugin + (f" {rec.version}" if rec.version else "")
        if what == "component":
            cls = rec.obj
            kind = cls.kind + (", suite" if cls.scope == "suite" else "")
            params = cls.param_info()
            doc.update(kind=cls.kind, scope=cls.scope, description=inspect.getdoc(cls) or "",
                       parameters=[p.to_dict() for p in params])
            lines += [f"{rec.name}: {kind}, from {where}", "", _plain(inspect.getdoc(cls) or ""), ""]
            lines += _param_lines(rec.name, params)
        elif what == "preset":
            steps = rec.obj.get("steps", [])
            doc.update(description=rec.obj.get("description", ""), steps=to_jsonable(steps))
            lines += [f"{rec.name}: pipeline preset, from {where}", "", rec.obj.get("description", ""), "", "Steps:"]
            lines += [f"  {s['component'] if isinstance(s, Mapping) else s}"
                      + "".join(f"  {k}={v!r}" for k, v in (s.items() if isinstance(s, Mapping) else ())
                                if k != "component") for s in steps]
        else:
            text = rec.obj.help if what == "command" else (inspect.getdoc(type(rec.obj)) or "")
            doc["description"] = text
            lines += [f"{rec.name}: {what}, from {where}", "", _plain(text)]
            options = getattr(rec.obj, "options", None) if what == "input format" else None
            if isinstance(options, Mapping) and options:
                doc["options"] = {k: to_jsonable(o) for k, o in options.items()}
                kinds = {k: getattr(o, "kind", "") + (f" ({' | '.join(o.choices)})" if getattr(o, "choices", ())
                                                       else "") for k, o in options.items()}
                wk, wt = max(map(len, kinds)), max(map(len, kinds.values()))
                lines += ["", "Options (--input KEY=VALUE, or a config's [input]):"]
                lines += [f"  {k:<{wk}}  {kinds[k]:<{wt}}  {getattr(o, 'help', '')}".rstrip()
                          for k, o in options.items()]
        lines.append("")
        docs.append(doc)
    if fmt == "json":
        stdout.write(json.dumps(docs[0] if len(docs) == 1 else docs, indent=2) + "\n")
    else:
        stdout.write("\n".join(lines).rstrip() + "\n")
    return EXIT_OK


def _param_lines(component: str, params: Sequence[ParamInfo]) -> list[str]:
    """The parameters as an aligned table: name, default, allowed values, help."""
    if not params:
        return ["Parameters: none."]
    rows = [(p.name, "(required)" if p.required else repr(p.default),
             " | ".join(p.choices) if p.choices else (p.range or ""), p.help or "") for p in params]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    out = [f"Parameters (set with --param {component}.NAME=VALUE or in a config's step):"]
    for row in rows:
        out.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths, strict=True)) + "  " + row[3])
    return [line.rstrip() for line in out]


def _first_line(obj: Any) -> str:
    doc = (type(obj).__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""


def cmd_compare(args: argparse.Namespace, stdout) -> int:
    spec = _pipeline_spec(args)
    paths = [args.baseline] if args.candidate is None else [args.baseline, args.candidate]
    inputs = load_inputs(paths, _reader_options(args, spec.input_options))
    if args.candidate is None and len(inputs[0].systems) < 2:
        raise UsageError(f"{args.baseline} holds one system ({inputs[0].systems[0]}): give the candidate's "
                         f"measurements too (perfrigor compare BASELINE CANDIDATE)")
    return _analyse(args, _build_pipeline(args, spec), inputs, stdout)


def cmd_run(args: argparse.Namespace, stdout) -> int:
    files = list(args.files)
    config = None
    if not (args.pipeline or args.config):
        if not files:
            raise UsageError("give a pipeline config and data (perfrigor run CONFIG DATA...) "
                             "or a preset (perfrigor run --pipeline NAME DATA...)")
        config = files.pop(0)
        if Path(config).suffix.lower() not in (".toml", ".json"):
            raise UsageError(f"{config} is not a pipeline config (.toml or .json); to analyse it, name a "
                             f"pipeline: perfrigor run --pipeline NAME {config}")
    if not files:
        raise UsageError("no data files to analyse")
    spec = _pipeline_spec(args, config)
    inputs = load_inputs(files, _reader_options(args, spec.input_options))
    pipeline = _build_pipeline(args, spec)
    extra = {key.removeprefix("shorthand_"): (value, "--" + key.removeprefix("shorthand_").replace("_", "-"))
             for key, value in vars(args).items() if key.startswith("shorthand_") and value is not None}
    return _analyse(args, pipeline, inputs, stdout, extra)


def cmd_describe(args: argparse.Namespace, stdout) -> int:
    registry = get_registry()
    options = _reader_options(args)
    data = _read(args.data, options)
    samples = [data] if isinstance(data, Sample) else [s for systems in data.data.values() for s in systems.values()]
    depth = min(s.n_levels for s in samples)
    steps = []
    for name, rec in registry.components.items():
        cls = rec.obj
        if not cls.describes or cls.scope != "benchmark" or cls.kind == "comparator" \
                or (cls.kind == "test" and getattr(cls, "n_samples", 2) != 1):
            continue
        if cls.min_levels > depth:  # e.g. variance per level: hierarchical data only
            continue
        step: dict[str, Any] = {"component": name}
        if "random_state" in cls.param_names():  # the same data gives the same description (--seed to vary)
            step["random_state"] = 0
        steps.append(step)
    if not steps:
        raise ConfigError("no registered component describes these data (none declares 'describes = True' "
                          "and accepts their levels); install perfrigor's method plugins")
    pipeline = Pipeline(steps, name="describe", description="per-system description")
    if isinstance(data, Suite):
        # describe every system on its own: no baseline/candidate pairing
        inputs = [data]
    else:
        inputs = [Suite({data.name or "sample": {data.name or Path(args.data).name: data}}, source=args.data)]
    fmt = _format(args)
    renderer = registry.renderer(fmt)
    _render_options(args, fmt)
    if args.plot is not None:  # fail before the work, not after it
        if Path(args.plot).suffix.lower() not in PLOT_SUFFIXES:
            raise UsageError(f"--plot {args.plot}: give a .png, .svg or .pdf file name")
        _check_target("--plot", args.plot, _input_paths(args), "the picture")
    pipeline = _step_params(pipeline, args)
    timeout = _timeout(args)
    if max(s.values.size for s in samples) == 1:  # one repetition per benchmark: the values are the description
        report = _values_only(pipeline, inputs[0], ONE_VALUE)
    else:
        with _executor(args, len(inputs[0])) as executor:
            report = pipeline.run(*inputs, executor=executor, timeout=timeout)
    _emit(_render(renderer, report, fmt, args), args, fmt, stdout)
    if args.plot:
        _plots(pipeline, report, inputs[0], Path(args.plot))
    return EXIT_OK


ONE_VALUE = ("every system has one value (one repetition per benchmark): no spread to estimate, no mixture to fit; "
             "repeat the measurements to describe them (Google Benchmark: --benchmark_repetitions; JMH: -f, -i)")


def _values_only(pipeline: Pipeline, suite: Suite, why: str) -> Report:
    """describe's report when no step can run: the inputs (n and the value of each system), each step skipped."""
    steps = [StepInfo(s.id, s.component.name, s.component.kind, s.component.scope, s.component.get_params())
             for s in pipeline.steps]
    systems = list(suite.systems)  # as Pipeline.run names them: the first the baseline, the next the candidate
    return Report(pipeline=pipeline.name, steps=steps, baseline=systems[0], candidate=(systems[1:] or [None])[0],
                  inputs=suite.summary(), benchmark_results={b: {} for b in suite.benchmarks}, suite_results={},
                  source=suite.source, skipped=[StepSkip(s.id, why) for s in steps], data=suite)


def _plots(pipeline: Pipeline, report: Report, suite: Suite, target: Path) -> None:
    """Draw each system's measurements and what its results add (perfrigor.plots.describe)."""
    from .drawing import layers
    from .plots import save
    from .plots.describe import describe_figure

    jobs = [(bench, system, sample) for bench, systems in suite.data.items() for system, sample in systems.items()]
    for bench, system, sample in jobs:
        found = []
        for step in pipeline.steps:
            res = report.benchmark_results.get(bench, {}).get(step.id, {}).get(system)
            if res is not None:
                found += layers(res, sample)
        if len(jobs) == 1:
            path = target
        else:
            tag = "-".join(_safe(x) for x in (bench, system) if x)
            path = target.with_name(f"{target.stem}-{tag}{target.suffix or '.png'}")
        title = system if bench == system or len(suite.data) == 1 else f"{bench} / {system}"
        try:
            save(describe_figure(sample.flat, sample.unit, found, title), path)
        except OSError as exc:  # a full disk, a name too long: say which picture
            raise UsageError(f"--plot: cannot write {path}: {exc.strerror or exc}") from None
        print(f"perfrigor: wrote {path}", file=sys.stderr)


def _safe(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in text)


def cmd_demo(args: argparse.Namespace, stdout) -> int:
    if args.copy:
        written = examples.copy_tour(args.copy)
        print(f"perfrigor demo: wrote {len(written)} files to {args.copy}: {', '.join(p.name for p in written)}; "
              f"the README's tour runs there (cd {args.copy}; its README.md says what each file is)", file=sys.stderr)
        return EXIT_OK
    registry = get_registry()
    name = args.pipeline or DEFAULT_PRESET
    if not args.config and name not in registry.presets:
        raise ConfigError(f"the {name!r} preset is not registered, so there is nothing to demonstrate "
                          f"(registered presets: {', '.join(sorted(registry.presets)) or 'none'}); "
                          "install perfrigor's method plugins")
    chosen = [str(p) for p in data_files(examples.path(args.example))]
    what = f"the pipeline of {args.config}" if args.config else f"the {name} pipeline"
    print(f"perfrigor demo: {what} on the bundled example {args.example!r}: "
          f"{', '.join(Path(c).name for c in chosen)}", file=sys.stderr)
    spec = _pipeline_spec(args)
    inputs = load_inputs(chosen, _reader_options(args, spec.input_options))
    code = _analyse(args, _build_pipeline(args, spec), inputs, stdout)
    others = [n for n in examples.names() if n != args.example]
    if others:
        print(f"perfrigor demo: the other bundled examples: {', '.join(others)} "
              "(perfrigor demo NAME)", file=sys.stderr)
    return code


def cmd_render(args: argparse.Namespace, stdout) -> int:
    """A saved report in another format: read with only the core (``pr.load_report``)."""
    fmt = _format(args)
    renderer = get_registry().renderer(fmt)  # fail on a bad format (or option) before reading
    _render_options(args, fmt)
    report = load_report(args.report)
    _emit(_render(renderer, report, fmt, args), args, fmt, stdout)
    return EXIT_OK


COMMANDS = {"list": cmd_list, "compare": cmd_compare, "run": cmd_run, "describe": cmd_describe,
            "demo": cmd_demo, "render": cmd_render}


def cmd_plugin(args: argparse.Namespace, stdout) -> int:
    """Run a command a plugin contributed (hook ``perfrigor_commands``)."""
    command: Command = get_registry().commands[args.command].obj
    options = _reader_options(args) if command.input_options else {}
    return int(command.run(args, CommandContext(stdout=stdout, reader_options=options)) or 0)


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    stdout = sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    if argv == ["--version"]:  # answered before the parser loads the plugins (their commands, shorthands)
        _print_version()
        return EXIT_OK
    previous = progress.set_reporter(progress.StderrBar() if sys.stderr.isatty() else None)
    notifier = progress.set_notifier(lambda message: print(f"perfrigor: note: {_one_line(message)}",
                                                           file=sys.stderr))
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as exc:  # --help, --version
            return int(exc.code or 0) if not isinstance(exc.code, str) else EXIT_USAGE
        if args.command is None:
            build_parser().print_help(sys.stderr)
            return EXIT_USAGE
        # every file read is recorded: -o and --plot refuse them all
        with _stoppable(), opened.recording() as args.opened:
            return COMMANDS.get(args.command, cmd_plugin)(args, stdout)
    except BrokenPipeError:  # e.g. `perfrigor list | head`
        return EXIT_OK
    except (PerfrigorError, OSError) as exc:
        message = str(exc) if isinstance(exc, PerfrigorError) else _os_message(exc)
        print(f"perfrigor: error: {_one_line(message)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("perfrigor: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("perfrigor: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except Exception as exc:  # noqa: BLE001 - a bug: one line, the traceback on request
        if debug:
            raise
        print(f"perfrigor: error: internal error: {type(exc).__name__}: {_one_line(str(exc))} "
              "(a bug; rerun with --debug for the traceback and report it)", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        progress.set_reporter(previous)
        progress.set_notifier(notifier)


def _os_message(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{exc.strerror or exc}"


def _one_line(text: str) -> str:
    return terminal_safe(" ".join(text.split()))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
