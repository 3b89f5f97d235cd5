"""``perfrigor plan``: the random-effects plugin's command (hook ``perfrigor_commands``), not the core's."""

from __future__ import annotations

import json
from pathlib import Path

import perfrigor as pr
import pytest
from perfrigor import cli

FIX = Path(__file__).resolve().parents[1] / "io" / "fixtures"
NESTED = FIX / "values_nested.json"


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_plan_comes_from_the_random_effects_plugin():
    assert pr.get_registry().commands["plan"].plugin.startswith("random_effects")


def test_plan_prints_the_components_explanation(capsys):
    plan = pr.get("experiment-plan", costs=[10.0]).estimate(pr.read(NESTED))
    code, out, err = run(capsys, "plan", str(NESTED), "--costs", "10")
    assert code == 0, err
    assert out == plan.text + "".join(f"\nwarning: {w}" for w in plan.warnings) + "\n"
    code, out, _ = run(capsys, "plan", str(NESTED), "--costs", "10", "--format", "json")
    assert json.loads(out)["repetitions"] == list(plan.repetitions)


def test_plan_with_a_budget(capsys):
    code, out, err = run(capsys, "plan", str(NESTED), "--costs", "10", "--budget", "1000",
                         "--format", "json")
    assert code == 0, err
    assert json.loads(out)["top_count"] is not None


@pytest.mark.parametrize("argv, needle", [
    (["--costs", "ten"], "--costs 'ten': expected numbers"),
    (["--costs", ","], "--costs: give one cost per level"),
    (["--costs", "10", "--measurement-time", "2"], "--measurement-time only makes sense with --budget"),
    (["--costs", "10", "--confidence", "2"], "confidence"),
    ([], "the following arguments are required: --costs"),
])
def test_plan_usage_errors(capsys, argv, needle):
    code, _, err = run(capsys, "plan", str(NESTED), *argv)
    assert code == 2 and err.startswith("perfrigor: error: ") and needle in err, err


def test_plan_refuses_flat_data(capsys):
    code, _, err = run(capsys, "plan", str(FIX / "values.txt"), "--costs", "1,2")
    assert code == 2 and "hierarchical" in err
