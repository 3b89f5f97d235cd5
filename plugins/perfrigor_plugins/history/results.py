"""What a history detector finds: changes, pending ones, and each benchmark's fitted segments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import perfrigor as pr


@attrs.frozen(kw_only=True)
class Change(pr.Result):
    """A change of one benchmark's level at commit ``commit`` (index ``index``: the first commit after
    it); it lies between ``first`` and ``last`` (a confidence set of the first commit after, at
    ``confidence``). ``speedup``: the level before over the level after (> 1: faster, whatever the
    metric's direction) with its interval; ``pvalue`` the scan's, ``qvalue`` after the false
    discovery rate adjustment over every benchmark and commit tested."""

    benchmark: str
    commit: str
    index: int
    first: str
    last: str
    first_index: int
    last_index: int
    speedup: float
    ci_low: float
    ci_high: float
    confidence: float
    pvalue: float
    qvalue: float | None = None
    before: float | None = None
    after: float | None = None

    @property
    def outcome(self) -> str:
        return "faster" if self.speedup > 1 else "slower"

    def describe(self) -> str:
        where = self.commit if self.first == self.last else f"{self.commit} (between {self.first} and {self.last})"
        return (f"{self.benchmark}: {self.outcome} from commit {where}: speedup {self.speedup:.4g} "
                f"({self.confidence:.0%} CI {self.ci_low:.4g} to {self.ci_high:.4g}), p = {self.pvalue:.2g}")

    def to_dict(self) -> dict[str, Any]:
        return {"benchmark": self.benchmark, "commit": self.commit, "index": self.index, "first": self.first,
                "last": self.last, "speedup": self.speedup, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "pvalue": self.pvalue, "outcome": self.outcome, "qvalue": self.qvalue,
                "confidence": self.confidence}


@attrs.frozen(kw_only=True)
class Pending(pr.Result):
    """The last ``commits`` commits of a benchmark differ from the level before them, but too few
    commits follow the possible change (``index``, commit ``commit``) to confirm it yet."""

    benchmark: str
    commit: str
    index: int
    commits: int
    speedup: float
    pvalue: float

    def describe(self) -> str:
        word = "faster" if self.speedup > 1 else "slower"
        return (f"{self.benchmark}: possibly {word} from commit {self.commit} (speedup {self.speedup:.4g}, "
                f"p = {self.pvalue:.2g}); {self.commits} commit(s) so far: not confirmed")

    def to_dict(self) -> dict[str, Any]:
        return {"benchmark": self.benchmark, "commit": self.commit, "index": self.index, "commits": self.commits,
                "speedup": self.speedup, "pvalue": self.pvalue,
                "outcome": "faster" if self.speedup > 1 else "slower"}


@attrs.frozen(kw_only=True)
class Fit(pr.Result):
    """One benchmark as the detector saw it: per commit (index) the level it used and its spread,
    the segments' levels (``[start, end)`` in commit indices, level in the unit), the noise
    model, and the commits it damped as single-commit spikes."""

    benchmark: str
    commits: tuple[int, ...] = attrs.field(converter=tuple)
    centre: tuple[float, ...] = attrs.field(converter=tuple)
    low: tuple[float, ...] = attrs.field(converter=tuple)
    high: tuple[float, ...] = attrs.field(converter=tuple)
    segments: tuple[tuple[int, int, float], ...] = attrs.field(converter=tuple)
    unit: str = ""
    lower_is_better: bool = True
    noise: Mapping[str, Any] = attrs.field(factory=dict)
    damped: tuple[int, ...] = attrs.field(default=(), converter=tuple)

    def describe(self) -> str:
        return f"{self.benchmark}: {len(self.segments)} segment(s) over {len(self.commits)} commits"


@attrs.frozen(kw_only=True)
class HistoryResult(pr.Result):
    """Changes over a history: ``changes`` (confirmed, false discovery rate ``fdr`` over every
    benchmark and commit tested), ``pending`` (possible changes in the last commits), ``fits`` per
    benchmark (for plots), ``commits`` (names in order), the ``detector`` and its ``method``."""

    changes: tuple[Change, ...] = attrs.field(default=(), converter=tuple)
    pending: tuple[Pending, ...] = attrs.field(default=(), converter=tuple)
    fits: Mapping[str, Fit] = attrs.field(factory=dict)
    commits: tuple[str, ...] = attrs.field(default=(), converter=tuple)
    detector: str = ""
    method: str = ""
    confidence: float = 0.95
    fdr: float | None = None
    tested: int = 0

    def describe(self) -> str:
        k = len(self.fits)
        if not self.changes:
            head = f"no change in {k} benchmark(s) over {len(self.commits)} commits"
        else:
            slower = sum(c.outcome == "slower" for c in self.changes)
            head = (f"{len(self.changes)} change(s) in {len({c.benchmark for c in self.changes})} of {k} "
                    f"benchmark(s) over {len(self.commits)} commits: {slower} slower, "
                    f"{len(self.changes) - slower} faster")
        if self.pending:
            head += f"; {len(self.pending)} pending (too recent to confirm)"
        return head

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON: ``{"changes": [...], "pending": [...]}``, newest first."""
        return {"changes": [c.to_dict() for c in newest_first(self.changes)],
                "pending": [p.to_dict() for p in newest_first(self.pending)]}


def newest_first(items: Any) -> list[Any]:
    """Changes (or pending ones) by commit, newest first, then by benchmark."""
    return sorted(items, key=lambda c: (-c.index, c.benchmark))
