"""Start-up: ``perfrigor list``, ``--help`` and ``--version`` import no heavy module.

scipy alone takes longer to import than numpy; the mixture engine and the other
numeric modules are imported when a component runs. Each check runs in a fresh
interpreter and lists what got imported.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: imported only when a component runs (or a plot is drawn)
HEAVY = ("scipy", "sklearn", "matplotlib", "pandas", "pyarrow", "perfrigor_plugins.gmm.em", "perfrigor_plugins.gmm.fitting",
         "perfrigor_plugins.gmm.ksfit", "perfrigor.stats", "perfrigor.resampling", "perfrigor.renderers._figures")


def _imported_after(code: str) -> list[str]:
    script = (f"import sys, io, contextlib\n{code}\n"
              "import json; print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    modules = json.loads(out.splitlines()[-1])
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_listing_every_component_with_its_description_imports_nothing_heavy():
    code = ("import perfrigor as pr\n"
            "reg = pr.get_registry()\n"
            "rows = [(n, r.obj.kind, r.obj.description(), r.obj.param_names()) for n, r in reg.components.items()]\n"
            "assert len(rows) >= 15 and all(d for _, _, d, _ in rows), rows")
    assert _imported_after(code) == []


@pytest.mark.parametrize("argv", [["list"], ["--help"], ["--version"], ["list", "--format", "json"]])
def test_cli_start_up_imports_nothing_heavy(argv):
    code = ("from perfrigor.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()): main({argv!r})")
    assert _imported_after(code) == []


def test_lazy_submodules_still_work():
    import perfrigor as pr

    assert pr.stats.pwilcox(3, 4, 5) == pytest.approx(0.0555555555, rel=1e-6)
    assert callable(pr.resampling.bootstrap_ratio) and callable(pr.hierarchy.top_means)
    assert pr.__version__.count(".") >= 2
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pr.nope  # noqa: B018


def test_version_answers_before_the_plugins_load():
    script = ("import sys, io, contextlib\nfrom perfrigor.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()) as out: code = main(['--version'])\n"
              "print(code, out.getvalue().strip(), any(m.startswith('perfrigor_plugins') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    code, name, version, plugins = out.split()
    assert (code, name, plugins) == ("0", "perfrigor", "False") and version.count(".") >= 2


#: the modules of the built-in components: imported when a component is first used, not by listing them
COMPONENT_MODULES = ("perfrigor_plugins.gmm.", "perfrigor_plugins.hpt.", "perfrigor_plugins.independence.",
                     "perfrigor_plugins.ratio.", "perfrigor_plugins.verdict.", "perfrigor_plugins.random_effects.m",
                     "perfrigor_plugins.random_effects.p", "perfrigor_plugins.random_effects.v",
                     "perfrigor_plugins.speedup_test.h", "perfrigor_plugins.speedup_test.c",
                     "perfrigor_plugins.speedup_test.p")


def _components_imported(code: str) -> list[str]:
    script = f"import sys, io, contextlib\n{code}\nimport json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    return [m for m in json.loads(out.splitlines()[-1]) if m.startswith(COMPONENT_MODULES)
            and m != "perfrigor_plugins.speedup_test.config_reader"]


#: the parser's shorthands (--weight, --precision) take their help from the two speedup-test components that
#: offer them: building the command line imports those (and what they import), and no other component
SHORTHAND_MODULES = {"perfrigor_plugins.speedup_test.comparator", "perfrigor_plugins.speedup_test.proportion",
                     "perfrigor_plugins.speedup_test.hypothesis_tests", "perfrigor_plugins.speedup_test.procedure"}


@pytest.mark.parametrize("argv", [["list"], ["list", "--format", "json"], ["compare", "--help"]])
def test_listing_and_help_import_no_other_component_module(argv):
    code = ("from perfrigor.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try: main({argv!r})\n    except SystemExit: pass")
    imported = _components_imported(code)
    assert set(imported) <= SHORTHAND_MODULES, imported


def test_the_registry_lists_every_component_without_importing_one():
    code = ("import perfrigor as pr\nreg = pr.get_registry()\n"
            "rows = [(r.name, r.kind, r.scope, r.description, r.shorthands) for r in reg.components.values()]\n"
            "assert len(rows) >= 22 and pr.components()['gmm'] == 'estimator'")
    assert _components_imported(code) == []


def test_a_component_is_imported_when_first_used_and_matches_what_its_plugin_declared():
    import perfrigor as pr
    from perfrigor import registry as registries

    with registries.temporary() as registry:  # a fresh registry: none of its components used yet
        builtin = {n: r for n, r in registry.components.items() if "(perfrigor)" in r.plugin}
        lazy = {name: rec.entry for name, rec in builtin.items() if isinstance(rec.entry, pr.LazyComponent)}
        assert len(lazy) == len(builtin) >= 22  # every built-in component is named lazily
        for name, record in lazy.items():
            cls = registry.components[name].obj
            assert (record.name, record.kind, record.scope, record.description, record.shorthands) == (
                cls.name, cls.kind, cls.scope, cls.description(), cls.shorthands), name


def test_a_lazy_record_that_does_not_match_its_class_is_a_config_error_naming_the_plugin():
    import perfrigor as pr
    from perfrigor import registry

    class Plugin:
        @staticmethod
        @pr.hookimpl
        def perfrigor_components():
            return [pr.LazyComponent("perfrigor_plugins.ratio.fieller:Fieller", "not-fieller", "comparator", "x"),
                    pr.LazyComponent("nowhere.module:Nothing", "nothing", "estimator", "y")]

    with registry.temporary(allow=[], extra_plugins=[Plugin]) as reg:
        assert pr.components() == {"not-fieller": "comparator", "nothing": "estimator"}
        with pytest.raises(pr.ConfigError, match=r"'not-fieller' .* declares name 'not-fieller' but its class has "
                                                 "'fieller'"):
            reg.component_class("not-fieller")
        with pytest.raises(pr.ConfigError, match=r"component 'nothing' \(nowhere.module:Nothing\) cannot be loaded"):
            pr.get("nothing")

    class Bad:
        @staticmethod
        @pr.hookimpl
        def perfrigor_components():
            return [pr.LazyComponent("a.b:C", "c", "gizmo", "z")]

    with pytest.raises(pr.ConfigError, match="component 'c' has unknown kind 'gizmo'"), \
            registry.temporary(allow=[], extra_plugins=[Bad]):
        pass


def test_a_plugin_package_keeps_its_public_names():
    from perfrigor_plugins import gmm, ratio

    assert gmm.GaussianMixture.name == "gmm" and callable(ratio.fieller_limits)
    assert "GaussianMixture" in gmm.__all__
    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        gmm.Nope  # noqa: B018


def test_compare_of_the_default_preset_does_not_import_scipy_stats(tmp_path):
    """The default preset's steps take their distributions from scipy.special (ndtr, ndtri, stdtrit) and
    ranks and Kendall's S from pr.stats: importing scipy.stats would add 0.5-1 s to every compare;
    a mixture's modes and quantiles are found by bisection, not scipy.optimize (0.1-0.25 s)."""
    import numpy as np

    rng = np.random.default_rng(3)
    files = []
    for name, shift in (("old", 0.0), ("new", -0.02)):  # long enough for every step (steady state, trends)
        np.savetxt(tmp_path / f"{name}.txt", rng.lognormal(shift, 0.1, 3000))
        files.append(str(tmp_path / f"{name}.txt"))
    code = ("from perfrigor.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()): main(['compare', *{files!r}])")
    assert not [m for m in _imported_after(code) if m.startswith(("scipy.stats", "scipy.optimize"))]
