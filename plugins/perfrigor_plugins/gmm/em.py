"""Batched 1-D Gaussian-mixture EM that reproduces R's mclust (models "E" and "V").

Hand-written because neither numpy, scipy nor scikit-learn does what mclust
does: scikit-learn's ``GaussianMixture`` starts from k-means and adds
``reg_covar = 1e-6`` to every variance, which changes fits of real timings
whose clusters have spreads of a few milliseconds (see docs/methods/gmm.md).

What is reproduced (mclust 6.0 ``mclustBIC`` for one-dimensional data, the
same as mclust 5.1 used by the paper):

* initial hard partition ``qclass(x, G)`` (quantile classes), then EM
  starting with an M-step (``me``);
* stop when ``|L_new - L_old| / (1 + |L_new|) <= 1e-5`` (``emControl()$tol[1]``);
* a fit fails (BIC = NA) when a variance falls to ``<= eps`` (machine epsilon)
  or a component empties;
* BIC = 2 L - p log n with p = 2G (E) or 3G - 1 (V), maximised.

Everything is vectorised along a leading batch axis: ``x`` has shape
``(B, n)`` and B data sets (bootstrap replicates) are fitted at once, each
with its own model ("E" or "V") and stopping time. Data are standardised
before fitting (EM is affine-equivariant) so that variances of tight clusters
far from zero keep full precision; the stopping rule uses the log-likelihood
on the original scale, exactly as mclust sees it.
"""

from __future__ import annotations

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import attrs
import numpy as np

EPS = float(np.finfo(float).eps)
TOL = 1e-5
LOG_2PI = float(np.log(2.0 * np.pi))
#: threads fitting different G at once (numpy's loops release the GIL), and the input size
#: (data sets x observations x G_max) from which they pay for themselves
THREADS = min(4, os.cpu_count() or 1)
THREAD_MIN_ELEMENTS = 100_000
#: above this, threads would hold several (G x n) work arrays at once: memory before speed
THREAD_MAX_ELEMENTS = 5_000_000
#: elements (replicates x observations x components) per chunk of a batched fit: long series in chunks
#: whose work arrays stay in cache (KSfit at n = 1000: 15% faster than 4x larger ones), short ones in
#: few long chunks (each chunk's loop pays numpy's per-call cost for every iteration of its slowest fit)
CHUNK_ELEMENTS = 100_000
SHORT_CHUNK_ELEMENTS = 400_000
SHORT_SERIES = 256
#: up to this many elements (fits x observations x padded components), all G share one EM loop
PAD_MAX_ELEMENTS = 100_000
#: EM iterations after which a fit that has not met the stopping rule counts as failed (BIC = NA):
#: mclust has no practical cap; real timings stop within a few hundred, and a cap keeps a
#: pathological input from looping forever
MAX_ITERATIONS = 10_000


@lru_cache(maxsize=64)
def r_probs(m: int) -> np.ndarray:
    """R's ``seq(0, 1, length.out = m)``, bit for bit (interior points are ``i * (1 / (m - 1))``); read-only."""
    probs = np.concatenate([[0.0], np.arange(1, m - 1) * (1.0 / (m - 1)), [1.0]])
    probs.setflags(write=False)
    return probs


@lru_cache(maxsize=256)
def _quantile_positions(n: int, probs: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where R's type-7 quantiles of n sorted values fall: positions below and above, weight, interpolated?"""
    index = 1.0 + (n - 1) * np.array(probs)
    lo = np.floor(index).astype(np.intp)
    return lo - 1, np.ceil(index).astype(np.intp) - 1, index - lo, index > lo


def r_quantile7(xs: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """R's ``quantile(type = 7)`` of each sorted row of ``xs`` (B, n), bit for bit.

    numpy's "linear" method rounds differently ((1 - h) a + h b here), and on
    data with ties one ulp decides which class a tied value starts in.
    """
    below, above, h, between = _quantile_positions(xs.shape[1], tuple(probs.tolist()))
    qs = xs[:, below]
    upper = xs[:, above]
    interp = between & (upper != qs)
    return np.where(interp, (1.0 - h) * qs + h * upper, qs)


def quantile_classes(x: np.ndarray, k: int) -> np.ndarray:
    """mclust's ``qclass(x, k)``: 0-based class of each value by quantile bins.

    A faithful port of the R function (mclust 6.0), ties included: more
    quantiles are taken until ``k + 1`` distinct ones exist, and the surplus
    points that close the narrowest gaps are dropped.
    """
    x = np.asarray(x, dtype=float)
    xs = np.sort(x)[None, :]
    eps = float(np.std(x, ddof=1)) * np.sqrt(EPS) if x.size > 1 else 0.0
    m = k
    q = np.empty(0)
    while q.size < k + 1:
        m += 1
        q = np.unique(r_quantile7(xs, r_probs(m))[0])
    if q.size > k + 1:
        surplus = q.size - k - 1
        drop = np.argsort(np.diff(q), kind="stable")[:surplus]
        q = np.delete(q, drop)
    q[0] = x.min() - eps
    q[-1] = x.max() + eps
    return np.clip(np.searchsorted(q, x, side="right") - 1, 0, k - 1)


def _initial_classes(raw: np.ndarray, rows: int, k: int) -> np.ndarray:
    """The quantile classes of the rows of ``raw``, repeated to ``rows`` rows (models stacked on one data set)."""
    labels = _batch_quantile_classes(raw, k)
    return labels if raw.shape[0] == rows else np.tile(labels, (rows // raw.shape[0], 1))


def _batch_quantile_classes(xs: np.ndarray, k: int) -> np.ndarray:
    """``quantile_classes`` for every row of sorted ``xs`` (B, n); vectorised when no quantile ties."""
    b, n = xs.shape
    if k == 1:
        return np.zeros((b, n), dtype=np.intp)
    q = r_quantile7(xs, r_probs(k + 1))  # (B, k+1)
    labels = (xs[:, :, None] >= q[:, None, 1:-1]).sum(axis=2)
    tied = np.any(np.diff(q, axis=1) <= 0, axis=1)
    for row in np.flatnonzero(tied):  # rare: repeated values in the data themselves
        labels[row] = quantile_classes(xs[row], k)
    return labels


@attrs.frozen
class BatchFit:
    """EM fits of B data sets with G components (arrays lead with the batch axis)."""

    loglik: np.ndarray   # (B,), -inf where the fit failed
    weights: np.ndarray  # (B, G)
    means: np.ndarray    # (B, G)
    variances: np.ndarray  # (B, G)
    ok: np.ndarray       # (B,) bool
    iterations: np.ndarray  # (B,)


#: from this many runs a data set is fitted through bins of neighbouring runs (:func:`make_bins`): the
#: fits then cost what ~BINS runs cost; below, every run is fitted as mclust fits it (docs/methods/gmm.md)
BIN_ABOVE = 20_000
#: about this many bins of equal counts (more where a bin would straddle a quantile class boundary)
BINS = 10_000
#: no bin is wider than the interquartile range over this (sparse tails get narrow bins)
BIN_WIDTHS = 100


@attrs.frozen
class Bins:
    """Runs grouped into bins of neighbours (sorted order): the EM sees each bin's mean, with its count.

    The M-step is that of the runs themselves given the z of their bin (counts and the bins'
    own sums of squares); the E-step evaluates z at the bin's mean. ``labels[g]``: the
    initial quantile class of each bin for G = g (no bin straddles a class boundary, so
    the first M-step is exactly the unbinned one).
    """

    counts: np.ndarray   # (B, n) runs per bin; 0 pads a row to the common width
    within: np.ndarray   # (B, n) sum of squares of the bin's runs about the bin's mean
    runs: np.ndarray     # (B,) runs per row
    labels: dict[int, np.ndarray]  # G -> (B, n) initial classes

    def take(self, rows: np.ndarray | slice) -> Bins:
        """The rows ``rows`` (bool mask or slice) only."""
        return Bins(self.counts[rows], self.within[rows], self.runs[rows],
                    {g: lab[rows] for g, lab in self.labels.items()})

    def tile(self, k: int) -> Bins:
        """The rows repeated ``k`` times (as ``np.tile`` stacks data sets)."""
        return Bins(np.tile(self.counts, (k, 1)), np.tile(self.within, (k, 1)), np.tile(self.runs, k),
                    {g: np.tile(lab, (k, 1)) for g, lab in self.labels.items()})

    def scaled(self, scale: np.ndarray) -> Bins:
        """The sums of squares in units of ``scale`` (B, 1) (the EM works on standardised values)."""
        return attrs.evolve(self, within=self.within / (scale * scale))


def make_bins(x: np.ndarray, gmax: int, bins: int | None = None) -> tuple[np.ndarray, Bins]:
    """Bins of neighbouring runs of every sorted row of ``x`` (B, n), and the bins' means (B, n_bins).

    Each bin holds up to ceil(n / ``bins``) consecutive runs, spans at most 1/``BIN_WIDTHS``
    of the interquartile range (where runs are sparse, a bin holds few), and ends at every
    quantile class boundary of G = 2..``gmax`` (mclust's initial partition), so each bin's
    initial class is that of all of its runs. Rows are padded with empty bins to a common width.
    """
    b, n = x.shape
    group = -(-n // (BINS if bins is None else bins))
    small = np.int8 if gmax < 128 else np.intp
    classes = {g: _batch_quantile_classes(x, g).astype(small) for g in range(2, gmax + 1)}
    rows = []
    for r in range(b):
        start = np.zeros(n, dtype=bool)
        start[::group] = True
        step = (x[r, (3 * n) // 4] - x[r, n // 4]) / BIN_WIDTHS
        if step > 0:
            cell = np.floor((x[r] - x[r, 0]) / step)
            start[1:] |= cell[1:] != cell[:-1]
        for lab in classes.values():
            start[1:] |= lab[r, 1:] != lab[r, :-1]
        first = np.flatnonzero(start)
        counts = np.diff(np.append(first, n))
        means = np.add.reduceat(x[r], first) / counts
        within = np.add.reduceat((x[r] - np.repeat(means, counts)) ** 2, first)
        rows.append((first, counts, means, within))
    width = max(len(f) for f, _, _, _ in rows)
    out = np.empty((b, width))
    counts = np.zeros((b, width))
    within = np.zeros((b, width))
    labels = {g: np.empty((b, width), dtype=np.intp) for g in classes}
    for r, (first, cnt, means, ss) in enumerate(rows):
        k = first.size
        out[r, :k], out[r, k:] = means, means[-1]  # padding: at the last mean, with no runs
        counts[r, :k], within[r, :k] = cnt, ss
        for g, lab in classes.items():
            labels[g][r, :k], labels[g][r, k:] = lab[r, first], lab[r, first[-1]]
    return out, Bins(counts, within, np.full(b, float(n)), labels)


def _curvature(x: np.ndarray, w: np.ndarray, mu: np.ndarray, var: np.ndarray, bins: Bins) -> np.ndarray:
    """The second-order term of the log-likelihood of binned runs: 1/2 sum over bins of the bin's
    sum of squares times (log f)'' at its mean (B,). Exact for runs of one normal component;
    with it, the log-likelihood of the bins is that of the runs up to third-order terms."""
    z, _ = e_step(x, w, mu, var)
    a = (mu[:, :, None] - x[:, None, :]) / var[:, :, None]
    za = np.einsum("bkn,bkn->bn", z, a)
    curvature = np.einsum("bkn,bkn->bn", z, a * a) - za * za - np.einsum("bkn,bk->bn", z, 1.0 / var)
    return 0.5 * np.einsum("bn,bn->b", bins.within, curvature)


#: log-responsibilities are clipped here before exp(): exp(-100) ~ 4e-44 changes no sum a fit
#: depends on (a component whose every responsibility is that small has emptied and fails
#: anyway), and exp() of large negative numbers (subnormal results) is many times slower
MIN_LOG = -100.0


def e_step(x: np.ndarray, w: np.ndarray, mu: np.ndarray, var: np.ndarray,
           counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Posterior probabilities z (B, G, n) and log-likelihoods (B,) (log-sum-exp, no underflow).

    ``counts`` (B, n): how many runs each value stands for (binned data, :class:`Bins`).
    """
    d2 = x[:, None, :] - mu[:, :, None]
    d2 *= d2
    return _e_step_d2(d2, w, var, counts=counts)


class _Scratch:
    """Work arrays reused from one EM iteration to the next.

    An array above glibc's mmap threshold (128 KiB, and fixed there when
    MALLOC_TRIM_THRESHOLD_ is set, as dask's workers set it) is mapped afresh and
    page-faulted in on every allocation: on batched fits that took a quarter of the
    time (half in a dask worker). Reusing the memory keeps the time in the arithmetic.
    """

    def __init__(self) -> None:
        self._arrays: dict[str, np.ndarray] = {}
        self._views: dict[tuple[str, tuple[int, ...]], np.ndarray] = {}

    def get(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        """An uninitialised float array of ``shape`` in the memory named ``name``.

        The view of each (name, shape) is kept: an EM iteration asks for the same ones
        four times, and making them cost more than the arithmetic on small fits.
        """
        view = self._views.get((name, shape))
        if view is not None:
            return view
        if len(self._views) > 256:  # kept across fits (_scratch): the shapes of the latest ones only
            self._views.clear()
        size = math.prod(shape)
        buf = self._arrays.get(name)
        if buf is None or buf.size < size:
            buf = self._arrays[name] = np.empty(size)
            self._views = {key: v for key, v in self._views.items() if key[0] != name}
        view = self._views[(name, shape)] = buf[:size].reshape(shape)
        return view


_THREAD = threading.local()


def _scratch() -> _Scratch:
    """This thread's work arrays, kept from one fit to the next: a KSfit runs thousands of short
    fits, and fresh memory is page-faulted in on first use (as costly as a few EM iterations)."""
    scratch = getattr(_THREAD, "scratch", None)
    if scratch is None:
        scratch = _THREAD.scratch = _Scratch()
    return scratch


def _e_step_d2(d2: np.ndarray, w: np.ndarray, var: np.ndarray,
               pad: _Padding | None = None, scratch: _Scratch | None = None,
               counts: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """E-step from squared distances d2 (B, G, n), overwritten with z (the layout keeps n contiguous).

    Padding components (``pad``) have weight 0, so log-weight -inf (the caller silences
    numpy's divide warning), log-density -inf, hence z exactly 0. ``scratch`` lends the
    (B, n) work arrays. ``counts``: the runs each value stands for (binned data).
    """
    lj = d2
    lj *= (-0.5 / var)[:, :, None]
    floor = MIN_LOG if pad is None else pad.floor
    lj += (np.log(w) - 0.5 * (LOG_2PI + np.log(var)))[:, :, None]
    b, _, n = lj.shape
    work = (lambda name: None) if scratch is None else (lambda name: scratch.get(name, (b, n)))
    # (ufunc reductions: the same numbers as .max / .sum, less overhead)
    top = np.maximum.reduce(lj, axis=1, out=work("top"))
    lj -= top[:, None, :]
    np.maximum(lj, floor, out=lj)  # far components: exp(-100) ~ 4e-44 instead of smaller
    z = np.exp(lj, out=lj)
    s = np.add.reduce(z, axis=1, out=work("sum"))
    z *= np.divide(1.0, s, out=work("inverse"))[:, None, :]
    top += np.log(s, out=s)
    if counts is not None:
        return z, np.einsum("bn,bn->b", top, counts)
    return z, np.add.reduce(top, axis=1)


def _centres(x: np.ndarray, z: np.ndarray, out: np.ndarray | None = None,
             zc: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Component sizes, the same with 1 for empty ones (divisors), means and squared distances
    (B, G, n; in ``out`` when given). ``zc``: z times the runs each value stands for (binned data)."""
    zc = z if zc is None else zc
    nk = np.add.reduce(zc, axis=2)
    divisor = nk + (nk == 0)  # 1 for empty components (nk is never negative, nor NaN in a fit still running)
    mu = np.einsum("bkn,bn->bk", zc, x) / divisor  # (BLAS matmul is slow here at large n)
    d2 = np.subtract(x[:, None, :], mu[:, :, None], out=out)
    d2 *= d2
    return nk, divisor, mu, d2


def _variances(z: np.ndarray, d2: np.ndarray, divisor: np.ndarray, equal: np.ndarray,
               pad: _Padding | None = None, bins: Bins | None = None, zc: np.ndarray | None = None) -> np.ndarray:
    """MLE variances (two-pass, so tight clusters keep their digits); ``equal`` rows share one.

    Binned data (``bins``, ``zc`` = z times the counts): each bin's own sum of squares about
    its mean is added, so the M-step is that of the runs themselves, given the z of their bin.
    """
    if bins is None:
        ss = np.einsum("bkn,bkn->bk", z, d2)
        n = z.shape[2]
    else:
        ss = np.einsum("bkn,bkn->bk", zc, d2) + np.einsum("bkn,bn->bk", z, bins.within)
        n = bins.runs
    total = np.add.reduce(ss, axis=1) if pad is None else pad.row_sums(ss)
    var = ss / divisor
    np.copyto(var, (total / n)[:, None], where=equal[:, None])  # (cheaper than np.where on small fits)
    return var


@attrs.define
class _Padding:
    """Which components of each row are padding, when fits of several G share one array.

    Used components come first; padding has weight 0 and z exactly 0, and
    everything is arranged so that used components round as in an unpadded fit.
    """

    sizes: np.ndarray     # (B,) components in use
    ones: np.ndarray      # (B, G) 1.0 on padding, 0.0 on used components
    log_mask: np.ndarray  # (B, G) -inf on padding, 0.0 on used components
    floor: np.ndarray     # (B, G, 1) -inf on padding, MIN_LOG on used components
    long_rows: dict[int, np.ndarray]  # G >= 8: rows of that size whose sums are used (bool)
    long: np.ndarray = attrs.field(init=False)  # (B,) rows with G >= 8

    def __attrs_post_init__(self) -> None:
        self.long = self.sizes >= 8

    @classmethod
    def of(cls, sizes: np.ndarray, width: int, summed: np.ndarray | None = None) -> _Padding:
        """Padding beyond ``sizes`` (B,); ``row_sums`` is exact on the rows ``summed`` (default all)."""
        padding = np.arange(width) >= sizes[:, None]
        summed = np.ones(sizes.shape, dtype=bool) if summed is None else summed
        long_rows = {g: (sizes == g) & summed for g in range(8, width + 1) if np.any((sizes == g) & summed)}
        return cls(sizes, padding.astype(float), np.where(padding, -np.inf, 0.0),
                   np.where(padding, -np.inf, MIN_LOG)[:, :, None], long_rows)

    def take(self, keep: np.ndarray) -> _Padding:
        """The rows ``keep`` (bool) only."""
        long_rows = {g: rows[keep] for g, rows in self.long_rows.items()}
        return _Padding(self.sizes[keep], self.ones[keep], self.log_mask[keep], self.floor[keep],
                        {g: rows for g, rows in long_rows.items() if rows.any()})

    def narrow(self, width: int) -> _Padding | None:
        """The first ``width`` components only (None when no row has padding left)."""
        if np.all(self.sizes == width):
            return None
        return _Padding(self.sizes, self.ones[:, :width], self.log_mask[:, :width], self.floor[:, :width],
                        self.long_rows)

    def row_sums(self, a: np.ndarray) -> np.ndarray:
        """Sum of the used entries of each row of ``a`` (B, G), rounded as numpy sums the unpadded row.

        numpy adds up to 7 terms left to right (trailing zeros then change nothing)
        but 8 or more pairwise, in another order. Up to 15 columns that order is one block
        of 8, then the rest left to right, so trailing zeros change nothing there either:
        rows of 8 or more take the sum of the whole row. Wider, they are summed at their
        own length (only the ``summed`` ones: the others may differ in the last bits).
        """
        out = np.add.reduce(a[:, :7], axis=1)
        if not self.long_rows:
            return out
        if a.shape[1] < 16:
            np.copyto(out, np.add.reduce(a, axis=1), where=self.long)
            return out
        for g, rows in self.long_rows.items():
            out[rows] = np.add.reduce(a[rows, :g], axis=1)
        return out


def m_step(x: np.ndarray, z: np.ndarray, equal: np.ndarray, bins: Bins | None = None) -> tuple[np.ndarray, ...]:
    """Weights, means, variances (MLE) and sizes from responsibilities z (B, G, n)."""
    zc = None if bins is None else z * bins.counts[:, None, :]
    nk, divisor, mu, d2 = _centres(x, z, zc=zc)
    n = x.shape[1] if bins is None else bins.runs[:, None]
    return nk / n, mu, _variances(z, d2, divisor, equal, bins=bins, zc=zc), nk


#: a loop of at least this many rows hands its last 1/TAIL_SHARE over to one loop of every fit's tails
TAIL_MIN_ROWS = 32
TAIL_SHARE = 16


class _Tails:
    """The unfinished rows of many EM loops, finished together in one padded loop (:func:`_fit_chunk`).

    A row's state between iterations is its z (after the E-step), its log-likelihood and its
    iteration count; padded components round as unpadded ones, so the finished fits are the
    very fits each row would have reached in its own loop.
    """

    def __init__(self) -> None:
        self.parts: list[tuple] = []
        self.lock = threading.Lock()

    def add(self, tag: tuple[int, int], rows: np.ndarray, x: np.ndarray, z: np.ndarray, equal: np.ndarray,
            shift: np.ndarray, ll: np.ndarray, iterations: np.ndarray | int, bins: Bins | None,
            sizes: np.ndarray | None) -> None:
        g, first = tag
        used = np.full(rows.size, g) if sizes is None else sizes.copy()
        with self.lock:
            self.parts.append((g, first + rows, x.copy(), z.copy(), equal.copy(), shift.copy(), ll.copy(),
                               np.broadcast_to(iterations, rows.shape).copy(), bins, used))

    def finish(self, results: dict[int, BatchFit]) -> None:
        """Run every tail to its end in one loop; write the fits into ``results[G]`` at their rows."""
        if not self.parts:
            return
        width = max(int(p[9].max()) for p in self.parts)
        n = self.parts[0][2].shape[1]
        z = np.zeros((sum(p[1].size for p in self.parts), width, n))
        at = 0
        for p in self.parts:
            z[at:at + p[1].size, :p[3].shape[1]] = p[3]
            at += p[1].size
        cat = [np.concatenate([p[i] for p in self.parts]) for i in (2, 4, 5, 6, 7, 9)]
        x, equal, shift, ll, iterations, sizes = cat
        bins = None
        if self.parts[0][8] is not None:
            bins = Bins(np.concatenate([p[8].counts for p in self.parts]),
                        np.concatenate([p[8].within for p in self.parts]),
                        np.concatenate([p[8].runs for p in self.parts]), {})
        fit = _fit_chunk(x, z, equal, np.zeros(x.shape[0]), sizes, bins, resume=(ll, iterations, shift))
        at = 0
        for g, rows, *_ in self.parts:
            sl = slice(at, at + rows.size)
            out = results[g]
            out.loglik[rows], out.ok[rows], out.iterations[rows] = fit.loglik[sl], fit.ok[sl], fit.iterations[sl]
            out.weights[rows], out.means[rows], out.variances[rows] = (fit.weights[sl, :out.weights.shape[1]],
                                                                      fit.means[sl, :out.weights.shape[1]],
                                                                      fit.variances[sl, :out.weights.shape[1]])
            at += rows.size


def _fit_chunk(x: np.ndarray, z: np.ndarray, equal: np.ndarray, log_scale: np.ndarray,
               sizes: np.ndarray | None = None, bins: Bins | None = None, tails: _Tails | None = None,
               tag: tuple[int, int] = (0, 0), resume: tuple[np.ndarray, ...] | None = None) -> BatchFit:
    """EM from the initial responsibilities z (B, G, n) until each row stops by mclust's rule.

    With ``sizes`` (B,), row r uses only its first ``sizes[r]`` components: the
    others are padding (weight 0, z exactly 0, never tested for failure), so
    fits with different G share one loop and round exactly as unpadded ones.
    A row leaves the loop at its own stopping time. ``bins``: ``x`` are the means of bins of runs.

    The M- and E-steps are those of :func:`_centres`, :func:`_variances` and
    :func:`_e_step_d2`, written out here with the views and work arrays made once per
    set of rows instead of once per iteration: on small fits numpy's per-call cost is the
    time (an iteration of a BIC search at n = 40 is some 45 calls), and mclust's is a
    Fortran loop. The numbers are the same (tests/gmm/test_batched_em.py).

    ``tails``: when few rows are left (a few slow fits keep a loop going for hundreds of
    iterations, each costing numpy's per-call time), they are handed over, in the state an
    iteration starts from, to finish in one padded loop with the other fits' (:class:`_Tails`);
    ``tag`` = (G, first row) says where their results belong. ``resume`` = (previous
    log-likelihoods, iterations done, log-likelihood shifts) of rows continued so.
    """
    b, n = x.shape
    g = z.shape[1]
    runs = n if bins is None else bins.runs
    loglik = np.full(b, -np.inf)
    w_out = np.full((b, g), np.nan)
    mu_out = np.full((b, g), np.nan)
    var_out = np.full((b, g), np.nan)
    ok = np.zeros(b, dtype=bool)
    iters = np.zeros(b, dtype=np.intp)
    active = np.arange(b)
    old = np.full(b, np.inf) if resume is None else resume[0].copy()  # previous log-likelihoods of the active rows
    done_before = None if resume is None else resume[1].copy()  # iterations of resumed rows, before this loop
    hand_over = 0 if tails is None or b < TAIL_MIN_ROWS else max(1, b // TAIL_SHARE)
    xa, za, eq, shift, ba = x, z, equal, runs * log_scale if resume is None else resume[2].copy(), bins
    # only model "E" sums variances over components
    pad = _Padding.of(sizes, g, equal) if sizes is not None and np.any(sizes < g) else None
    min_size = np.sqrt(EPS)
    scratch = _scratch()
    z_slot = None  # which of the two big work arrays holds za (None: memory of its own)
    add, maximum, minimum, einsum = np.add.reduce, np.maximum, np.minimum.reduce, np.einsum
    it = 0
    rows = width = -1
    with np.errstate(divide="ignore", invalid="ignore"):  # log(0) = -inf: the weights of padding components
        while active.size:
            if za.shape[0] != rows or za.shape[1] != width:  # the rows (or the padding) changed: new views
                rows, width = za.shape[0], za.shape[1]
                x3, eq2 = xa[:, None, :], eq[:, None]
                n_e = n if ba is None else ba.runs  # the divisor of model "E"'s pooled variance
                n_w = n if ba is None else ba.runs[:, None]
                counts3 = None if ba is None else ba.counts[:, None, :]
                ones = None if pad is None else pad.ones
                floor = MIN_LOG if pad is None else pad.floor
                top, inverse = scratch.get("top", (rows, n)), scratch.get("inverse", (rows, n))
                s = scratch.get("sum", (rows, n))
                top3, inverse3 = top[:, None, :], inverse[:, None, :]
                wv = scratch.get("weights and variances", (2, rows, width))  # one log() for both
                w, var = wv[0], wv[1]
                var3 = var[:, :, None]
                pooled = bool(eq.any())  # some rows are model "E" (one variance): their sums are needed
                slots = {slot: scratch.get(slot, za.shape) for slot in "ab"}
            it += 1
            d2_slot = "b" if z_slot == "a" else "a"  # the squared distances go where z is not
            d2 = slots[d2_slot]
            # M-step (_centres, _variances)
            zc = za if ba is None else np.multiply(za, counts3, out=scratch.get("zc", za.shape))
            nk = add(zc, axis=2)
            # 1 for padding (and for components emptied by the initial classes without padding: with
            # padding such a fit gets NaN means; both fail below, on their size)
            divisor = nk + (nk == 0) if ones is None else nk + ones
            mu = einsum("bkn,bn->bk", zc, xa) / divisor  # (BLAS matmul is slow here at large n)
            np.subtract(x3, mu[:, :, None], out=d2)
            d2 *= d2
            ss = einsum("bkn,bkn->bk", zc, d2)
            if ba is not None:
                ss += einsum("bkn,bn->bk", za, ba.within)
            np.divide(ss, divisor, out=var)
            if pooled:
                total = add(ss, axis=1) if pad is None else pad.row_sums(ss)
                np.copyto(var, (total / n_e)[:, None], where=eq2)
            np.divide(nk, n_w, out=w)
            # mclust: a variance at or below eps, or an emptied component, ends the fit with BIC = NA.
            # The variance is compared on the standardised scale (mclust: in the data's unit), so the
            # fit does not depend on the unit: mclust fails on data whose spread is below ~1e-8 units.
            # (Checked on the smallest values first: the rows are sorted out only when one fails.)
            if ones is not None:
                var += ones  # padding: a positive variance (never used: its weight is 0)
                size = divisor  # nk + 1 on padding
            else:
                size = nk
            failed = None
            if minimum(var, axis=None) <= EPS or minimum(size, axis=None) <= min_size:
                failed = np.logical_or.reduce((var <= EPS) | (size <= min_size), axis=1)
                var[failed] = 1.0
                w[failed] = 1.0 / width if pad is None else (1.0 - pad.ones[failed]) / pad.sizes[failed, None]
            # E-step (_e_step_d2), over the squared distances, into z
            lj = d2
            lj *= np.divide(-0.5, var3)
            logs = np.log(wv)
            lj += (logs[0] - 0.5 * (LOG_2PI + logs[1]))[:, :, None]
            maximum.reduce(lj, axis=1, out=top)
            lj -= top3
            maximum(lj, floor, out=lj)  # far components: exp(-100) ~ 4e-44 instead of smaller
            np.exp(lj, out=lj)
            add(lj, axis=1, out=s)
            np.divide(1.0, s, out=inverse)
            lj *= inverse3
            top += np.log(s, out=s)
            ll = add(top, axis=1) if ba is None else einsum("bn,bn->b", top, ba.counts)
            za, z_slot = lj, d2_slot
            ll -= shift  # the log-likelihood of the original (unstandardised) data
            err = np.abs(ll - old)
            err /= 1.0 + np.abs(ll)
            going = err > TOL  # a NaN (from a non-finite log-likelihood) stops the row: it failed below
            if it >= MAX_ITERATIONS or (done_before is not None and it + done_before.max() >= MAX_ITERATIONS):
                capped = np.full(ll.shape, it >= MAX_ITERATIONS) if done_before is None else it + done_before >= MAX_ITERATIONS
                going &= ~capped  # a fit past the cap fails
                failed = capped if failed is None else failed | capped
            if failed is not None:
                going &= ~failed
            if not going.all():
                done = ~going
                bad = ~np.isfinite(ll) if failed is None else failed | ~np.isfinite(ll)
                good = done & ~bad
                gi = active[good]
                k = w.shape[1]
                loglik[gi], w_out[gi, :k], mu_out[gi, :k], var_out[gi, :k] = ll[good], w[good], mu[good], var[good]
                ok[gi] = True
                iters[active[done]] = it if done_before is None else it + done_before[done]
                keep = going
                active, xa, eq, ll, shift = active[keep], xa[keep], eq[keep], ll[keep], shift[keep]
                if done_before is not None:
                    done_before = done_before[keep]
                ba = None if ba is None else ba.take(keep)
                new_width = za.shape[1]
                if pad is not None and active.size:
                    pad = pad.take(keep)
                    new_width = int(pad.sizes.max())  # the widest fits may have stopped: drop their padding
                    if new_width < za.shape[1]:
                        pad = pad.narrow(new_width)
                # the rows (and components) still in use, copied into the other work array
                z_slot = "b" if z_slot == "a" else "a"
                kept = scratch.get(z_slot, (active.size, new_width, n))
                np.compress(keep, za if new_width == za.shape[1] else za[:, :new_width], axis=0, out=kept)
                za = kept
            old = ll
            if 0 < active.size <= hand_over:  # the slow few: finished with the other fits' (their state is z)
                tails.add(tag, active, xa, za, eq, shift, ll, it if done_before is None else it + done_before, ba,
                          sizes=None if pad is None else pad.sizes)
                break
    return BatchFit(loglik, w_out, mu_out, var_out, ok, iters)


def fit_batch(x: np.ndarray, g: int, equal: np.ndarray, log_scale: np.ndarray,
              raw: np.ndarray | None = None, bins: Bins | None = None, tails: _Tails | None = None) -> BatchFit:
    """EM with ``g`` components on every row of sorted, standardised ``x`` (B, n).

    ``equal[b]`` selects model "E" (one variance) for row b, else "V".
    ``log_scale`` (B,) is log of each row's standardisation scale, so log-likelihoods are
    those of the original data; ``raw`` (default ``x``) are the original data (or one
    copy of them when both models are stacked), from which the initial quantile classes are taken (on tied data one ulp of
    a quantile decides a class, so they must see what mclust sees).
    Rows are fitted in chunks bounding memory. ``bins``: ``x`` are the means of bins of runs
    (:func:`make_bins`), whose own initial classes they hold. ``tails``: where loops hand their
    slowest rows over (the caller finishes them: ``tails.finish``).
    """
    b, n = x.shape
    if g == 1:
        if bins is None:
            mu = x.mean(axis=1, keepdims=True)
            var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
            runs = n
        else:  # the runs' own mean and variance, from the bins' sums
            runs = bins.runs
            mu = np.einsum("bn,bn->b", bins.counts, x)[:, None] / runs[:, None]
            var = (np.einsum("bn,bn->b", bins.counts, (x - mu) ** 2) + bins.within.sum(axis=1))[:, None] / runs[:, None]
        ok = var[:, 0] > EPS
        ll = (np.where(ok, -0.5 * runs * (LOG_2PI + np.log(np.where(ok, var[:, 0], 1.0)) + 1.0), -np.inf)
              - runs * log_scale)
        return BatchFit(ll, np.ones((b, 1)), mu, var, ok, np.zeros(b, dtype=np.intp))
    labels = _initial_classes(x if raw is None else raw, b, g) if bins is None else bins.labels[g]
    rows = max(1, (SHORT_CHUNK_ELEMENTS if n < SHORT_SERIES else CHUNK_ELEMENTS) // (n * g))
    parts = []
    for start in range(0, b, rows):
        sl = slice(start, start + rows)
        z = (labels[sl, None, :] == np.arange(g)[:, None]).astype(float)
        parts.append(_fit_chunk(x[sl], z, equal[sl], log_scale[sl], bins=None if bins is None else bins.take(sl),
                                tails=tails, tag=(g, start)))
    return BatchFit(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in attrs.fields(BatchFit)))


def fit_sizes(x: np.ndarray, sizes: range, equal: np.ndarray, log_scale: np.ndarray,
              raw: np.ndarray | None = None, bins: Bins | None = None) -> dict[int, BatchFit]:
    """``fit_batch`` for every G >= 2 in ``sizes`` in one EM loop (results identical).

    The component axis is padded to max(G): on small inputs the per-iteration
    cost is numpy's call overhead, which one loop over all (G, row) fits pays
    once instead of once per G. The loop runs until the slowest fit stops.
    """
    b, n = x.shape
    gs = [g for g in sizes if g > 1]
    width = max(gs)
    raw = x if raw is None else raw
    z = np.zeros((len(gs) * b, width, n))
    for j, g in enumerate(gs):
        labels = _initial_classes(raw, b, g) if bins is None else bins.labels[g]
        z[j * b:(j + 1) * b] = labels[:, None, :] == np.arange(width)[:, None]
    row_sizes = np.repeat(gs, b)
    fit = _fit_chunk(np.tile(x, (len(gs), 1)), z, np.tile(equal, len(gs)), np.tile(log_scale, len(gs)),
                     row_sizes, None if bins is None else bins.tile(len(gs)))
    return {g: BatchFit(fit.loglik[j * b:(j + 1) * b], fit.weights[j * b:(j + 1) * b, :g],
                        fit.means[j * b:(j + 1) * b, :g], fit.variances[j * b:(j + 1) * b, :g],
                        fit.ok[j * b:(j + 1) * b], fit.iterations[j * b:(j + 1) * b])
            for j, g in enumerate(gs)}


def n_params(g: int, model: str) -> int:
    """Free parameters of a 1-D mixture: 2G for "E", 3G - 1 for "V" (mclust's ``nMclustParams``)."""
    return 2 * g if model == "E" else 3 * g - 1


MODELS = ("E", "V")


@attrs.frozen
class BicSearch:
    """The BIC table of every data set and the best (G, model) of each.

    ``bic`` has shape (B, G_max, 2), NaN where a fit failed or G > n;
    parameters of the best model are on the original scale, sorted by mean.
    """

    bic: np.ndarray
    loglik: np.ndarray
    n_components: np.ndarray  # (B,)
    model: np.ndarray         # (B,) index into MODELS
    weights: np.ndarray       # (B, G_max) padded with 0 beyond n_components
    means: np.ndarray         # (B, G_max) padded with the last mean
    sds: np.ndarray           # (B, G_max) padded with 1


def _final_parameters(x: np.ndarray, w: np.ndarray, mu: np.ndarray, var: np.ndarray,
                      equal: bool, bins: Bins | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The parameters mclust reports for the chosen model.

    ``summaryMclustBIC`` keeps the EM's last E-step z and, when the weights
    disagree with ``colMeans(z)`` (sum of squares > sqrt(eps)), replaces the
    parameters by one more M-step from that z; the log-likelihood is kept.
    """
    if mu.shape[1] == 1:
        return w, mu, var
    z, _ = e_step(x, w, mu, var)
    w2, mu2, var2, _ = m_step(x, z, np.full(x.shape[0], equal), bins)
    share = z.mean(axis=2) if bins is None else np.einsum("bkn,bn->bk", z, bins.counts) / bins.runs[:, None]
    redo = (((w - share) ** 2).sum(axis=1) > np.sqrt(EPS))[:, None]
    return np.where(redo, w2, w), np.where(redo, mu2, mu), np.where(redo, var2, var)


def bic_search(x: np.ndarray, max_components: int = 9, models: tuple[str, ...] = MODELS,
               bins_for: int | None = None, threads: int | None = None, min_components: int = 1) -> BicSearch:
    """Fit G = min_components..max_components for each model on every row of ``x`` (B, n) and keep the best BIC.

    Ties go to the smaller G, then to "E" (mclust's order). Rows need not be sorted.
    Rows of more than ``BIN_ABOVE`` runs are fitted through bins of neighbouring runs
    (:func:`make_bins`): their log-likelihoods are those of the runs to third-order terms.
    ``bins_for`` (default ``max_components``): the bins keep the initial classes of G up to
    this many components, so that a search over fewer G fits the very same bins.
    ``threads`` (default ``THREADS``): how many G may be fitted side by side on large inputs
    (1: in turn; the same numbers, less CPU time in all when the cores are busy anyway).
    ``min_components``: the G below it are not fitted (NaN in the table): each G's EM is
    independent of the others, so the G searched are those of the whole search.
    """
    x = np.sort(np.atleast_2d(np.asarray(x, dtype=float)), axis=1)
    b, n = x.shape
    centre = x.mean(axis=1, keepdims=True)
    scale = x.std(axis=1, keepdims=True)
    scale = np.where(scale > 0, scale, 1.0)
    gmax = int(max_components)
    bins = None
    if n > BIN_ABOVE:
        x, bins = make_bins(x, min(max(gmax, bins_for or 0), n))
        bins = bins.scaled(scale)
    xs = (x - centre) / scale
    bic = np.full((b, gmax, 2), np.nan)
    loglik = np.full((b, gmax, 2), np.nan)
    log_scale = np.log(scale[:, 0])
    log_n = np.log(n)
    use = [m for m in range(2) if MODELS[m] in models]
    equal = np.concatenate([np.full(b, m == 0) for m in use])
    stacked_x = np.concatenate([xs] * len(use))
    stacked_scale = np.tile(log_scale, len(use))
    stacked_bins = None if bins is None else bins.tile(len(use))
    width = xs.shape[1]  # the values the EM sees: runs, or bins

    tails = _Tails()  # the per-G loops' slowest rows, finished together

    def fit_g(g: int) -> BatchFit:
        if g == 1:  # one normal: "E" and "V" coincide
            return fit_batch(xs, 1, np.ones(b, bool), log_scale, bins=bins)
        # both models stacked along the batch axis: one batched EM per G
        return fit_batch(stacked_x, g, equal, stacked_scale, raw=x, bins=stacked_bins, tails=tails)

    sizes = range(max(1, int(min_components)), min(gmax, n) + 1)
    if len(sizes) > 1 and len(use) * b * width * gmax * (len(sizes) - 1) <= PAD_MAX_ELEMENTS:
        # small input: all G in one padded EM loop (numpy's per-call overhead dominates)
        results = {**({1: fit_g(1)} if 1 in sizes else {}),
                   **fit_sizes(stacked_x, sizes, equal, stacked_scale, raw=x, bins=stacked_bins)}
    elif (threads or THREADS) > 1 and THREAD_MIN_ELEMENTS <= b * width * gmax <= THREAD_MAX_ELEMENTS:
        # numpy releases the GIL in its loops: the G's run side by side on big inputs
        with ThreadPoolExecutor(threads or THREADS) as pool:
            order = sizes[::-1]  # the largest G take longest: start them first
            results = dict(zip(order, pool.map(fit_g, order), strict=True))
    else:
        results = {g: fit_g(g) for g in sizes}
    tails.finish(results)
    fits: dict[tuple[int, int], BatchFit] = {}
    for g, fit in results.items():
        for j, m in enumerate(use):
            if g == 1:
                fits[(1, m)] = fit
            else:
                sl = slice(j * b, (j + 1) * b)
                fits[(g, m)] = BatchFit(fit.loglik[sl], fit.weights[sl], fit.means[sl], fit.variances[sl],
                                        fit.ok[sl], fit.iterations[sl])
            f = fits[(g, m)]
            if bins is not None and g > 1 and f.ok.any():  # the bins' log-likelihood, to the runs'
                ok = np.flatnonzero(f.ok)
                f.loglik[ok] += _curvature(xs[ok], f.weights[ok], f.means[ok], f.variances[ok], bins.take(ok))
            loglik[:, g - 1, m] = np.where(f.ok, f.loglik, np.nan)
            bic[:, g - 1, m] = 2.0 * loglik[:, g - 1, m] - n_params(g, MODELS[m]) * log_n
    # best: largest BIC; ties -> smaller G then "E" (first in C order of (G, model))
    flat = np.where(np.isnan(bic), -np.inf, bic).reshape(b, -1)
    best = flat.argmax(axis=1)
    best_g = best // 2 + 1
    best_m = best % 2
    weights = np.zeros((b, gmax))
    means = np.zeros((b, gmax))
    sds = np.ones((b, gmax))
    for g, m in sorted(set(zip(best_g.tolist(), best_m.tolist(), strict=True))):
        f = fits.get((g, m))
        if f is None:  # every fit failed (an "E" with no "E" searched): nothing to report
            continue
        rows = np.flatnonzero((best_g == g) & (best_m == m))
        w, mu, var = _final_parameters(xs[rows], f.weights[rows], f.means[rows], f.variances[rows], m == 0,
                                       None if bins is None else bins.take(rows))
        mu = centre[rows] + scale[rows] * mu
        sd = scale[rows] * np.sqrt(var)
        order = np.argsort(mu, axis=1, kind="stable")
        weights[rows, :g] = np.take_along_axis(w, order, axis=1)
        means[rows, :g] = np.take_along_axis(mu, order, axis=1)
        sds[rows, :g] = np.take_along_axis(sd, order, axis=1)
        means[rows, g:] = means[rows, g - 1:g]
    return BicSearch(bic, loglik, best_g, best_m, weights, means, sds)
