"""Shown output cannot go stale: every console block of docs/cli.md, docs/reports.md and the README that
shows output is run, and every block of docs/ci.md, its workflows' perfrigor commands included.

A block's commands run in order, in one folder holding the bundled example files and the peers'
real files under the names docs/ci.md gives them (``PEER_FILES``), through bash (``perfrigor`` is
this interpreter's ``python -m perfrigor``), stdout and stderr together as a terminal shows them.
The shown lines must be the program's: ``...`` alone stands for lines left out, a line ending in
``...`` for the rest of that line; a command that shows nothing must succeed (exit 0). The
commands of other tools (pytest, go, cargo, gh) are not run: they need those tools.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from perfrigor.examples import path as example

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"docs/cli.md": ROOT / "docs" / "cli.md", "docs/reports.md": ROOT / "docs" / "reports.md",
         "README.md": ROOT / "README.md", "docs/ci.md": ROOT / "docs" / "ci.md"}
#: pages whose every console block runs, those that show no output too
EVERY_BLOCK = ("docs/ci.md",)
FIXTURES = ROOT / "tests" / "fixtures"
#: the peers' real files (tests/fixtures, each with its ORIGIN.md) under the names docs/ci.md uses
PEER_FILES = {
    ".benchmarks/Linux-CPython-3.11-64bit/0001_base.json": "pytest-benchmark/strings_old.json",
    ".benchmarks/Linux-CPython-3.11-64bit/0002_pr.json": "pytest-benchmark/strings_new.json",
    "perf-base.json": "pytest-benchmark/strings_old.json",
    "perf-pr.json": "pytest-benchmark/strings_new.json",
    "base.txt": "benchstat/old.txt",
    "pr.txt": "benchstat/new.txt",
    "bent-base.txt": "benchstat/bent-base.txt",
    "bent-tip.txt": "benchstat/bent-tip.txt",
    "gbench-base.json": "google-benchmark/repetitions_base.json",
    "gbench-pr.json": "google-benchmark/repetitions_pr.json",
    "jmh-base.json": "jmh/jcasbin_run0.json",
    "jmh-pr.json": "jmh/jcasbin_run1.json",
    "target/criterion": "criterion/criterion",
    "hyperfine.json": "hyperfine/hyperfine.json",
}
#: blocks whose commands take long (a KSfit bootstrap per system, 67 Go benchmarks): they run with the slow tests
SLOW = ("--plot", "bent-base.txt")


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
            if not any(shown for _, shown in runs) and name not in EVERY_BLOCK:
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
    for name, source in PEER_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        if (FIXTURES / source).is_dir():
            shutil.copytree(FIXTURES / source, tmp_path / name)
        else:
            shutil.copy(FIXTURES / source, tmp_path / name)
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
        else:
            assert done.returncode == 0, f"$ {command}\nexit {done.returncode}\n--- output ---\n{done.stdout}"


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


def workflows(page: Path) -> list[dict]:
    """The GitHub workflows a page shows (its ```yaml blocks), parsed."""
    yaml = pytest.importorskip("yaml")
    return [yaml.safe_load(block) for block in
            re.findall(r"^```yaml\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)]


def workflow_commands(page: Path) -> list[str]:
    """The perfrigor commands in the ``run:`` scripts of a page's workflows, a line each."""
    found = []
    for flow in workflows(page):
        for job in flow["jobs"].values():
            for step in job["steps"]:
                script = step.get("run", "").replace("\\\n", " ")
                found += [line.strip() for line in script.splitlines() if line.strip().startswith("perfrigor ")]
    return found


@pytest.mark.parametrize("command", workflow_commands(PAGES["docs/ci.md"]))
def test_the_workflows_perfrigor_commands_run(command, folder):
    """As a workflow step runs them: GITHUB_STEP_SUMMARY and GITHUB_OUTPUT name files the step writes."""
    summary, output = folder / "step-summary.md", folder / "step-output.txt"
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(output)}
    define = f'perfrigor() {{ "{sys.executable}" -m perfrigor "$@"; }}'
    done = subprocess.run(["bash", "-c", f"{define}\n{command}"], cwd=folder, text=True, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    assert done.returncode == 0, f"$ {command}\n{done.stdout}"
    if "--github" in command:
        assert 0 < len(summary.read_text()) <= 60_001
        assert re.search(r"^regressions=\d+$", output.read_text(), re.M)


def test_the_workflows_need_no_write_token_to_measure():
    flows = {flow["name"]: flow for flow in workflows(PAGES["docs/ci.md"])}
    assert set(flows) == {"perf-main", "perf", "perf-comment"}
    assert flows["perf"]["permissions"] == {"contents": "read"}  # a fork's pull request: read only
    assert flows["perf-main"]["permissions"] == {"contents": "read"}
    # only the comment workflow may write, and it runs the base repository's code, not the pull request's
    comment = flows["perf-comment"]
    assert comment["permissions"]["pull-requests"] == "write"
    assert list(comment[True]) == ["workflow_run"]  # YAML reads the key `on` as true
    assert not any("checkout" in step.get("uses", "") for step in comment["jobs"]["comment"]["steps"])
    assert workflow_commands(PAGES["docs/ci.md"])  # the perf workflow's command is run above
