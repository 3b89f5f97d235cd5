"""KSfit (paper section 5): KS distance to the fitted mixture, calibrated by parametric bootstrap.

Each bootstrap sample is drawn from the fitted mixture and refitted with the
whole procedure (EM for every G and model, BIC choice), as the paper asks;
the classical KS p-value, which ignores that the mixture was fitted to the
same data, is never used. All replicates of a chunk are fitted at once along
the batch axis of :func:`em.bic_search`.

The windowed search (opt-in: ``window``): a replicate drawn from a K-component mixture is
first searched over G = 1..K + ``window`` only (the EM of each G is independent of the
others, so those fits are the full search's); a replicate whose best G lands on the
window's top edge, where BIC may still be rising, is then searched over the G above the
window (K + window + 1..max) and keeps the larger BIC of the two searches. The chosen G,
hence the refitted mixture and the KS distance, are then those of the full search
unless BIC peaks again beyond the window after falling inside it, which EM's local optima
make possible (G = 4 and 5 stuck in poor optima, G = 6 far better): measured on 20 data sets
at n = 1000 with 500 refits (benchmarks/ksfit_window.py), identical on 19, and on the 20th
(gamma-distributed, K = 4) 6 of 500 replicates differ and the p-value moves from 0.436 to
0.448; 23 of 1,200 replicates differ at n = 60, 3 of 2,400 at n = 300. So the full search
stays the default: the windowed one is 3-30x cheaper (10-120 single searches, median 46),
not exact, and still above 40 single searches on 12 of the 20 data sets (docs/performance.md).
A window of 2 was exact on the 20 data sets at n = 1000 but not at n = 60 (identical on 14 of
20), and cost 24-137 single searches: not offered.
Fixed-K or warm-started refits would be cheaper still, but they change the test (p 0.36 -> 0.09):
not offered.
"""

from __future__ import annotations

import attrs
import numpy as np
import perfrigor as pr

from . import em

#: bootstrap replicates x observations fitted per batch (bounds memory, drives the progress bar)
BATCH_VALUES = 60_000
#: the windowed search re-chooses G in 1..K + WINDOW first (K: the data's fitted number of components)
WINDOW = 1


def ks_distances(x: np.ndarray, weights: np.ndarray, means: np.ndarray, sds: np.ndarray,
                 width: int | None = None) -> np.ndarray:
    """sup |EDF - F_GM| of every row of ``x`` (B, n) against its own mixture (B, G) (eq. 3).

    KS = max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n), exact with ties. ``width`` (>= G):
    the mixture's terms are summed as if padded with components of weight 0 to that many
    (numpy sums 8 terms or more in another order than fewer: a search over fewer G then
    gives the full search's distance to the last bit, without computing the padding).
    """
    from scipy import special
    x = np.sort(np.atleast_2d(x), axis=1)
    n = x.shape[1]
    g = weights.shape[1]
    terms = np.zeros((x.shape[0], n, max(g, width or g)))
    used = terms[:, :, :g]  # w_k Phi((x - mu_k) / sd_k), in place
    np.subtract(x[:, :, None], means[:, None, :], out=used)
    used /= sds[:, None, :]
    special.ndtr(used, out=used)
    used *= weights[:, None, :]
    cdf = terms.sum(axis=2)
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


def _best_bic(fit: em.BicSearch) -> np.ndarray:
    """The chosen fit's BIC of every row (-inf where every fit failed)."""
    return np.where(np.isnan(fit.bic), -np.inf, fit.bic).reshape(fit.bic.shape[0], -1).max(axis=1)


def refit(boot: np.ndarray, top: np.ndarray, max_components: int, models: tuple[str, ...],
          window: int | None = WINDOW) -> tuple[np.ndarray, np.ndarray]:
    """The KS distance of every replicate (row of ``boot``) to its refitted mixture, and its chosen G.

    ``top`` (B,): the fitted K of the data set each replicate was drawn from. With ``window``,
    G is searched over 1..K + window first; a replicate whose best G is that window's top
    (see the module's docstring) is then searched over the G above it, K + window + 1..
    ``max_components``, and keeps whichever BIC is larger (ties to the smaller G, as the
    full search breaks them). None: every G at once.
    """
    b = boot.shape[0]
    limit = np.full(b, max_components) if window is None else np.minimum(top + window, max_components)
    ks, chosen = np.empty(b), np.empty(b, dtype=np.intp)
    for g in np.unique(limit):
        rows = np.flatnonzero(limit == g)
        # (G in turn: a bootstrap's many fits keep the cores busy; threads cost CPU time for little)
        fit = em.bic_search(boot[rows], max_components=int(g), models=models, bins_for=max_components, threads=1)
        edge = np.flatnonzero(fit.n_components == g) if g < max_components else np.empty(0, dtype=np.intp)
        if edge.size:  # BIC may rise beyond the window: search the G above it
            above = em.bic_search(boot[rows[edge]], max_components=max_components, models=models, threads=1,
                                  min_components=int(g) + 1)
            wins = _best_bic(above) > _best_bic(fit)[edge]  # equal: the smaller G, the window's
            up = rows[edge[wins]]
            ks[up] = ks_distances(boot[up], above.weights[wins], above.means[wins], above.sds[wins])
            chosen[up] = above.n_components[wins]
            keep = np.ones(rows.size, dtype=bool)
            keep[edge[wins]] = False
            rows, fit = rows[keep], em.BicSearch(*(getattr(fit, f.name)[keep] for f in attrs.fields(em.BicSearch)))
        ks[rows] = ks_distances(boot[rows], fit.weights, fit.means, fit.sds, width=max_components)
        chosen[rows] = fit.n_components
    return ks, chosen


def ksfit_batch(x: np.ndarray, n_bootstrap: int, rng: np.random.Generator, undersampling: float = 1.0,
                max_components: int = 9, models: tuple[str, ...] = em.MODELS,
                window: int | None = None) -> KsFitBatch:
    """KSfit (paper 5.1.2, steps (a)-(c)) of every row of ``x`` (M, n) at once.

    Each row's mixture is fitted (EM + BIC), its KS distance computed, and
    ``n_bootstrap`` samples of size floor(undersampling * n) (paper 5.2.3:
    c = 0.9 for n in the hundreds) drawn from it and refitted with the whole
    procedure (:func:`refit`); all replicates of a chunk are fitted together.
    ``window``: None (every G on every replicate, the paper's test) or the windowed search's
    window (faster, not exact: see the module's docstring).
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
            ks[start:start + rows.size], chosen[start:start + rows.size] = refit(
                boot, fit.n_components[rows], max_components, models, window)
            advance(rows.size)
    return KsFitBatch(statistic, ks.reshape(m, n_bootstrap), chosen.reshape(m, n_bootstrap), size, fit)
