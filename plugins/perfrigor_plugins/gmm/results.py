"""Result classes of the gmm plugin."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import perfrigor as pr

from .mixture import Mixture


def _floats(v: Any) -> tuple[float, ...]:
    return tuple(float(a) for a in v)


@attrs.frozen(kw_only=True)
class MixtureFit(pr.Result):
    """A 1-D Gaussian mixture chosen by BIC (mclust's convention), components sorted by mean.

    ``modes`` is the paper's variability level I4 (number of modes of the
    fitted density, at ``mode_locations``); ``classification`` gives, for each
    observation (flattened order), the 0-based index of its component (MAP
    rule); ``bic_table`` maps "E" and "V" to the BIC of G = 1, 2, ... (None
    where the fit failed, as mclust's NA).
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
    classification: tuple[int, ...] = attrs.field(converter=lambda v: tuple(int(a) for a in v))
    bic_table: Mapping[str, tuple[float | None, ...]] = attrs.field(factory=dict)
    n: int = 0
    unit: str = ""

    def mixture(self) -> Mixture:
        """The fitted mixture (density, CDF, quantiles, sampling)."""
        return Mixture(self.weights, self.means, self.sds)

    def describe(self) -> str:
        q = pr.display.quantity
        parts = [f"{w:.0%} at {q(m, self.unit)} (sd {q(s, self.unit, 3)})"
                 for w, m, s in zip(self.weights, self.means, self.sds, strict=True)]
        kind = "equal variances" if self.model == "E" else "unequal variances"
        comps = "1 normal component" if self.n_components == 1 else f"{self.n_components} components ({kind})"
        modes = "1 mode" if self.modes == 1 else f"{self.modes} modes"
        at = ", ".join(q(m, self.unit) for m in self.mode_locations)
        return f"Gaussian mixture, {comps}: {'; '.join(parts)}; {modes} (I4) at {at}; BIC {self.bic:.2f}"

    def plot_layers(self, sample: Any) -> list:
        """The fitted density (components dashed, CDF for describe --plot) and its modes, for the plots."""
        mix = self.mixture()
        span = (min(m - 3 * s for m, s in zip(self.means, self.sds, strict=True)),
                max(m + 3 * s for m, s in zip(self.means, self.sds, strict=True)))
        label = ("fitted normal" if self.n_components == 1
                 else f"fitted mixture ({self.n_components} components)")
        return [pr.drawing.Density(mix.pdf, label, components=mix.component_pdfs if self.n_components > 1 else None,
                                   cdf=mix.cdf, span=span),
                pr.drawing.Marks(self.mode_locations, "mode" if self.modes == 1 else f"{self.modes} modes (I4)")]


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
