"""Reader options declared with their types: a wrong option is a ConfigError before any file is read.

A reader lists what it takes in its ``options`` attribute, ``{name: ReaderOption}``;
:func:`check_options` (called by :func:`perfrigor.read` for every reader that declares
them) refuses an unknown name or a value of the wrong type with one line naming the
reader, the option and what it takes. The options come from Python
(``pr.read(path, value="t")``), the CLI (``--input value=t``) or a config's
``[input]`` table: a mistake there is a configuration error (exit 2), not a fault
of the data file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ..errors import ConfigError, did_you_mean

#: the kinds of value an option takes, and how a message names them
KINDS = {"str": "a string", "bool": "true or false", "names": "a column name or a list of column names",
         "char": "one character"}


@attrs.frozen
class ReaderOption:
    """One option of a reader: its kind (a key of :data:`KINDS`), a help text, and its choices (if any)."""

    kind: str
    help: str
    choices: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"reader option kind {self.kind!r} is not one of {sorted(KINDS)}")

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is of this option's kind (and one of its choices)."""
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "names":
            if isinstance(value, str):
                return bool(value)
            return (isinstance(value, list | tuple) and bool(value)
                    and all(isinstance(v, str) and v for v in value))
        if not isinstance(value, str):
            return False
        if self.kind == "char":
            return len(value) == 1
        return not self.choices or value in self.choices


#: options several readers share
UNIT = ReaderOption("str", "the unit of the values (s, ms, ns, ops/s ...; perfrigor.units lists them)")
LOWER_IS_BETTER = ReaderOption("bool", "whether a lower value is better (false for throughputs, rates, scores)")


def check_options(reader: Any, options: Mapping[str, Any]) -> None:
    """ConfigError unless every option is one ``reader`` declares, with a value of its kind.

    Readers that declare no ``options`` (a plugin's, written before options were typed)
    are given what they are given, as before.
    """
    declared: Mapping[str, ReaderOption] | None = getattr(reader, "options", None)
    if not isinstance(declared, Mapping):
        return
    name = getattr(reader, "name", type(reader).__name__)
    for key, value in options.items():
        spec = declared.get(key)
        if spec is None:
            takes = ", ".join(f"{k}=" for k in declared) or "no options"
            raise ConfigError(f"reader {name!r}: unknown option {key!r}{did_you_mean(key, declared)} "
                              f"(it takes {takes})")
        if not spec.accepts(value):
            wanted = f"one of {', '.join(map(repr, spec.choices))}" if spec.choices else KINDS[spec.kind]
            raise ConfigError(f"reader {name!r}: option {key}= must be {wanted}, got {value!r}")

