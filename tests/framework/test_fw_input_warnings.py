"""Non-positive measurements are reported in every report, whatever the steps do with them."""

from __future__ import annotations

import perfrigor as pr
from perfrigor.cli import main


def test_nonpositive_values_are_a_report_warning(tmp_path, capsys):
    neg, pos = tmp_path / "neg.txt", tmp_path / "pos.txt"
    neg.write_text("-0.5\n1.2\n1.3\n1.1\n1.25\n1.22\n")
    pos.write_text("1.0\n1.1\n1.05\n1.2\n0.98\n1.02\n")
    report = pr.Pipeline(["gmm"]).run(str(neg), str(pos))
    (w,) = [w for w in report.warnings if w.step == "(input)"]
    assert "neg.txt" in w.message and "1 of 6 values are <= 0" in w.message
    assert "(input): neg.txt: 1 of 6" in report.render("text")
    doc = report.to_dict()
    assert any(w["step"] == "(input)" for w in doc["warnings"])
    # a pipeline that forms speedups (every preset: they end with the verdict) refuses them up front
    assert main(["compare", str(neg), str(pos), "--pipeline", "gmm", "--format", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "neg.txt" in err and "-0.5 is not positive" in err


def test_positive_values_give_no_input_warning():
    report = pr.Pipeline(["gmm"]).run([1.0, 1.1, 1.2, 1.05, 1.3], [0.9, 1.0, 0.95, 1.1, 0.92])
    assert not [w for w in report.warnings if w.step == "(input)"]
