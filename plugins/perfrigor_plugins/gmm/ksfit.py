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

from . import em

#: bootstrap replicates x observations fitted per batch (bounds memory, drives the progress bar)
BATCH_VALUES = 60_000


def ks_distances(x: np.ndarray, weights: np.ndarray, means: np.ndarray, sds: np.ndarray) -> np.ndarray:
    """sup |EDF - F_GM| of every row of ``x`` (B, n) against its own mixture (B, G) (eq. 3).

    KS = max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n), exact with ties.
    """
    from scipy import special
    x = np.sort(np.atleast_2d(x), axis=1)
    n = x.shape[1]
    cdf = (weights[:, None, :] * special.ndtr((x[:, :, None] - means[:, None, :]) / sds[:, None, :])).sum(axis=2)
    i = np.arange(1, n + 1)
    return np.maximum(i / n - cdf, cdf - (i - 1) / n).max(axis=1)


def bootstrap_pvalue(statistic: float, bootstrap: np.ndarray, alpha: float) -> tuple[float, float]:
    """The paper's p-value #{KS^(i) > KS_X} / N (strict, no +1) and critical value KS^([N (1 - alpha)])."""
    n_boot = bootstrap.size
    pvalue = float(np.count_nonzero(bootstrap > statistic) / n_boot)
    rank = max(1, int(np.floor(n_boot * (1.0 - alpha) + 1e-9)))  # 1-based order statistic
    return pvalue, float(np.sort(bootstrap)[rank - 1])


def sample_rows(fit: em.BicSearch, rows: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """One sample of ``size`` values from the fitted mixture of each data set in ``rows``."""
    cum = np.cumsum(fit.weights[rows], axis=1)
    cum[:, -1] = np.inf  # guard the last component against rounding of the weights' sum
    u = rng.random((rows.size, size))
    labels = (u[:, :, None] >= cum[:, None, :]).sum(axis=2)
    mu = np.take_along_axis(fit.means[rows], labels, axis=1)
    sd = np.take_along_axis(fit.sds[rows], labels, axis=1)
    return rng.normal(mu, sd)


@attrs.frozen
class KsFitBatch:
    """KSfit of M data sets: statistics (M,), bootstrap KS^(i) (M, N), K chosen on each replicate."""

    statistic: np.ndarray
    bootstrap: np.ndarray
    bootstrap_components: np.ndarray
    bootstrap_size: int
    fit: em.BicSearch


def ksfit_batch(x: np.ndarray, n_bootstrap: int, rng: np.random.Generator, undersampling: float = 1.0,
                max_components: int = 9, models: tuple[str, ...] = em.MODELS) -> KsFitBatch:
    """KSfit (paper 5.1.2, steps (a)-(c)) of every row of ``x`` (M, n) at once.

    Each row's mixture is fitted (EM + BIC), its KS distance computed, and
    ``n_bootstrap`` samples of size floor(undersampling * n) (paper 5.2.3:
    c = 0.9 for n in the hundreds) drawn from it and refitted with the whole
    procedure; all replicates of a chunk are fitted together.
    """
    x = np.atleast_2d(np.asarray(x, dtype=float))
    m, n = x.shape
    fit = em.bic_search(x, max_components=max_components, models=models)
    statistic = ks_distances(x, fit.weights, fit.means, fit.sds)
    size = max(3, int(np.floor(undersampling * n)))
    total = m * n_bootstrap
    owner = np.repeat(np.arange(m), n_bootstrap)
    per_batch = max(1, BATCH_VALUES // size)
    ks = np.empty(total)
    chosen = np.empty(total, dtype=np.intp)
    with pr.progress.task(total, "KSfit bootstrap") as advance:
        for start in range(0, total, per_batch):
            rows = owner[start:start + per_batch]
            boot = sample_rows(fit, rows, size, rng)
            refit = em.bic_search(boot, max_components=max_components, models=models)
            ks[start:start + rows.size] = ks_distances(boot, refit.weights, refit.means, refit.sds)
            chosen[start:start + rows.size] = refit.n_components
            advance(rows.size)
    return KsFitBatch(statistic, ks.reshape(m, n_bootstrap), chosen.reshape(m, n_bootstrap), size, fit)
