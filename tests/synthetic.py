"""Reports of any size built directly from verdicts (no pipeline runs): for the renderers and CI outputs.

``verdict_report(10_000)`` takes a fraction of a second: the verdicts are made up (an outcome per
benchmark by a pattern), the structure is what ``Pipeline.run`` returns for the ``default`` preset's
last step, so every renderer and ``perfrigor.github`` reads it as a real report.
"""

from __future__ import annotations

from collections.abc import Callable

import perfrigor as pr
from perfrigor.report import StepInfo

#: the pattern of outcomes by benchmark index modulo 50: 2% slower, 2% faster, 4% unclear, the rest same
PATTERN = {0: "slower", 1: "faster", 2: "unclear", 3: "unclear"}
SPEEDUPS = {"slower": 0.91, "faster": 1.1, "unclear": 1.004, "same": 1.001}


def name(i: int) -> str:
    """A Go-like benchmark name of 60 characters or so."""
    return f"github.com/org/project/pkg{i // 100:03d}.BenchmarkOperation{i:05d}/size=4096-8"


def pattern(i: int) -> str:
    return PATTERN.get(i % 50, "same")


def verdict_report(n: int, outcome: Callable[[int], str] = pattern, names: Callable[[int], str] = name,
                   errors: int = 0) -> pr.Report:
    """A report of ``n`` benchmarks whose verdicts are ``outcome(i)``; the last ``errors`` have no verdict."""
    results, inputs, counts, by_outcome = {}, {}, dict.fromkeys(pr.OUTCOMES, 0), {o: [] for o in pr.OUTCOMES}
    for i in range(n):
        bench = names(i)
        base = 1e-3 * (1 + i % 7)
        inputs[bench] = {system: {"n": 10, "shape": [10], "levels": ["run"], "unit": "s", "lower_is_better": True,
                                  "mean": value, "median": value, "sd": value / 100, "min": value * 0.98,
                                  "max": value * 1.02, "metadata": {}}
                         for system, value in (("old", base), ("new", base / SPEEDUPS[outcome(i)]))}
        if i >= n - errors:
            results[bench] = {}
            continue
        o = outcome(i)
        s = SPEEDUPS[o]
        low, high = (s * 0.99, s * 1.01) if o != "unclear" else (s * 0.97, s * 1.03)
        why = {"slower": f"typical run {1 / s:.3g}x slower (p = 1e-06)",
               "faster": f"typical run {s:.3g}x faster (p = 1e-06)",
               "unclear": f"between {1 / low:.4g}x slower and {high:.4g}x faster at 95%: too uncertain to tell",
               "same": "within ±1%: between 1.001x slower and 1.011x faster at 95%"}[o]
        results[bench] = {"verdict": {pr.PairKey("old", "new"): pr.Verdict(
            outcome=o, speedup=s, ci_low=low, ci_high=high, confidence=0.95, method="speedup-test",
            reasons=(why, "a second reason"), threshold=0.01,
            details={"baseline": base, "candidate": base / s, "statistic": "median"})}}
        counts[o] += 1
        by_outcome[o].append(bench)
    suite = pr.SuiteVerdict(counts=counts, benchmarks={o: tuple(b) for o, b in by_outcome.items()}, speedup=1.0,
                            ci_low=0.99, ci_high=1.01, confidence=0.95,
                            reasons=(f"slower: {', '.join(by_outcome['slower'])}",
                                     f"changes decided over the {n} benchmarks together: Benjamini-Hochberg"))
    step = StepInfo("verdict", "verdict", "comparator", "benchmark", {"confidence": 0.95}, "speedup", False)
    failed = [pr.StepError("verdict", names(i), "too few runs") for i in range(n - errors, n)]
    return pr.Report(pipeline="default", steps=[step], baseline="old", candidate="new", inputs=inputs,
                     benchmark_results=results, suite_results={"verdict": suite}, errors=failed,
                     source="old.json, new.json")
