"""The core's imports form no circle.

component(s) <-> registry (for did_you_mean, now in errors.py), config <-> pipeline(s)
(the config builds a PipelineSpec, Pipeline.from_spec builds from it) and a circle of 19
files (data -> inputs -> readers -> data; registry -> commands -> readers -> registry)
were circles kept alive by function-level imports. The graph here counts those imports
too, and the whole core's graph is checked for any circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import perfrigor as pr

CORE = Path(pr.__file__).resolve().parent


def _module_name(path: Path) -> str:
    rel = path.relative_to(CORE).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts) or "__init__"


def import_graph() -> dict[str, set[str]]:
    """``{module: modules of the core it imports anywhere in its body}`` (relative imports)."""
    graph: dict[str, set[str]] = {}
    for path in CORE.rglob("*.py"):
        name = _module_name(path)
        package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                if node.module is None:  # from . import x
                    found |= {".".join([*base, a.name]) for a in node.names}
                else:
                    found.add(target)
        graph[name] = {t for t in found if t}
    return graph


def test_no_circle_between_components_and_registry():
    graph = import_graph()
    assert "component" in graph["registry"] and "registry" not in graph["component"]
    assert "errors" in graph["component"]  # did_you_mean


def test_no_circle_between_config_and_pipeline():
    graph = import_graph()
    assert "config" in graph["pipelines"] and "pipelines" not in graph["config"]


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of ``graph`` as the modules along it, or [] (a depth-first search)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt in graph and nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_core_has_no_import_circle():
    graph = import_graph()
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]  # the search finds one
    circle = _circle({m: {t for t in targets if t != m} for m, targets in graph.items()})
    assert circle == [], "an import circle: " + " -> ".join(circle)


def test_the_data_layer_imports_nothing_above_it():
    graph = import_graph()
    assert graph["data"] <= {"units", "errors"}, graph["data"]  # no inputs, no readers
    assert not any(t == "readers" or t.startswith("readers.") for t in graph["commands"])
    assert "commands" not in graph["registry"]


def test_the_graph_sees_function_level_imports(tmp_path):
    assert "registry" in import_graph()["config"]  # the preset look-up


#: the function-level imports of the readers, renderers and inputs that buy something, each with its reason
#: in a comment beside it: start-up (the figure modules, the installed metadata); imports of the heavy
#: libraries (scipy, matplotlib, pandas, dask) may be lazy anywhere
KEPT_LAZY = {("renderers/_layout.py", "._figures"), ("renderers/html.py", "..")}
HEAVY = ("scipy", "matplotlib", "pandas", "pyarrow", "dask", "distributed")


def _function_level_imports(path: Path) -> list[tuple[str, int]]:
    """(module as written, line) of every import inside a function of ``path``."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.ImportFrom):
                    found.append(("." * node.level + (node.module or ""), node.lineno))
                elif isinstance(node, ast.Import):
                    found += [(a.name, node.lineno) for a in node.names]
    return found


def test_readers_renderers_and_inputs_import_lazily_only_what_buys_something():
    files = [*CORE.glob("readers/*.py"), *CORE.glob("renderers/*.py"), CORE / "inputs.py"]
    stray, kept = [], set()
    for path in files:
        rel = path.relative_to(CORE).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        for module, line in _function_level_imports(path):
            if module.split(".")[0] in HEAVY:
                continue
            if (rel, module) not in KEPT_LAZY:
                stray.append(f"{rel}:{line}: {module}")
                continue
            kept.add((rel, module))
            around = " ".join(lines[max(0, line - 4):line])  # the import's line and the three above
            assert "#" in around, f"{rel}:{line}: say why {module} is imported here"
    assert stray == [], "function-level imports that hide nothing: make them top-level"
    assert kept == KEPT_LAZY  # a stale entry goes
