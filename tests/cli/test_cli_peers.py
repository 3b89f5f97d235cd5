"""`perfrigor compare` on the peers' own files: each pair reads, pairs and exits 0, names and units as the tools
print them, benchmarks of one side listed (the toy plugin's quick pipeline; the methods' answers are checked
in tests/peers/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from perfrigor import cli

PEERS = Path(__file__).resolve().parents[1] / "fixtures"
JCASBIN = "org.casbin.jcasbin.main.benchmark."

pytestmark = pytest.mark.usefixtures("toy")


def compare(capsys, a, b, *options):
    code = cli.main(["compare", str(PEERS / a), str(PEERS / b), "-p", "toy", "--format", "json", *options])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_google_benchmark_units_are_converted_not_refused(capsys):
    doc = compare(capsys, "google-benchmark/test1_run1.json", "google-benchmark/test1_run2.json")
    assert len(doc["benchmarks"]) == 14 and doc["only_in"] == {}
    unit = doc["inputs"]["BM_DifferentTimeUnit"]
    assert unit["test1_run1.json"]["unit"] == "s" and unit["test1_run1.json"]["mean"] == 1.0
    assert unit["test1_run2.json"]["unit"] == "s" and unit["test1_run2.json"]["mean"] == 1e-9  # 1 ns, in s
    assert unit["test1_run2.json"]["metadata"]["converted_from"] == "ns"


def test_google_benchmark_different_sets_and_one_benchmark(capsys):
    doc = compare(capsys, "google-benchmark/test3_run0.json", "google-benchmark/test3_run1.json")
    assert set(doc["benchmarks"]) == {"BM_Two", "medium"}
    assert doc["only_in"] == {"test3_run1.json": ["BM_One", "short"]}
    # one benchmark of one value per side: a pipeline may refuse to compare so little (exit 2, naming the
    # file); when it compares, the benchmark keeps its name
    code = cli.main(["compare", str(PEERS / "google-benchmark" / "test5_run0.json"),
                     str(PEERS / "google-benchmark" / "test5_run1.json"), "-p", "toy", "--format", "json"])
    out, err = capsys.readouterr()
    if code == 0:
        assert list(json.loads(out)["benchmarks"]) == ["BM_ManyRepetitions"]  # its name, not "benchmark"
    else:
        assert code == 2 and "test5_run" in err and "'benchmark'" not in err
    cpu = compare(capsys, "google-benchmark/test1_run1.json", "google-benchmark/test1_run2.json", "--metric",
                  "cpu_time")
    assert cpu["inputs"]["BM_NotBadTimeUnit"]["test1_run2.json"]["mean"] == 0.6


def test_go_files_as_benchstat_names_them(capsys):
    doc = compare(capsys, "benchstat/old.txt", "benchstat/new.txt")
    assert list(doc["benchmarks"]) == ["Encode/format=json-48", "Encode/format=gob-48"]
    assert doc["inputs"]["Encode/format=gob-48"]["new.txt"]["unit"] == "ns/op"
    rates = compare(capsys, "benchstat/crc-old.txt", "benchstat/crc-new.txt", "--metric", "B/s")
    first = rates["inputs"]["CRC32/poly=IEEE/size=15/align=0-8"]["crc-new.txt"]
    assert first["unit"] == "MB/s" and first["lower_is_better"] is False and len(rates["benchmarks"]) == 36


def test_go_config_key_as_systems_through_the_cli(capsys):
    code = cli.main(["run", "-p", "toy", str(PEERS / "benchstat" / "issue19565.txt"), "--input", "system=note",
                     "--format", "json"])
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert code == 0 and doc["baseline"] == "before" and doc["candidate"] == "after"
    assert doc["only_in"] == {"before": ["B"], "after": ["C"]}


def test_jmh_runs(capsys):
    doc = compare(capsys, "jmh/jcasbin_run0.json", "jmh/jcasbin_run1.json")
    assert len(doc["benchmarks"]) == 11
    name = f"{JCASBIN}BenchmarkManagement.addPolicy(currentRuleSize=1000) [thrpt]"
    assert doc["inputs"][name]["jcasbin_run0.json"]["unit"] == "ops/ms"
    assert doc["inputs"][name]["jcasbin_run0.json"]["lower_is_better"] is False
    only = doc["only_in"]["jcasbin_run0.json"]
    assert len(only) == 6 and f"{JCASBIN}enforcer.BenchmarkAllModelApi.addPolicySmall [avgt]" in only


def test_criterion_directory_and_sample_files(capsys):
    code = cli.main(["run", "-p", "toy", str(PEERS / "criterion" / "criterion"), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["baseline"] == "before" and doc["candidate"] == "new"
    assert list(doc["benchmarks"]) == ["fib 15", "sum/1000", "sum/10000"]
    pair = compare(capsys, "criterion/criterion/sum/1000/before/sample.json",
                   "criterion/criterion/sum/1000/new/sample.json")
    assert list(pair["benchmarks"]) == ["sum/1000"] and pair["baseline"] == "before"
    assert pair["inputs"]["sum/1000"]["new"]["unit"] == "ns"


def test_pytest_benchmark_runs(capsys):
    doc = compare(capsys, "pytest-benchmark/strings_old.json", "pytest-benchmark/strings_new.json")
    assert list(doc["benchmarks"]) == ["test_join", "test_sum[100]", "test_sum[1000]"]
    assert doc["only_in"] == {"strings_old.json": ["test_removed"]}
    code = cli.main(["compare", str(PEERS / "pytest-benchmark" / "summary_only_0030.json"),
                     str(PEERS / "pytest-benchmark" / "strings_new.json"), "-p", "toy"])
    err = capsys.readouterr().err
    assert code == 2 and "--benchmark-save-data" in err and err.count("\n") == 1


def test_pyperf_compressed_files(capsys):
    doc = compare(capsys, "pyperf/py2.json.gz", "pyperf/py3.json.gz")
    assert list(doc["benchmarks"]) == ["timeit"]
    assert doc["inputs"]["timeit"]["py2.json.gz"]["shape"] == [20, 3]
    doc = compare(capsys, "pyperf/mult_list_py36.json", "pyperf/mult_list_py38.json")
    assert list(doc["benchmarks"]) == ["[1]*1000", "[1,2]*1000", "[1,2,3]*1000"]


def test_metric_from_a_config_input_table(capsys, tmp_path):
    config = tmp_path / "cpu.toml"
    config.write_text('[pipeline]\npreset = "toy"\n[input]\nmetric = "cpu_time"\n')
    code = cli.main(["compare", str(PEERS / "google-benchmark" / "test1_run1.json"),
                     str(PEERS / "google-benchmark" / "test1_run2.json"), "-c", str(config), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["inputs"]["BM_10PercentCPUToTime"]["test1_run2.json"]["mean"] == 90


def test_list_shows_the_tool_readers(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for name in ("go ", "jmh ", "criterion ", "pytest-benchmark ", "gbench ", "pyperf "):
        assert f"\n  {name}" in out, name
