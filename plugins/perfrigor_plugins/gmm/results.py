"""Result classes of the gmm plugin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from .mixture import Mixture


def _floats(v: Any) -> tuple[float, ...]:
    return tuple(float(a) for a in v)


def _ints(v: Any) -> tuple[int, ...]:
    """Python ints, converted at C speed (a classification has one per run: 10^6 of them)."""
    if type(v) is tuple and (not v or type(v[0]) is int):  # converted already (attrs.evolve passes it again)
        return v
    return tuple(np.asarray(v).astype(np.int64).tolist())


@attrs.frozen(kw_only=True)
class MixtureFit(pr.Result):
    """A 1-D Gaussian mixture chosen by BIC (mclust's convention), components sorted by mean.

    ``modes`` is the paper's variability level I4 (number of modes of the
    fitted density, at ``mode_locations``); ``classification`` gives, for each
    observation (flattened order), the 0-based index of its component (MAP
    rule); ``bic_table`` maps "E" and "V" to the BIC of G = 1, 2, ... (None
    where the fit failed, as mclust's NA).

    K was searched in 1..``max_searched`` (``max_components``, the distinct values,
    and n // ``min_component_runs``). ``distinct_modes`` are the modes reported as
    findings (each where its density is highest) (with their ``distinct_mode_shares`` of the runs): groups of components
    clearly separated from their neighbours, each holding ``min_component_runs`` runs
    or more, and one mode unless the fit's ``bic_gain`` over one normal supports the split;
    empty when the sample has too few runs to tell modes from noise (``modes_undecided``).
    """

    n_components: int
    model: str
    weights: tuple[float, ...] = attrs.field(converter=_floats)
    means: tuple[float, ...] = attrs.field(converter=_floats)
    sds: tuple[float, ...] = attrs.field(converter=_floats)
    bic: float
    loglik: float
    modes: int
    mode_locations: tuple[float, ...] = attrs.field(converter=_floats)
    classification: tuple[int, ...] = attrs.field(converter=_ints)
    bic_table: Mapping[str, tuple[float | None, ...]] = attrs.field(factory=dict)
    n: int = 0
    unit: str = ""
    max_searched: int = 0
    max_components: int = 9
    min_component_runs: int = 1
    distinct_modes: tuple[float, ...] = attrs.field(default=(), converter=_floats)
    distinct_mode_shares: tuple[float, ...] = attrs.field(default=(), converter=_floats)

    @property
    def bic_gain(self) -> float:
        """How much this fit's BIC beats one normal's (0 for one component): the evidence for its structure."""
        one = [t[0] for t in self.bic_table.values() if t and t[0] is not None]
        return self.bic - max(one) if one else 0.0

    @property
    def modes_undecided(self) -> bool:
        """True when the sample is too small to tell modes from noise (no mode is a finding)."""
        return not self.distinct_modes

    def mixture(self) -> Mixture:
        """The fitted mixture (density, CDF, quantiles, sampling)."""
        return Mixture(self.weights, self.means, self.sds)

    def describe(self) -> str:
        q = pr.display.quantity
        parts = [f"{w:.0%} at {q(m, self.unit)} (sd {q(s, self.unit, 3)})"
                 for w, m, s in zip(self.weights, self.means, self.sds, strict=True)]
        kind = "equal variances" if self.model == "E" else "unequal variances"
        comps = "1 normal component" if self.n_components == 1 else f"{self.n_components} components ({kind})"
        if 0 < self.max_searched < self.max_components and self.max_searched == self.n // self.min_component_runs:
            comps += (f" (at most {self.max_searched} for {self.n} runs: {self.min_component_runs} runs "
                      "per component)")
        return f"Gaussian mixture, {comps}: {'; '.join(parts)}; {self.describe_modes()}; BIC {self.bic:.2f}"

    def describe_modes(self) -> str:
        """The modes that are findings, or why there are none ("too few runs to tell")."""
        from .modes import MIN_RUNS_FOR_MODES

        q = pr.display.quantity
        if self.modes_undecided:
            return (f"modes: {self.n} runs are too few to tell modes from noise (at least "
                    f"{MIN_RUNS_FOR_MODES} are needed)")
        k = len(self.distinct_modes)
        at = ", ".join(f"{q(m, self.unit)} ({w:.0%} of runs)" if k > 1 else q(m, self.unit)
                       for m, w in zip(self.distinct_modes, self.distinct_mode_shares, strict=True))
        out = f"{'1 mode' if k == 1 else f'{k} modes'} at {at}"
        if self.modes != k:
            few = f" or hold fewer than {self.min_component_runs} runs" if self.min_component_runs > 1 else ""
            out += f" (the fitted density has {self.modes} local maxima, I4; the others are too close together{few})"
        return out

    def plot_layers(self, sample: Any) -> list:
        """The fitted density (components dashed, CDF for describe --plot) and its modes, for the plots."""
        span = (min(m - 3 * s for m, s in zip(self.means, self.sds, strict=True)),
                max(m + 3 * s for m, s in zip(self.means, self.sds, strict=True)))
        label = ("fitted normal" if self.n_components == 1
                 else f"fitted mixture ({self.n_components} components)")
        # as normals (data), not the Mixture's functions: a saved report draws them without this plugin
        density = pr.drawing.Density.of_normals(pr.drawing.Normals(self.weights, self.means, self.sds), label,
                                                span=span)
        if self.modes_undecided:  # no mode is a finding: none is marked
            return [density]
        k = len(self.distinct_modes)
        return [density, pr.drawing.Marks(self.distinct_modes, "mode" if k == 1 else f"{k} modes")]


@attrs.frozen(kw_only=True)
class KsFitResult(pr.TestResult):
    """The KSfit goodness-of-fit test: H0 "the data come from a Gaussian mixture"."""

    def describe(self) -> str:
        d = self.details
        verdict = ("the mixture does NOT fit" if self.reject else "the mixture fits")
        return (f"KSfit: KS distance {self.statistic:.4g}, bootstrap p-value {self.pvalue:.3g} "
                f"({d.get('n_bootstrap')} parametric-bootstrap refits, critical value "
                f"{d.get('critical_value', float('nan')):.4g} at alpha {self.alpha:g}): {verdict} "
                f"({d.get('n_components')} component(s), model {d.get('model')})")
