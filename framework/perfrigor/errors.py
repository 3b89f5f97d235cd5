"""The two errors perfrigor raises on bad input, both ``ValueError``s.

The CLI turns them into a one-line message and exit code 2; library users can
catch them (or ``ValueError``) without knowing perfrigor's internals. Messages
suggest the likely intended name with :func:`did_you_mean`.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class PerfrigorError(ValueError):
    """Base of perfrigor's own errors."""


class DataError(PerfrigorError):
    """Measurements are unusable: unreadable file, NaN, unbalanced hierarchy, too few values...

    The message names where the problem is (file, line, benchmark, unit).
    """


class ConfigError(PerfrigorError):
    """A pipeline, component name, parameter or plugin is wrong."""


class ExecutionError(PerfrigorError):
    """The work could not be carried out: a worker died, a task ran past its timeout.

    Not a bug in perfrigor nor in the data: the message says what happened and what to try.
    """


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close match exists, else ''."""
    choices = list(choices)
    close = difflib.get_close_matches(word, choices, n=3, cutoff=0.6)
    if close:  # keep the best match and any as good as it (within 0.05)
        best = difflib.SequenceMatcher(None, word, close[0]).ratio()
        close = [c for c in close if difflib.SequenceMatcher(None, word, c).ratio() >= best - 0.05]
    return f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
