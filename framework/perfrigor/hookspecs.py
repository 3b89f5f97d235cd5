"""Hook specifications: what a perfrigor plugin can contribute.

A plugin is a module (named by an entry point in the group ``perfrigor``)
with functions decorated by :data:`hookimpl`; each returns a list.
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "perfrigor"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def perfrigor_components() -> list[type]:
    """Component classes (subclasses of Estimator, Test or Comparator), each with a ``name``."""


@hookspec
def perfrigor_pipelines() -> list[dict[str, Any]]:
    """Named pipeline presets, as config mappings: ``{"name", "description", "steps": [...]}``."""


@hookspec
def perfrigor_readers() -> list[Any]:
    """Input formats: objects with ``name``, ``suffixes``, ``sniff(path, head)`` and ``read(path, **options)``."""


@hookspec
def perfrigor_renderers() -> list[Any]:
    """Output formats: objects with ``name`` and ``render(report) -> str``."""
