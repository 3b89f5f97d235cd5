"""GitHub Actions without a custom action: a report's step summary, annotations and outputs.

:func:`publish` does what ``perfrigor compare ... --github`` does:

- appends the Markdown report (at most 60,000 characters) to the file ``$GITHUB_STEP_SUMMARY``
  names, the job's summary page: no token is needed, so it works on pull requests from forks;
- prints a workflow command per benchmark whose verdict is "slower" (``::error``) or "unclear"
  (``::warning``), which GitHub shows as annotations on the run and the pull request;
- appends ``regressions=N`` (and ``faster``, ``unclear``, ``same``, ``benchmarks``) to the file
  ``$GITHUB_OUTPUT`` names: the step's outputs, for later steps' conditions.

Benchmark names come from data files, which a pull request controls: in the commands they are
escaped as GitHub's toolkit escapes them (``escape_data``, ``escape_property``), and a report
printed in the same step is wrapped in ``::stop-commands::`` (:func:`guarded`) so that a name
cannot issue commands of its own.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Mapping
from typing import IO, Any

from .renderers._verdicts import change_text, direction
from .report import Report


def escape_data(text: str) -> str:
    """A command's message as GitHub's toolkit writes it: ``%``, CR and LF percent-encoded."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A command's property (``file=``, ``title=``): also ``:`` and ``,``, which end it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str) -> str:
    """One workflow command line: ``::name key=value,...::message``, escaped."""
    props = ",".join(f"{key}={escape_property(value)}" for key, value in properties.items() if value)
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def annotations(report: Report, file: str | None = None) -> list[str]:
    """A workflow command per benchmark whose verdict is "slower" (``::error``) or "unclear"
    (``::warning``), naming the benchmark, its change and why; ``file``: the data file to attach them to."""
    lines = []
    for bench, v in report.verdicts.items():
        if v.outcome not in ("slower", "unclear"):
            continue
        why = v.reasons[0] if v.reasons else v.describe()
        message = f"{bench}: {v.outcome}, {change_text(v, direction(report, bench)[0])}: {why}"
        lines.append(command("error" if v.outcome == "slower" else "warning", message,
                             file=file or "", title=f"perfrigor: {v.outcome}"))
    return lines


def outputs(report: Report) -> dict[str, int]:
    """The step's outputs: ``regressions`` (what ``--fail-on-regression`` fails on), and how many
    benchmarks are faster, unclear, the same, in all."""
    counts = {o: 0 for o in ("faster", "unclear", "same")}
    for v in report.verdicts.values():
        if v.outcome in counts:
            counts[v.outcome] += 1
    return {"regressions": len(report.regressions()), **counts, "benchmarks": len(report.benchmarks)}


def guarded(text: str) -> str:
    """``text`` between ``::stop-commands::TOKEN`` and ``::TOKEN::``: printed in a workflow step, no
    line of it is taken for a command (the token is random, so the text cannot end the pause)."""
    token = secrets.token_hex(16)
    return f"::stop-commands::{token}\n{text}{'' if text.endswith(chr(10)) else chr(10)}::{token}::\n"


def publish(report: Report, *, file: str | None = None, environ: Mapping[str, str] | None = None,
            stream: IO[str] | None = None, **markdown: Any) -> list[str]:
    """Write the step summary and outputs (when ``$GITHUB_STEP_SUMMARY``, ``$GITHUB_OUTPUT`` are set)
    and print the annotations on ``stream`` (default stdout); returns the annotation lines.

    ``markdown``: options of the summary's Markdown renderer (``max_chars``, ``full_report``);
    ``environ``: where to read the variables (default ``os.environ``).
    """
    environ = os.environ if environ is None else environ
    summary = environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        _append(summary, report.render("markdown", **markdown))
    output = environ.get("GITHUB_OUTPUT")
    if output:
        _append(output, "".join(f"{key}={value}\n" for key, value in outputs(report).items()))
    lines = annotations(report, file)
    stream = sys.stdout if stream is None else stream
    for line in lines:
        stream.write(line + "\n")
    stream.flush()
    return lines


def _append(path: str, text: str) -> None:
    """Add to a file the runner reads after the step (several steps may write to it)."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")
