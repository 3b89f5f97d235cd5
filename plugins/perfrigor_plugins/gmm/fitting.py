"""From a sample to a MixtureFit: input checks, BIC search, modes, classification."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import perfrigor as pr

from . import em
from .mixture import Mixture
from .results import MixtureFit

#: fewest distinct values a mixture is fitted to (two give a variance but no shape)
MIN_DISTINCT = 3
#: share of tied values above which the fit and KSfit are flagged (paper 1.3.2, 5.3)
TIES_WARNING = 0.10


def model_names(model: str) -> tuple[str, ...]:
    """The mclust model names a ``model`` parameter allows ("auto": both)."""
    return em.MODELS if model == "auto" else (model,)


def prepare(sample: Any, what: str = "sample") -> tuple[pr.Sample, np.ndarray, list[str]]:
    """The flat values of a sample, checked, and the warnings they call for.

    Constant data or fewer than 3 distinct values raise DataError (paper 1.4.2:
    "no clustering is possible"); a hierarchical sample is flattened with a
    warning (the mixture describes all runs pooled, ignoring the levels);
    many ties are reported.
    """
    s = pr.as_sample(sample, what=what)
    x = s.flat
    warnings: list[str] = []
    label = s.label
    distinct = np.unique(x).size
    if distinct == 1:
        raise pr.DataError(f"{label}: all {x.size} values equal {x[0]:g}; performance is stable at that value "
                           "and no mixture can be fitted (zero variance)")
    if distinct < MIN_DISTINCT:
        raise pr.DataError(f"{label}: only {distinct} distinct values among {x.size}; a Gaussian mixture needs "
                           f"at least {MIN_DISTINCT} (record the measurements with more precision)")
    if s.is_hierarchical:
        warnings.append(f"{label}: hierarchical sample {s.shape} ({' x '.join(s.levels)}) flattened to {x.size} "
                        "runs; the mixture describes the pooled runs and ignores the levels")
    tied = x.size - distinct
    if tied / x.size > TIES_WARNING:
        warnings.append(f"{label}: {tied} of {x.size} values repeat another value ({tied / x.size:.0%}); "
                        "the methods assume continuous data, ties inflate the KS distance (KSfit rejects too "
                        "often): record the measurements with more precision")
    return s, x, warnings


@lru_cache(maxsize=64)
def _search(values: bytes, max_components: int, names: tuple[str, ...]) -> em.BicSearch:
    """The BIC search, memoised: a pipeline fits each system for gmm, gmm-fit and every comparator."""
    return em.bic_search(np.frombuffer(values)[None], max_components=max_components, models=names)


def fit_mixture(sample: Any, max_components: int = 9, model: str = "auto",
                what: str = "sample") -> tuple[pr.Sample, np.ndarray, MixtureFit]:
    """Fit the mixture of ``sample`` as ``mclust::Mclust(x, G = 1:max_components, modelNames)`` does.

    G is limited to the number of distinct values (more components than
    values only fit noise; mclust would try them and usually fail).
    """
    s, x, warnings = prepare(sample, what)
    distinct = np.unique(x).size
    gmax = min(max_components, distinct)
    names = model_names(model)
    search = _search(x.tobytes(), gmax, names)
    g = int(search.n_components[0])
    name = em.MODELS[int(search.model[0])]
    mix = Mixture(search.weights[0, :g], search.means[0, :g], search.sds[0, :g])
    modes = mix.modes()
    table = {m: tuple(None if np.isnan(v) else float(v) for v in search.bic[0, :, j])
             for j, m in enumerate(em.MODELS) if m in names}
    if g == gmax and gmax > 1 and gmax == max_components:
        warnings.append(f"{s.label}: BIC is best at the largest number of components tried ({gmax}); "
                        "consider a larger max_components")
    fit = MixtureFit(
        n_components=g, model=name, weights=mix.weights, means=mix.means, sds=mix.sds,
        bic=float(search.bic[0, g - 1, int(search.model[0])]),
        loglik=float(search.loglik[0, g - 1, int(search.model[0])]),
        modes=int(modes.size), mode_locations=modes, classification=mix.classify(x),  # MAP, as mclust's map(z)
        bic_table=table, n=int(x.size), unit=s.unit, warnings=tuple(warnings))
    return s, x, fit
