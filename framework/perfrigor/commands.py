"""Command-line commands contributed by plugins (hook ``perfrigor_commands``).

A plugin adds a ``perfrigor NAME ...`` command by returning :class:`Command`
records, as llm's ``register_commands`` or pytest's ``pytest_addoption`` let
plugins extend their front ends. The core builds the argparse sub-parser, lets
the command add its arguments, and runs it with a :class:`CommandContext`
(where to write, how to read data files with the command line's input options).
Errors are the usual ones: ``pr.DataError`` / ``pr.ConfigError`` end the
command with a one-line message and exit code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, TextIO

import attrs

from .data import Sample, Suite
from .readers import read


@attrs.frozen
class CommandContext:
    """What a running command gets from the core besides its parsed arguments."""

    #: where the command writes its output (the console's stdout, or a test's buffer)
    stdout: TextIO
    #: reader options from ``--input-format``, ``--metric`` and ``--input KEY=VALUE`` (``input_options=True``)
    reader_options: Mapping[str, Any] = attrs.field(factory=dict)

    def read(self, path: str) -> Sample | Suite:
        """A data file (or directory) read with the command line's input options, as ``pr.read`` reads it."""
        options = dict(self.reader_options)
        return read(path, options.pop("format", None), **options)


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
    run: Callable[[argparse.Namespace, CommandContext], int]
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    description: str | None = None
    input_options: bool = False
