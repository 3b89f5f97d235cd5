"""Readers of the tools' own formats: Go, JMH, criterion.rs, pytest-benchmark, Google Benchmark, pyperf .gz.

Most cases read the peers' files in tests/fixtures/ (see each folder's ORIGIN.md); small
hand-written files cover what those do not (several forks, histograms, errors).
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor.readers import sniff

from .helpers import error, write

PEERS = Path(__file__).resolve().parents[1] / "fixtures"

pytestmark = pytest.mark.usefixtures("core_only")


def value_on_its_line(sample: pr.Sample) -> bool:
    """Every value's recorded line holds a number token equal to it (the positions are right)."""
    lines = Path(sample.source).read_text(encoding="utf-8-sig").split("\n")
    for value, line in zip(sample.flat, sample.positions.reshape(-1), strict=True):
        tokens = re.findall(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", lines[line - 1])
        if not any(float(t) == value for t in tokens):
            return False
    return True


# ---------------------------------------------------------------- Go (go test -bench)


def test_go_benchstat_old_file():
    suite = pr.read(PEERS / "benchstat" / "old.txt")
    assert sniff(PEERS / "benchstat" / "old.txt").name == "go"
    assert suite.benchmarks == ["Encode/format=json-48", "Encode/format=gob-48"]  # as benchstat names them
    s = suite["Encode/format=json-48"]["old.txt"]
    assert s.values.tolist() == [1726, 1723, 1707, 1707, 1713, 1729, 1736, 1707, 1705, 1774]
    assert s.unit == "ns/op" and s.lower_is_better and s.metadata["metric"] == "sec/op"
    assert s.positions.tolist() == list(range(4, 14)) and value_on_its_line(s)
    assert s.metadata["other_lines_skipped"] == 1  # PASS


def test_go_crc_files_throughput_metric():
    path = PEERS / "benchstat" / "crc-old.txt"
    times = pr.read(path)
    assert len(times) == 36 and times.benchmarks[0] == "CRC32/poly=IEEE/size=15/align=0-8"
    rates = pr.read(path, metric="B/s")
    s = rates["CRC32/poly=IEEE/size=15/align=0-8"]["crc-old.txt"]
    assert s.unit == "MB/s" and not s.lower_is_better and s.values[0] == 336.59 and s.metadata["metric"] == "B/s"
    assert pr.read(path, metric="MB/s")["CRC32/poly=IEEE/size=15/align=0-8"]["crc-old.txt"].unit == "MB/s"
    assert "no metric 'allocs/op' (metrics: sec/op, B/s)" in error(path, metric="allocs/op")


def test_go_several_metrics_per_line_and_packages(tmp_path):
    text = ("goos: linux\npkg: example.com/a\n"
            "BenchmarkParse-8   \t 1000\t  1200 ns/op\t  512 B/op\t   7 allocs/op\n"
            "BenchmarkParse-8   \t 1000\t  1180 ns/op\t  512 B/op\t   7 allocs/op\n"
            "pkg: example.com/b\nBenchmarkParse-8 1000 900 ns/op 100 B/op 2 allocs/op\nok  \texample.com/b\t1.2s\n")
    p = write(tmp_path, "two.txt", text)
    suite = pr.read(p)
    assert suite.benchmarks == ["example.com/a.Parse-8", "example.com/b.Parse-8"]  # two packages: prefixed
    allocs = pr.read(p, metric="allocs/op")["example.com/a.Parse-8"]["two.txt"]
    assert allocs.values.tolist() == [7, 7] and allocs.unit == "allocs/op" and allocs.lower_is_better
    one = pr.read(write(tmp_path, "one.txt", "BenchmarkX 10 5 ns/op\nBenchmarkX 10 6 ns/op\n"))
    assert isinstance(one, pr.Sample) and one.metadata["benchmark"] == "X" and one.values.tolist() == [5, 6]


def test_go_config_key_as_system():
    path = PEERS / "benchstat" / "units.txt"
    msg = error(path)
    assert "line 13: benchmark 'Size' appears with note: 'after' here and 'before' on line 5" in msg
    assert "system='note'" in msg
    suite = pr.read(path, system="note")
    assert suite.systems == ("before", "after") and suite.benchmarks == ["Size", "NonExact"]
    assert suite["NonExact"]["before"].values.tolist() == [100, 101, 101] and suite["Size"]["after"].unit == "text-bytes"
    issue = pr.read(PEERS / "benchstat" / "issue19565.txt", system="note")  # B and C measured on one side only
    assert issue.benchmarks == ["A"] and issue.only_in == {"before": ["B"], "after": ["C"]}
    golden = (PEERS / "benchstat" / "issue19565.stdout").read_text(encoding="utf-8").splitlines()
    boundary = golden[0].index("│", golden[0].index("│") + 1)  # between benchstat's before and after columns
    one_sided = {line.split()[0]: ("before" if line.index("±") < boundary else "after")
                 for line in golden[2:] if line.count("±") == 1}
    assert one_sided == {"B": "before", "C": "after"}  # benchstat shows them in one column each, as we list them


@pytest.mark.parametrize("line, words", [
    ("BenchmarkX 10 abc ns/op", "ns/op value 'abc' is not a number"),
    ("BenchmarkX 1e3 5 ns/op", "iteration count '1e3' is not a whole number (digits 0-9)"),
    ("BenchmarkX 10 5 ns/op 7", "expected value-unit pairs"),
    ("BenchmarkX 10 NaN ns/op", "is not a finite number"),
    ("BenchmarkX 10 5 ns/op 6 ns/op", "metric sec/op appears twice"),
])
def test_go_bad_result_lines_name_the_line(tmp_path, line, words):
    p = write(tmp_path, "bad.txt", f"goos: linux\nBenchmarkX 10 5 ns/op\n{line}\n")
    msg = error(p, format="go")
    assert msg.startswith(f"{p}, line 3:") and words in msg


def test_go_choosing_a_metric(tmp_path):
    p = write(tmp_path, "m.txt", "BenchmarkA 1 10 a-bytes 20 b-bytes\n")
    assert "several metrics ['a-bytes', 'b-bytes'] and no sec/op" in error(p)
    assert pr.read(p, metric="b-bytes").values.tolist() == [20]
    q = write(tmp_path, "n.txt", "BenchmarkA 1 10 ns/op\nBenchmarkB 1 10 B/op\n")  # issue 24.8: A read, B listed
    suite = pr.read(q)
    assert suite.benchmarks == ["A"] and suite.excluded == {"B": "no sec/op; it reports B/op"}
    assert "no benchmark results" in error(write(tmp_path, "e.txt", "goos: linux\nPASS\n"), format="go")


# ---------------------------------------------------------------- JMH


JCASBIN = "org.casbin.jcasbin.main.benchmark."


def test_jmh_jcasbin_runs_names_units_directions():
    run0 = pr.read(PEERS / "jmh" / "jcasbin_run0.json")
    run1 = pr.read(PEERS / "jmh" / "jcasbin_run1.json")
    assert sniff(PEERS / "jmh" / "jcasbin_run1.json").name == "jmh"
    assert len(run0) == 17 and len(run1) == 11 and set(run1.benchmarks) < set(run0.benchmarks)
    enforce = f"{JCASBIN}BenchmarkEnforce.enforce(dataScale=small, modelType=rbac, useCache=false) [thrpt]"
    s = run1[enforce]["jcasbin_run1.json"]
    doc = json.loads((PEERS / "jmh" / "jcasbin_run1.json").read_text())
    record = next(r for r in doc if r["benchmark"].endswith("enforce") and r["params"] == {
        "dataScale": "small", "modelType": "rbac", "useCache": "false"})
    assert s.values.tolist() == record["primaryMetric"]["rawData"][0]
    assert s.unit == "ops/ms" and not s.lower_is_better and s.levels == ("iteration",)
    assert s.metadata["forks"] == 1 and s.metadata["jmh_score"] == record["primaryMetric"]["score"]
    assert value_on_its_line(s)
    memory = run1[f"{JCASBIN}BenchmarkMemory.measureMemory(scenario=ACL) [ss]"]["jcasbin_run1.json"]
    assert memory.unit == "ms/op" and memory.lower_is_better
    avgt = run0[f"{JCASBIN}enforcer.BenchmarkAllModelApi.addPolicySmall [avgt]"]["jcasbin_run0.json"]
    assert avgt.unit == "ns/op" and avgt.lower_is_better


def jmh_record(name="b.B.m", mode="avgt", raw=None, **extra):
    metric = {"score": 1.0, "scoreUnit": "us/op", "rawData": raw if raw is not None else [[1.0, 2.0], [3.0, 4.0]]}
    return {"benchmark": name, "mode": mode, "forks": len(metric["rawData"]), "primaryMetric": metric, **extra}


def test_jmh_forks_are_a_level(tmp_path):
    doc = [jmh_record(raw=[[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]], params={"size": "10"},
                      secondaryMetrics={"·gc.alloc.rate.norm": {"score": 5, "scoreUnit": "B/op",
                                                                "rawData": [[48.0, 48.0, 48.0], [56.0, 56.0, 56.0]]}}),
           jmh_record(name="b.B.n", mode="thrpt", raw=[[5.0, 6.0], [7.0], []])]
    p = write(tmp_path, "forks.json", json.dumps(doc, indent=2))
    suite = pr.read(p)
    s = suite["b.B.m(size=10) [avgt]"]["forks.json"]
    assert s.levels == ("fork", "iteration") and s.shape == (2, 3) and s.values[1].tolist() == [2.0, 2.1, 2.2]
    assert value_on_its_line(s)
    uneven = suite["b.B.n [thrpt]"]["forks.json"]
    assert uneven.levels == ("iteration",) and uneven.values.tolist() == [5.0, 6.0, 7.0]
    assert "unequal" in uneven.metadata["flattened"] and uneven.metadata["empty_forks"] == 1
    one = write(tmp_path, "one.json", json.dumps(doc[:1], indent=2))
    for name in ("gc.alloc.rate.norm", "·gc.alloc.rate.norm"):
        gc = pr.read(one, metric=name)
        assert gc.unit == "B/op" and gc.lower_is_better and gc.values[1].tolist() == [56.0] * 3
        assert gc.metadata["metric"] == "·gc.alloc.rate.norm" and gc.metadata["benchmark"] == "b.B.m(size=10) [avgt]"
    assert "has no metric 'gc.count' (secondary metrics: gc.alloc.rate.norm" in error(one, metric="gc.count")


def test_jmh_sample_mode_histogram(tmp_path):
    record = jmh_record(mode="sample")
    del record["primaryMetric"]["rawData"]
    record["primaryMetric"]["rawDataHistogram"] = [[[[10.0, 2], [12.5, 1]], [[11.0, 1]]], [[[9.0, 3]]]]
    s = pr.read(write(tmp_path, "h.json", json.dumps([record], indent=1)))
    assert s.values.tolist() == [10.0, 10.0, 12.5, 11.0, 9.0, 9.0, 9.0] and s.metadata["from"] == "rawDataHistogram"


@pytest.mark.parametrize("change, words", [
    (lambda r: r.update(mode="fast"), "mode 'fast' is not a JMH mode"),
    (lambda r: r["primaryMetric"].pop("rawData"), "has a score but no \"rawData\""),
    (lambda r: r["primaryMetric"]["rawData"][1].__setitem__(0, "x"), "fork 2 value 'x' is a string, not a JSON number"),
    (lambda r: r["primaryMetric"].pop("scoreUnit"), "no \"scoreUnit\""),
])
def test_jmh_errors_name_the_line(tmp_path, change, words):
    record = jmh_record()
    change(record)
    p = write(tmp_path, "bad.json", json.dumps([record], indent=2))
    msg = error(p, format="jmh")
    assert words in msg and re.match(rf"{re.escape(str(p))}, line \d+: ", msg)
    twice = write(tmp_path, "twice.json", json.dumps([jmh_record(), jmh_record()], indent=2))
    assert "appears twice (first on line 2)" in error(twice)


# ---------------------------------------------------------------- criterion.rs


CRITERION = PEERS / "criterion" / "criterion"


def test_criterion_directory_is_a_suite():
    suite = pr.read(CRITERION)
    assert suite.systems == ("before", "new") and suite.benchmarks == ["fib 15", "sum/1000", "sum/10000"]
    sample = json.loads((CRITERION / "sum" / "1000" / "before" / "sample.json").read_text())
    s = suite["sum/1000"]["before"]
    assert s.values.tolist() == [t / n for t, n in zip(sample["times"], sample["iters"], strict=True)]
    assert s.unit == "ns" and s.lower_is_better and s.metadata["sampling_mode"] == "Linear"
    assert s.locate(3) == f"{CRITERION / 'sum' / '1000' / 'before' / 'sample.json'}, line 1"


def test_criterion_sample_file_is_a_sample_named_after_its_baseline():
    path = CRITERION / "sum" / "10000" / "new" / "sample.json"
    s = pr.read(path)
    assert sniff(path).name == "criterion"
    assert isinstance(s, pr.Sample) and s.name == "new" and s.metadata["benchmark"] == "sum/10000"


def test_criterion_copies_and_one_sided_benchmarks(tmp_path):
    root = tmp_path / "criterion"
    shutil.copytree(CRITERION, root)
    shutil.copytree(root / "fib 15" / "new", root / "fib 15" / "base")  # what a plain cargo bench leaves
    shutil.rmtree(root / "sum" / "10000" / "before")
    with pytest.raises(pr.DataError, match=r"benchmark 'sum/1000' has no measurements for system\(s\) \['base'\]"):
        pr.read(root)
    shutil.rmtree(root / "fib 15" / "before")
    shutil.rmtree(root / "sum" / "1000" / "before")
    shutil.copytree(root / "sum" / "1000" / "new", root / "sum" / "1000" / "base")
    suite = pr.read(root)
    assert suite.systems == ("base", "new") and suite.only_in == {"new": ["sum/10000"]}
    assert suite["fib 15"]["base"].metadata["same_values_as"] == "new"


def test_criterion_old_format_and_errors(tmp_path):
    d = tmp_path / "x" / "new"
    d.mkdir(parents=True)
    (d / "sample.json").write_text("[[1.0, 2.0], [10.0, 30.0]]")
    assert pr.read(d / "sample.json").values.tolist() == [10.0, 15.0]
    (d / "sample.json").write_text('{"iters": [1.0, 0.0],\n "times": [1.0, 2.0]}')
    assert error(d / "sample.json").endswith("line 1: iteration count 0.0 of sample 2 is not positive")
    (d / "sample.json").write_text('{"iters": [1.0],\n "times": [1.0, 2.0]}')
    assert "line 2: 2 times for 1 iteration counts" in error(d / "sample.json")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "is a directory, and no reader recognises it" in error(empty)


# ---------------------------------------------------------------- pytest-benchmark


def test_pytest_benchmark_files():
    old = pr.read(PEERS / "pytest-benchmark" / "strings_old.json")
    new = pr.read(PEERS / "pytest-benchmark" / "strings_new.json")
    assert old.benchmarks == ["test_join", "test_sum[100]", "test_sum[1000]", "test_removed"]
    assert new.benchmarks == ["test_join", "test_sum[100]", "test_sum[1000]"]
    doc = json.loads((PEERS / "pytest-benchmark" / "strings_old.json").read_text())
    s = old["test_sum[100]"]["strings_old.json"]
    assert s.values.tolist() == doc["benchmarks"][1]["stats"]["data"] and s.unit == "s" and s.lower_is_better
    assert s.metadata["iterations_per_round"] == 10 and s.metadata["params"] == {"n": 100}
    assert value_on_its_line(s)


def test_pytest_benchmark_summary_only_is_refused_naming_the_option():
    path = PEERS / "pytest-benchmark" / "summary_only_0030.json"
    assert sniff(path).name == "pytest-benchmark"
    msg = error(path)
    assert msg.startswith(f"{path}, line 7: benchmark 'test_xfast_parametrized[0]' has summary statistics only")
    assert "--benchmark-save-data" in msg and "--benchmark-json" in msg


def test_pytest_benchmark_same_name_in_two_modules(tmp_path):
    bench = {"name": "test_a", "stats": {"data": [1.0, 2.0]}}
    doc = {"machine_info": {}, "benchmarks": [{**bench, "fullname": "t/x.py::test_a"},
                                              {**bench, "fullname": "t/y.py::test_a"}]}
    suite = pr.read(write(tmp_path, "dup.json", json.dumps(doc)))
    assert suite.benchmarks == ["t/x.py::test_a", "t/y.py::test_a"]


# ---------------------------------------------------------------- Google Benchmark


def test_gbench_compare_py_inputs():
    run1 = pr.read(PEERS / "google-benchmark" / "test1_run1.json")
    assert len(run1) == 14 and "MyComplexityTest" not in run1  # BigO / RMS are aggregates
    s = run1["BM_NotBadTimeUnit"]["test1_run1.json"]
    assert s.unit == "s" and s.values.tolist() == [0.4]
    assert s.metadata["aggregate_only_benchmarks_excluded"] == ["MyComplexityTest"]
    cpu = pr.read(PEERS / "google-benchmark" / "test1_run1.json", metric="cpu_time")
    assert cpu["BM_NotBadTimeUnit"]["test1_run1.json"].values.tolist() == [0.5]
    one = pr.read(PEERS / "google-benchmark" / "test5_run0.json")
    assert isinstance(one, pr.Sample) and one.metadata["benchmark"] == "BM_ManyRepetitions"


def test_gbench_repetitions_in_other_units_are_converted(tmp_path):
    entries = [{"name": "BM_x", "run_type": "iteration", "real_time": 1.5, "cpu_time": 1.5, "time_unit": "us"},
               {"name": "BM_x", "run_type": "iteration", "real_time": 1600, "cpu_time": 1600, "time_unit": "ns"}]
    s = pr.read(write(tmp_path, "mixed.json", json.dumps({"context": {}, "benchmarks": entries}, indent=1)))
    assert s.unit == "us" and s.values.tolist() == [1.5, 1.6] and s.metadata["converted_from"] == ["ns"]


# ---------------------------------------------------------------- pyperf .json.gz, BOM, CRLF


def test_pyperf_gzip_files():
    s = pr.read(PEERS / "pyperf" / "py2.json.gz")
    assert sniff(PEERS / "pyperf" / "py2.json.gz").name == "pyperf"
    assert s.shape == (20, 3) and s.levels == ("run", "value") and s.metadata["benchmark"] == "timeit"
    doc = json.loads(gzip.decompress((PEERS / "pyperf" / "py2.json.gz").read_bytes()))
    assert s.values[0].tolist() == next(r["values"] for r in doc["benchmarks"][0]["runs"] if "values" in r)


def test_damaged_gzip_is_a_data_error(tmp_path):
    raw = gzip.compress(b'{"benchmarks": []}')
    p = tmp_path / "cut.json.gz"
    p.write_bytes(raw[: len(raw) // 2])
    assert "damaged gzip file" in error(p, format="pyperf") or "cannot read" in error(p, format="pyperf")


@pytest.mark.parametrize("name, text, expect, lines", [
    ("v.txt", "\ufeff1.5\r\n2.5\r\n", [1.5, 2.5], [1, 2]),
    ("t.csv", "\ufeffbenchmark,value\r\nx,1\r\nx,2\r\n", [1.0, 2.0], [2, 3]),
    ("j.json", "\ufeff[1.0,\r\n 2.0]\r\n", [1.0, 2.0], [1, 2]),
    ("g.txt", "\ufeffBenchmarkX-4 \t 10\t 3 ns/op\r\nBenchmarkX-4 \t 10\t 4 ns/op\r\n", [3.0, 4.0], [1, 2]),
])
def test_byte_order_mark_and_crlf(tmp_path, name, text, expect, lines):
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8"))
    s = pr.read(p)
    assert s.values.tolist() == expect and s.positions.tolist() == lines


def test_not_utf8_names_the_line(tmp_path):
    p = tmp_path / "latin.txt"
    p.write_bytes(b"1.0\n2.0\n\xe9\n")
    assert error(p, format="values").startswith(f"{p}, line 3: not UTF-8 text")


# ---------------------------------------------------------------- positions of the older readers


@pytest.mark.parametrize("path", [
    Path(__file__).parent / "fixtures" / "values.txt",
    Path(__file__).parent / "fixtures" / "pyperf_telco.json",
    Path(__file__).parent / "fixtures" / "hyperfine.json",
    Path(__file__).parent / "fixtures" / "values_nested.json",
])
def test_every_reader_records_where_each_value_is(path):
    data = pr.read(path)
    samples = [data] if isinstance(data, pr.Sample) else [s for per in data.data.values() for s in per.values()]
    for s in samples:
        assert s.positions is not None and s.positions.shape == s.shape and value_on_its_line(s)


def test_tidy_positions_and_json_record_positions(tmp_path):
    suite = pr.read(Path(__file__).parent / "fixtures" / "tidy.csv")
    s = suite["fib"]["old"]
    assert s.positions.shape == s.shape and value_on_its_line(s)
    records = write(tmp_path, "r.json", '[\n {"system": "a",\n  "value": 1.5},\n {"system": "a", "value": 2.5}\n]')
    assert pr.read(records).positions.tolist() == [3, 4]


# ---------------------------------------------------------------- the registry lists them


def test_list_shows_the_new_readers():
    from perfrigor.registry import get_registry

    names = set(get_registry().readers)
    assert {"go", "jmh", "criterion", "pytest-benchmark", "gbench", "pyperf"} <= names


def test_sniffing_does_not_confuse_the_json_formats():
    expected = {PEERS / "google-benchmark" / "test1_run1.json": "gbench",
                PEERS / "pyperf" / "mult_list_py36.json": "pyperf",
                PEERS / "jmh" / "jcasbin_run0.json": "jmh",
                PEERS / "pytest-benchmark" / "strings_old.json": "pytest-benchmark",
                CRITERION / "fib 15" / "new" / "sample.json": "criterion",
                PEERS / "benchstat" / "crc-new.txt": "go"}
    for path, name in expected.items():
        assert sniff(path).name == name, path


def test_reading_a_non_path_is_a_data_error():
    with pytest.raises(pr.DataError, match="cannot read a int"):
        pr.read(3)

