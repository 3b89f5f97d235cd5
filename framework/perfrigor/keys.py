"""PairKey: the key under which a two-system result is stored in a report.

A report keeps each benchmark's results as ``{key: Result}`` per step, the key
being a system name (one-system results) or a :class:`PairKey` (baseline and
candidate). The pair is kept as two fields, never parsed back from text, so
system names are arbitrary text (``"git -> v1"`` included). The string form
``"baseline -> candidate"`` appears only in ``to_dict()`` and in what people read.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class PairKey:
    """The key of a baseline-versus-candidate result: which two systems were compared."""

    baseline: str = attrs.field(converter=str)
    candidate: str = attrs.field(converter=str)

    def __str__(self) -> str:
        return f"{self.baseline} -> {self.candidate}"

    def to_dict(self) -> str:
        """The JSON form: ``"baseline -> candidate"`` (as reports have always written it)."""
        return str(self)


def pair_key(baseline: str, candidate: str) -> PairKey:
    """The key under which a two-system result is stored in a report."""
    return PairKey(baseline, candidate)

