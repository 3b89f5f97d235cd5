"""KSfit (paper section 5): KS distance to the fitted mixture, calibrated by parametric bootstrap.

Each bootstrap sample is drawn from the fitted mixture and refitted with the
whole procedure (EM for every G and model, BIC choice), as the paper asks;
the classical KS p-value, which ignores that the mixture was fitted to the
same data, is never used. All replicates of a chunk are fitted at once along
the batch axis of :func:`em.bic_search`.
"""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr
from scipy import special

from . import em
from .mixture import Mixture

#: bootstrap replicates x observations fitted per batch (bounds memory, drives the progress bar)
BATCH_VALUES = 60_000


def ks_distances(x: np.ndarray, weights: np.ndarray, means: np.ndarray, sds: np.ndarray) -> np.ndarray:
    """sup |EDF - F_GM| of every row of ``x`` (B, n) against its own mixture (B, G) (eq. 3).

    KS = max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n), exact with ties.
    """
    x = np.sort(np.atleast_2d(x), axis=1)
    n = x.shape[1]
    cdf = (weights[:, None, :] * special.ndtr((x[:, :, None] - means[:, None, :]) / sds[:, None, :])).sum(axis=2)
    i = np.arange(1, n + 1)
    return np.maximum(i / n - cdf, cdf - (i - 1) / n).max(axis=1)


@attrs.frozen
class KsFitOutcome:
    statistic: float
    pvalue: float
    critical_value: float
    bootstrap: np.ndarray        # KS^(i), sorted
    bootstrap_components: np.ndarray  # K chosen on each replicate
    bootstrap_size: int


def ksfit(x: np.ndarray, mixture: Mixture, n_bootstrap: int, alpha: float, rng: np.random.Generator,
          undersampling: float = 1.0, max_components: int = 9, models: tuple[str, ...] = em.MODELS) -> KsFitOutcome:
    """The KSfit test of ``x`` against its fitted ``mixture`` (paper 5.1.2, steps (b)-(e)).

    p = #{KS^(i) > KS_X} / N (strict, no +1, as the paper); c_alpha = KS^([N (1 - alpha)]).
    Bootstrap samples have size floor(undersampling * n) (paper 5.2.3: c = 0.9 for n in the hundreds).
    """
    x = np.asarray(x, dtype=float).ravel()
    n = x.size
    statistic = float(ks_distances(x[None], mixture.weights[None], mixture.means[None], mixture.sds[None])[0])
    size = max(3, int(np.floor(undersampling * n)))
    per_batch = max(1, BATCH_VALUES // size)
    ks = np.empty(n_bootstrap)
    chosen = np.empty(n_bootstrap, dtype=np.intp)
    with pr.progress.task(n_bootstrap, "KSfit bootstrap") as advance:
        for start in range(0, n_bootstrap, per_batch):
            b = min(per_batch, n_bootstrap - start)
            boot = mixture.sample((b, size), rng)
            fit = em.bic_search(boot, max_components=max_components, models=models)
            ks[start:start + b] = ks_distances(boot, fit.weights, fit.means, fit.sds)
            chosen[start:start + b] = fit.n_components
            advance(b)
    pvalue = float(np.count_nonzero(ks > statistic) / n_bootstrap)
    ordered = np.sort(ks)
    rank = max(1, int(np.floor(n_bootstrap * (1.0 - alpha))))  # 1-based order statistic
    return KsFitOutcome(statistic, pvalue, float(ordered[rank - 1]), ordered, chosen, size)
