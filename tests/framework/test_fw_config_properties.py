"""Random configs through ``Pipeline.from_config`` and ``perfrigor run --config``.

Whatever a config holds (component names, parameter names, types and values, step ids
and references), building it gives a Pipeline or one ConfigError line, and the command
line runs it or exits 2 with one line: never another exception, never exit 3.
"""

from __future__ import annotations

import json
import math
import sys

import attrs
import perfrigor as pr
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from perfrigor import cli
from perfrigor.config import parse_config

REGISTRY = pr.registry.get_registry()
COMPONENTS = {name: rec.obj.param_names() for name, rec in REGISTRY.components.items()}
#: each parameter's default (a value that fits), so that many drawn configs are valid and run
DEFAULTS = {name: {f.name: f.default for f in attrs.fields(rec.obj) if f.init and not isinstance(
    f.default, attrs.Factory | type(attrs.NOTHING))} for name, rec in REGISTRY.components.items()}
NAMES = sorted(COMPONENTS)
PARAMS = sorted({p for ps in COMPONENTS.values() for p in ps})
PRESETS = sorted(REGISTRY.presets)

# parameter values a user might type, and values no parameter takes
texts = st.text(min_size=0, max_size=12)
scalars = st.one_of(
    st.none(), st.booleans(), texts,
    st.integers(min_value=-3, max_value=3), st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 0.9, 0.95, 0.99, 1.0, 0.0, 1e-300, 1e300, "mean", "median", "auto", "all"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(texts, scalars, max_size=2))
#: values that keep a run cheap (no billion-replicate bootstrap): for the command-line runs
cheap = st.one_of(
    st.none(), st.booleans(), texts, st.integers(min_value=-3, max_value=250),
    st.floats(min_value=-300, max_value=300), st.sampled_from([math.nan, math.inf, -math.inf]),
    st.sampled_from([0.5, 0.9, 0.95, "mean", "median", "auto", "all", "flat", "t"]),
)


@st.composite
def configs(draw, value_strategy=values, max_steps=4, mostly_valid=False):
    """A config mapping: steps with real or made-up components, parameters, ids and references
    (``mostly_valid``: registered components with their default values more often, so most run)."""
    n = draw(st.integers(min_value=int(mostly_valid), max_value=max_steps))
    ids = draw(st.lists(st.one_of(*[st.none()] * (2 + 6 * mostly_valid), st.sampled_from(["a", "b", "x"]), texts,
                                  st.integers()), min_size=n, max_size=n))
    steps = []
    for i in range(n):
        name = draw(st.sampled_from(NAMES) if mostly_valid and draw(st.integers(0, 9))
                    else st.one_of(st.sampled_from(NAMES), texts, st.integers()))
        known = COMPONENTS.get(name, PARAMS) if isinstance(name, str) else PARAMS
        keys = draw(st.lists(st.one_of(*[st.sampled_from(known or ["x"])] * 3, texts), max_size=3, unique=True))
        fits = DEFAULTS.get(name, {}) if isinstance(name, str) else {}
        step = {k: fits[k] if k in fits and mostly_valid and draw(st.integers(0, 3)) else draw(
                    st.one_of(st.just(fits[k]), value_strategy) if k in fits else value_strategy)
                for k in keys if k not in ("component", "id", "params")}
        if "step" in known and draw(st.booleans()):  # a reference to another step, right or wrong
            step["step"] = draw(st.one_of(st.sampled_from([*(j for j in ids if isinstance(j, str)), *NAMES]),
                                          texts))
        step["component"] = name
        if ids[i] is not None:
            step["id"] = ids[i]
        if draw(st.booleans()):
            steps.append(step)
        else:  # parameters in a [steps.params] table instead
            params = {k: v for k, v in step.items() if k not in ("component", "id")}
            steps.append({"component": name, **({"id": step["id"]} if "id" in step else {}), "params": params})
    config: dict = {"steps": steps}
    if draw(st.integers(0, 3 + 6 * mostly_valid)) == 0:
        config["pipeline"] = draw(st.dictionaries(
            st.sampled_from(["name", "preset", "baseline", "candidate", "description", "nme"]),
            st.one_of(st.sampled_from([*PRESETS, "nope"]), texts, st.integers(), st.none()), max_size=3))
    if draw(st.integers(0, 3 + 6 * mostly_valid)) == 0:
        config[draw(st.sampled_from(["input", "inputs", "steps"]))] = draw(st.one_of(
            # reader options: known names with any value (format = 3 once ended in exit 3), or any text
            st.dictionaries(st.one_of(st.sampled_from(["format", "unit", "metric", "lower_is_better"]), texts),
                            scalars, max_size=2), st.lists(st.integers(), max_size=2), texts))
    return config


def one_line(message: str) -> bool:
    return bool(message) and "\n" not in message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs())
def test_from_config_builds_or_says_why_in_one_line(config):
    try:
        pipeline = pr.Pipeline.from_config(config)
    except pr.ConfigError as exc:
        assert one_line(str(exc)), str(exc)
        event("ConfigError")
        return
    event("built")
    ids = [s.id for s in pipeline.steps]
    assert len(set(ids)) == len(ids) and all(isinstance(i, str) and i for i in ids)
    assert pr.Pipeline.from_config(pipeline.to_config()).to_config() == pipeline.to_config()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    old, new = folder / "old.txt", folder / "new.txt"
    old.write_text("\n".join(str(10 + 0.1 * (i % 5)) for i in range(12)) + "\n")
    new.write_text("\n".join(str(9 + 0.1 * (i % 5)) for i in range(12)) + "\n")
    return folder, str(old), str(new)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(config=configs(cheap, max_steps=3, mostly_valid=True))
def test_cli_runs_a_config_or_exits_2_with_one_line(config, data, capsys):
    folder, old, new = data
    path = folder / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    code = cli.main(["run", "--config", str(path), old, new])
    _, err = capsys.readouterr()
    assert code in (0, 2), err
    event(f"exit {code}")
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("perfrigor: error: "), err
        assert "internal error" not in err


# ---------------------------------------------------------------- the reproducers


@pytest.mark.parametrize("step", [{"component": "\n", "id": ""}, {"component": "a\nb", "params": 3},
                                  {"component": "x\r\n", "params": {"k": 1}, "k": 2}])
def test_a_component_name_with_a_line_break_gives_a_one_line_error(step):
    """Found by the config fuzzer at more examples: the name was put into the message as it was."""
    with pytest.raises(pr.ConfigError) as caught:
        pr.Pipeline.from_config({"steps": [step]})
    assert one_line(str(caught.value)), str(caught.value)


def test_integer_step_id_is_a_config_error():
    with pytest.raises(pr.ConfigError, match=r"id must be a non-empty string, got 5"):
        pr.Pipeline.from_config({"steps": [{"component": "fieller", "id": 5}]})


def test_two_steps_with_one_explicit_id_are_refused():
    config = {"steps": [{"component": "fieller", "id": "x"}, {"component": "welch-t", "id": "x"}]}
    with pytest.raises(pr.ConfigError, match=r"step id\(s\) 'x' given to more than one step"):
        pr.Pipeline.from_config(config)


def test_unnamed_steps_are_still_numbered_and_an_explicit_id_keeps_its_name():
    p = pr.Pipeline(["fieller", "fieller", {"component": "welch-t", "id": "fieller-2"}])
    assert [s.id for s in p.steps] == ["fieller", "fieller-3", "fieller-2"]


@pytest.mark.parametrize(("step", "message"), [
    ("fieller", "runs 'fieller', not 'speedup-test'"),
    ("later", "is not an earlier step"),
    ("nowhere", "is not an earlier step"),
    ("median-test", "tests the median, this step's statistic is 'mean'"),
])
def test_accelerated_proportion_step_reference_is_checked_when_built(step, message):
    steps = [{"component": "fieller"}, {"component": "speedup-test", "statistic": "median", "id": "median-test"},
             {"component": "accelerated-proportion", "step": step}, {"component": "speedup-test", "id": "later"}]
    with pytest.raises(pr.ConfigError, match=message):
        pr.Pipeline(steps)


def test_accelerated_proportion_accepts_a_matching_speedup_test_step():
    p = pr.Pipeline([{"component": "speedup-test", "id": "st"},
                     {"component": "accelerated-proportion", "step": "st"}])
    assert [s.id for s in p.steps] == ["st", "accelerated-proportion"]


def test_bad_step_reference_fails_before_any_benchmark_work(tmp_path, capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(sys.modules["perfrigor.scheduler"], "_run_batch", lambda *a, **k: calls.append(a))
    config = tmp_path / "c.toml"
    config.write_text('[[steps]]\ncomponent = "fieller"\n[[steps]]\ncomponent = "accelerated-proportion"\n'
                      'step = "fieller"\n')
    old, new = tmp_path / "a.txt", tmp_path / "b.txt"
    old.write_text("1\n2\n3\n")
    new.write_text("1\n2\n4\n")
    code = cli.main(["run", str(config), str(old), str(new)])
    err = capsys.readouterr().err
    assert code == 2 and "c.toml: step 'accelerated-proportion': step = 'fieller' runs 'fieller'" in err
    assert not calls


def test_config_is_parsed_once_into_a_spec_with_the_preset_merged():
    spec = parse_config({"pipeline": {"preset": "speedup-test"}, "input": {"unit": "ms"},
                                   "steps": ["fieller"]}, where="mine.toml")
    preset = REGISTRY.preset("speedup-test")
    assert spec.where == "mine.toml"
    assert list(spec.steps) == [*preset["steps"], "fieller"]
    assert spec.input_options == {**preset.get("input", {}), "unit": "ms"}
    assert [s.component.name for s in pr.Pipeline.from_spec(spec).steps][-1] == "fieller"


def test_cli_takes_the_reader_options_from_the_spec(monkeypatch, tmp_path, capsys):
    seen = []
    real = parse_config

    def spy(*args, **kwargs):
        seen.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "parse_config", spy)
    old, new = tmp_path / "a.txt", tmp_path / "b.txt"
    old.write_text("1\n2\n3\n")
    new.write_text("1\n2\n4\n")
    assert cli.main(["compare", str(old), str(new), "--pipeline", "speedup-test"]) == 0
    capsys.readouterr()
    assert len(seen) == 1


#: values at the edges of what parameters take (they found exit 3s: confidence 1 - 1e-16, precision 1e-300)
EXTREMES = [0, -1, 1, 2, 1e-300, 1e300, 0.9999999999999999, 0.999999999, 1e-6, 1e-16, 0.5000000001, 2**62,
            "x", "", [], [1, 2], True, 0.5, 1e4, math.nan, math.inf, -math.inf]
PAIRS = sorted((name, p) for name, params in COMPONENTS.items() for p in params)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(pair=st.sampled_from(PAIRS), value=st.sampled_from(EXTREMES), suite=st.booleans())
def test_every_parameter_at_its_extremes_runs_or_exits_2(pair, value, suite, data, capsys):
    folder, old, new = data
    name, param = pair
    if param == "n_bootstrap" and isinstance(value, int | float) and not isinstance(value, bool) and value > 300:
        value = 300  # (a feasible but long bootstrap is announced, not refused: not this test's business)
    step = {"component": name, param: value}
    if name == "experiment-plan" and param != "costs":
        step["costs"] = [1.0, 10.0]
    path = folder / "extreme.json"
    path.write_text(json.dumps({"steps": [step]}), encoding="utf-8")
    inputs = [str(folder / "suite.csv")] if suite else [old, new]
    if suite and not (folder / "suite.csv").exists():
        rows = ["benchmark,system,invocation,iteration,time"] + [
            f"b{b},{s},{i},{j},{(10 + b) * f + 0.05 * ((i * 7 + j * 3) % 5):.3f}"
            for b in range(4) for s, f in (("old", 1.0), ("new", 0.9)) for i in range(1, 5) for j in range(1, 4)]
        (folder / "suite.csv").write_text("\n".join(rows) + "\n")
    code = cli.main(["run", "--config", str(path), *inputs])
    _, err = capsys.readouterr()
    assert code in (0, 2), err
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and "internal error" not in err, err
