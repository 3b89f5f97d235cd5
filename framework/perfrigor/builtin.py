"""The framework's own plugin: the built-in readers and renderers.

Registered through the ``perfrigor`` entry-point group like any other plugin.
"""

from __future__ import annotations

from .hookspecs import hookimpl
from .readers import BUILTIN_READERS
from .renderers import BUILTIN_RENDERERS


@hookimpl
def perfrigor_readers() -> list:
    return list(BUILTIN_READERS)


@hookimpl
def perfrigor_renderers() -> list:
    return list(BUILTIN_RENDERERS)
