"""Strict input (issues 14, 16, 18): every minimal input the fuzzing found is read right, or refused with
one line naming the file (and the line) -- never a crash, a silent loss or a misread.
"""

from __future__ import annotations

import json
import subprocess
import sys

import perfrigor as pr
import pytest
from perfrigor.readers.numbers import shown

from .helpers import error, write

BIG = "1" + "0" * 400  # an integer no float holds


def check(msg: str, path, line: int | None = None) -> None:
    assert msg.startswith(f"{path}, line {line}:" if line else str(path)), msg
    assert "\n" not in msg


# ---------------------------------------------------------------- one number parser


@pytest.mark.parametrize("text, why", [
    ("1_000", "no digit separators: write 1000"),
    ("\u0661\u0662\u0663", "is not ASCII"),  # Arabic-Indic 123
    ("\uff11", "is not ASCII"),  # a full-width 1
    ("0x1p3", "is not a number"),
    ("inf", "not a finite number (infinity and NaN are not measurements)"),
    ("-Infinity", "not a finite number"),
    ("NaN", "not a finite number"),
    ("1.#INF", "not a finite number"),
    ("1e400", "too large for a floating-point number"),
    ("\u00a01.5", "is not ASCII"),  # a no-break space is not white space in a number
])
def test_values_refuse_what_no_tool_writes_naming_file_line_and_text(tmp_path, text, why):
    p = write(tmp_path, "v.txt", f"1.0\n2.0\n{text}\n")
    msg = error(p)
    check(msg, p, 3)
    assert why in msg and shown(text) in msg


@pytest.mark.parametrize("text, value", [
    ("1", 1.0), ("-2.5", -2.5), ("+3", 3.0), ("1.", 1.0), (".5", 0.5), ("1e-05", 1e-05), ("1.0E10", 1e10),
    ("1.5e+300", 1.5e300), ("  7  ", 7.0), ("4.9406564584124654E-324", 5e-324), ("1e-400", 0.0),
])
def test_the_number_forms_c_python_go_java_and_spreadsheets_write_are_read(text, value):
    assert pr.parse_number(text, "here") == value


def test_one_parser_for_values_csv_cells_go_and_cfg_fields(tmp_path):
    for name, text, line in [
        ("v.txt", "1\n1_000\n", 2),
        ("t.csv", "benchmark,value\na,1\na,1_000\n", 3),
        ("go.txt", "BenchmarkA 10 1_000 ns/op\n", 1),
    ]:
        p = write(tmp_path, name, text)
        msg = error(p, format="go") if name == "go.txt" else error(p)
        check(msg, p, line)
        assert "'1_000' is not a number (no digit separators" in msg


def test_numbers_given_as_json_strings_are_refused_by_every_json_reader(tmp_path):
    docs = {
        "json": ["1.5", 2.0],
        "tidy-json": [{"benchmark": "a", "value": "1.5"}, {"benchmark": "a", "value": 2.0}],
        "pyperf": {"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"values": ["1.5", 2.0]}]}]},
        "hyperfine": {"results": [{"command": "a", "times": ["1.5", 2.0]}]},
        "gbench": {"context": {}, "benchmarks": [{"name": "a", "real_time": "1.5", "time_unit": "ns"}]},
        "pytest-benchmark": {"machine_info": {}, "benchmarks": [{"name": "a", "stats": {"data": ["1.5", 2.0]}}]},
    }
    for fmt, doc in docs.items():
        p = write(tmp_path, f"{fmt}.json", json.dumps(doc))
        msg = error(p, format=fmt)
        check(msg, p, 1)
        assert "'1.5' is a string, not a JSON number (write numbers without quotes)" in msg, (fmt, msg)


def test_a_csv_cell_or_a_dataframe_string_is_text_and_read_as_a_number(tmp_path):
    p = write(tmp_path, "t.csv", 'benchmark,value\na,"1.5"\na, 2e0 \n')
    assert pr.read(p).values.tolist() == [1.5, 2.0]


# ---------------------------------------------------------------- crashes that were (issue 16)


@pytest.mark.parametrize("name, text", [
    ("j.json", f"[[{BIG}, 1], [1, 2]]"),
    ("j2.json", f"[{BIG}, 1]"),
    ("r.json", f'[{{"benchmark": "a", "value": {BIG}}}]'),
    ("h.json", f'{{"results": [{{"command": "a", "times": [{BIG}, 1]}}]}}'),
    ("t.csv", f"benchmark,value\na,{BIG}\n"),
    ("d.json", "[" + "9" * 5000 + ", 1]"),  # beyond Python's int-from-text limit
])
def test_integers_too_large_for_a_float_are_a_data_error(tmp_path, name, text):
    p = write(tmp_path, name, text)
    msg = error(p)
    check(msg, p, 1 if name != "t.csv" else 2)
    assert "too large for a floating-point number" in msg or "bad number" in msg


@pytest.mark.parametrize("doc, what", [
    ({"benchmarks": True}, 'no "benchmarks" array'),
    ({"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"warmups": True, "values": [1.0, 2.0]}]}]},
     '"warmups" is true, not an array'),
    ({"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"warmups": {"a": 1}, "values": [1.0, 2.0]}]}]},
     '"warmups" is an object, not an array'),
    ({"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"warmups": "x", "values": [1.0, 2.0]}]}]},
     '"warmups" is a string, not an array'),
    ({"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"warmups": [[1]], "values": [1.0, 2.0]}]}]},
     "warmup 1 is an array, not a [loops, value] pair"),
    ({"metadata": [], "benchmarks": [{"metadata": {"name": "a"}, "runs": [{"values": [1.0, 2.0]}]}]},
     "\"metadata\" is an array, not an object"),
    ({"benchmarks": [{"metadata": [], "runs": [{"values": [1.0, 2.0]}]}]}, "\"metadata\" is an array, not an object"),
    ({"benchmarks": [{"metadata": {"name": ["a"]}, "runs": [{"values": [1.0, 2.0]}]}]},
     '"name" is an array, not a name'),
    ({"benchmarks": [{"metadata": {"name": "a"}, "runs": [{"values": 0}]}]}, '"values" is a number, not an array'),
])
def test_pyperf_types_fixed_by_its_schema_are_checked(tmp_path, doc, what):
    p = write(tmp_path, "p.json", json.dumps(doc))
    msg = error(p, format="pyperf")
    check(msg, p)
    assert what in msg, msg


@pytest.mark.parametrize("result, what", [
    ({"times": [1.0, 2.0], "exit_codes": 5}, '"exit_codes" is a number, not an array'),
    ({"times": [1.0, 2.0], "exit_codes": [0]}, "1 exit code(s) for 2 time(s)"),
    ({"times": [1.0, 2.0], "exit_codes": [0, "x"]}, "exit code 2 is a string, not an integer"),
    ({"times": 5}, '"times" is a number, not an array'),
    ({"times": [1.0, 2.0], "parameters": [1]}, '"parameters" is an array, not an object'),
])
def test_hyperfine_types_and_exit_codes_length_are_checked(tmp_path, result, what):
    p = write(tmp_path, "h.json", json.dumps({"results": [{"command": "a", **result}]}))
    msg = error(p, format="hyperfine")
    check(msg, p, 1)
    assert what in msg, msg


@pytest.mark.parametrize("entry, what", [
    ({"name": ["a"]}, '"name" is an array, not a name'),
    ({"name": "a", "run_name": {"x": 1}}, '"run_name" is an object, not a name'),
    ({"name": "a", "run_type": 3}, '"run_type" is a number, not a string'),
    ({"name": "a", "run_type": "other"}, "run_type 'other' is not 'iteration' or 'aggregate'"),
    ({"name": "a", "error_occurred": "yes"}, '"error_occurred" is a string, not true or false'),
])
def test_gbench_names_are_strings(tmp_path, entry, what):
    doc = {"context": {}, "benchmarks": [{"real_time": 1.0, "time_unit": "ns", **entry}]}
    p = write(tmp_path, "g.json", json.dumps(doc))
    msg = error(p, format="gbench")
    check(msg, p, 1)
    assert what in msg, msg


def test_a_json_values_error_names_the_file(tmp_path):
    p = write(tmp_path, "d.json", '{"date": 5, "sort": [1, 2]}')
    msg = error(p)
    check(msg, p, 1)
    assert "'date'" in msg or "date:" in msg


# ---------------------------------------------------------------- silent loss and misreads (issue 16)


def test_csv_rows_beginning_with_hash_after_the_header_are_data(tmp_path):
    p = write(tmp_path, "t.csv", "# a comment above the header\nbenchmark,Time\nsort,0.001\n#hash,0.002\n")
    suite = pr.read(p)
    assert suite.benchmarks == ["sort", "#hash"] if isinstance(suite, pr.Suite) else False
    p = write(tmp_path, "all.csv", "benchmark,Time\n#a,1\n#a,2\n#b,3\n#b,4\n")
    assert pr.read(p).benchmarks == ["#a", "#b"]


def test_the_issue_example_gives_two_systems(tmp_path):
    p = write(tmp_path, "t.csv", "config,Time\nsort,0.001\n#hash,0.002\n")
    suite = pr.read(p)
    assert isinstance(suite, pr.Suite) and suite.systems == ("sort", "#hash")


def test_duplicate_json_keys_are_an_error_naming_both(tmp_path):
    p = write(tmp_path, "d.json", '{"re": [],\n "re": {"O3": [1.0, 2.0]}}')
    msg = error(p)
    check(msg, p, 2)
    assert "key 're' appears twice in one object (lines 1 and 2)" in msg


@pytest.mark.parametrize("name, text, both", [
    ("t.csv", "benchmark,time,TIME\na,1,2\n", ("time", "TIME")),
    ("v.csv", "benchmark,value,VALUE\na,1,2\n", ("value", "VALUE")),
    ("r.json", '[{"benchmark": "a", "value": 1, "VALUE": 2}]', ("value", "VALUE")),
])
def test_columns_differing_only_in_case_are_an_error_naming_both(tmp_path, name, text, both):
    p = write(tmp_path, name, text)
    msg = error(p)
    check(msg, p)
    assert f"columns {both[0]!r} and {both[1]!r} have names that differ only in case" in msg


def test_a_tidy_label_must_be_a_name(tmp_path):
    p = write(tmp_path, "r.json", '[{"benchmark": ["a"], "value": 1}]')
    msg = error(p)
    check(msg, p, 1)
    assert "'benchmark' is an array, not a name" in msg


# ---------------------------------------------------------------- direction (issue 18)


@pytest.mark.parametrize("column, unit, lower", [
    ("ops", "", False),
    ("ops/s", "ops/s", False),
    ("throughput", "", False),
    ("throughput (ops/s)", "ops/s", False),
    ("items_per_second", "", False),
    ("items/s", "", False),
    ("bandwidth_MB/s", "MB/s", False),
    ("time_ms", "ms", True),
    ("time (us)", "us", True),
    ("runtimes", "s", True),  # not "runtime" + "s": the default unit
    ("seconds", "s", True),
    ("time", "s", True),
])
def test_direction_comes_from_an_explicit_unit_or_a_rate_name(tmp_path, column, unit, lower):
    p = write(tmp_path, "t.csv", f"benchmark,system,{column}\nb,old,100\nb,old,101\nb,new,120\nb,new,121\n")
    sample = pr.read(p, value=column)["b"]["old"]
    assert (sample.unit, sample.lower_is_better) == (unit, lower)
    if column != "runtimes":  # found without value= too
        assert pr.read(p)["b"]["old"].lower_is_better is lower
    assert ("direction" in sample.metadata) == (not lower or column not in ("time", "runtimes"))


def test_ops_is_not_split_into_op_and_s(tmp_path):
    # issue 18: a 20% throughput gain read as a lower-is-better time was reported "slower"
    assert pr.readers.tidy.split_unit("ops") == ("ops", None)
    p = write(tmp_path, "t.csv", "benchmark,system,ops\nb,old,100\nb,old,101\nb,new,120\nb,new,121\n")
    old = pr.read(p)["b"]["old"]
    assert old.lower_is_better is False and old.metadata["direction"] == "higher is better (column 'ops' names a rate)"


def test_a_unit_and_a_name_that_disagree_must_be_settled(tmp_path):
    p = write(tmp_path, "t.csv", "benchmark,throughput_ms\nb,1\nb,2\n")
    msg = error(p)
    check(msg, p)
    assert "say which with lower_is_better=" in msg
    assert pr.read(p, lower_is_better=False).lower_is_better is False


def test_a_unit_column_gives_the_direction(tmp_path):
    p = write(tmp_path, "t.csv", "benchmark,value,unit\nb,1,ops/s\nb,2,ops/s\n")
    sample = pr.read(p)
    assert (sample.unit, sample.lower_is_better) == ("ops/s", False)


def test_the_inputs_table_shows_why_higher_is_better(tmp_path):
    p = write(tmp_path, "t.csv", "benchmark,system,ops\nb,old,100\nb,old,101\nb,old,99\n"
                                 "b,new,120\nb,new,121\nb,new,119\n")
    report = pr.pipeline("default").run(p)
    text = report.render("markdown")
    assert "higher is better (column 'ops' names a rate)" in text


# ---------------------------------------------------------------- Speedup-Test cfg (issue 18)


def cfg(tmp_path, sample1: str, sample2: str = "b.txt", name: str = "bench.cfg"):
    (tmp_path / "b.txt").write_text("1.0\n1.1\n")
    return write(tmp_path, name, f"Name,Sample1,Sample2,ConfLevel,Coef\nx,{sample1},{sample2},NA,NA\n")


@pytest.mark.parametrize("target", ["/etc/passwd", "../outside.txt", "/proc/self/environ"])
def test_a_cfg_reads_nothing_outside_its_folder(tmp_path, target):
    folder = tmp_path / "cfg"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text("root:x:0:0:secret\n")
    p = cfg(folder, target)
    msg = error(p, format="speedup-test-config")
    check(msg, p, 2)
    assert "is outside the cfg's folder" in msg and "allow_outside=true" in msg


def test_a_symbolic_link_out_of_the_folder_is_outside(tmp_path):
    folder = tmp_path / "cfg"
    folder.mkdir()
    (tmp_path / "secret.txt").write_text("1\n2\n")
    (folder / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert "is outside the cfg's folder" in error(cfg(folder, "link.txt"), format="speedup-test-config")


def test_allow_outside_reads_there_but_never_echoes_the_file(tmp_path):
    folder = tmp_path / "cfg"
    folder.mkdir()
    (tmp_path / "outside.txt").write_text("1.0\n1.2\n")
    suite = pr.read(cfg(folder, "../outside.txt"), format="speedup-test-config", allow_outside=True)
    assert suite["x"]["initial"].values.tolist() == [1.0, 1.2]
    (tmp_path / "secret.txt").write_text("root:x:0:0:SECRET\n")
    msg = error(cfg(folder, "../secret.txt"), format="speedup-test-config", allow_outside=True)
    assert "SECRET" not in msg and "root:x" not in msg
    assert msg.startswith(f"{tmp_path / 'secret.txt'}, line 1: not one finite number (expected one execution time")


def test_a_cfg_with_a_nul_byte_is_a_data_error(tmp_path):
    p = tmp_path / "bench.cfg"
    p.write_bytes(b"Name,Sample1,Sample2,ConfLevel,Coef\nx,a\x00.txt,b.txt,NA,NA\n")
    msg = error(p, format="speedup-test-config")
    check(msg, p, 2)
    assert "NUL byte" in msg


def test_a_cfg_option_is_typed(tmp_path):
    with pytest.raises(pr.ConfigError, match="allow_outside= must be true or false"):
        pr.read(cfg(tmp_path, "b.txt"), format="speedup-test-config", allow_outside="yes")


# ---------------------------------------------------------------- options and the CLI


def test_a_wrong_reader_option_exits_2_with_one_line(tmp_path):
    p = write(tmp_path, "v.txt", "1\n2\n3\n")
    proc = subprocess.run([sys.executable, "-m", "perfrigor", "describe", str(p), "--input", "colour=1"],
                          capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "unknown option 'colour'" in proc.stderr


def test_values_1_000_exits_2_with_one_line(tmp_path):
    p = write(tmp_path, "v.txt", "1\n1_000\n3\n")
    proc = subprocess.run([sys.executable, "-m", "perfrigor", "describe", str(p)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert f"{p}, line 2: value '1_000' is not a number" in proc.stderr


def test_a_throughput_gain_in_an_ops_column_is_faster_and_passes_fail_on_regression(tmp_path):
    # issue 18: "fieller: 2 slower" and --fail-on-regression failing CI on a 20% throughput gain
    rows = [f"b{k},{system},{base * (1 + 0.01 * (i % 5 - 2))}" for k in (1, 2)
            for system, base in (("old", 1000.0), ("new", 1200.0)) for i in range(10)]
    p = write(tmp_path, "ops.csv", "benchmark,system,ops\n" + "\n".join(rows) + "\n")
    report = pr.pipeline("default").run(p)
    assert {b: v.outcome for b, v in report.verdicts.items()} == {"b1": "faster", "b2": "faster"}
    proc = subprocess.run([sys.executable, "-m", "perfrigor", "run", "--pipeline", "default", str(p),
                           "--fail-on-regression"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
