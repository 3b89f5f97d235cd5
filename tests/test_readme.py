"""The README's tour works as written: its Python, its TOML config and its plugin snippet."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import perfrigor as pr

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", README, re.S | re.M)


def test_quick_start_is_two_commands_and_ci_runs_the_second_exactly():
    (quick,) = [b for b in _blocks("bash") if "perfrigor demo" in b]
    commands = [line for line in quick.splitlines() if line.strip()]
    assert len(commands) == 2
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1] in ci.splitlines()


def test_compose_in_code_runs(capsys):
    compose = next(b for b in _blocks("python") if "pr.Pipeline" in b)
    exec(compile(compose, "README compose", "exec"), {})
    out = capsys.readouterr().out
    assert "speedup" in out.lower()


def test_configure_by_name_builds_the_pipeline():
    (config,) = _blocks("toml")
    p = pr.Pipeline.from_config(tomllib.loads(config))
    assert p.name == "nightly"
    assert [s.component.name for s in p.steps][-1] == "fieller"
    assert p.steps[-1].component.confidence == 0.99
    report = p.run(np.linspace(10, 11, 40), np.linspace(9, 10, 40))
    assert report.result("fieller").estimate > 1


def test_plugin_snippet_defines_a_working_comparator():
    plugin = next(b for b in _blocks("python") if "perfrigor_components" in b)
    ns: dict = {}
    exec(compile(plugin, "README plugin", "exec"), ns)
    r = ns["MedianRatio"]().compare([2.0, 2.2, 2.1], [1.0, 1.1, 1.05])
    assert r.estimate == 2.0 and r.verdict == "median speedup 2.000"
    assert ns["perfrigor_components"]() == [ns["MedianRatio"]]
