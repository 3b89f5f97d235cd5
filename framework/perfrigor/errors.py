"""The two errors perfrigor raises on bad input, both ``ValueError``s.

The CLI turns them into a one-line message and exit code 2; library users can
catch them (or ``ValueError``) without knowing perfrigor's internals.
"""


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
