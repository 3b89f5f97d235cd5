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

    def medians(self) -> tuple[np.ndarray, np.ndarray]:
        """Median score of each benchmark: (candidate, baseline)."""
        return (np.array([np.median(c) for c in self.candidate]),
                np.array([np.median(b) for b in self.baseline]))

    def gm_speedup(self) -> float:
        """The geometric-mean speedup the paper criticises (SPEC practice: median run, GM across benchmarks)."""
        med_c, med_b = self.medians()
        return float(np.exp(np.mean(np.log(med_c / med_b))))


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
    notes: list[str] = []
    benchmarks, cand_scores, base_scores = [], [], []
    for b in base:
        xb = _runs(base[b], f"benchmark {b!r}, baseline", notes)
        xc = _runs(cand[b], f"benchmark {b!r}, candidate", notes)
        ref = {"baseline-median": float(np.median(xb)), "baseline-first": float(xb[0]), "none": 1.0}[normalize]
        if lower:
            cand_scores.append(ref / xc)
            base_scores.append(ref / xb)
        else:
            cand_scores.append(xc / ref)
            base_scores.append(xb / ref)
        benchmarks.append(b)
    return Scores(tuple(benchmarks), tuple(cand_scores), tuple(base_scores), lower, tuple(notes))
