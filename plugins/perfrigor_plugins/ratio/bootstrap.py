"""Hierarchical-bootstrap CI for the ratio of means (Kalibera & Jones 2013, §6.2, §7.3.1, Fig. 2).

Each replicate resamples both systems independently, with replacement at every level and the
children of each selected parent drawn afresh (the paper's RRR), and takes the ratio of the
two replicate grand means, new/old; the interval is the percentile interval of those ratios.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
import perfrigor as pr

from .decision import comparison, prepare, threshold_param

#: memory held per bootstrap replicate: both systems' means, their ratio, the percentile's copy
REPLICATE_BYTES = 32


def _check_resample(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    ok = isinstance(value, str) and (value.lower() in {"all", "top", "flat"} or
                                     (value and set(value.lower()) <= {"r", "n"}))
    if not ok:
        raise ValueError(f"{attribute.name} must be 'all', 'top', 'flat' or a pattern of R/N letters, one per level "
                         f"from the top (e.g. 'RRN': keep each execution's measurements), got {value!r}")


#: pr.resampling's ADAPTIVE_DRAWS and MIN_REPLICATES, written out: listing the component (its parameters)
#: must not import the resampling module (tests/cli/test_startup.py); tests/ratio check that they agree
ADAPTIVE_DRAWS = 50_000_000
MIN_REPLICATES = 100


@attrs.define(repr=False)
class BootstrapRatio(pr.Comparator):
    """CI of the ratio of means by hierarchical bootstrap (percentile interval, Kalibera & Jones Fig. 2).

    ``resample``: "all" (every level, RRR: the paper's choice), "top" (top level only, RNN),
    "flat" (pool all measurements, ignoring the hierarchy) or an R/N pattern such as "RRN".
    ``threshold``: the smallest relative change that matters (0.02 = 2%).
    """

    name = "bootstrap-ratio"

    confidence: float = pr.confidence_param(help="level of the percentile interval")
    threshold: float = threshold_param()
    n_bootstrap: int = pr.int_param(10_000, minimum=10, bytes_each=REPLICATE_BYTES,
                                    help="bootstrap replicates (fewer on large samples, see max_draws)")
    max_draws: int | None = pr.int_param(ADAPTIVE_DRAWS, optional=True,
                                         help="values drawn at most: on larger samples fewer replicates "
                                              f"(at least {MIN_REPLICATES}), their Monte-Carlo "
                                              "error in details; None: always n_bootstrap")
    resample: str = attrs.field(default="all", validator=_check_resample, metadata={
        "help": "levels resampled: 'all' (the paper's RRR), 'top', 'flat', or an R/N pattern such as 'RRN'"})
    random_state: Any = pr.random_state_param()

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """The replicates of every benchmark with the same design, seed and settings, in one call.

        With an int seed every such benchmark draws the same indices (``bootstrap_ratio_many``
        gives the numbers of the calls one by one): drawn once, they are gathered from each.
        """
        ws = pr.current_workspace()
        if ws is None:
            return
        groups: dict[tuple, list[tuple[tuple, pr.Sample, pr.Sample]]] = {}
        for job in jobs:
            c = job.component
            if job.candidate is None or isinstance(c.random_state, bool) or not isinstance(c.random_state, int):
                continue
            try:
                old, new, _ = prepare(job.samples[job.baseline], job.samples[job.candidate])
            except pr.DataError:
                continue  # compare() reports it
            n_bootstrap = pr.resampling.adapted_replicates(c.n_bootstrap, old.values.size + new.values.size,
                                                           c.max_draws)
            design = (old.values.shape, new.values.shape, n_bootstrap, c.resample.lower(), c.random_state)
            groups.setdefault(design, []).append((_key(old, new, *design[2:]), old, new))
        for (_, _, n_bootstrap, resample, seed), items in groups.items():
            if len(items) < 2:
                continue  # alone: compare() draws its own
            try:
                ratios = pr.resampling.bootstrap_ratio_many([new.values for _, _, new in items],
                                                            [old.values for _, old, _ in items],
                                                            n_bootstrap, seed, resample)
            except (pr.DataError, pr.ConfigError):
                continue
            for (key, _, _), row in zip(items, ratios, strict=True):
                ws.put(key, row)

    def compare(self, baseline: Any, candidate: Any) -> pr.Comparison:
        old, new, warnings = prepare(baseline, candidate)
        for who, sample in (("baseline", old), ("candidate", new)):
            try:
                pr.resampling.resampling_scheme(self.resample, sample.n_levels)
            except pr.ConfigError as exc:
                raise pr.DataError(f"{who} {sample.label} has levels {sample.levels}: {exc}") from None
            if sample.values.size < 2:
                raise pr.DataError(f"{who} {sample.label}: the bootstrap needs at least 2 measurements to "
                                   f"estimate the variation of the mean, got {sample.values.size}")
            n_top = sample.shape[0]
            if self.resample != "flat" and n_top < 5:
                warnings.append(f"{who}: only {n_top} {sample.levels[0]} unit(s); a bootstrap over so few "
                                "top-level units gives too narrow an interval (Kalibera & Jones advise at least 5)")
        if self.n_bootstrap < 1000:
            warnings.append(f"n_bootstrap={self.n_bootstrap}: with fewer than 1000 replicates the interval's "
                            "limits are noisy")
        n_bootstrap = pr.resampling.adapted_replicates(self.n_bootstrap, old.values.size + new.values.size,
                                                       self.max_draws)
        ws = pr.current_workspace()
        ratios = None
        if ws is not None and isinstance(self.random_state, int) and not isinstance(self.random_state, bool):
            ratios = ws.get(_key(old, new, n_bootstrap, self.resample.lower(), self.random_state))
        if ratios is None:
            ratios = pr.resampling.bootstrap_ratio(new.values, old.values, n_bootstrap,
                                                   random_state=pr.check_random_state(self.random_state),
                                                   levels=self.resample)
        low, high, *error, median = pr.resampling.interval_with_error(ratios, self.confidence)
        if low == high:
            warnings.append("every bootstrap replicate gives the same ratio (no variation at the resampled "
                            "levels), so the interval has zero width")
        ratio = float(new.values.mean() / old.values.mean())
        details = {
            "n_bootstrap": n_bootstrap, "resample": self.resample,
            "replicates": {"mean": float(ratios.mean()), "sd": float(ratios.std(ddof=1)),
                           "median": median},
            "monte_carlo_error": {"ci_low": error[0], "ci_high": error[1]},
        }
        if n_bootstrap < self.n_bootstrap:
            details["n_bootstrap_requested"] = self.n_bootstrap
        edges = (1.0 - self.threshold, 1.0, 1.0 + self.threshold)
        near = [e for e in edges if min(abs(low - e) / max(error[0], 1e-300), abs(high - e) / max(error[1], 1e-300)) < 2]
        if n_bootstrap < self.n_bootstrap and near:
            warnings.append(f"an end of the interval lies within twice its Monte-Carlo error of {near[0]:g} "
                            f"({n_bootstrap} replicates of {old.values.size + new.values.size} values, fewer than "
                            f"n_bootstrap={self.n_bootstrap} to bound the time): raise max_draws for a firmer "
                            "decision")
        return comparison(method="bootstrap-ratio", ratio=ratio, low=low, high=high,
                          confidence=self.confidence, threshold=self.threshold,
                          lower_is_better=old.lower_is_better, pvalue=None,
                          baseline_mean=float(old.values.mean()), candidate_mean=float(new.values.mean()),
                          details=details, warnings=warnings)


def _key(old: pr.Sample, new: pr.Sample, n_bootstrap: int, resample: str, seed: int) -> tuple:
    """Workspace key of a benchmark's replicates: both samples' values and every setting they depend on."""
    return ("perfrigor_plugins.ratio", "bootstrap", old.values.shape, old.values.tobytes(), new.values.shape,
            new.values.tobytes(), n_bootstrap, resample, seed)
