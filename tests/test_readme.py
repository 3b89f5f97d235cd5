"""The README's tour works as written: its Python, its TOML config and its plugin snippet."""

from __future__ import annotations

import os
import re
import shlex
import tomllib
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", README, re.S | re.M)


def test_quick_start_is_two_commands_and_ci_runs_the_second_exactly():
    (quick,) = [b for b in _blocks("bash") if "python -m perfrigor demo" in b]
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


# ---------------------------------------------------------------- the command-line tour (issue 24 item 14)


def _tour_commands() -> list[list[str]]:
    """The tour's command lines, in order: the bash blocks and the console blocks' ``$`` lines between
    "## A tour" and the next top-level section, ``&&`` chains split, comments dropped."""
    tour = README.split("## A tour", 1)[1].split("\n## ", 1)[0]
    lines = []
    for lang, body in re.findall(r"^```(bash|console)\n(.*?)^```", tour, re.S | re.M):
        for line in body.splitlines():
            if lang == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            lines += [shlex.split(part, comments=True) for part in line.split("&&")]
    return [words for words in lines if words]


def test_the_tour_starts_where_demo_copy_writes_and_names_only_files_written_there(tmp_path, capsys):
    commands = _tour_commands()
    assert commands[0][:3] == ["perfrigor", "demo", "--copy"] and commands[1][0] == "cd"
    folder = tmp_path / commands[0][3]
    assert cli.main(["demo", "--copy", str(folder)]) == 0
    written = {p.name for p in folder.iterdir()}
    assert {"old.txt", "new.txt", "bench.cfg", "suite.csv", "experiment.csv", "check.toml"} <= written
    assert "Name,Sample1,Sample2" in (folder / "bench.cfg").read_text()
    (config,) = _blocks("toml")
    assert (folder / "check.toml").read_text() == config  # the README's config, as shown
    outputs = set()
    for words in commands[2:]:
        assert words[0] == "perfrigor", words
        for i, word in enumerate(words):
            if words[i - 1] in ("-o", "--plot", ">"):
                outputs.add(word)
            elif re.fullmatch(r"[\w.-]+\.(txt|csv|cfg|toml|json)", word):
                assert word in written or word in outputs, f"{' '.join(words)}: {word} is not in the tour's folder"
    capsys.readouterr()
    assert cli.main(["demo", "--copy", str(folder)]) == 2  # never over a tour already there
    assert "already holds" in capsys.readouterr().err


@pytest.mark.slow
def test_every_tour_command_runs_as_written(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    here = os.getcwd()
    try:
        os.chdir(tmp_path)
        for words in _tour_commands():
            if words[0] == "cd":
                os.chdir(words[1])
                continue
            argv, target = words[1:], None
            if ">" in argv:
                argv, target = argv[:argv.index(">")], argv[argv.index(">") + 1]
            code = cli.main(argv)
            out, err = capsys.readouterr()
            assert code == 0, f"{' '.join(words)}: exit {code}: {err}"
            if target:
                Path(target).write_text(out)
        for made in ("modes.png", "report.html", "experiment-experiment-O1.png", "description.txt"):
            assert Path(made).stat().st_size > 0, made
    finally:
        os.chdir(here)
