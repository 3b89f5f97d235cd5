"""The steady parts the verdict compares: each series' warm-up left out, as a steady-state check finds it.

The evidence is a ``pr.SteadyStateCheck`` per system, read by type (the pipeline's, whatever
step produced it, else the registered ``steady-state`` run here; ``VerdictStep.steady``
turns this off). A series is a flat sample's run order, or each fork (invocation) of a
hierarchical one:

- **flat**: the runs before the steady start are left out (with the few warm-up runs the
  dependence check sees, whichever is longer); a slowdown (steady at a worse level than the
  first runs) is compared from its steady start and named; a series that never settles is
  compared whole and named;
- **hierarchical**: each fork's mean is that of its steady iterations. The forks stay the unit
  (Kalibera & Jones), so warm-ups of different lengths cost nothing more. A fork that never
  settles has no steady level and is left out (said, with how many), as long as at least 2
  forks of the system settle (else every fork is kept whole): fewer forks widen the interval.
  Keeping never-steady forks whole makes the fork means a mixture (settled, and higher by
  whatever the run's end held) on which Welch's test over 6 forks a side does not hold its
  level: 10% A/A false alarms with 40% of the forks never steady (benchmarks/steady_verdict.py,
  docs/methods/steady-state.md has the table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from .dependence import level_segments
from .evidence import DEFAULTS, Found, find, find_or_run

#: a system needs this many series that settle for its never-steady ones to be left out (else all are kept whole)
MIN_STEADY = 2
#: keep never-steady forks whole instead (benchmarks/steady_verdict.py sets it for its comparison row only)
NEVER_STEADY_KEPT_WHOLE = False


@attrs.frozen
class Steady:
    """One system's steady-state evidence as the verdict uses it: whence, and each series' first steady
    iteration (0: compared whole from the start; None: never steady)."""

    source: str
    check: pr.SteadyStateCheck

    @property
    def starts(self) -> tuple[int | None, ...]:
        return self.check.starts()

    def kept(self) -> np.ndarray:
        """Leading iterations left out of each series; -1: the series is left out (it never settles), unless
        fewer than ``MIN_STEADY`` series settle (then those are kept whole)."""
        starts = self.starts
        drop = sum(s is not None for s in starts) >= MIN_STEADY and not NEVER_STEADY_KEPT_WHOLE
        return np.array([s if s is not None else -1 if drop else 0 for s in starts], dtype=np.int64)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "starts": list(self.starts), "counts": dict(self.check.counts)}


def gather(samples: Mapping[str, pr.Sample], systems: tuple[str, str], previous: pr.Previous
           ) -> tuple[Steady | None, Steady | None]:
    """Each system's steady-state check: the pipeline's (``pr.SteadyStateCheck`` by type), else the default's.

    The default runs with its own settings (a relevance of 5%, validated on labelled real JMH
    forks): a warm-up that fades is steady, for it, once within 5% of the steady level, and the
    iterations it leaves in weigh in the comparison. A pipeline's ``steady-state`` step with a
    smaller ``relevance`` (0.01) cuts closer; at 1% real JMH forks switching between levels a
    few percent apart are more often found never steady.
    """
    out = []
    for system in systems:
        sample = samples[system]
        found: Found | None = find_or_run(previous, pr.SteadyStateCheck, system, lambda c, s=sample: c.estimate(s))
        usable = (found is not None and isinstance(found.result, pr.SteadyStateCheck)
                  and len(found.result.series) == int(np.prod(sample.values.shape[:-1], dtype=np.int64)))
        out.append(Steady(found.source, found.result) if usable else None)  # type: ignore[union-attr]
    return out[0], out[1]


def prepare(jobs: Sequence[pr.BenchmarkJob]) -> None:
    """The default steady-state checks the verdicts of a pipeline task will run (the systems with no
    ``pr.SteadyStateCheck`` of the pipeline), prepared together by the registered component's own ``prepare``:
    what ``gather`` then runs reads them from the task's workspace. Only a saving: ``gather`` computes what is
    missing, and says what goes wrong, on its own benchmark."""
    todo = [(job.benchmark, job.samples[system]) for job in jobs
            if getattr(job.component, "steady", False) and job.candidate is not None
            for system in (job.baseline, job.candidate)
            if system in job.samples and find(job.previous, pr.SteadyStateCheck, system) is None]  # type: ignore[arg-type]
    name = DEFAULTS[pr.SteadyStateCheck]
    if not todo or name not in pr.get_registry().components:
        return
    component = pr.get(name)
    try:
        type(component).prepare([pr.BenchmarkJob(bench, component, {"sample": sample}, "sample", None, {})
                                 for bench, sample in todo])
    except Exception:  # noqa: BLE001 - nothing is lost: gather runs the check itself and reports its error
        return


def details(states: tuple[Steady | None, Steady | None]) -> dict[str, Any]:
    """The verdict's ``details["steady"]``: per system, whence the evidence, each series' start and the counts
    (nothing without steady-state evidence)."""
    if all(s is None for s in states):
        return {}
    return {"steady": {who: None if s is None else s.to_dict() for who, s in zip(("baseline", "candidate"), states,
                                                                                   strict=True)}}


# ------------------------------------------------------------------------------ flat samples

#: fewer runs than this in a flat sample: its warm-up is the dependence check's (a few runs), not cut here
FLAT_MIN = 100


def flat_start(sample: pr.Sample, steady: Steady | None) -> int:
    """Leading runs of a flat sample before its steady state (0 when it has none, or never settles).

    The runs are the replicates, so the cut needs a series long enough to tell a warm-up from
    a level that moves (at least ``FLAT_MIN`` runs, where the detector's penalty is calibrated
    from) and a steady part that holds one level (not switching between levels). Else the
    dependence check over all runs decides, as without a steady-state check: a warm-up cut out
    of an undeclared hierarchy (3 invocations of 10 runs) leaves fewer blocks than the
    dependence can be estimated from (29% A/A false alarms, 8% without the cut).
    """
    if steady is None or sample.is_hierarchical or not steady.starts or len(sample) < FLAT_MIN:
        return 0
    start = steady.starts[0] or 0
    if len(steady.check.series[0].levels) > 1 or (start and one_of_several_levels(sample.flat, start)):
        return 0
    return start if len(sample) - start >= 2 else 0


def one_of_several_levels(values: np.ndarray, start: int) -> bool:
    """Whether the runs before ``start`` are one level among several rather than a warm-up.

    A warm-up is a level the runs leave and do not come back near; an invocation of a flattened
    hierarchy is one of several levels. So the leading runs are kept when the steady runs move
    between segments of their own (:func:`.dependence.level_segments`) and one of those lies on
    the same side of the steady runs' median at least half as far as the leading runs' median (log
    values; the segments are found on the runs' ranks, as for the dependence: an outlier makes no
    level). A real warm-up leaves steady runs of one level (nothing to come back to) and is cut.
    """
    logs = np.log(np.asarray(values, dtype=float))
    rest = logs[start:]
    edges = level_segments(pr.stats.rank_average(rest))
    if edges.size <= 2:
        return False
    centre = float(np.median(rest))
    lead = float(np.median(logs[:start])) - centre
    means = np.array([np.median(rest[a:b]) for a, b in zip(edges[:-1], edges[1:], strict=True)]) - centre
    return bool(np.any(means * np.sign(lead) >= abs(lead) / 2.0))


def _change(values: np.ndarray, start: int) -> float:
    """How far the runs before ``start`` sit from those after, relative to the latter (means)."""
    return float(np.mean(values[:start]) / np.mean(values[start:]) - 1.0)


def flat_notes(system: str, sample: pr.Sample, steady: Steady | None, start: int, said: bool = False
               ) -> tuple[list[str], list[str]]:
    """Flags and sentences about one flat system's steady state (nothing when it is flat; no warm-up sentence
    when ``said``: the dependence check's own says it)."""
    if steady is None or sample.is_hierarchical or not steady.check.series:
        return [], []
    state = steady.check.series[0]
    if state.classification == "no steady state":
        return ["unsteady"], [f"{system}'s runs never reach a steady state (they still change at the end): compared "
                              "whole; their centre depends on when the run stopped"]
    if not start:
        return [], []
    n, values = len(sample), sample.flat
    if state.classification == "slowdown":
        return ["slowdown"], [f"{system} slows down: from run {start + 1} of {n} on its runs settle "
                              f"{float(np.mean(values[start:]) / np.mean(values[:start]) - 1.0):+.1%} from its first {start}: the steady, "
                              "worse part "
                              "is compared"]
    if said:
        return ["warmup"], []
    return ["warmup"], [f"{system}: warm-up left out: the first {start} of {n} runs "
                        f"({_change(values, start):+.1%}), as {steady.source} finds the steady state"]


# ------------------------------------------------------------------------------ hierarchical samples


def top_means(sample: pr.Sample, kept: Any = None) -> np.ndarray:
    """The top-level units' means over their series' steady iterations (``kept[i]`` leading iterations of
    series i left out, -1: series i left out; None: all), each series weighing alike; a unit none of whose
    series is kept is left out. Vectorised over the series."""
    if kept is None or not np.any(kept):
        return sample.top_means()
    values = np.asarray(sample.values, dtype=float)
    rows = values.reshape(-1, values.shape[-1])
    kept = np.asarray(kept, dtype=np.int64)
    keep = (np.arange(rows.shape[1])[None, :] >= kept[:, None]) & (kept >= 0)[:, None]
    counts = keep.sum(axis=1)
    means = np.where(counts > 0, (rows * keep).sum(axis=1) / np.maximum(counts, 1), 0.0).reshape(values.shape[0], -1)
    series = (counts > 0).reshape(values.shape[0], -1).sum(axis=1)
    return means.sum(axis=1)[series > 0] / series[series > 0]


def hierarchical_notes(system: str, sample: pr.Sample, steady: Steady | None) -> tuple[list[str], list[str]]:
    """Flags and sentences about one hierarchical system's forks: warm-ups left out, forks that never settle,
    slowdowns ("warm-up left out: first ~800 iterations of 7 of 10 forks")."""
    if steady is None:
        return [], []
    check, starts = steady.check, steady.starts
    forks, iterations = _plural(sample.levels[-2]), _plural(sample.levels[-1])
    total = len(starts)
    warm = [s for s, st in zip(starts, check.series, strict=True) if s and st.classification == "warmup"]
    slow = [s for s, st in zip(starts, check.series, strict=True) if s and st.classification == "slowdown"]
    never = sum(s is None for s in starts)
    flags, notes = [], []
    if warm:
        spread = f" ({min(warm)} to {max(warm)})" if len(warm) > 1 and max(warm) > 2 * min(warm) else ""
        flags.append("warmup")
        notes.append(f"{system}: warm-up left out: first ~{int(np.median(warm))} {iterations}{spread} of "
                     f"{len(warm)} of {total} {forks}")
    if slow:
        flags.append("slowdown")
        notes.append(f"{system}: {len(slow)} of {total} {forks} slow down (steady at a worse level than their first "
                     f"~{int(np.median(slow))} {iterations}): their steady, worse part is compared")
    if never:
        flags.append("unsteady")
        left_out = bool((steady.kept() < 0).any())
        notes.append(f"{system}: {never} of {total} {forks} never reach a steady state: "
                     + ("left out (they have no steady level; the fewer forks widen the interval)" if left_out else
                        "kept whole (too few settle to leave them out)"))
    return flags, notes


def _plural(word: str) -> str:
    return word if word.endswith("s") else f"{word}s"
