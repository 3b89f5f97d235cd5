"""Hook specifications: what a perfrigor plugin can contribute.

A plugin is a module (named by an entry point in the group ``perfrigor``)
with functions decorated by :data:`hookimpl`; each returns a list.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import attrs
import pluggy

PROJECT = "perfrigor"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def perfrigor_components() -> list[Any]:
    """Component classes (subclasses of Estimator, Test or Comparator), each with a ``name``, or
    :class:`perfrigor.LazyComponent` records naming them without importing them."""


@hookspec
def perfrigor_pipelines() -> list[dict[str, Any]]:
    """Named pipeline presets, as config mappings: ``{"name", "description", "steps": [...]}``."""


@hookspec
def perfrigor_readers() -> list[Reader]:
    """Input formats: objects following the :class:`Reader` protocol."""


@hookspec
def perfrigor_renderers() -> list[Renderer]:
    """Output formats: objects following the :class:`Renderer` protocol."""


@hookspec
def perfrigor_commands() -> list[Command]:
    """Command-line commands: :class:`Command` records (``perfrigor NAME ...``).

    Each names its command, declares its arguments on an argparse parser and runs
    with the parsed arguments and a ``perfrigor.CommandContext``. A name already taken by
    a built-in command or another plugin's is a ConfigError naming both.
    """


@runtime_checkable
class Reader(Protocol):
    """An input format. ``pr.read(path)`` asks each reader, lowest ``priority`` first (default 50),
    whether it recognises the file (``sniff``), unless ``format=name`` picks one.

    A reader that also reads directories (criterion's ``target/criterion``) has a
    ``sniff_directory(path) -> bool`` method; ``pr.read(directory)`` asks those.
    """

    name: str
    suffixes: tuple[str, ...]

    def sniff(self, path: Path, head: str) -> bool:
        """Whether the file (its first 4 KB in ``head``, gunzipped, decoded) is in this format."""
        ...

    def read(self, path: Path, **options: Any) -> Any:
        """A Sample (one system of one benchmark) or a Suite; DataError naming file and line if bad."""
        ...


@runtime_checkable
class Renderer(Protocol):
    """An output format: ``report.render(name)``. An optional ``suffix`` (".md") lets ``-o FILE`` pick it."""

    name: str

    def render(self, report: Any) -> str:
        """The whole report as one string."""
        ...


@attrs.frozen
class Command:
    """One ``perfrigor NAME`` command a plugin contributes.

    ``add_arguments(parser)`` declares its arguments on an argparse parser;
    ``run(args, context)`` does the work and returns the exit code (0 done, 1 a
    requested check failed). With ``input_options`` the core also adds its
    reader options (``--input-format``, ``--metric``, ``--input``), which
    ``context.read(path)`` honours.
    """

    name: str
    help: str
    run: Callable[[argparse.Namespace, Any], int]  # (args, perfrigor.CommandContext) -> exit code
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    description: str | None = None
    input_options: bool = False
