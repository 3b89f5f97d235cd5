"""The bundled example data sets: present, small, documented, readable with pr.read, shaped as promised."""

from __future__ import annotations

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import examples


def test_the_four_data_sets_are_bundled_small_and_documented():
    assert set(examples.names()) >= {"two-versions", "multimodal", "hierarchical", "suite"}
    total = sum(f.stat().st_size for n in examples.names() for f in examples.path(n).rglob("*") if f.is_file())
    assert total < 200_000
    for name in examples.names():
        readme = (examples.path(name) / "README.md").read_text()
        assert "Collected:" in readme and "Machine:" in readme and "collect_examples.py" in readme
    with pytest.raises(pr.DataError, match="no bundled example 'nope'"):
        examples.path("nope")


@pytest.mark.parametrize("name, n", [("two-versions", 40), ("multimodal", 60)])
def test_two_files_of_one_value_per_line(name, n):
    old = pr.read(examples.path(name) / "baseline.txt")
    new = pr.read(examples.path(name) / "candidate.txt")
    assert isinstance(old, pr.Sample) and old.shape == (n,) and new.shape == (n,)
    assert old.lower_is_better and (old.values > 0).all() and (new.values > 0).all()


def test_multimodal_is_multimodal():
    # the fully shuffled layout is several times slower than the sequential one: a gap in log-times
    for f in ("baseline.txt", "candidate.txt"):
        log = np.sort(np.log(pr.read(examples.path("multimodal") / f).values))
        assert np.diff(log).max() > 0.5


def test_hierarchical_is_a_balanced_three_level_experiment_of_two_systems():
    suite = pr.read(examples.path("hierarchical") / "experiment.csv")
    assert isinstance(suite, pr.Suite) and suite.systems == ("O1", "O2") and len(suite) == 1
    (bench,) = suite.benchmarks
    for system in suite.systems:
        s = suite[bench][system]
        assert s.levels == ("build", "invocation", "iteration") and s.shape == (6, 5, 8)


def test_suite_has_at_least_12_benchmarks_and_two_systems():
    suite = pr.read(examples.path("suite") / "suite.csv")
    assert len(suite) >= 12 and suite.systems == ("O1", "O2")
    assert all(suite[b][s].shape == (10,) for b in suite for s in suite.systems)


def test_load():
    old, new = examples.load("two-versions")
    assert old.shape == (40,) and new.name == "candidate.txt"
    assert isinstance(examples.load("suite"), pr.Suite) and isinstance(examples.load("hierarchical"), pr.Suite)
