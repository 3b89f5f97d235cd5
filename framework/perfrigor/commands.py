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

from collections.abc import Mapping
from typing import Any, TextIO

import attrs

from .data import Sample, Suite
from .hookspecs import Command
from .inputs import load

__all__ = ["Command", "CommandContext"]


@attrs.frozen
class CommandContext:
    """What a running command gets from the core besides its parsed arguments."""

    #: where the command writes its output (the console's stdout, or a test's buffer)
    stdout: TextIO
    #: reader options from ``--input-format``, ``--metric`` and ``--input KEY=VALUE`` (``input_options=True``)
    reader_options: Mapping[str, Any] = attrs.field(factory=dict)

    def read(self, path: str) -> Sample | Suite:
        """A data file (or directory) read with the command line's input options, as ``pr.read`` reads it."""
        return load(path, self.reader_options)
