"""Issue 24's audit findings on the command line, each with its minimal input: nothing overwritten,
no exit 3, every flag doing what it says."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(code, err, *needles):
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("perfrigor: error: ") and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture
def cfg(tmp_path):
    """A Speedup-Test config and the two sample files it names."""
    folder = tmp_path / "cfg"
    folder.mkdir()
    (folder / "a.txt").write_text("".join(f"{1.0 + 0.01 * i}\n" for i in range(10)))
    (folder / "b.txt").write_text("".join(f"{1.2 + 0.01 * (i % 3)}\n" for i in range(10)))
    (folder / "bench.cfg").write_text("Name,Sample1,Sample2,ConfLevel,Coef\nx,a.txt,b.txt,NA,NA\n")
    return folder


# ---------------------------------------------------------------- item 1: -o never replaces what the run read


def test_output_onto_a_sample_file_a_cfg_names_is_refused(cfg, capsys):
    sample = cfg / "a.txt"
    before = sample.read_bytes()
    code, _, err = run(capsys, "run", "--pipeline", "speedup-test", str(cfg / "bench.cfg"), "-o", str(sample))
    usage_error(code, err, "is the input file", "a.txt", "the report would replace it")
    assert sample.read_bytes() == before


def test_output_onto_a_file_inside_a_criterion_folder_is_refused(tmp_path, capsys):
    crit = tmp_path / "crit"
    shutil.copytree(FIXTURES / "criterion" / "criterion", crit)
    sample = crit / "fib 15" / "new" / "sample.json"
    before = sample.read_bytes()
    code, _, err = run(capsys, "run", "--pipeline", "speedup-test", str(crit), "-o", str(sample))
    usage_error(code, err, "is the input file", "sample.json")
    assert sample.read_bytes() == before


def test_output_onto_a_hard_link_of_an_input_is_refused(cfg, tmp_path, capsys):
    link = tmp_path / "link.txt"
    os.link(cfg / "b.txt", link)
    code, _, err = run(capsys, "run", "--pipeline", "speedup-test", str(cfg / "bench.cfg"), "-o", str(link))
    usage_error(code, err, "is the input file")


def test_describe_plot_onto_a_file_the_cfg_reads_is_refused(cfg, capsys):
    pytest.importorskip("matplotlib")
    target = cfg / "a.png"  # a sample file, whatever its name
    target.write_text("".join(f"{1.0 + 0.01 * i}\n" for i in range(10)))
    before = target.read_bytes()
    cfg.joinpath("bench.cfg").write_text("Name,Sample1,Sample2,ConfLevel,Coef\nx,a.png,b.txt,NA,NA\n")
    code, _, err = run(capsys, "describe", str(cfg / "bench.cfg"), "--plot", str(target))
    usage_error(code, err, "--plot", "is the input file", "the picture would replace it")
    assert target.read_bytes() == before


def test_a_new_output_file_next_to_the_inputs_is_written(cfg, capsys):
    code, _, err = run(capsys, "run", "--pipeline", "speedup-test", str(cfg / "bench.cfg"), "-o",
                       str(cfg / "report.txt"))
    assert code == 0, err
    assert "Speedup" in (cfg / "report.txt").read_text() or "speedup" in (cfg / "report.txt").read_text()


def test_files_opened_are_recorded_whoever_opens_them(tmp_path):
    from perfrigor import opened

    target = tmp_path / "x.txt"
    target.write_text("1\n")
    with opened.recording() as seen:
        with open(target, encoding="utf-8") as handle:  # as a third-party reader would
            handle.read()
        target.read_bytes()
    with opened.recording() as later:
        pass
    assert str(target) in seen and not later
    assert opened.same_file(target, seen) == str(target)
    assert opened.same_file(tmp_path / "absent", seen) is None


# ---------------------------------------------------------------- item 2: no exit 3


@pytest.mark.parametrize("fmt", ["text", "markdown", "html", "json"])
def test_a_lone_surrogate_in_a_json_name_is_shown_escaped(tmp_path, capsys, fmt):
    if fmt == "html":
        pytest.importorskip("matplotlib")
    data = tmp_path / "s.json"
    data.write_text('{"\\ud800": [1.0, 2.0, 3.0, 4.0, 5.0]}')
    code, out, err = run(capsys, "describe", str(data), "--format", fmt)
    assert code == 0, err
    out.encode("utf-8")  # writable
    assert "\\ud800" in out
    target = tmp_path / f"report.{fmt}"
    code, _, err = run(capsys, "describe", str(data), "--format", fmt, "-o", str(target))
    assert code == 0, err
    assert "ud800" in target.read_text(encoding="utf-8")


def test_a_reader_format_that_is_not_a_name_is_a_config_error(cfg, tmp_path, capsys):
    data = str(cfg / "a.txt")
    usage_error(*run(capsys, "describe", data, "--input", "format=3")[::2], "input format must be given by name",
                "got 3")
    config = tmp_path / "check.toml"
    config.write_text('[input]\nformat = 3\n\n[[steps]]\ncomponent = "mean-ci"\n')
    usage_error(*run(capsys, "run", str(config), data)[::2], "check.toml: [input] format", "got 3")
    config.write_text('[input]\nformat = ["tidy-csv"]\n\n[[steps]]\ncomponent = "mean-ci"\n')
    usage_error(*run(capsys, "run", str(config), data)[::2], "got ['tidy-csv']")
    with pytest.raises(pr.ConfigError, match="component must be given by name"):
        pr.get(3)
    with pytest.raises(pr.ConfigError, match="input format must be given by name"):
        pr.read(data, format=3)


def test_an_absurd_number_of_jobs_is_no_crash(cfg, capsys):
    code, _, err = run(capsys, "describe", str(cfg / "a.txt"), "--jobs", "99999999999999999999")
    assert code in (0, 2) and "internal error" not in err and "Traceback" not in err, err
    if code == 2:
        usage_error(code, err, "--jobs")
    usage_error(*run(capsys, "describe", str(cfg / "a.txt"), "--jobs", "0")[::2], "--jobs")


@pytest.mark.parametrize("seconds", ["1e308", "inf"])
def test_a_timeout_beyond_any_wait_means_no_limit(cfg, capsys, seconds):
    code, out, err = run(capsys, "describe", str(cfg / "a.txt"), "--timeout", seconds, "--jobs", "2")
    assert code == 0, err
    code, out, err = run(capsys, "describe", str(cfg / "a.txt"), "--timeout", seconds)
    assert code == 0 and "mean" in out, err
    usage_error(*run(capsys, "describe", str(cfg / "a.txt"), "--timeout", "nan")[::2], "--timeout")


def test_help_shows_a_plugins_percent_sign_literally(capsys, monkeypatch):
    """A component's shorthand help or a command's help holding "%" (steady-state's "0.05: 5%") made
    `perfrigor run --help` an internal error (argparse %-formats help)."""
    assert cli.main(["run", "--help"]) == 0
    assert "(0.05: 5%)" in capsys.readouterr().out  # steady-state's relevance, a shorthand of run
    assert cli.main(["--help"]) == 0
    assert cli._literal("100% of 5%(x)") == "100%% of 5%%(x)"


# ---------------------------------------------------------------- item 3: --debug after the command


def test_debug_is_accepted_after_the_command(cfg, capsys, monkeypatch):
    code, out, err = run(capsys, "describe", str(cfg / "a.txt"), "--debug")
    assert code == 0 and "mean" in out, err

    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "cmd_describe", boom)
    monkeypatch.setitem(cli.COMMANDS, "describe", boom)
    code, _, err = run(capsys, "describe", str(cfg / "a.txt"))
    assert code == 3 and "rerun with --debug" in err
    with pytest.raises(RuntimeError, match="a bug"):
        cli.main(["describe", str(cfg / "a.txt"), "--debug"])


# ---------------------------------------------------------------- item 6: -o names, full disks, stdout


def test_a_long_valid_output_name_is_written(cfg, capsys):
    target = cfg / ("r" * 246 + ".txt")  # 250 bytes: valid; the temporary file's name must be too
    code, _, err = run(capsys, "describe", str(cfg / "a.txt"), "-o", str(target))
    assert code == 0, err
    assert target.read_text().startswith("perfrigor report")
    assert [p.name for p in cfg.iterdir() if p.name.endswith(".tmp")] == []


def test_an_output_name_too_long_is_refused_before_the_work(cfg, capsys, monkeypatch):
    monkeypatch.setattr(pr.Pipeline, "run", lambda *a, **k: pytest.fail("the analysis ran"))
    target = cfg / ("r" * 300 + ".txt")
    usage_error(*run(capsys, "describe", str(cfg / "a.txt"), "-o", str(target))[::2], "file name is 304 bytes")


def test_a_full_disk_names_the_picture_it_could_not_write(cfg, capsys, monkeypatch):
    pytest.importorskip("matplotlib")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    target = cfg / "a-plot.png"
    code, _, err = run(capsys, "describe", str(cfg / "a.txt"), "--plot", str(target))
    usage_error(code, err, "No space left on device", str(target))
    code, _, err = run(capsys, "describe", str(cfg / "a.txt"), "-o", str(cfg / "r.txt"))
    usage_error(code, err, "No space left on device", "r.txt")


def test_dash_means_standard_output_and_a_device_gets_a_message_saying_so(cfg, capsys):
    code, out, err = run(capsys, "describe", str(cfg / "a.txt"), "-o", "-")
    assert code == 0 and out.startswith("perfrigor report") and not (cfg.parent / "-").exists(), err
    code, out, _ = run(capsys, "describe", str(cfg / "a.txt"), "-o", "-", "--format", "json")
    assert json.loads(out)["pipeline"] == "describe"
    usage_error(*run(capsys, "describe", str(cfg / "a.txt"), "-o", os.devnull)[::2], "not a regular file",
                "-o -")


def test_an_empty_output_or_plot_name_is_refused_not_ignored(cfg, capsys):
    """-o "$UNSET" printed the report on standard output, --plot "" drew nothing, both in silence."""
    usage_error(*run(capsys, "describe", str(cfg / "a.txt"), "-o", "")[::2], "-o ''", "-o -")
    usage_error(*run(capsys, "describe", str(cfg / "a.txt"), "--plot", "")[::2], "--plot")


# ---------------------------------------------------------------- item 7: --timeout applies without --jobs


def test_timeout_without_jobs_applies(cfg, capsys):
    code, _, err = run(capsys, "describe", str(cfg / "a.txt"), "--timeout", "1e-9")
    usage_error(code, err, "no result within the timeout")
    code, out, err = run(capsys, "describe", str(cfg / "a.txt"), "--timeout", "600")
    assert code == 0 and "mean" in out, err
