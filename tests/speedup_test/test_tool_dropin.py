"""Drop-in for the original SpeedupTest tool: its cfg CSV, its .out/.report on the manual example
(expected values: shared/data/speedup-test-samples/PROVENANCE.md, from the tool's manual p.8),
and the real SPEC suites it ships."""

from pathlib import Path

import perfrigor as pr
import pytest

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "speedup-test-samples"

EXPECTED_OUT = """\
"Name","SpeedupMin","SpeedupMean","IsMeanSignificant","MeanConfLevel","SpeedupMedian","IsMedianSignificant","MedianConfLevel","CoefMin","CoefMean","CoefMedian"
"First sample",1.971,1.276,FALSE,NA,1.098,TRUE,0.76,1,1,1
"Second sample",4.861,1.957,TRUE,0.98,1.956,TRUE,0.99,1,1,1
"Third sample",1.365,1.167,TRUE,0.99,1.127,TRUE,0.99,1,1,1
"Fourth sample",1.457,1.112,TRUE,0.83,1.13,TRUE,0.81,1,1,1
"""


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data not available: {path}")
    return path


@pytest.fixture(scope="module")
def manual_report():
    cfg = need(DATA / "manual_example" / "bench.cfg")
    return pr.pipeline("speedup-test").run(pr.read(cfg))


def test_manual_example_out_exactly(manual_report):
    assert manual_report.render("speedup-test-out") == EXPECTED_OUT


def test_manual_example_report_numbers(manual_report):
    text = manual_report.render("speedup-test-report")
    for line in [
        "Overall gain (ExecutionTime=min) = 0.371", "Overall speedup (ExecutionTime=min) = 1.589",
        "Overall gain (ExecutionTime=mean) = 0.178", "Overall speedup (ExecutionTime=mean) = 1.216",
        "Overall gain (ExecutionTime=median) = 0.156", "Overall speedup (ExecutionTime=median) = 1.185",
        "a/b = 3/4 = 0.75", "Proportion confidence interval (speedup of the mean) = [0.219; 0.987]",
        "The minimal needed number of randomly selected benchmarks is 289",
        "(in order to have a precision r=0.05).",
        "a/b = 4/4 = 1", "Proportion confidence interval (speedup of the median) = [0.396; 1]",
        "The confidence level for computing proportion confidence interval is 0.95.",
    ]:
        assert line in text.splitlines(), line
    assert text.count("the validity condition {a(1-a/b) > 5} is not satisfied.") == 2


def test_manual_example_results_carry_the_procedure(manual_report):
    first = manual_report.result("mean", "First sample")
    assert first.details["max_confidence"] is None  # no level above 50% (the tool's NA)
    assert first.details["branch"] == "small"
    fourth = manual_report.result("median", "Fourth sample")
    assert fourth.details["max_confidence"] == 0.81
    assert fourth.significant is False  # at the default 95%: only up to 81%
    assert "NOT significant at 95%" in fourth.verdict and "81%" in fourth.verdict
    third = manual_report.result("mean", "Third sample")
    assert third.significant is True and third.details["test"] in ("student-t", "welch-t")
    assert set(third.details["pvalues"]) >= {"shapiro_baseline", "shapiro_candidate", "fisher_f", "student_t",
                                              "welch_t"}


def test_per_row_conflevel_is_honoured(tmp_path):
    src = need(DATA / "manual_example")
    rows = ["Name,Sample1,Sample2,ConfLevel,Coef",
            f'"Fourth","{src}/bench4.data.1","{src}/bench4.data.2",0.8,2',
            f'"Fourth again","{src}/bench4.data.1","{src}/bench4.data.2",NA,NA']
    cfg = tmp_path / "rows.cfg"
    cfg.write_text("\n".join(rows) + "\n")
    suite = pr.read(cfg, allow_outside=True)  # the rows name files of another folder
    assert suite.info["Fourth"].confidence == 0.8 and suite.info["Fourth"].weight == 2.0
    report = pr.pipeline("speedup-test").run(suite)
    at_80 = report.result("mean", "Fourth")
    at_default = report.result("mean", "Fourth again")
    assert at_80.confidence == 0.8 and at_80.significant is True  # significant up to 83%
    assert at_default.confidence == 0.95 and at_default.significant is False
    out = report.render("speedup-test-out").splitlines()
    assert out[1].startswith('"Fourth",1.457,1.112,TRUE,0.8,')


@pytest.mark.parametrize(("rows", "message"), [
    (["Name,Sample1,Sample2,Conf,Coef"], "header"),
    (["Name,Sample1,Sample2,ConfLevel,Coef", '"a","nofile.1","nofile.2",NA,NA'], "line 2: sample file"),
    (["Name,Sample1,Sample2,ConfLevel,Coef", '"a","x.1","x.1",1.5,NA'], "line 2: ConfLevel"),
    (["Name,Sample1,Sample2,ConfLevel,Coef", "", '"a","x.1","x.1",NA,heavy'], "line 3: Coef"),
    (["Name,Sample1,Sample2,ConfLevel,Coef", '"a","x.1"'], "line 2: 2 field"),
    (["Name,Sample1,Sample2,ConfLevel,Coef", '"a","x.1","x.1",,', '"a","x.1","x.1",,'], "line 3: benchmark 'a'"),
])
def test_reader_errors_name_file_and_line(tmp_path, rows, message):
    (tmp_path / "x.1").write_text("1.0\n1.1\n")
    cfg = tmp_path / "bad.cfg"
    cfg.write_text("\n".join(rows) + "\n")
    with pytest.raises(pr.DataError, match=message) as err:
        pr.read(cfg, format="speedup-test-config")
    assert str(cfg) in str(err.value)


def test_sniffing_recognises_the_exact_header(tmp_path):
    reader = pr.get_registry().reader("speedup-test-config")
    assert reader.sniff(tmp_path / "a.cfg", "Name,Sample1,Sample2,ConfLevel,Coef\nx,y,z,NA,NA\n")
    assert not reader.sniff(tmp_path / "a.csv", "benchmark,system,value\n")


@pytest.mark.parametrize("cfg", ["SPEC2000/spec2000.cfg", "SPEC2006/spec2006.cfg",
                                 "SPECOMP2001/speedup-test-omp2001-gcc.cfg",
                                 "SPECOMP2001/speedup-test-omp2001-icc.cfg"])
def test_real_spec_suites_run(cfg):
    suite = pr.read(need(DATA / cfg))
    report = pr.pipeline("speedup-test").run(suite)
    assert not report.errors
    out = report.render("speedup-test-out").splitlines()
    assert len(out) == len(suite) + 1
    assert "Overall speedup (ExecutionTime=mean)" in report.render("speedup-test-report")
    prop = report.suite_results["proportion-mean"]
    assert prop.details["total"] == len(suite)
    for bench in suite.benchmarks:
        res = report.result("mean", bench)
        assert res.details["branch"] == ("large" if min(res.details["n_baseline"], res.details["n_candidate"]) > 30
                                         else "small")


def test_paper_section_6_1_spec_cpu2006():
    # P§6.1 (spec V-4): overall gain 0.464 / speedup 1.865 for mean and median; all 34 speedups significant at 95%
    report = pr.pipeline("speedup-test").run(pr.read(need(DATA / "SPEC2006" / "spec2006.cfg")))
    for step in ("mean", "median"):
        values = report.suite_results[step].values
        assert round(values["overall_speedup"], 3) == 1.865 and round(values["overall_gain"], 3) == 0.464
        assert values["significant"] == values["total"] == 34


def test_paper_section_6_2_spec_omp2001_icc():
    # P§6.2 (spec V-5): mean 0.441 / 1.79, median 0.443 / 1.797; 14 of 45 rejected at 95%;
    # a/b = 31/45 = 0.689, 95% interval [0.532; 0.814], 330 benchmarks for r = 0.05
    report = pr.pipeline("speedup-test").run(pr.read(need(DATA / "SPECOMP2001" / "speedup-test-omp2001-icc.cfg")))
    mean, median = report.suite_results["mean"].values, report.suite_results["median"].values
    assert (round(mean["overall_gain"], 3), round(mean["overall_speedup"], 3)) == (0.441, 1.79)
    assert (round(median["overall_gain"], 3), round(median["overall_speedup"], 3)) == (0.443, 1.797)
    prop = report.suite_results["proportion-mean"]
    assert (prop.details["accelerated"], prop.details["total"]) == (31, 45)
    assert (round(prop.ci_low, 3), round(prop.ci_high, 3)) == (0.532, 0.814)
    assert prop.details["needed_benchmarks"] == 330


def test_cli_run_prints_the_out_file(capsys, monkeypatch):
    cfg = need(DATA / "manual_example" / "bench.cfg")
    from perfrigor.cli import main

    monkeypatch.chdir(cfg.parent)
    assert main(["run", "--pipeline", "speedup-test", "bench.cfg", "--format", "speedup-test-out"]) == 0
    assert capsys.readouterr().out.strip() == EXPECTED_OUT.strip()


def test_cli_compare_two_files(tmp_path, capsys):
    from perfrigor.cli import main

    (tmp_path / "old.txt").write_text("2.799\n2.046\n1.259\n1.877\n2.244\n")
    (tmp_path / "new.txt").write_text("1.046\n0.259\n0.877\n1.244\n1.799\n")
    assert main(["compare", str(tmp_path / "old.txt"), str(tmp_path / "new.txt"), "--pipeline", "speedup-test"]) == 0
    assert "speedup of the mean 1.957 is significant at 95% confidence" in capsys.readouterr().out


def test_manual_example_warning_file(manual_report):
    text = manual_report.render("speedup-test-warning")
    lines = text.splitlines()
    assert lines[0] == "Benchmark First sample:" and "Benchmark Fourth sample:" in lines
    assert "Benchmark Second sample:" not in lines
    assert any("highest level where it holds: 83%" in line for line in lines)
    assert lines[-1] == f"{sum(line.startswith('  ') for line in lines)} warning(s)."


def test_paper_section_6_3_icc_versus_gcc():
    # P§6.3 (spec V-6): icc vs gcc, SPEC OMP2001, 54 couples. Non-significant speedups at risk 5%: 14 (mean),
    # 13 (median); at 20%: 13, 12. Median proportion 41/54, 95% interval [0.621; 0.861], 281 benchmarks.
    # (At risk 99% the paper prints 11 and 12, these data give 10 and 11; the paper's overall speedups
    # 1.162 / 1.158 are not reproduced either (1.140 / 1.136): see docs/methods/speedup-test.md.)
    root = need(DATA / "SPECOMP2001")
    names = sorted(p.name for p in (root / "gcc_train_input").iterdir())
    gcc = {n: pr.read(root / "gcc_train_input" / n, format="values") for n in names}
    icc = {n: pr.read(root / "icc_train_input" / n, format="values") for n in names}
    suite = pr.Suite.from_pairs(gcc, icc)
    assert len(suite) == 54
    report = pr.pipeline("speedup-test").run(suite)
    rejected = {s: report.suite_results[s].values["total"] - report.suite_results[s].values["significant"]
                for s in ("mean", "median")}
    assert rejected == {"mean": 14, "median": 13}
    prop = report.suite_results["proportion-median"]
    assert (prop.details["accelerated"], round(prop.ci_low, 3), round(prop.ci_high, 3)) == (41, 0.621, 0.861)
    assert prop.details["needed_benchmarks"] == 281
    at_80 = pr.Pipeline([{"component": "speedup-test", "id": "mean", "confidence": 0.8},
                         {"component": "speedup-test", "id": "median", "statistic": "median", "confidence": 0.8}])
    report = at_80.run(suite)
    assert [report.suite_results[s].values["total"] - report.suite_results[s].values["significant"]
            for s in ("mean", "median")] == [13, 12]
