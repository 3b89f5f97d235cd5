"""``sequential-verdict``: the answer of interleaved rounds, valid however often one looked.

A comparator that pairs the baseline's and the candidate's runs round by round (run ``i``
of each: ``perfrigor measure`` records round ``i``'s runs as invocation ``i``) and answers
from the anytime-valid confidence sequence of the paired log speedup (:mod:`.sequential`).
``perfrigor measure --until clear`` stops when this answer is decided and puts it last in
the report, so the report's verdict is the one whose error rate holds under optional
stopping; the pipeline's own ``verdict`` (what ``perfrigor run`` on the runs file gives,
as if the number of rounds had been fixed in advance) is cited in its reasons.
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from . import sequential as seq

#: why a measurement stopped, as ``perfrigor measure`` records it ("" for data measured otherwise)
STOPS = ("", "decided", "max-runs", "max-time", "interrupted", "runs")
_STOP_TEXT = {"decided": "stopped when decided", "max-runs": "stopped at the --max-runs limit",
              "max-time": "stopped at the --max-time limit", "interrupted": "interrupted",
              "runs": "the number of rounds asked for"}


def _check_threshold(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value < 1.0:
        raise ValueError(f"{attribute.name} must be a relative change in [0, 1) (0.01: an interval within "
                         f"±1% is 'same'; 0: no band), got {value!r}")


@attrs.frozen
class Pairs:
    """The rounds' log speedups (> 0: candidate better) and what pairing them left out."""

    log_speedups: np.ndarray
    unit: str
    unpaired: dict[str, int]
    lower_is_better: bool = True
    #: the geometric means of the paired runs: their ratio is the speedup
    baseline: float = math.nan
    candidate: float = math.nan

    @classmethod
    def of(cls, baseline: Any, candidate: Any) -> Pairs:
        old, new = pr.as_positive_pair(baseline, candidate)
        a, b = old.top_means(), new.top_means()  # one value per run (invocation): its iterations' mean
        n = min(a.size, b.size)
        log_a, log_b = np.log(a[:n]), np.log(b[:n])
        unpaired = {name: int(x.size - n) for name, x in (("baseline", a), ("candidate", b)) if x.size > n}
        d = log_a - log_b
        return cls(d if old.lower_is_better else -d, old.unit, unpaired, old.lower_is_better,
                   float(np.exp(log_a.mean())), float(np.exp(log_b.mean())))


@attrs.define(repr=False)
class SequentialVerdict(pr.Comparator):
    """Verdict of interleaved rounds under optional stopping (anytime-valid interval of the paired speedup)."""

    name = "sequential-verdict"

    confidence: float = pr.confidence_param(
        help="level of the confidence sequence: the chance that it ever misses the true speedup is at most 1 - "
             "confidence, however often one looks")
    threshold: float = attrs.field(default=0.01, converter=lambda v: float(v) if isinstance(v, int) and not
                                   isinstance(v, bool) else v, validator=_check_threshold,
                                   metadata={"help": "the verdict's band: an interval within ±threshold is "
                                                     "'same' (0.01: ±1%)", "type": "float", "range": "[0, 1)"})
    prior_scale: float = pr.float_param(seq.PRIOR_SCALE, minimum=0.0, strict=True,
                                        help="sd of the standardised change the mixture expects: where the "
                                             "interval is tightest (docs/methods/measure.md)")
    stopped: str = pr.choice_param("", *STOPS[1:],
                                   help="why the measurement stopped, as perfrigor measure records it")

    def run_benchmark(self, samples, baseline, candidate, previous):
        if candidate is None:
            return {}
        key = pr.pair_key(baseline, candidate)
        found = previous.find("verdict", key) if isinstance(previous, pr.Previous) else None
        fixed = found[1] if found is not None and isinstance(found[1], pr.Verdict) else None
        return {key: self.compare(samples[baseline], samples[candidate], fixed)}

    def compare(self, baseline: Any, candidate: Any, fixed: pr.Verdict | None = None) -> pr.Verdict:
        pairs = Pairs.of(baseline, candidate)
        d = pairs.log_speedups
        n = d.size
        warnings = [f"{k}: {m} run(s) without a partner in the other system (an unfinished round): left out"
                    for k, m in pairs.unpaired.items()]
        details: dict[str, Any] = {"statistic": "geometric mean of the paired runs", "baseline": pairs.baseline,
                                   "candidate": pairs.candidate, "unit": pairs.unit,
                                   "lower_is_better": pairs.lower_is_better,
                                   "rounds": n, "prior_scale": self.prior_scale, "stopped": self.stopped or None,
                                   "unpaired": pairs.unpaired, "band": [1.0 / (1.0 + self.threshold),
                                                                        1.0 + self.threshold]}
        mean = float(d.mean())
        if n < 2:
            reason = f"{n} round(s): at least 2 are needed for an interval"
            return pr.Verdict(outcome="unclear", speedup=math.exp(mean), confidence=self.confidence,
                              method=self.name, reasons=(reason,), threshold=self.threshold,
                              details=details, warnings=tuple(warnings))
        low, high = seq.intervals(d, self.confidence, self.prior_scale)
        lo, hi = float(low[-1]), float(high[-1])
        sd = float(d.std(ddof=1))
        if sd == 0.0:
            warnings.append("the rounds' ratios do not vary at all (identical measurements?): the interval is "
                            "degenerate")
        code = int(seq.decide(lo, hi, self.threshold))
        outcome = seq.OUTCOME_NAMES[code]
        _, means, sds = seq.running(d)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(sds > 0, means * np.sqrt(np.arange(1, n + 1)) / sds, np.inf * np.sign(means))
        evidence = seq.log_evidence(t, np.arange(1, n + 1), self.prior_scale)
        pvalue = float(min(1.0, math.exp(-float(np.max(evidence)))))
        details.update(mean_log=mean, sd_log=sd, critical_t=float(seq.critical_t(n, self.confidence,
                                                                                   self.prior_scale)),
                       pvalue=pvalue, pvalue_kind="anytime-valid (1 / the largest Bayes factor so far)")
        bounded = math.isfinite(lo) and math.isfinite(hi)
        reasons = [self._answer(outcome, n, lo, hi, bounded)]
        if outcome == "unclear":
            reasons += self._needed(mean, sd, details)
        if fixed is not None:
            reasons.append(self._fixed_reason(fixed, outcome))
            details["fixed_verdict"] = {"outcome": fixed.outcome, "speedup": fixed.speedup, "ci_low": fixed.ci_low,
                                        "ci_high": fixed.ci_high, "method": fixed.method}
        return pr.Verdict(outcome=outcome, speedup=math.exp(mean),
                          ci_low=math.exp(lo) if bounded else None, ci_high=math.exp(hi) if bounded else None,
                          confidence=self.confidence, method=self.name, reasons=tuple(reasons),
                          threshold=self.threshold, details=details, warnings=tuple(warnings))

    def _answer(self, outcome: str, n: int, lo: float, hi: float, bounded: bool) -> str:
        """The first reason: the rounds and why they stopped (the report's "why" column), then the interval."""
        level = f"{self.confidence:.1%}".replace(".0%", "%")
        head = f"{n} interleaved rounds, {_STOP_TEXT[self.stopped]}" if self.stopped else f"{n} paired rounds"
        if not bounded:
            return f"{head}: too few for an anytime-valid {level} interval"
        span = f"anytime-valid {level} interval {math.exp(lo):.4g}x to {math.exp(hi):.4g}x"
        edge = f"±{self.threshold * 100:g}%"
        if outcome == "same":
            return f"{head}: the {span} lies within {edge}"
        if outcome in ("faster", "slower"):
            return f"{head}: the {span} excludes no change"
        within = f" and reaches beyond {edge}" if self.threshold else ""
        return f"{head}: the {span} includes no change{within}"

    def _needed(self, mean: float, sd: float, details: dict[str, Any]) -> list[str]:
        """What a fixed design would need, from the effect and the noise seen (80% power)."""
        out = []
        change = seq.fixed_rounds(sd, abs(mean), self.confidence)
        details["fixed_rounds_change"] = change
        if change is not None:
            out.append(f"a fixed design would need about {change} rounds to show a change of the size seen "
                       f"({math.expm1(abs(mean)):.2%}) with 80% power")
        room = seq.band(self.threshold) - abs(mean)
        same = seq.fixed_rounds(sd, room, self.confidence) if self.threshold and room > 0 else None
        details["fixed_rounds_same"] = same
        if same is not None:
            out.append(f"about {same} rounds to show that it lies within ±{self.threshold * 100:g}%")
        return out

    @staticmethod
    def _fixed_reason(fixed: pr.Verdict, outcome: str) -> str:
        shown = f"{fixed.outcome}"
        if fixed.speedup is not None:
            shown += f" {fixed.speedup:.4g}x"
            if fixed.ci_low is not None and fixed.ci_high is not None:
                shown += f" ({fixed.ci_low:.4g}x to {fixed.ci_high:.4g}x)"
        text = f"the fixed-n verdict on these runs (perfrigor run on the file): {shown}, {fixed.method or 'verdict'}"
        if fixed.outcome != outcome:
            text += ("; it compares the runs unpaired (a drift shared by a round stays in) and as if their "
                     "number had been fixed in advance")
        return text
