"""The third-party plugin example (docs/examples/perfrigor-median-ratio) installs and runs by name.

Installed with pip into a temporary folder (a copy of the example, so the source tree stays
clean) and used from fresh processes with PYTHONPATH pointing there: its entry point makes
``median-ratio`` and the ``quick-median`` preset usable from a TOML config on the CLI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "perfrigor-median-ratio"
DATA = ROOT / "framework" / "perfrigor" / "examples" / "two-versions"


def test_the_example_passes_the_battery_from_source(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    from perfrigor.testing import check_component
    from perfrigor_median_ratio import MedianRatio

    assert all(o.passed for o in check_component(MedianRatio))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The example pip-installed into a temporary target (offline build first, isolated build as fallback)."""
    tmp = tmp_path_factory.mktemp("plugin")
    src, target = tmp / "src", tmp / "site"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check",
            "--target", str(target), str(src)]
    first = subprocess.run([*base[:4], "--no-build-isolation", *base[4:]], capture_output=True, text=True)
    if first.returncode != 0:  # e.g. an old setuptools without bdist_wheel: let pip fetch a build backend
        second = subprocess.run(base, capture_output=True, text=True)
        assert second.returncode == 0, f"pip cannot install the example:\n{first.stderr[-800:]}\n{second.stderr[-800:]}"
    return target


def _env(target: Path) -> dict[str, str]:
    """The example on the path, and loaded with the project's own plugins only (tests/conftest.py's
    allow-list, the example's entry point added): another plugin installed here changes nothing."""
    own = os.environ.get("PERFRIGOR_PLUGINS", "")
    return {**os.environ, "PYTHONPATH": str(target),
            "PERFRIGOR_PLUGINS": ",".join(x for x in (own, "median_ratio") if x)}


def run(target: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = _env(target)
    return subprocess.run([sys.executable, "-m", "perfrigor", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=120)


@pytest.mark.slow
def test_installed_plugin_runs_by_name_from_a_toml_config(installed, tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[pipeline]\nname = "medians"\n\n[[steps]]\ncomponent = "median-ratio"\n'
                      'confidence = 0.9\nrandom_state = 1\nn_bootstrap = 500\n')
    shutil.copy(DATA / "baseline.txt", tmp_path)
    shutil.copy(DATA / "candidate.txt", tmp_path)
    r = run(installed, "run", "config.toml", "baseline.txt", "candidate.txt", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    (bench,) = report["benchmarks"].values()
    (res,) = bench["median-ratio"].values()
    assert res["type"] == "Comparison" and res["confidence"] == 0.9
    import numpy as np

    old, new = np.loadtxt(DATA / "baseline.txt"), np.loadtxt(DATA / "candidate.txt")
    assert res["estimate"] == pytest.approx(np.median(old) / np.median(new))
    assert res["ci_low"] <= res["estimate"] <= res["ci_high"]

    listing = run(installed, "list")
    assert listing.returncode == 0 and "median-ratio" in listing.stdout and "quick-median" in listing.stdout
    assert "perfrigor-median-ratio" in listing.stdout  # the plugin's distribution is shown

    preset = run(installed, "run", "--pipeline", "quick-median", str(DATA / "baseline.txt"),
                 str(DATA / "candidate.txt"), "--format", "json")
    assert preset.returncode == 0, preset.stderr
    assert json.loads(preset.stdout)["pipeline"] == "quick-median"



@pytest.mark.slow
def test_installed_plugin_through_the_python_api(installed):
    code = ("import perfrigor as pr\n"
            "from perfrigor.testing import check_component\n"
            "assert pr.components()['median-ratio'] == 'comparator'\n"
            "check_component('median-ratio')\n"
            "r = pr.pipeline('quick-median').run([10.0, 10.2, 10.1, 9.9] * 5, [8.0, 8.1, 8.2, 7.9] * 5)\n"
            "print(r.result('median-ratio').estimate)\n")
    env = _env(installed)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert float(r.stdout) == pytest.approx(10.05 / 8.05)
