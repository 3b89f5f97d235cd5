"""From two ``{benchmark: sample}`` mappings to HPT's higher-is-better performance scores.

HPT (Chen et al., Sec. IV-B) works on "normalized performance ratios": per benchmark,
larger is better, and every benchmark on a comparable scale, because level 2 ranks raw
differences of medians across benchmarks. Times (``Sample.lower_is_better``) become
``reference / time``; throughputs and SPEC-like ratios become ``value / reference``.
The reference is taken from the *baseline* only, so dividing the candidate's scores by
a speedup-under-test leaves it unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

#: how each benchmark's reference is chosen (see docs/methods/hpt.md)
NORMALIZATIONS = ("baseline-median", "baseline-first", "none")


@attrs.frozen
class Scores:
    """Per-benchmark score vectors of both systems (higher is better), in benchmark order."""

    benchmarks: tuple[str, ...]
    candidate: tuple[np.ndarray, ...]
    baseline: tuple[np.ndarray, ...]
    lower_is_better: bool
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.benchmarks)

    def swapped(self) -> Scores:
        """The same scores with the roles exchanged (does the baseline outperform the candidate?)."""
        return attrs.evolve(self, candidate=self.baseline, baseline=self.candidate)


def _runs(sample: pr.Sample, where: str, notes: list[str]) -> np.ndarray:
    sample.require_positive(where)
    if sample.values.ndim == 1:
        return sample.values
    notes.append(f"{where}: hierarchical sample {sample.shape}; each top-level unit "
                 f"({sample.levels[0]}) counts as one run, summarised by its mean")
    return sample.top_means()


def prepare(baseline: Any, candidate: Any, normalize: str = "baseline-median") -> Scores:
    """Validate two suite mappings and turn them into HPT scores (DataError on bad input)."""
    if normalize not in NORMALIZATIONS:
        raise pr.ConfigError(f"hpt: normalize must be one of {list(NORMALIZATIONS)}, got {normalize!r}")
    if not isinstance(baseline, Mapping) or not isinstance(candidate, Mapping):
        raise pr.DataError("hpt compares two suites: give two mappings {benchmark: sample}")
    base = pr.as_sample_mapping(baseline, "baseline")
    cand = pr.as_sample_mapping(candidate, "candidate")
    if not base:
        raise pr.DataError("hpt: the suites have no benchmarks")
    only_b, only_c = sorted(set(base) - set(cand)), sorted(set(cand) - set(base))
    if only_b or only_c:
        raise pr.DataError(f"hpt: the two systems do not have the same benchmarks: only in baseline: {only_b}, "
                           f"only in candidate: {only_c}")
    directions = {(b, role): s.lower_is_better for b in base for role, s in (("baseline", base[b]),
                                                                                 ("candidate", cand[b]))}
    lower = directions[(next(iter(base)), "baseline")]
    odd = [f"{b} ({role})" for (b, role), d in directions.items() if d != lower]
    if odd:
        raise pr.DataError(f"hpt: mixed metric directions: {odd[0]} is "
                           f"{'higher' if lower else 'lower'}-is-better while the first benchmark's baseline "
                           f"is {'lower' if lower else 'higher'}-is-better")
    for b in base:  # the same quantity in two units (ns and s): the candidate's converted, exactly
        if cand[b].unit != base[b].unit:
            try:
                cand[b] = cand[b].to_unit(base[b].unit)
            except pr.DataError as exc:
                raise pr.DataError(f"hpt: benchmark {b!r}: {exc}") from None
    notes: list[str] = []
    benchmarks = list(base)
    runs_b = [_runs(base[b], f"benchmark {b!r}, baseline", notes) for b in benchmarks]
    runs_c = [_runs(cand[b], f"benchmark {b!r}, candidate", notes) for b in benchmarks]
    ref = _references(runs_b, normalize)
    if lower:
        cand_scores = [r / x for r, x in zip(ref, runs_c, strict=True)]
        base_scores = [r / x for r, x in zip(ref, runs_b, strict=True)]
    else:
        cand_scores = [x / r for r, x in zip(ref, runs_c, strict=True)]
        base_scores = [x / r for r, x in zip(ref, runs_b, strict=True)]
    return Scores(tuple(benchmarks), tuple(cand_scores), tuple(base_scores), lower, tuple(notes))


def _references(runs: list[np.ndarray], normalize: str) -> np.ndarray:
    """Each benchmark's reference value, from the baseline's runs (medians computed per run count)."""
    if normalize == "none":
        return np.ones(len(runs))
    if normalize == "baseline-first":
        return np.array([x[0] for x in runs])
    ref = np.empty(len(runs))
    by_size: dict[int, list[int]] = {}
    for i, x in enumerate(runs):
        by_size.setdefault(x.size, []).append(i)
    for idx in by_size.values():
        ref[idx] = np.median(np.stack([runs[i] for i in idx]), axis=1)
    return ref
