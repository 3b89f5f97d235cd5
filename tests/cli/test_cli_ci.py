"""perfrigor in CI and on the pull request (issue 25): --github, --only-changed, --fail-on-regression=warn,
--max-chars, --full-report, and the same from a config's [output]."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor import examples, github
from perfrigor.cli import main
from perfrigor.config import parse_config
from synthetic import verdict_report

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BENT = FIXTURES / "benchstat"
SUITE = str(examples.path("suite") / "suite.csv")
#: toy-verdict's outcomes on the bundled suite
SLOWER = {"sieve", "listwalk", "bubble"}
UNCLEAR = {"qsort", "nbody", "crc32", "mandelbrot", "histogram"}


def _unescape(text: str) -> str:
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


def _commands(text: str) -> list[tuple[str, dict[str, str], str]]:
    """The workflow commands in a log: (name, properties, message), unescaped."""
    out = []
    for line in text.splitlines():
        m = re.fullmatch(r"::(error|warning)(?: ([^:]*))?::(.*)", line)
        if m:
            props = dict(p.split("=", 1) for p in (m.group(2) or "").split(",") if p)
            out.append((m.group(1), {k: _unescape(v) for k, v in props.items()}, _unescape(m.group(3))))
    return out


@pytest.fixture
def gh(tmp_path, monkeypatch):
    """A fake GitHub Actions step: the summary and output files the runner would read."""
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    return summary, output


def test_github_annotates_exactly_the_slower_and_unclear_benchmarks(toy, gh, capsys):
    summary, output = gh
    code = main(["run", "--pipeline", "toy-verdict", SUITE, "--github"])
    out = capsys.readouterr().out
    assert code == 0
    commands = _commands(out)
    assert {m.split(": ")[0] for kind, _, m in commands if kind == "error"} == SLOWER
    assert {m.split(": ")[0] for kind, _, m in commands if kind == "warning"} == UNCLEAR
    assert len(commands) == len(SLOWER) + len(UNCLEAR)
    kind, props, message = next(c for c in commands if c[2].startswith("bubble: "))
    assert props == {"title": "perfrigor: slower"}  # run reads no single candidate file
    assert re.fullmatch(r"bubble: slower, \+\d+\.\d% \[\+\d+\.\d%, \+\d+\.\d%\]: median \d+\.\d% worse", message)
    assert output.read_text() == "regressions=3\nfaster=6\nunclear=5\nsame=0\nbenchmarks=14\n"
    text = summary.read_text()
    assert text.startswith("# perfrigor report: pipeline toy-verdict") and "| **slower** |" in text
    # the report printed in the step cannot issue commands: it is between stop-commands and the token
    lines = out.splitlines()
    token = lines[0].removeprefix("::stop-commands::")
    assert re.fullmatch(r"[0-9a-f]{32}", token)
    end = lines.index(f"::{token}::")
    assert not any(line.startswith("::") for line in lines[1:end]) and lines[end + 1].startswith("::")


def test_compare_attaches_the_annotations_to_the_candidate_file(toy, gh, tmp_path, capsys):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(f"{1 + 0.01 * (i % 5)}\n" for i in range(20)))
    new.write_text("".join(f"{1.3 + 0.01 * (i % 5)}\n" for i in range(20)))
    assert main(["compare", str(old), str(new), "-p", "toy-verdict", "--github", "-o", str(tmp_path / "r.md")]) == 0
    ((kind, props, message),) = _commands(capsys.readouterr().out)
    assert kind == "error" and props == {"file": str(new), "title": "perfrigor: slower"}


def test_workflow_commands_escape_names_as_githubs_toolkit_does():
    names = ["plain", "50% of a, b: c", "two\nlines\r", "::set-output name=x::y"]
    with pr.registry.temporary(allow=["core"]):
        report = verdict_report(4, outcome=lambda i: "slower", names=names.__getitem__)
    lines = github.annotations(report, file="dir/pr, new:1.json")
    assert all(line.count("\n") == 0 and line.count("\r") == 0 for line in lines)
    assert lines[1].startswith("::error file=dir/pr%2C new%3A1.json,title=perfrigor%3A slower::50%25 of a, b: c: ")
    assert lines[2].split("::")[2].startswith("two%0Alines%0D: slower")
    assert [m.split(": slower")[0] for _, _, m in _commands("\n".join(lines))] == names
    assert github.command("warning", "x") == "::warning::x"


def test_fail_on_regression_warn_reports_and_exits_0_where_the_flag_exits_1(toy, capsys):
    assert main(["run", "--pipeline", "toy-verdict", SUITE, "--fail-on-regression"]) == 1
    plain = capsys.readouterr().err
    assert main(["run", "--pipeline", "toy-verdict", SUITE, "--fail-on-regression=warn"]) == 0
    warn = capsys.readouterr().err
    assert {ln.split(": ")[2] for ln in plain.splitlines() if ln.startswith("perfrigor: regression: ")} == SLOWER
    assert {ln.split(": ")[2] for ln in warn.splitlines() if ln.startswith("perfrigor: regression (warn only): ")} \
        == SLOWER
    assert "perfrigor: --fail-on-regression=warn: 3 regression(s) would have failed this run (exit 1); exit 0" in warn


def test_the_bare_flag_never_takes_the_next_word(toy, tmp_path, capsys):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("1\n1.01\n1.02\n0.99\n")
    new.write_text("2\n2.02\n2.04\n1.98\n")
    assert main(["compare", "--fail-on-regression", str(old), str(new), "-p", "toy-verdict"]) == 1
    capsys.readouterr()
    assert main(["compare", "--fail-on-regression=maybe", str(old), str(new), "-p", "toy-verdict"]) == 2
    assert "'maybe': give --fail-on-regression, or --fail-on-regression=warn" in capsys.readouterr().err


def test_only_changed_prints_nothing_when_every_verdict_is_same(toy, tmp_path, capsys):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("1\n1.01\n1.02\n0.99\n")
    new.write_text("1\n1.01\n1.02\n0.99\n")
    out = tmp_path / "comment.md"
    args = ["compare", str(old), str(new), "-p", "toy-verdict", "--param", "toy-verdict.tolerance=0.001",
            "--only-changed", "--fail-on-regression"]
    assert main([*args, "-f", "markdown", "-o", str(out)]) == 0
    assert capsys.readouterr() == ("", "") and not out.exists()
    new.write_text("2\n2.02\n2.04\n1.98\n")
    assert main([*args, "-f", "markdown", "-o", str(out)]) == 1
    assert "| **slower** |" in out.read_text()


def test_output_options_from_a_config(toy, tmp_path, gh, capsys):
    summary, output = gh
    config = tmp_path / "ci.toml"
    config.write_text('[pipeline]\npreset = "toy-verdict"\n\n[output]\nformat = "markdown"\nmax_chars = 8000\n'
                      'fail_on_regression = "warn"\ngithub = true\nonly_changed = true\n')
    assert main(["run", str(config), SUITE]) == 0
    out = capsys.readouterr().out
    assert "## Verdicts" in out and len(_commands(out)) == 8 and "regressions=3" in output.read_text()
    assert len(summary.read_text()) <= 8000 + 1
    assert main(["run", str(config), SUITE, "--fail-on-regression", "--format", "text"]) == 1  # flags win
    assert "Verdicts\n--------" in capsys.readouterr().out


@pytest.mark.parametrize(("table", "message"), [
    ('fail_on_regresion = true', r"unknown key\(s\) 'fail_on_regresion' in \[output\] \(did you mean "
                                 r"'fail_on_regression'\?\)"),
    ('fail_on_regression = "sometimes"', r'\[output\] fail_on_regression must be true, false or "warn", got'),
    ("max_chars = -1", r"\[output\] max_chars must be a number of characters \(0: no limit\), got -1"),
    ('github = "yes"', r"\[output\] github must be true or false, got 'yes'"),
])
def test_output_config_errors_name_the_key(tmp_path, table, message):
    config = tmp_path / "ci.toml"
    config.write_text(f'[pipeline]\npreset = "default"\n\n[output]\n{table}\n')
    with pytest.raises(pr.ConfigError, match=message):
        parse_config(config)


def test_max_chars_and_full_report(toy, tmp_path, capsys):
    full, comment = tmp_path / "report.json", tmp_path / "comment.md"
    args = ["run", "--pipeline", "toy-verdict", SUITE]
    assert main([*args, "-o", str(comment), "--max-chars", "5000", "--full-report", str(full)]) == 0
    text = comment.read_text()
    assert len(text) <= 5000 and text.rstrip().replace("\\_", "_").endswith(f"The whole report: {full}.")
    assert len(json.loads(full.read_text())["verdicts"]) == 14
    assert "wrote json report to" in capsys.readouterr().err
    for bad, why in ((["--max-chars", "100"], r"--max-chars 100: give 0 \(no limit\) or at least 5000"),
                     (["--max-chars", "9000"], "--max-chars: the text format has no size limit"),
                     (["--full-report", str(tmp_path / "r.xyz")], "--full-report .*: cannot tell the format"),
                     (["--full-report", SUITE], "is the input file")):
        assert main([*args, *bad]) == 2
        assert re.search(why, capsys.readouterr().err)


@pytest.fixture(scope="module")
def bent(tmp_path_factory):
    """The 67 Go benchmarks of golang/perf's bent test data, compared as a pull request's CI would."""
    folder = tmp_path_factory.mktemp("bent")
    env = {"GITHUB_STEP_SUMMARY": str(folder / "summary.md"), "GITHUB_OUTPUT": str(folder / "output.txt")}
    with pytest.MonkeyPatch.context() as mp, pr.registry.temporary():
        for key, value in env.items():
            mp.setenv(key, value)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["compare", str(BENT / "bent-base.txt"), str(BENT / "bent-tip.txt"), "--github",
                         "-f", "markdown", "-o", str(folder / "comment.md"), "--full-report",
                         str(folder / "report.json"), "--fail-on-regression=warn"])
    return code, out.getvalue(), folder


@pytest.mark.slow
def test_a_real_suite_of_67_go_benchmarks(bent):
    code, out, folder = bent
    assert code == 0
    verdicts = json.loads((folder / "report.json").read_text())["verdicts"]
    assert len(verdicts) == 67
    comment = (folder / "comment.md").read_text()
    assert len(comment) <= 60_000  # drawn whole, 5 times that
    slower = [b for b, v in verdicts.items() if v["outcome"] == "slower"]
    unclear = [b for b, v in verdicts.items() if v["outcome"] == "unclear"]
    rows = [row.split(" | ")[0][2:].replace("\\_", "_") for row in comment.splitlines() if row.startswith("| ")]
    assert rows[2:2 + len(slower)] == slower  # below the header: every slower benchmark's row first
    commands = _commands(out)
    assert [m.split(": ")[0] for kind, _, m in commands if kind == "error"] == slower
    assert [m.split(": ")[0] for kind, _, m in commands if kind == "warning"] == unclear
    assert all(props["file"] == str(BENT / "bent-tip.txt") for _, props, _ in commands)
    assert f"regressions={len(slower)}\n" in (folder / "output.txt").read_text()
    assert len((folder / "summary.md").read_text()) <= 60_001


def test_the_python_api_publishes_what_the_flag_does(tmp_path):
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    summary.write_text("an earlier step's summary\n")
    stream = io.StringIO()
    with pr.registry.temporary(allow=["core"]):
        report = verdict_report(5_000)
        lines = pr.github.publish(report, file="new.json", stream=stream, max_chars=20_000,
                                  environ={"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(output)})
    assert stream.getvalue() == "".join(line + "\n" for line in lines)
    kinds = {bench: kind for kind, _, message in _commands(stream.getvalue()) for bench in [message.split(": ")[0]]}
    assert kinds == {b: {"slower": "error", "unclear": "warning"}[v.outcome] for b, v in report.verdicts.items()
                     if v.outcome in ("slower", "unclear")}
    assert all(props == {"file": "new.json", "title": f"perfrigor: {v}"} for _, props, _ in _commands(stream.getvalue())
               for v in [props["title"].split(": ")[1]])
    text = summary.read_text()
    assert text.startswith("an earlier step's summary\n# perfrigor report")  # appended, as the runner expects
    assert len(text) <= 20_000 + 30
    assert output.read_text() == "regressions=100\nfaster=100\nunclear=200\nsame=4600\nbenchmarks=5000\n"
    assert github.outputs(report) == {"regressions": 100, "faster": 100, "unclear": 200, "same": 4600,
                                      "benchmarks": 5000}
    assert pr.github.publish(report, environ={}, stream=io.StringIO()) == github.annotations(report)  # no files
