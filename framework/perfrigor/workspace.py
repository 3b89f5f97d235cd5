"""Workspace: what the steps of one pipeline task compute once and share.

Several steps often need the same costly intermediate (a mixture fit of a
sample, say). A pipeline opens one :class:`Workspace` per task (a batch of
benchmarks run through a stage's per-benchmark steps) and closes it when the
task ends, so what is stored there is shared by every step of that task, is
never seen by another run (fresh data is never flattered by a cache), and is
bounded by the size of one task. Components read it with
:func:`current_workspace`; outside a pipeline there is none unless the caller
opens one (``with pr.Workspace(): ...``).

Keys are chosen by the component that stores a value; they must say everything
the value depends on (e.g. the sample's values and the fit's options), and
start with the plugin's own name so plugins never collide.
"""

from __future__ import annotations

import contextvars
from collections.abc import Hashable
from typing import Any

_CURRENT: contextvars.ContextVar[Workspace | None] = contextvars.ContextVar("perfrigor_workspace", default=None)


class Workspace:
    """A mapping of values computed once per task, made current with ``with``.

    >>> import perfrigor as pr
    >>> with pr.Workspace() as ws:
    ...     _ = ws.put(("my-plugin", "answer"), 42)
    ...     pr.current_workspace().get(("my-plugin", "answer"))
    42
    """

    def __init__(self) -> None:
        self._values: dict[Hashable, Any] = {}
        self._tokens: list[contextvars.Token] = []

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value stored under ``key``, or ``default``."""
        return self._values.get(key, default)

    def put(self, key: Hashable, value: Any) -> Any:
        """Store ``value`` under ``key``; returns it."""
        self._values[key] = value
        return value

    def __contains__(self, key: Hashable) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __enter__(self) -> Workspace:
        self._tokens.append(_CURRENT.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _CURRENT.reset(self._tokens.pop())


def current_workspace() -> Workspace | None:
    """The workspace of the task running in this thread, or None outside one."""
    return _CURRENT.get()
