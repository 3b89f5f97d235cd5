"""Registry: names, clashes, broken plugins, misspelled hooks, the PERFRIGOR_PLUGINS allow-list."""

from __future__ import annotations

import types

import attrs
import perfrigor as pr
import pytest
import toys
from perfrigor import registry


def plugin(name: str, **hooks) -> types.SimpleNamespace:
    """A plugin object (like a module) with the given hook functions marked as hookimpls."""
    ns = types.SimpleNamespace(__name__=name)
    for hook, fn in hooks.items():
        setattr(ns, hook, pr.hookimpl(fn) if not hook.startswith("_") else fn)
    return ns


@pytest.fixture(autouse=True)
def restore_registry():
    yield
    registry.reload()


def test_components_get_and_metadata(toy_registry):
    comps = pr.components()
    assert comps["toy-ratio"] == "comparator" and comps["toy-mean"] == "estimator"
    c = pr.get("toy-boot", confidence=0.9, random_state=4)
    assert isinstance(c, toys.ToyBoot) and c.confidence == 0.9
    rec = pr.get_registry().components["toy-ratio"]
    assert rec.obj is toys.ToyRatio and "toys" in rec.plugin
    assert "core" in pr.get_registry().renderers["text"].plugin


def test_unknown_names_say_what_is_close(toy_registry):
    with pytest.raises(pr.ConfigError, match=r"unknown component 'toy-rato' \(did you mean 'toy-ratio'\?\); known: experiment-plan, mean-ci, toy-batch-mean, toy-boot, "):
        pr.get("toy-rato")
    with pytest.raises(pr.ConfigError, match=r"toy-boot: unknown parameter\(s\) 'n_boostrap' \(did you mean 'n_bootstrap'\?\)"):
        pr.get("toy-boot", n_boostrap=10)
    with pytest.raises(pr.ConfigError, match="toy-boot: n_bootstrap must be an integer >= 10"):
        pr.get("toy-boot", n_bootstrap=5)
    with pytest.raises(pr.ConfigError, match="random_state must be None"):
        pr.get("toy-boot", random_state="x")
    with pytest.raises(pr.ConfigError, match="unknown output format 'jsn'.*did you mean 'json'"):
        pr.get_registry().renderer("jsn")
    assert registry.did_you_mean("qqqq", ["gmm"]) == ""


def test_name_clash_names_both_plugins():
    @attrs.define(repr=False)
    class Other(pr.Estimator):
        """Clashes with toy-mean."""

        name = "toy-mean"

        def estimate(self, sample):
            return pr.Estimate(estimate=0.0)

    other = plugin("other_plugin", perfrigor_components=lambda: [Other])
    with pytest.raises(pr.ConfigError, match=r"name clash: 'toy-mean' is registered by both .*toys.* and other_plugin"):
        registry.reload(allow=["core"], extra_plugins=[toys, other])
    preset = plugin("presets2", perfrigor_pipelines=lambda: [{"name": "toy", "steps": [{"component": "toy-mean"}]}])
    with pytest.raises(pr.ConfigError, match="name clash: 'toy'"):
        registry.reload(allow=["core"], extra_plugins=[toys, preset])


@pytest.mark.parametrize("hooks, match", [
    ({"perfrigor_components": lambda: 1 / 0}, r"plugin broken: perfrigor_components\(\) failed: ZeroDivisionError"),
    ({"perfrigor_components": lambda: toys.ToyMean}, r"perfrigor_components\(\) must return a list"),
    ({"perfrigor_components": lambda: [object]}, "is not an attrs subclass of Estimator, Test, Comparator or Detector"),
    ({"perfrigor_components": lambda: [pr.Estimator]}, "without a name"),
    ({"perfrigor_pipelines": lambda: [{"steps": []}]}, "without a name"),
    ({"perfrigor_pipelines": lambda: [{"name": "empty", "steps": []}]}, "preset 'empty' needs a non-empty list"),
    ({"perfrigor_renderers": lambda: [object()]}, "without a name"),
    ({"perfrigor_renderers": lambda: [types.SimpleNamespace(name="csv")]}, "returned 'csv', which lacks what a renderer"),
    ({"perfrigor_readers": lambda: [types.SimpleNamespace(name="xlsx", suffixes=(".xlsx",), read=print)]},
     "returned 'xlsx', which lacks what a reader needs"),
])
def test_broken_plugins_are_named(hooks, match):
    with pytest.raises(pr.ConfigError, match=match):
        registry.reload(allow=["core"], extra_plugins=[plugin("broken", **hooks)])


def test_bad_component_attributes_are_reported():
    @attrs.define(repr=False)
    class Wide(pr.Comparator):
        """Bad scope."""

        name = "wide"
        scope = "world"

    @attrs.define(repr=False)
    class Spaced(pr.Comparator):
        """Bad name."""

        name = "my comparator"

    with pytest.raises(pr.ConfigError, match="scope 'world'"):
        registry.reload(allow=["core"], extra_plugins=[plugin("p1", perfrigor_components=lambda: [Wide])])
    with pytest.raises(pr.ConfigError, match="contains spaces"):
        registry.reload(allow=["core"], extra_plugins=[plugin("p2", perfrigor_components=lambda: [Spaced])])


def test_misspelled_hook_fails_loudly_with_a_hint():
    typo = types.SimpleNamespace(__name__="typo_plugin")
    typo.perfrigor_component = pr.hookimpl(lambda: [toys.ToyMean])
    with pytest.raises(pr.ConfigError, match=r"unknown hook\(s\) 'perfrigor_component' \(did you mean 'perfrigor_components'\?\)"):
        registry.reload(allow=["core"], extra_plugins=[typo])


def test_hook_with_a_wrong_signature_is_invalid():
    bad = plugin("sig_plugin", perfrigor_components=lambda extra: [])
    with pytest.raises(pr.ConfigError, match="plugin 'sig_plugin' is invalid"):
        registry.reload(allow=["core"], extra_plugins=[bad])


def test_allow_list_from_the_environment(monkeypatch):
    monkeypatch.setenv("PERFRIGOR_PLUGINS", "core")
    reg = registry.reload()
    assert not reg.components and "text" in reg.renderers
    monkeypatch.setenv("PERFRIGOR_PLUGINS", "core, toy_nonexistent")
    with pytest.raises(pr.ConfigError, match=r"PERFRIGOR_PLUGINS names unknown plugin\(s\) 'toy_nonexistent'"):
        registry.reload()
    monkeypatch.setenv("PERFRIGOR_PLUGINS", "cor")
    with pytest.raises(pr.ConfigError, match=r"'cor' \(did you mean 'core'\?\)"):
        registry.reload()


def test_broken_entry_point_is_named(monkeypatch):
    import importlib.metadata as md

    ep = md.EntryPoint(name="ghost", value="perfrigor_no_such_module", group="perfrigor")
    real = md.entry_points

    def fake(**kw):
        eps = list(real(**kw))
        return [*eps, ep] if kw.get("group") == "perfrigor" else eps

    monkeypatch.setattr(md, "entry_points", fake)
    with pytest.raises(pr.ConfigError, match=r"plugin 'ghost'.* cannot be loaded: ModuleNotFoundError"):
        registry.reload(allow=["core", "ghost"])


def test_reload_restores_the_installed_plugins(toy_registry):
    assert "toy-ratio" in pr.components()
    registry.reload(allow=["core"])
    assert "toy-ratio" not in pr.components()
