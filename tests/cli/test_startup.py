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
HEAVY = ("scipy", "sklearn", "matplotlib", "pandas", "perfrigor_plugins.gmm.em", "perfrigor_plugins.gmm.fitting",
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
