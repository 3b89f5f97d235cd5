"""Readers: every format, and every error names the file and the line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest

from .helpers import error, write

FIX = Path(__file__).parent / "fixtures"

# only the framework's readers: these tests do not depend on the method plugins
pytestmark = pytest.mark.usefixtures("core_only")


# ---------------------------------------------------------------- one value per line


def test_values_file_skips_comments_and_blank_lines():
    s = pr.read(FIX / "values.txt")
    assert isinstance(s, pr.Sample)
    assert s.values.tolist() == [2.02, 2.25, 2.30]
    assert s.name == "values.txt" and s.lower_is_better


def test_values_options(tmp_path):
    s = pr.read(write(tmp_path, "ops.txt", "100\n120,\n"), unit="ops/s", lower_is_better=False)
    assert s.values.tolist() == [100, 120] and s.unit == "ops/s" and not s.lower_is_better


@pytest.mark.parametrize("text, line, words", [
    ("1.0\n2.0\nnot-a-number\n3.0\n", 3, "is not a number"),
    ("1.0\n\n# c\n1 2\n", 4, "several values"),
    ("1.0\nnan\n", 2, "not a finite number"),
    ("1.0\ninf\n", 2, "not a finite number"),
])
def test_values_errors_name_file_and_line(tmp_path, text, line, words):
    p = write(tmp_path, "v.txt", text)
    msg = error(p)
    assert msg.startswith(f"{p}, line {line}:") and words in msg


def test_empty_and_comment_only_files(tmp_path):
    assert "empty file" in error(write(tmp_path, "e.txt", ""))
    assert "no measurements" in error(write(tmp_path, "c.txt", "# nothing\n"), format="values")


def test_an_unknown_or_mistyped_reader_option_is_a_config_error(tmp_path):
    p = write(tmp_path, "v.txt", "1\n")
    with pytest.raises(pr.ConfigError, match=r"reader 'values': unknown option 'value' \(it takes unit=, "
                                             r"lower_is_better=\)"):
        pr.read(p, value="x")
    with pytest.raises(pr.ConfigError, match=r"option lower_is_better= must be true or false, got 'no'"):
        pr.read(p, lower_is_better="no")


# ---------------------------------------------------------------- tidy CSV


def test_tidy_csv_builds_balanced_hierarchical_suite():
    suite = pr.read(FIX / "tidy.csv")
    assert isinstance(suite, pr.Suite)
    assert suite.benchmarks == ["fib", "sort"] and suite.systems == ("old", "new")
    s = suite["fib"]["old"]
    assert s.levels == ("invocation", "iteration") and s.shape == (2, 3)
    assert s.unit == "ms" and s.lower_is_better  # from the column name time_ms
    np.testing.assert_allclose(s.values, [[10.1, 10.3, 10.2], [10.6, 10.4, 10.5]])


def test_tidy_csv_explicit_mapping_and_order_of_first_appearance(tmp_path):
    p = write(tmp_path, "t.csv", "prog;impl;fork;t\nb;z;2;1\nb;z;2;2\nb;z;1;3\nb;z;1;4\nb;a;1;5\nb;a;1;6\nb;a;2;7\nb;a;2;8\n")
    suite = pr.read(p, benchmark="prog", system="impl", value="t", levels=["fork"], unit="cycles")
    assert suite.systems == ("z", "a")
    z = suite["b"]["z"]
    # fork 2 first (first appearance); rows inside a fork form the implicit innermost level
    assert z.levels == ("fork", "iteration") and z.values.tolist() == [[1, 2], [3, 4]] and z.unit == "cycles"


def test_tidy_csv_single_benchmark_and_system_is_a_sample(tmp_path):
    s = pr.read(write(tmp_path, "one.csv", "time\n1.5\n1.6\n1.7\n"))
    assert isinstance(s, pr.Sample) and s.values.tolist() == [1.5, 1.6, 1.7] and s.levels == ("run",)


def test_tidy_csv_throughput_is_higher_is_better(tmp_path):
    suite = pr.read(write(tmp_path, "tp.tsv", "benchmark\tsystem\tthroughput\nx\ta\t10\nx\tb\t12\n"))
    assert not suite["x"]["a"].lower_is_better


def test_tidy_csv_unit_column(tmp_path):
    s = pr.read(write(tmp_path, "u.csv", "value,unit\n1,ms\n2,ms\n"))
    assert s.unit == "ms"
    assert "several units" in error(write(tmp_path, "u2.csv", "value,unit\n1,ms\n2,s\n"))


def test_tidy_csv_unbalanced_unit_is_named(tmp_path):
    text = ("benchmark,system,invocation,iteration,value\n"
            "fib,old,1,1,1\nfib,old,1,2,1\nfib,old,2,1,1\n")
    p = write(tmp_path, "unb.csv", text)
    msg = error(p)
    assert "benchmark 'fib', system 'old'" in msg and "invocation 2" in msg
    assert "invocation 2 has 1 iteration(s) where invocation 1 has 2" in msg and f"{p}, line 4" in msg


def test_tidy_csv_unbalanced_rows_per_unit(tmp_path):
    text = "benchmark,system,invocation,value\nb,s,1,1\nb,s,1,2\nb,s,2,3\n"
    msg = error(write(tmp_path, "rows.csv", text))
    assert "invocation 2 has 1 measurement(s) where invocation 1 has 2" in msg and "benchmark 'b', system 's'" in msg


def test_tidy_csv_unbalanced_middle_level(tmp_path):
    text = ("benchmark,system,build,invocation,value\n"
            "b,s,1,1,1\nb,s,1,2,1\nb,s,2,1,1\n")
    msg = error(write(tmp_path, "unb.csv", text))
    assert "build 2 has 1 invocation(s) where build 1 has 2" in msg


@pytest.mark.parametrize("row, line, words", [
    ("fib,old,,", 3, "missing 'value'"),
    ("fib,old,1,abc", 3, "'abc' is not a number"),
    ("fib,old,1,nan", 3, "not a finite number"),
    ("fib,old,1", 3, "3 field(s) where the header has 4"),
    (",old,1,2", 3, "missing 'benchmark'"),
])
def test_tidy_csv_cell_errors_name_line(tmp_path, row, line, words):
    p = write(tmp_path, "bad.csv", f"benchmark,system,run,value\nfib,old,1,2\n{row}\n")
    msg = error(p)
    assert msg.startswith(f"{p}, line {line}:") and words in msg


def test_tidy_csv_mapping_errors(tmp_path):
    p = write(tmp_path, "m.csv", "a,b\nx,y\n")
    assert "cannot tell which column holds the measurements" in error(p)
    assert "no column(s) ['nope']" in error(p, value="nope")
    assert "only a header" in error(write(tmp_path, "h.csv", "benchmark,value\n"))
    assert "columns 'value' and 'value' have the same name" in error(write(tmp_path, "d.csv", "value,value\n1,2\n"))
    with pytest.raises(pr.ConfigError, match=r"unknown option 'colour'"):
        pr.read(p, value="b", colour=1)


# ---------------------------------------------------------------- tidy JSON records


def test_tidy_json_records():
    suite = pr.read(FIX / "records.json")
    assert isinstance(suite, pr.Suite) and suite.systems == ("old", "new")
    assert suite["fib"]["new"].values.tolist() == [8.1, 8.0, 8.2]


def test_tidy_json_errors_name_the_record_line(tmp_path):
    p = write(tmp_path, "r.json", '[\n {"system": "a", "value": 1},\n {"system": "a", "value": "x"}\n]\n')
    msg = error(p)
    assert msg.startswith(f"{p}, line 3:") and "'value' 'x' is a string, not a JSON number" in msg
    p = write(tmp_path, "r2.json", '[\n {"value": 1},\n 5\n]\n')
    assert f"{p}, line 3: record 2 is a int" in error(p, format="tidy-json")


# ---------------------------------------------------------------- JSON values


def test_json_arrays_nested_and_mappings(tmp_path):
    nested = pr.read(FIX / "values_nested.json")
    assert nested.shape == (3, 3) and nested.levels == ("invocation", "iteration")
    suite = pr.read(FIX / "suite.json")
    assert suite.benchmarks == ["fib", "sort"] and suite.systems == ("old", "new")
    flat = pr.read(write(tmp_path, "a.json", "[1, 2, 3]"))
    assert isinstance(flat, pr.Sample) and flat.values.tolist() == [1, 2, 3]
    one_system = pr.read(write(tmp_path, "s.json", '{"x": [1, 2], "y": [3, 4]}'))
    assert one_system.systems == ("s.json",) and one_system.benchmarks == ["x", "y"]


def test_json_values_errors_name_line(tmp_path):
    p = write(tmp_path, "n.json", "[[1, 2],\n [3]]")
    msg = error(p)
    assert msg.startswith(f"{p}, line 2:") and "unbalanced" in msg
    p = write(tmp_path, "x.json", '[1,\n 2,\n "three"]')
    assert error(p).startswith(f"{p}, line 3:")
    p = write(tmp_path, "nan.json", '{"b": {"s": [1,\n NaN]}}')
    assert "line 2" in error(p) and "finite" in error(p)
    p = write(tmp_path, "syntax.json", '[1,\n 2,,\n 3]')
    assert error(p).startswith(f"{p}, line 2: invalid JSON")


# ---------------------------------------------------------------- pyperf


def test_pyperf_one_benchmark_is_a_hierarchical_sample():
    s = pr.read(FIX / "pyperf_telco.json")
    assert isinstance(s, pr.Sample)
    assert s.shape == (4, 3) and s.levels == ("run", "value") and s.unit == "s"
    assert s.values[0].tolist() == [0.02251, 0.02246, 0.02249]
    assert s.metadata["warmups_excluded"] == 8 and s.metadata["calibration_runs_excluded"] == 1
    assert s.summary()["metadata"]["runs"] == 4


def test_pyperf_suite_and_unbalanced_runs():
    suite = pr.read(FIX / "pyperf_suite.json")
    assert suite.benchmarks == ["json_dumps", "nbody"]
    assert suite["json_dumps"]["pyperf_suite.json"].shape == (2, 3)
    nbody = suite["nbody"]["pyperf_suite.json"]
    assert nbody.shape == (5,) and "unequal" in nbody.metadata["flattened"]


def test_pyperf_errors(tmp_path):
    doc = json.loads((FIX / "pyperf_telco.json").read_text())
    doc["benchmarks"][0]["runs"][2]["values"][1] = "slow"
    p = write(tmp_path, "bad.json", json.dumps(doc, indent=1))
    msg = error(p)
    assert "run 3 value 'slow' is a string, not a JSON number" in msg and ", line " in msg
    line = int(msg.split(", line ")[1].split(":")[0])
    assert '"slow"' in p.read_text().splitlines()[line - 1]
    p = write(tmp_path, "calib.json", '{"benchmarks": [{"metadata": {"name": "x"}, "runs": [\n{"warmups": [[1, 2.0]]}]}]}')
    assert "no values" in error(p)


# ---------------------------------------------------------------- hyperfine


def test_hyperfine_commands_are_systems():
    suite = pr.read(FIX / "hyperfine.json")
    assert suite.benchmarks == ["hyperfine"]
    assert suite.systems == ("./sort-old input.txt", "./sort-new input.txt")
    new = suite["hyperfine"]["./sort-new input.txt"]
    assert new.values.size == 10 and new.metadata["failed_runs_kept"] == 1


def test_hyperfine_single_command_and_errors(tmp_path):
    s = pr.read(write(tmp_path, "h.json", '{"results": [{"command": "a", "times": [0.1, 0.2]}]}'))
    assert isinstance(s, pr.Sample) and s.name == "a"
    p = write(tmp_path, "h2.json", '{"results": [\n  {"command": "a", "mean": 0.1}]}')
    assert error(p).startswith(f"{p}, line 2: command 'a' has no \"times\"")
    p = write(tmp_path, "h3.json", '{"results": [{"command": "a",\n "times": [0.1,\n null]}]}')
    assert error(p).startswith(f"{p}, line 3: missing")


# ---------------------------------------------------------------- Google Benchmark


def test_gbench_repetitions_without_aggregates():
    suite = pr.read(FIX / "gbench.json")
    assert suite.benchmarks == ["BM_StringCopy/64", "BM_StringCompare/1024"]
    s = suite["BM_StringCopy/64"]["gbench.json"]
    doc = json.loads((FIX / "gbench.json").read_text())
    expected = [b["real_time"] for b in doc["benchmarks"]
                if b["run_name"] == "BM_StringCopy/64" and b["run_type"] == "iteration"]
    assert s.values.tolist() == expected and s.unit == "ns"
    assert s.metadata["aggregates_excluded"] == 4


def test_gbench_cpu_time_single_benchmark_and_errors(tmp_path):
    s = pr.read(FIX / "gbench_one.json", metric="cpu_time")
    assert isinstance(s, pr.Sample) and s.metadata["metric"] == "cpu_time"
    doc = json.loads((FIX / "gbench_one.json").read_text())
    doc["benchmarks"][1] |= {"error_occurred": True, "error_message": "out of memory"}
    p = write(tmp_path, "err.json", json.dumps(doc, indent=1))
    msg = error(p)
    assert "reported an error: out of memory" in msg and ", line " in msg
    with pytest.raises(pr.ConfigError, match="option metric= must be one of 'real_time', 'cpu_time', got 'wall'"):
        pr.read(FIX / "gbench_one.json", metric="wall")


# ---------------------------------------------------------------- dispatch


def test_read_dispatch_errors(tmp_path):
    assert "no such file" in error(tmp_path / "missing.txt")
    assert "is a directory" in error(tmp_path)
    assert "unrecognised input format" in error(write(tmp_path, "x.bin", "hello world\n"))
    with pytest.raises(pr.ConfigError, match="unknown input format 'csvv'"):
        pr.read(FIX / "tidy.csv", format="csvv")


def test_sniffing_picks_each_format():
    from perfrigor.readers import sniff

    expected = {"values.txt": "values", "tidy.csv": "tidy-csv", "records.json": "tidy-json",
                "suite.json": "json", "values_nested.json": "json", "pyperf_telco.json": "pyperf",
                "hyperfine.json": "hyperfine", "gbench.json": "gbench"}
    for name, reader in expected.items():
        assert sniff(FIX / name).name == reader, name


def test_speedup_test_samples_from_shared_data():
    root = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "speedup-test-samples" / "manual_example"
    if not root.is_dir():
        pytest.skip("shared data not available")
    s = pr.read(root / "bench1.data.1")
    assert s.values[:3].tolist() == [2.02, 2.25, 2.30]


def test_tidy_csv_does_not_claim_other_tables(tmp_path):
    from perfrigor.readers.tidy_csv import TidyCsvReader

    head = "Name,Sample1,Sample2,ConfLevel,Coef\n"
    assert not TidyCsvReader().sniff(tmp_path / "bench.cfg", head)
    assert TidyCsvReader().sniff(tmp_path / "runs.txt", "benchmark,time\n")
    assert not TidyCsvReader().sniff(tmp_path / "runs.txt", "time\n")
