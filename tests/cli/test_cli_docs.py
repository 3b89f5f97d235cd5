"""Shown output cannot go stale: every console block of docs/cli.md, docs/reports.md and the README that
shows output is run.

A block's commands run in order, in one folder holding the bundled example files, through
bash (``perfrigor`` is this interpreter's ``python -m perfrigor``), stdout and stderr together
as a terminal shows them. The shown lines must be the program's: ``...`` alone stands for
lines left out, a line ending in ``...`` for the rest of that line.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from perfrigor.examples import path as example

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"docs/cli.md": ROOT / "docs" / "cli.md", "docs/reports.md": ROOT / "docs" / "reports.md",
         "README.md": ROOT / "README.md"}
#: blocks whose commands take long (a KSfit bootstrap per system): they run with the slow tests
SLOW = ("--plot",)


def console_blocks(page: Path) -> list[list[tuple[str, list[str]]]]:
    """Each console block as [(command, shown output lines)], the commands in order."""
    out = []
    for block in re.findall(r"^```console\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M):
        runs: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], []))
            elif runs:
                runs[-1][1].append(line)
        out.append(runs)
    return out


def shown_blocks() -> list:
    params = []
    for name, page in PAGES.items():
        for i, runs in enumerate(console_blocks(page)):
            if not any(shown for _, shown in runs):
                continue  # commands only: nothing shown to check
            slow = any(flag in cmd for cmd, _ in runs for flag in SLOW)
            params.append(pytest.param(runs, id=f"{name}:{i}:{runs[0][0][:40]}",
                                       marks=[pytest.mark.slow] if slow else []))
    return params


def _same(shown: str, line: str) -> bool:
    shown, line = shown.rstrip(), line.rstrip()
    if shown.endswith("...") and shown.strip() != "...":
        return line.startswith(shown[:-3].rstrip())
    return shown == line


def mismatch(shown: list[str], output: list[str]) -> str | None:
    """Why ``shown`` is not ``output`` (None when it is), ``...`` lines being gaps."""
    while shown and not shown[-1].strip():
        shown = shown[:-1]
    segments: list[list[str]] = [[]]
    for line in shown:
        if line.strip() == "...":
            segments.append([])
        else:
            segments[-1].append(line)
    gap_before = [i > 0 for i in range(len(segments))]
    at = 0
    for k, segment in enumerate(segments):
        if not segment:
            continue
        starts = range(at, len(output) - len(segment) + 1) if gap_before[k] else [at]
        found = next((s for s in starts if all(_same(a, b) for a, b in zip(segment, output[s:], strict=False))
                      and len(output) - s >= len(segment)), None)
        if found is None:
            return f"not in the output (from line {at + 1}):\n" + "\n".join(segment)
        at = found + len(segment)
    if segments[-1] and at != len(output):
        return f"the output goes on after the shown lines: {output[at]!r}"
    return None


@pytest.fixture
def folder(tmp_path):
    """A folder holding the bundled example files the pages' commands name."""
    for name in ("two-versions", "hierarchical", "suite"):
        for file in example(name).iterdir():
            if file.is_file() and file.suffix in (".txt", ".csv"):
                shutil.copy(file, tmp_path / file.name)
    return tmp_path


@pytest.mark.parametrize("runs", shown_blocks())
def test_shown_output_is_the_programs(runs, folder):
    define = f'perfrigor() {{ "{sys.executable}" -m perfrigor "$@"; }}'
    for command, shown in runs:
        done = subprocess.run(["bash", "-c", f"{define}\n{{ {command}\n}} 2>&1"], cwd=folder, text=True,
                              stdout=subprocess.PIPE, timeout=600)
        if shown:
            why = mismatch(shown, done.stdout.splitlines())
            assert why is None, f"$ {command}\n{why}\n--- output ---\n{done.stdout}"


def test_the_matcher_can_fail():
    assert mismatch(["a", "...", "c..."], ["a", "b", "c d"]) is None
    assert mismatch(["a", "..."], ["a", "b"]) is None
    assert mismatch(["a"], ["a", "b"]) is not None  # more output than shown, no "..."
    assert mismatch(["b"], ["a", "b"]) is not None  # the first shown line is the first printed
    assert mismatch(["a", "...", "x"], ["a", "b", "c"]) is not None
    assert mismatch(["a", "c"], ["a", "b", "c"]) is not None


def test_every_page_has_checked_blocks():
    ids = [p.id for p in shown_blocks()]
    assert any(i.startswith("docs/cli.md") and "demo" in i for i in ids)
    assert any(i.startswith("docs/cli.md") and "plan" in i for i in ids)
    assert any(i.startswith("README.md") and "--plot" in i for i in ids)
    assert any(i.startswith("docs/reports.md") and "run --pipeline default" in i for i in ids)
