"""What a plugin author meets: unmarked hooks, parameter help, ``perfrigor list NAME``, a temporary registry."""

from __future__ import annotations

import json
import pkgutil
import types
from typing import ClassVar

import attrs
import perfrigor as pr
import pytest
from perfrigor import cli


@attrs.define(repr=False)
class Helped(pr.Estimator):
    """A toy with documented parameters.

    Its second docstring paragraph is shown by ``perfrigor list helped``.
    """

    name: ClassVar[str] = "helped"
    example_params: ClassVar[dict] = {"costs": [1.0]}
    costs: tuple = attrs.field(converter=tuple, metadata={"help": "one cost per level"})
    confidence: float = pr.confidence_param(help="level of the toy interval")
    method: str = pr.choice_param("a", "b", "c", help="which toy method")
    n: int = pr.int_param(10, minimum=2, help="how many toy draws")
    scale: float | None = pr.float_param(None, minimum=0.0, maximum=5.0, optional=True, help="toy scale")
    seed: object = pr.random_state_param()

    def estimate(self, sample):
        return pr.Estimate(estimate=float(len(self.costs)))


def _module(name: str, **functions) -> types.ModuleType:
    module = types.ModuleType(name)
    for key, fn in functions.items():
        setattr(module, key, fn)
    return module


def test_a_hook_without_the_marker_is_a_hook():
    plugin = _module("unmarked", perfrigor_components=lambda: [Helped])  # no @pr.hookimpl
    with pr.registry.temporary(allow=["core"], extra_plugins=[plugin]) as reg:
        assert reg.components["helped"].plugin == "unmarked"
        assert pr.get("helped", costs=[1, 2]).estimate([1.0, 2.0]).estimate == 2.0


def test_a_misspelled_hook_without_the_marker_is_an_error():
    plugin = _module("typo_plugin", perfrigor_component=lambda: [Helped])
    with pytest.raises(pr.ConfigError, match="'typo_plugin' implements unknown hook.*did you mean 'perfrigor_components'"):
        pr.registry.reload(allow=["core"], extra_plugins=[plugin])


def test_the_temporary_registry_puts_the_previous_one_back():
    before = pr.get_registry()
    with pr.registry.temporary(allow=["core"]) as reg:
        assert pr.get_registry() is reg and not reg.components
    assert pr.get_registry() is before
    with pytest.raises(RuntimeError), pr.registry.temporary(allow=["core"]):
        raise RuntimeError("a failing test inside")
    assert pr.get_registry() is before


def test_parameter_helpers_record_help_type_and_range():
    info = {p.name: p for p in Helped.param_info()}
    assert info["confidence"] == pr.ParamInfo("confidence", 0.95, "level of the toy interval", type="float",
                                              range="(0, 1)")
    assert info["method"].choices == ("a", "b", "c") and info["method"].default == "a"
    assert info["n"].range == ">= 2" and info["n"].help == "how many toy draws"
    assert info["scale"].range == "[0.0, 5.0] or None"
    assert info["seed"].type == "random_state" and info["seed"].help  # a default help for the seed
    assert info["costs"].required and info["costs"].help == "one cost per level"
    json.dumps([p.to_dict() for p in info.values()])


def test_every_builtin_parameter_has_help():
    registry = pr.get_registry()
    builtin = [rec.obj for rec in registry.components.values() if "(perfrigor)" in rec.plugin]
    if not builtin:
        pytest.skip("the built-in method plugins are not installed")
    missing = [f"{cls.name}.{p.name}" for cls in builtin for p in cls.param_info() if not p.help]
    assert missing == []


def test_list_name_shows_a_component_in_full(capsys):
    plugin = _module("helped_plugin", perfrigor_components=lambda: [Helped])
    with pr.registry.temporary(allow=["core"], extra_plugins=[plugin]):
        assert cli.main(["list", "helped"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("helped: estimator, from helped_plugin\n")
        assert "Its second docstring paragraph" in out
        lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
        cells = [c.strip() for c in lines["confidence"].split("  ") if c.strip()]
        assert cells == ["confidence", "0.95", "(0, 1)", "level of the toy interval"]
        assert "'a'" in lines["method"] and "a | b | c" in lines["method"]
        assert "(required)" in lines["costs"] and "one cost per level" in lines["costs"]
        assert cli.main(["list", "helped", "--format", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["kind"] == "estimator" and [p["name"] for p in doc["parameters"]][:2] == ["costs", "confidence"]
        assert cli.main(["list", "helpd"]) == 2
        assert "nothing is registered as 'helpd' (did you mean 'helped'?)" in capsys.readouterr().err
        assert cli.main(["list", "tidy-csv"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("tidy-csv: input format, from core") and "Options (--input KEY=VALUE" in out
        assert any(line.split()[:2] == ["delimiter", "char"] for line in out.splitlines())


def test_list_fieller_shows_its_parameters_with_help(capsys):
    if "fieller" not in pr.components():
        pytest.skip("the ratio plugin is not installed")
    assert cli.main(["list", "fieller"]) == 0
    out = capsys.readouterr().out
    for param in pr.get("fieller").param_info():
        row = next(line for line in out.splitlines() if line.startswith(f"  {param.name} "))
        assert repr(param.default) in row and param.help in row
    assert "t | normal" in out and "(0, 1)" in out
    assert "``" not in out and "distribution: " in out  # the docstring as plain text, not reST


def test_no_public_function_shadows_a_module():
    """pr.components() and pr.pipeline(name) are functions; no module of the package has their names."""
    modules = {m.name for m in pkgutil.iter_modules(pr.__path__)}
    functions = {n for n in pr.__all__ if callable(getattr(pr, n, None)) and not isinstance(getattr(pr, n), type)}
    assert {"components", "pipeline", "get", "read"} <= functions
    assert functions & modules == set()
    import perfrigor.component
    import perfrigor.pipelines  # noqa: F401  importing them rebinds nothing

    assert callable(pr.components) and callable(pr.pipeline) and isinstance(pr.components(), dict)


def test_the_user_facing_namespace():
    """Reader and Renderer are exported; internals are importable but not in __all__; no name shadows a module."""
    assert pr.Reader is pr.hookspecs.Reader and pr.Renderer is pr.hookspecs.Renderer
    assert isinstance(pr.get_registry().renderer("text"), pr.Renderer)
    assert not hasattr(pr, "hookspec")
    for name in pr.INTERNAL:
        assert hasattr(pr, name) and name not in pr.__all__
    assert all(hasattr(pr, name) for name in pr.__all__ if name != "__version__")
    assert issubclass(pr.ExecutionError, pr.PerfrigorError)  # users catch it: a worker died, a timeout
