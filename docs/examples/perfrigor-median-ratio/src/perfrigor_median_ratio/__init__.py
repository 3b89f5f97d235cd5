"""perfrigor-median-ratio: a third-party perfrigor plugin, the worked example of docs/plugin-guide.md.

It contributes one comparator, ``median-ratio`` (the speedup as a ratio of
medians, with a percentile-bootstrap interval), and one preset, ``quick-median``.
"""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr

__version__ = "0.1.0"


@attrs.define(repr=False)
class MedianRatio(pr.Comparator):
    """Speedup as the ratio of medians, with a percentile-bootstrap interval."""

    name = "median-ratio"
    #: the battery runs with these (none are required; shown for the guide)
    example_params = {"confidence": 0.9}

    confidence: float = pr.confidence_param(help="level of the bootstrap interval")
    n_bootstrap: int = pr.int_param(2000, minimum=100, help="bootstrap replicates")
    random_state: int | None = pr.random_state_param()

    def compare(self, baseline, candidate) -> pr.Comparison:
        old = pr.as_sample(baseline, what="baseline")   # plain lists work too; NaN -> pr.DataError
        new = pr.as_sample(candidate, what="candidate")
        old.require_positive()
        new.require_positive()
        if old.lower_is_better != new.lower_is_better:
            raise pr.DataError("baseline and candidate disagree on lower_is_better")

        def speedup(a, b):
            # times: old / new; throughputs (higher is better): new / old. >1: candidate faster.
            return a / b if old.lower_is_better else b / a

        estimate = float(speedup(np.median(old.flat), np.median(new.flat)))
        # Percentile bootstrap, vectorised: resample each flat sample n_bootstrap times at once.
        rng = pr.check_random_state(self.random_state)
        a, b = old.flat, new.flat
        boot_a = np.median(rng.choice(a, size=(self.n_bootstrap, a.size)), axis=1)
        boot_b = np.median(rng.choice(b, size=(self.n_bootstrap, b.size)), axis=1)
        tail = (1 - self.confidence) / 2
        low, high = (float(q) for q in np.quantile(speedup(boot_a, boot_b), [tail, 1 - tail]))
        significant = low > 1 or high < 1
        warnings = []
        if min(a.size, b.size) < 10:
            warnings.append(f"only {min(a.size, b.size)} values: the bootstrap interval is unreliable")
        verdict = (f"median speedup {estimate:.3f} ({self.confidence:.0%} CI {low:.3f} to {high:.3f}): "
                   + ("significant" if significant else "not significant"))
        return pr.Comparison(estimate=estimate, ci_low=low, ci_high=high, confidence=self.confidence,
                             pvalue=None, significant=significant, verdict=verdict,
                             details={"median_baseline": float(np.median(a)),
                                      "median_candidate": float(np.median(b))},
                             warnings=warnings)


@pr.hookimpl
def perfrigor_components():
    return [MedianRatio]


@pr.hookimpl
def perfrigor_pipelines():
    return [{
        "name": "quick-median",
        "description": "Ratio of medians with a 90% bootstrap interval: a quick first look.",
        "steps": [{"component": "median-ratio", "confidence": 0.9, "random_state": 0}],
    }]
