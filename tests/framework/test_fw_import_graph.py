"""Two import circles of the core stay cut.

component(s) <-> registry (for did_you_mean, now in errors.py) and config <-> pipeline(s)
(the config builds a PipelineSpec, Pipeline.from_spec builds from it) were circles
kept alive by function-level imports. The graph here counts those imports too; it
checks the direct edges (the readers still look the registry up lazily, which
reaches components through the plugin manager: a look-up, not a circle of the two).
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


def test_the_graph_sees_function_level_imports(tmp_path):
    assert "registry" in import_graph()["config"]  # the preset look-up
