"""Component.revise: a per-benchmark step's results revised once the whole suite has run (before summarize)."""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np
import perfrigor as pr
import pytest


@attrs.define
class Ranked(pr.Comparator):
    """Median ratio per benchmark; revise writes each benchmark's rank among the suite's ratios."""

    name: ClassVar[str] = "ranked-toy"
    stray: bool = False

    def compare(self, baseline, candidate):
        s = float(np.median(np.asarray(baseline)) / np.median(np.asarray(candidate)))
        return pr.Comparison(estimate=s, ci_low=None, ci_high=None, confidence=None, pvalue=None,
                             significant=None, verdict=f"{s:.3f}", details={})

    def revise(self, suite, results):
        ratios = {b: next(iter(r.values())).estimate for b, r in results.items()}
        order = sorted(ratios, key=ratios.get)
        out = {b: {k: attrs.evolve(v, details={"rank": order.index(b)}) for k, v in r.items()}
               for b, r in results.items()}
        if self.stray:
            out["nowhere"] = {}
        return out

    def summarize(self, suite, results):
        ranks = {b: next(iter(r.values())).details.get("rank") for b, r in results.items()}
        return pr.SuiteSummary(title="ranks", values=ranks)


def _suite():
    rng = np.random.default_rng(1)
    return pr.Suite({b: {"a": rng.normal(10, 0.1, 5), "b": rng.normal(10 / f, 0.1, 5)}
                     for b, f in (("x", 1.0), ("y", 2.0), ("z", 1.5))}, systems=("a", "b"))


def test_revised_results_are_kept_and_summarized():
    report = pr.Pipeline([Ranked()]).run(_suite())
    ranks = {b: report.result("ranked-toy", b).details["rank"] for b in "xyz"}
    assert ranks == {"x": 0, "z": 1, "y": 2}
    assert report.suite_results["ranked-toy"].values == ranks
    alone = pr.Pipeline([Ranked()]).run(_suite(), revise=False)
    assert all("rank" not in alone.result("ranked-toy", b).details for b in "xyz")


def test_a_revise_that_invents_a_benchmark_is_a_bug():
    with pytest.raises(TypeError, match="revise returned results for benchmark 'nowhere'"):
        pr.Pipeline([Ranked(stray=True)]).run(_suite())
