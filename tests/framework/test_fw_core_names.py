"""The core knows no statistical method: its source names no built-in component.

Renaming a component must not silently break the core (the CLI used to pick the
describe steps, the plan command and the shorthands by component name). The names
come from the registry of the built-in plugins, so a new built-in is covered too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import perfrigor as pr
import pytest

CORE = Path(pr.__file__).resolve().parent
#: "verdict" is also the core's result type (pr.Verdict) and Comparison's field: not a method's name
SHARED_WORDS = {"verdict"}


def _builtin_components() -> list[str]:
    registry = pr.get_registry()
    return sorted(name for name, rec in registry.components.items() if "(perfrigor)" in rec.plugin)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring constants (prose, examples: not code)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def names_in_core(names: list[str], root: Path = CORE) -> list[str]:
    """``file:line: name`` for every string literal of the core (docstrings aside) that names one of ``names``."""
    found = []
    patterns = {n: re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])") for n in names}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                for name, pattern in patterns.items():
                    if pattern.search(node.value):
                        found.append(f"{path.relative_to(root)}:{node.lineno}: {name}")
    return found


def test_the_builtin_plugins_are_installed():
    names = _builtin_components()
    if len(names) < 15:
        pytest.skip("the built-in method plugins are not installed")
    assert {"fieller", "speedup-test", "experiment-plan", "variance-components"} <= set(names)


def test_the_core_names_no_builtin_component():
    names = [n for n in _builtin_components() if n not in SHARED_WORDS]
    assert names_in_core(names) == []


def test_the_check_finds_a_name(tmp_path):
    """The check can fail: a literal naming a component is found, a docstring mentioning one is not."""
    (tmp_path / "mod.py").write_text('"""Uses fieller."""\nSTEPS = ("mean-ci", "fieller-like", f"{1} gmm")\n')
    assert names_in_core(["fieller", "mean-ci", "gmm"], tmp_path) == ["mod.py:2: mean-ci", "mod.py:2: gmm"]
