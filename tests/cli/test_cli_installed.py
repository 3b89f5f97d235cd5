"""The command line with the installed method plugins (skipped while they are missing)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import cli

HERE = Path(__file__).parent
SHARED = HERE.resolve().parents[1] / ".." / "shared" / "data" / "speedup-test-samples"


@pytest.fixture(autouse=True)
def installed_plugins():
    try:
        with pr.registry.temporary():
            yield
    except pr.ConfigError as exc:
        pytest.skip(f"a method plugin does not load: {exc}")


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def preset_ready(name: str) -> bool:
    registry = pr.get_registry()
    return name in registry.presets and all(
        (s["component"] if isinstance(s, dict) else s) in registry.components
        for s in registry.preset(name)["steps"])


def test_script_compare_with_default_preset(tmp_path):
    if not preset_ready("default"):
        pytest.skip("the default preset's components are not all installed yet")
    from .test_cli_commands import _exe

    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    rng = np.random.default_rng(3)
    old.write_text("\n".join(str(v) for v in rng.normal(10.0, 0.1, 20)))
    new.write_text("\n".join(str(v) for v in rng.normal(8.0, 0.1, 20)))
    r = subprocess.run([_exe(), "compare", str(old), str(new), "--format", "json", "--fail-on-regression"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["pipeline"] == "default" and doc["baseline"] == "old.txt"
    r = subprocess.run([_exe(), "compare", str(new), str(old), "--fail-on-regression", "-o", str(tmp_path / "r.md")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "perfrigor: regression: benchmark: slower: speedup 0.8" in r.stderr
    assert (tmp_path / "r.md").read_text().startswith("# perfrigor report: pipeline default")


def test_demo_runs_the_default_preset(capsys):
    if not preset_ready("default"):
        pytest.skip("the default preset's components are not all installed yet")
    code, out, err = run(capsys, "demo")
    assert code == 0, err
    assert "pipeline default" in out and "baseline.txt -> candidate.txt" in out


def test_describe_and_plan_on_bundled_examples(tmp_path, capsys):
    from perfrigor import examples

    registry = pr.get_registry()
    if not {"mean-ci", "variance-components", "experiment-plan"} <= set(registry.components):
        pytest.skip("the random-effects plugin is not installed")
    data = examples.path("hierarchical") / "experiment.csv"
    # smaller mixtures and bootstraps than the defaults keep this test quick
    fast = [] if "gmm-fit" not in registry.components else [
        "--param", "gmm-fit.n_bootstrap=200", "--param", "gmm-fit.max_components=3",
        "--param", "gmm.max_components=3"]
    code, out, err = run(capsys, "describe", str(data), "--format", "json", *fast)
    assert code == 0, err
    doc = json.loads(out)
    assert {"mean-ci", "variance-components"} <= {s["id"] for s in doc["steps"]}
    # random steps are seeded: describing the same data twice gives the same report (gmm-fit's
    # bootstrap p-value changed from run to run)
    assert all(s["params"]["random_state"] == 0 for s in doc["steps"] if "random_state" in s["params"])
    again = run(capsys, "describe", str(data), "--format", "json", *fast)[1]
    assert json.loads(again) == doc
    code, out, err = run(capsys, "plan", str(data), "--costs", "20,300")
    assert code == 0, err
    assert "experiment / O1:" in out and "experiment / O2:" in out


def test_speedup_test_cfg_with_the_method_plugins(capsys):
    """Integration: the original tool's .cfg (read by the speedup-test plugin) through `run`."""
    cfg = SHARED / "manual_example" / "bench.cfg"
    if not cfg.exists():
        pytest.skip("shared data not available")
    if "speedup-test" not in pr.get_registry().presets:
        pytest.skip("the speedup-test plugin is not installed")
    code, out, err = run(capsys, "run", "--pipeline", "speedup-test", str(cfg), "--weight", "equal",
                         "--precision", "0.1", "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert len(doc["benchmarks"]) == 4
    params = [s["params"] for s in doc["steps"]]
    assert all(p["weight"] == "equal" for p in params if "weight" in p)
    assert all(p["precision"] == 0.1 for p in params if "precision" in p)


def test_demo_of_a_misspelled_example_suggests_the_name(capsys):
    if "default" not in pr.get_registry().presets:
        pytest.skip("the presets plugin is not installed")
    code, out, err = run(capsys, "demo", "suit")
    assert code == 2 and out == ""
    assert err.strip() == ("perfrigor: error: no bundled example 'suit' (did you mean 'suite'?) "
                           "(known: hierarchical, multimodal, suite, two-versions)")
