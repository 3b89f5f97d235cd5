"""One input path (issue 15): the CLI, ``Pipeline.run``, ``Suite.from_inputs`` and the bundled examples build
the same suite from the same inputs, with the same system names."""

from __future__ import annotations

import json

import numpy as np
import perfrigor as pr
import pytest
from perfrigor import cli, examples
from perfrigor.inputs import as_suite, labels

from .helpers import write


def same(a: pr.Suite, b: pr.Suite) -> None:
    assert a.benchmarks == b.benchmarks and a.systems == b.systems and a.only_in == b.only_in
    for bench in a.benchmarks:
        for system in a.systems:
            np.testing.assert_array_equal(a[bench][system].values, b[bench][system].values)


def every_path(*paths, **options) -> list[pr.Suite]:
    """The suite each entry point builds from ``paths``."""
    return [cli.load_inputs([str(p) for p in paths], options)[0],
            pipe(input_options=options)._as_suite(list(paths)),
            pr.Suite.from_inputs(*paths, **options)]


def pipe(**kwargs) -> pr.Pipeline:
    return pr.Pipeline(["mean-difference"], **kwargs)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    return {
        "old": write(tmp_path, "old.txt", "1.0\n1.1\n1.2\n"),
        "new": write(tmp_path, "new.txt", "0.9\n0.95\n1.0\n"),
        "a/v": write(tmp_path / "a", "v.txt", "1.0\n1.1\n"),
        "b/v": write(tmp_path / "b", "v.txt", "2.0\n2.1\n"),
        "suite_a": write(tmp_path, "sa.json", '{"x": [1, 1.1, 1.2], "y": [2, 2.1, 2.2]}'),
        "suite_b": write(tmp_path, "sb.json", '{"x": [0.5, 0.6, 0.55], "y": [2, 2.1, 2.2], "z": [1, 2]}'),
        "one_x": write(tmp_path, "ox.json", '{"x": [0.7, 0.8]}'),
        "h1": write(tmp_path, "h1.json", json.dumps({"results": [{"command": "./old", "times": [1.0, 1.1]}]})),
        "h2": write(tmp_path, "h2.json", json.dumps({"results": [{"command": "./new", "times": [0.9, 1.0]}]})),
    }


@pytest.mark.parametrize("keys, systems", [
    (["old", "new"], ("old.txt", "new.txt")),
    (["a/v", "b/v"], None),  # the same file name twice: whole paths
    (["h1", "h2"], ("./old", "./new")),  # hyperfine names its systems by their commands
    (["suite_a", "suite_b"], ("sa.json", "sb.json")),
    (["suite_a", "one_x"], ("sa.json", "ox.json")),  # a suite and a one-benchmark file: joined by benchmark
    (["old", "new", "a/v"], ("old.txt", "new.txt", "v.txt")),
])
def test_every_entry_point_builds_the_same_suite(files, keys, systems):
    paths = [files[k] for k in keys]
    built = every_path(*paths)
    for other in built[1:]:
        same(built[0], other)
    assert built[0].systems == (systems or tuple(str(p) for p in paths))


def test_a_benchmark_only_one_input_holds_is_listed(files):
    suite = pr.Suite.from_inputs(files["suite_a"], files["suite_b"])
    assert suite.benchmarks == ["x", "y"] and suite.only_in == {"sb.json": ["z"]}


def test_pipeline_run_joins_a_suite_and_a_named_sample_as_the_cli_does(files):
    # Pipeline.run refused this before: the CLI alone joined them
    sample = pr.read(files["one_x"])
    suite = pr.read(files["suite_a"])
    joined = pipe()._as_suite([suite, sample])
    assert joined.benchmarks == ["x"] and joined.only_in == {"baseline": ["y"]}


def test_samples_and_arrays_keep_the_public_contract():
    s = as_suite([1.0, 1.1, 1.2], [0.9, 1.0, 1.1])
    assert s.systems == ("baseline", "candidate") and s.benchmarks == ["benchmark"]
    named = as_suite(pr.Sample([1.0, 2.0], name="gcc"), pr.Sample([1.0, 2.0], name="clang"))
    assert named.systems == ("gcc", "clang")
    assert as_suite([1.0, 2.0]).systems == ("sample",)
    pairs = as_suite({"x": [1.0, 2.0]}, {"x": [1.5, 2.5]})
    assert pairs.systems == ("baseline", "candidate")
    assert as_suite([1.0, 2.0], [1.0, 3.0], names=["before", "after"]).systems == ("before", "after")


def test_names_must_be_one_per_input_and_different():
    with pytest.raises(pr.DataError, match="names= needs 2 different names"):
        as_suite([1.0, 2.0], [1.0, 3.0], names=["x", "x"])
    assert labels(["a/x.txt", "b/x.txt"]) == ["a/x.txt", "b/x.txt"]


def test_a_several_system_suite_with_other_inputs_is_refused(files, tmp_path):
    tidy = write(tmp_path, "t.csv", "benchmark,system,value\nb,old,1\nb,old,2\nb,new,1\nb,new,2\n")
    for build in (lambda: cli.load_inputs([str(tidy), str(files["suite_a"])], {}),
                  lambda: pipe().run(tidy, files["suite_a"])):
        with pytest.raises(pr.DataError, match=f"{tidy} holds several systems"):
            build()


def test_reader_options_reach_every_entry_point(files):
    for suite in every_path(files["old"], files["new"], unit="ms"):
        assert suite.benchmarks and all(suite[b][s].unit == "ms" for b in suite.benchmarks for s in suite.systems)
    with pytest.raises(pr.ConfigError, match="unknown option 'colour'"):
        pr.Suite.from_inputs(files["old"], files["new"], colour=1)
    with pytest.raises(pr.ConfigError, match="unknown option 'colour'"):
        pipe(input_options={"colour": 1}).run(files["old"], files["new"])


@pytest.mark.parametrize("name", examples.names())
def test_examples_and_demo_read_the_same_files(name):
    paths = examples.files(name)
    loaded = examples.load(name)
    items = loaded if isinstance(loaded, tuple) else (loaded,)
    assert len(items) == len(paths)
    same(pr.Suite.from_inputs(*paths), pr.Suite.from_inputs(*items) if len(items) > 1 else
         pr.Suite.from_inputs(items[0]))
    same(pr.Suite.from_inputs(*paths), cli.load_inputs([str(p) for p in paths], {})[0])
