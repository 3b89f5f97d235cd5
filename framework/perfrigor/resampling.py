"""Hierarchical resampling (bootstrap) of balanced multi-level samples.

Shared by the random-effects (CI of a mean) and ratio (CI of a ratio of means) plugins,
and public for third-party plugins.

A sample has shape ``(n_top, ..., n_lowest)``. The hierarchical bootstrap of Kalibera &
Jones (2013, Fig. 1, Fig. 2) resamples with replacement at every level, drawing the
children of *each selected parent* afresh (a parent chosen twice gets two independent
child sets); a replicate has the original shape and its statistic is its grand mean.
The paper's variants keep some levels intact ("N") instead of resampling them ("R"),
e.g. ``"RRN"`` or ``"RNN"`` for three levels, or pool everything (``"flat"``).

Everything is vectorised: the indices of a whole chunk of replicates are drawn with one
``rng.integers`` call per level, turned into flat indices arithmetically, and gathered
with ``np.take``. Chunks bound the memory; ``perfrigor.progress`` is advanced per chunk.

Reproducibility: the replicates depend on ``random_state`` and on ``chunk_size`` (each
chunk draws its levels in turn); the default chunk size depends only on the data's shape,
so a seed gives the same replicates on every machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import progress
from .data import as_array
from .errors import ConfigError, DataError
from .memory import check_memory
from .params import check_random_state

__all__ = [
    "ADAPTIVE_DRAWS", "CHUNK_DRAWS", "MIN_REPLICATES", "adapted_replicates", "bootstrap", "bootstrap_means",
    "bootstrap_means_joint", "bootstrap_ratio", "bootstrap_ratio_many", "default_chunk_size", "flat_indices", "gather",
    "interval_with_error", "percentile_error", "percentile_interval", "resample_indices", "resampling_scheme",
]

#: Values drawn per chunk by default (a few MB of indices: fits in cache, bounds memory).
CHUNK_DRAWS = 1 << 18
#: values gathered at once within a chunk (64 KiB of float64: below the mmap threshold)
GATHER_VALUES = 1 << 13
#: values gathered at once for many samples drawn with shared indices (a work array of 2 MiB, reused)
SHARED_GATHER_VALUES = 1 << 18

Scheme = tuple[bool, ...] | None  # one flag per axis (True: resample), None: flat pooling


def resampling_scheme(levels: str | Sequence[bool] | None, ndim: int) -> Scheme:
    """Which axes are resampled, from a description of the variant.

    ``levels`` is ``None`` or ``"all"`` (resample every level, the paper's RRR default),
    ``"top"`` (only the top level, RNN), ``"flat"`` (pool all values and resample them,
    ignoring the hierarchy), a pattern of ``R``/``N`` letters, top level first
    (``"RRN"``: keep each selected execution's measurements intact), or one bool per level.
    Returns one flag per axis (top first), or None for flat pooling.
    """
    if levels is None:
        return (True,) * ndim
    if isinstance(levels, str):
        word = levels.strip().lower()
        if word == "all":
            return (True,) * ndim
        if word == "flat":
            return None
        if word == "top":
            return (True,) + (False,) * (ndim - 1)
        if word and set(word) <= {"r", "n"}:
            if len(word) != ndim:
                raise ConfigError(f"resampling pattern {levels!r} has {len(word)} letter(s) for data with "
                                  f"{ndim} level(s) (one R or N per level, top first)")
            return tuple(ch == "r" for ch in word)
        raise ConfigError(f"resampling levels must be 'all', 'top', 'flat' or a pattern of R/N letters "
                          f"(one per level, top first, e.g. 'RRN'), got {levels!r}")
    try:
        flags = tuple(bool(f) for f in levels)
    except TypeError:
        raise ConfigError(f"resampling levels must be a name, an R/N pattern or one bool per level, "
                          f"got {levels!r}") from None
    if len(flags) != ndim:
        raise ConfigError(f"resampling flags {tuple(levels)!r}: {len(flags)} flag(s) for data with {ndim} level(s)")
    return flags


def _draw(rng: np.random.Generator, n: int, size: tuple[int, ...]) -> np.ndarray:
    """Uniform integers in [0, n), drawn in the narrowest type that is fast for n.

    numpy's bounded draws (Lemire's method, exact) cost about 3.5 ns as uint16 for small n,
    5 ns as uint32/int64; uint16 slows down again when n nears 2**16 (more rejections).
    """
    dtype = np.uint16 if n <= 1 << 11 else np.uint32 if n <= 1 << 32 else np.int64
    return rng.integers(0, n, size=size, dtype=dtype)


def _draw_levels(rng: np.random.Generator, shape: tuple[int, ...], scheme: Scheme, count: int
                 ) -> list[np.ndarray]:
    """Per axis d, the chosen original index, shape ``(count, n_0, ..., n_d)`` (kept levels: aranges)."""
    if scheme is None:
        return [_draw(rng, int(np.prod(shape)), (count, *shape))]
    out = []
    for d, resample in enumerate(scheme):
        size = (count, *shape[: d + 1])
        if resample:
            out.append(_draw(rng, shape[d], size))
        else:
            out.append(np.broadcast_to(np.arange(shape[d]), size))
    return out


def resample_indices(shape: Sequence[int], n_bootstrap: int, random_state: Any = None,
                     levels: str | Sequence[bool] | None = None) -> tuple[np.ndarray, ...]:
    """Indices of ``n_bootstrap`` hierarchical bootstrap replicates of data of ``shape``.

    Returns one array per level, top first: ``indices[d]`` has shape
    ``(n_bootstrap, n_0, ..., n_d)`` and holds, for every position of a replicate, which
    original unit of level d (among the children of the parent chosen above it) is taken.
    For flat pooling it returns one array of shape ``(n_bootstrap, *shape)`` of flat indices.
    Feed them (or hand-written ones, e.g. the paper's Table VI) to :func:`gather`.
    Drawn exactly as :func:`bootstrap_means` draws one chunk.
    """
    shape = tuple(int(n) for n in shape)
    rng = check_random_state(random_state)
    return tuple(_draw_levels(rng, shape, resampling_scheme(levels, len(shape)), int(n_bootstrap)))


def flat_indices(shape: Sequence[int], indices: Sequence[np.ndarray]) -> np.ndarray:
    """Flat positions in ``values.reshape(-1)`` of replicates described by ``indices``.

    One array per level (as :func:`resample_indices` returns); a single array is taken as
    flat indices already. Result: shape ``(n_bootstrap, *shape)``.
    """
    shape = tuple(int(n) for n in shape)
    size = int(np.prod(shape))
    if len(indices) == 1 and len(shape) > 1:  # flat pooling
        flat = np.asarray(indices[0], dtype=np.intp)
        if flat.ndim < 1 or (flat.size and (flat.min() < 0 or flat.max() >= size)):
            raise DataError(f"flat indices must lie in [0, {size})")
        return flat.reshape(len(flat), *shape)
    if len(indices) != len(shape):
        raise DataError(f"{len(indices)} index arrays for data with {len(shape)} level(s)")
    indices = [np.asarray(idx) for idx in indices]
    for d, idx in enumerate(indices):
        if idx.ndim != d + 2 or idx.shape[1:] != shape[: d + 1] or len(idx) != len(indices[0]):
            raise DataError(f"indices of level {d} have shape {idx.shape}, expected "
                            f"({len(indices[0])}, *{shape[: d + 1]})")
        if not np.issubdtype(idx.dtype, np.integer):
            raise DataError(f"indices of level {d} must be integers, got {idx.dtype}")
        if idx.size and (idx.min() < 0 or idx.max() >= shape[d]):
            raise DataError(f"indices of level {d} must lie in [0, {shape[d]})")
    return _offsets(shape, indices)


def _offsets(shape: tuple[int, ...], indices: Sequence[np.ndarray]) -> np.ndarray:
    """Flat positions from per-level indices (unchecked), level by level: offset x n_d + index_d.

    Each step works on an array the size of its level, so the levels above the lowest cost
    a fraction of it (Horner's scheme on the mixed-radix position).
    """
    flat = np.asarray(indices[0], dtype=np.intp)
    for n, idx in zip(shape[1:], indices[1:], strict=True):
        flat = np.add(flat[..., None] * n, idx, dtype=np.intp)
    return flat


def gather(values: Any, indices: Sequence[np.ndarray]) -> np.ndarray:
    """The replicates themselves, shape ``(n_bootstrap, *values.shape)``, from level indices."""
    arr = as_array(values, "values")
    return arr.reshape(-1).take(flat_indices(arr.shape, indices))


def _collapse_kept_levels(arr: np.ndarray, scheme: tuple[bool, ...]) -> tuple[np.ndarray, tuple[bool, ...]]:
    """Average away trailing levels that are kept intact: only their means matter for a mean."""
    k = len(scheme)
    while k > 1 and not scheme[k - 1]:
        k -= 1
    if k < len(scheme):
        arr = arr.mean(axis=tuple(range(k, arr.ndim)))
    return arr, scheme[:k]


class _MeanResampler:
    """Draws replicate grand means of one sample (or of a batch of samples), chunk by chunk.

    The fast path: trailing levels kept intact are averaged once; flat pooling is the
    resampling of the values reshaped to one level (the same draws :func:`resample_indices`
    makes); flat positions are built level by level and gathered.
    """

    def __init__(self, values: Any, levels: str | Sequence[bool] | None, what: str, batch_axes: int = 0) -> None:
        arr = as_array(values, what)
        if not 0 <= batch_axes < arr.ndim:
            raise ConfigError(f"batch_axes must lie in [0, {arr.ndim - 1}] for {what} of shape {arr.shape}")
        self.batch_shape = arr.shape[:batch_axes]
        scheme = resampling_scheme(levels, arr.ndim - batch_axes)
        if scheme is None:  # flat pooling: one level holding every value
            arr, scheme = arr.reshape(*self.batch_shape, -1), (True,)
        arr, scheme = _collapse_kept_levels(arr, (False,) * batch_axes + scheme)
        self.arr, self.scheme = arr, scheme
        self.flat_values = arr.reshape(-1)
        self.constant = not any(scheme)  # nothing resampled: every replicate is the mean

    def means(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` replicate means, shape ``(count, *batch_shape)``."""
        n_batch = int(np.prod(self.batch_shape))
        if self.constant:
            item_means = self.arr.reshape(n_batch, -1).mean(axis=1)
            return np.broadcast_to(item_means, (count, n_batch)).reshape(count, *self.batch_shape)
        draws = _draw_levels(rng, self.arr.shape, self.scheme, count)
        out = np.empty((count, n_batch))
        # gathered in blocks of replicates that stay below glibc's mmap threshold: a large
        # temporary is mapped and page-faulted in afresh on every allocation (a third of the time)
        step = max(1, GATHER_VALUES // max(1, int(np.prod(self.arr.shape))))
        for lo in range(0, count, step):
            flat = _offsets(self.arr.shape, [d[lo:lo + step] for d in draws])
            gathered = self.flat_values.take(flat.reshape(-1)).reshape(len(flat), n_batch, -1)
            out[lo:lo + step] = gathered.sum(axis=2) / gathered.shape[2]
        return out.reshape(count, *self.batch_shape)


#: draws after which a bootstrap announces up front that it will take long (~5 ns a draw: minutes)
LONG_DRAWS = 2 * 10**10


def _check_bootstrap_args(n_bootstrap: Any, chunk_size: Any, results: int = 1) -> None:
    """ConfigError on a bad count or chunk size, or a count whose ``results`` arrays of
    replicates cannot fit in memory (the replicates are kept for their quantiles)."""
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int | np.integer) or n_bootstrap < 1:
        raise ConfigError(f"n_bootstrap must be an integer >= 1, got {n_bootstrap!r}")
    try:
        check_memory("n_bootstrap", int(n_bootstrap), 8.0 * max(1, results))
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int | np.integer)
                                   or chunk_size < 1):
        raise ConfigError(f"chunk_size must be None or an integer >= 1, got {chunk_size!r}")


def _announce(description: str, n_bootstrap: int, per_replicate: int) -> None:
    """``progress.notice`` up front when the draws will clearly take minutes or more."""
    draws = int(n_bootstrap) * int(per_replicate)
    if draws >= LONG_DRAWS:
        progress.notice(f"{description}: {n_bootstrap} replicates of {per_replicate} values ({draws:.2g} draws) "
                        f"will take a while (about {progress.duration(draws * 5e-9)} at 5 ns a draw); fewer "
                        "replicates (n_bootstrap) or a coarser resampling shorten it")


def default_chunk_size(*shapes: Sequence[int]) -> int:
    """Replicates per chunk so that one chunk draws about ``CHUNK_DRAWS`` values."""
    per_replicate = sum(int(np.prod(s)) for s in shapes) or 1
    return max(1, CHUNK_DRAWS // per_replicate)


def bootstrap_means_joint(samples: Sequence[Any], n_bootstrap: int = 10_000, random_state: Any = None,
                          levels: str | Sequence[bool] | None = None, chunk_size: int | None = None,
                          batch_axes: int = 0, description: str = "bootstrap") -> np.ndarray:
    """Replicate grand means of several independent samples, resampled together.

    Returns shape ``(len(samples), n_bootstrap, *batch_shape)``. Within each chunk the
    samples are drawn in turn, so the replicates of sample i are independent of those of
    sample j (as the paper's ratio bootstrap, Fig. 2, needs). ``levels`` applies to every sample.
    ``batch_axes``: how many leading axes index independent data sets (e.g. simulated
    experiments), each bootstrapped on its own, with one mean per data set.
    """
    _check_bootstrap_args(n_bootstrap, chunk_size, results=len(samples))
    rng = check_random_state(random_state)
    resamplers = [_MeanResampler(s, levels, f"sample {i}", batch_axes) for i, s in enumerate(samples)]
    batch_shape = resamplers[0].batch_shape
    if any(r.batch_shape != batch_shape for r in resamplers):
        raise DataError(f"batched samples must share their batch shape, got {[r.batch_shape for r in resamplers]}")
    _announce(description, int(n_bootstrap), sum(int(np.prod(r.arr.shape)) for r in resamplers))
    if chunk_size is None:
        chunk_size = default_chunk_size(*(r.arr.shape for r in resamplers))
    n_bootstrap, chunk_size = int(n_bootstrap), int(chunk_size)
    out = np.empty((len(resamplers), n_bootstrap, *batch_shape))
    with progress.task(n_bootstrap, description) as advance:
        for start in range(0, n_bootstrap, chunk_size):
            count = min(chunk_size, n_bootstrap - start)
            for i, r in enumerate(resamplers):
                out[i, start:start + count] = r.means(rng, count)
            advance(count)
    return out


def bootstrap_means(values: Any, n_bootstrap: int = 10_000, random_state: Any = None,
                    levels: str | Sequence[bool] | None = None, chunk_size: int | None = None,
                    batch_axes: int = 0) -> np.ndarray:
    """Grand means of ``n_bootstrap`` hierarchical bootstrap replicates of ``values``.

    Shape ``(n_bootstrap,)`` (``(n_bootstrap, *batch_shape)`` with ``batch_axes``, see
    :func:`bootstrap_means_joint`). ``levels``: see :func:`resampling_scheme` (default:
    every level, RRR).
    """
    return bootstrap_means_joint([values], n_bootstrap, random_state, levels, chunk_size, batch_axes)[0]


def bootstrap_ratio(numerator: Any, denominator: Any, n_bootstrap: int = 10_000, random_state: Any = None,
                    levels: str | Sequence[bool] | None = None, chunk_size: int | None = None,
                    batch_axes: int = 0) -> np.ndarray:
    """Replicates of mean(numerator) / mean(denominator), the two resampled independently.

    For Kalibera & Jones' ratio new/old, pass the new system as ``numerator`` (Fig. 2).
    A replicate whose denominator mean is 0 gives inf or nan (positive data never does).
    """
    means = bootstrap_means_joint([numerator, denominator], n_bootstrap, random_state, levels, chunk_size,
                                  batch_axes, description="bootstrap ratio")
    with np.errstate(divide="ignore", invalid="ignore"):
        return means[0] / means[1]


class _SharedDraws:
    """The replicate means of many samples of one shape drawn with the same indices (one seed for all)."""

    def __init__(self, samples: Sequence[Any], levels: str | Sequence[bool] | None, what: str) -> None:
        arrays = [as_array(v, f"{what} {i}") for i, v in enumerate(samples)]
        shapes = {a.shape for a in arrays}
        if len(shapes) != 1:
            raise DataError(f"{what}s drawn with shared indices must share their shape, got {sorted(shapes)}")
        one = _MeanResampler(arrays[0], levels, what)  # the scheme and shape of one sample, as drawn alone
        self.shape, self.scheme, self.constant = one.arr.shape, one.scheme, one.constant
        stacked = np.stack(arrays)
        scheme = resampling_scheme(levels, stacked.ndim - 1)
        if scheme is None:
            stacked, scheme = stacked.reshape(len(arrays), -1), (True,)
        kept = len(one.scheme)  # the levels a sample keeps alone; deeper ones are averaged, as alone
        if kept < len(scheme):
            stacked = stacked.mean(axis=tuple(range(1 + kept, stacked.ndim)))
        self.values = stacked.reshape(len(arrays), -1)

    def means(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` replicate means of every sample, shape ``(samples, count)``: the draws one sample makes alone."""
        if self.constant:
            return np.broadcast_to(self.values.mean(axis=1)[:, None], (self.values.shape[0], count))
        flat = _offsets(self.shape, _draw_levels(rng, self.shape, self.scheme, count)).reshape(count, -1)
        items, size = self.values.shape[0], flat.shape[1]
        out = np.empty((items, count))
        step = max(1, SHARED_GATHER_VALUES // (size * items))
        work = self._work(items, min(step, count), size)  # reused: no fresh memory to fault in per block
        for lo in range(0, count, step):
            block = flat[lo:lo + step]
            gathered = work[:, :block.shape[0]]
            self.values.take(block, axis=1, out=gathered)  # C order (indexing is not): sums as alone
            np.add.reduce(gathered, axis=2, out=out[:, lo:lo + block.shape[0]])
        out /= size
        return out

    def _work(self, items: int, step: int, size: int) -> np.ndarray:
        work = getattr(self, "_buffer", None)
        if work is None or work.shape[1] < step:
            work = self._buffer = np.empty((items, step, size))
        return work


def bootstrap_ratio_many(numerators: Sequence[Any], denominators: Sequence[Any], n_bootstrap: int = 10_000,
                         random_state: int = 0, levels: str | Sequence[bool] | None = None) -> np.ndarray:
    """``bootstrap_ratio(numerators[i], denominators[i], n_bootstrap, random_state, levels)`` for every i.

    Shape ``(len(numerators), n_bootstrap)``, the same numbers as the calls one by one: with an
    int seed every pair draws the same indices (when the numerators share a shape, and the
    denominators one), so they are drawn once and gathered from every pair. A suite's
    benchmarks with the same design run through one call (``Component.prepare``).
    """
    if isinstance(random_state, bool) or not isinstance(random_state, int | np.integer):
        raise ConfigError(f"bootstrap_ratio_many needs an int seed (shared draws), got {random_state!r}")
    if len(numerators) != len(denominators):
        raise DataError(f"{len(numerators)} numerators for {len(denominators)} denominators")
    _check_bootstrap_args(n_bootstrap, None, results=2 * max(1, len(numerators)))
    rng = check_random_state(int(random_state))
    draws = [_SharedDraws(numerators, levels, "numerator"), _SharedDraws(denominators, levels, "denominator")]
    chunk_size = default_chunk_size(*(d.shape for d in draws))
    n_bootstrap = int(n_bootstrap)
    means = np.empty((2, len(numerators), n_bootstrap))
    with progress.task(n_bootstrap, "bootstrap ratio") as advance:
        for start in range(0, n_bootstrap, chunk_size):
            count = min(chunk_size, n_bootstrap - start)
            for i, d in enumerate(draws):  # numerator, then denominator, as bootstrap_means_joint draws them
                means[i, :, start:start + count] = d.means(rng, count)
            advance(count)
    with np.errstate(divide="ignore", invalid="ignore"):
        return means[0] / means[1]


def bootstrap(values: Any, statistic: Callable[[np.ndarray], np.ndarray], n_bootstrap: int = 10_000,
              random_state: Any = None, levels: str | Sequence[bool] | None = None,
              chunk_size: int | None = None) -> np.ndarray:
    """Any statistic of hierarchical bootstrap replicates (slower than :func:`bootstrap_means`).

    ``statistic`` maps an array of replicates, shape ``(chunk, *values.shape)`` (``(chunk, N)``
    for flat pooling), to one number per replicate, e.g.
    ``lambda r: np.median(r.reshape(len(r), -1), axis=1)``.
    """
    _check_bootstrap_args(n_bootstrap, chunk_size)
    arr = as_array(values, "values")
    rng = check_random_state(random_state)
    scheme = resampling_scheme(levels, arr.ndim)
    if chunk_size is None:
        chunk_size = default_chunk_size(arr.shape)
    _announce("bootstrap", int(n_bootstrap), arr.size)
    out = np.empty(int(n_bootstrap))
    flat_values = arr.reshape(-1)
    with progress.task(int(n_bootstrap), "bootstrap") as advance:
        for start in range(0, int(n_bootstrap), int(chunk_size)):
            count = min(int(chunk_size), int(n_bootstrap) - start)
            draws = _draw_levels(rng, arr.shape, scheme, count)
            flat = draws[0].astype(np.intp) if scheme is None else _offsets(arr.shape, draws)
            replicates = flat_values.take(flat)
            stats = np.asarray(statistic(replicates), dtype=float)
            if stats.shape != (count,):
                raise ConfigError(f"the statistic must return one number per replicate, shape ({count},), "
                                  f"got shape {stats.shape}")
            out[start:start + count] = stats
            advance(count)
    return out


def percentile_interval(replicates: Any, confidence: float = 0.95) -> tuple[float, float]:
    """The percentile bootstrap interval: the (1 - confidence)/2 and (1 + confidence)/2 quantiles.

    Uses the inverted-CDF quantile, i.e. order statistics: with 1000 replicates and 95%,
    the 25th and 975th sorted values, as Kalibera & Jones (§6.2) take them.
    """
    reps = _checked(replicates, confidence)
    low, high = _interval_ranks(reps.size, confidence)
    ordered = np.partition(reps, [low, high])
    return float(ordered[low]), float(ordered[high])


def _checked(replicates: Any, confidence: float) -> np.ndarray:
    """The replicates as a flat float array, refused when empty or NaN (or the confidence out of (0, 1))."""
    reps = np.asarray(replicates, dtype=float).reshape(-1)
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    if reps.size == 0:
        raise DataError("no bootstrap replicates")
    if np.isnan(reps).any():
        raise DataError(f"{int(np.isnan(reps).sum())} bootstrap replicate(s) are NaN")
    return reps


def _interval_ranks(size: int, confidence: float) -> tuple[int, int]:
    """The (0-based) order statistics :func:`percentile_interval` takes of ``size`` replicates."""
    # numpy's "inverted_cdf" quantile, with a tolerance: 1 - 0.95 is not 0.05 in floating
    # point, and ceil(1000 * 0.025000000000000022) would take the 26th value, not the 25th.
    tail = (1.0 - confidence) / 2
    ranks = [math.ceil(size * q - 1e-9) for q in (tail, 1.0 - tail)]
    low, high = (max(1, min(size, k)) - 1 for k in ranks)
    return low, high


def _error_ranks(size: int, confidence: float) -> list[tuple[int, int]]:
    """For each end of the interval, the (0-based) order statistics whose half distance is its Monte-Carlo error."""
    tail = (1.0 - confidence) / 2
    sd = math.sqrt(size * tail * (1.0 - tail))
    out = []
    for q in (tail, 1.0 - tail):
        rank = math.ceil(size * q - 1e-9)
        lo, hi = (max(1, min(size, r)) - 1 for r in (math.floor(rank - sd), math.ceil(rank + sd)))
        out.append((lo, hi))
    return out


def interval_with_error(replicates: Any, confidence: float = 0.95) -> tuple[float, float, float, float, float]:
    """:func:`percentile_interval`, :func:`percentile_error` and ``np.median`` of the replicates, the same numbers
    (and errors), from one partition of them: ``(low, high, error_low, error_high, median)``."""
    reps = _checked(replicates, confidence)
    if reps.size < 2:
        raise DataError("the Monte-Carlo error of an interval needs at least 2 bootstrap replicates")
    low, high = _interval_ranks(reps.size, confidence)
    errors = _error_ranks(reps.size, confidence)
    middle = slice((reps.size - 1) // 2, reps.size // 2 + 1)  # np.median's one or two middle values
    kth = sorted({low, high, *(k for pair in errors for k in pair), middle.start, middle.stop - 1})
    ordered = np.partition(reps, kth)
    (lo0, hi0), (lo1, hi1) = errors
    return (float(ordered[low]), float(ordered[high]), float(ordered[hi0] - ordered[lo0]) / 2,
            float(ordered[hi1] - ordered[lo1]) / 2, float(np.mean(ordered[middle])))


#: values a bootstrap whose replicate count adapts to the data draws at most, by default (about
#: half a second at ~10 ns a draw): 10^4 replicates of 2 x 2,500 runs, 250 of 2 x 10^5
ADAPTIVE_DRAWS = 50_000_000
#: fewest replicates an adapted bootstrap keeps: the ends of a 95% interval are then the 3rd and
#: 98th of 100 (their Monte-Carlo error, :func:`percentile_error`, is reported beside them)
MIN_REPLICATES = 100


def adapted_replicates(requested: int, per_replicate: int, max_draws: int | None = ADAPTIVE_DRAWS,
                       minimum: int = MIN_REPLICATES) -> int:
    """Replicates for a bootstrap of ``per_replicate`` values each: ``requested``, or fewer when
    they would draw more than ``max_draws`` values (None: no limit), never below ``minimum``.

    With a fixed number of draws, the Monte-Carlo error of a percentile interval's ends stays
    about the same in absolute terms whatever the sample size: the interval narrows like
    1/sqrt(n) and its ends' Monte-Carlo error like 1/sqrt(n x replicates). So large samples
    get fewer replicates at no loss of absolute precision (the time stays bounded, O(n)
    per replicate cannot be avoided by an exact bootstrap).
    """
    requested, per_replicate = int(requested), max(1, int(per_replicate))
    if max_draws is None or requested * per_replicate <= max_draws:
        return requested
    return max(min(requested, int(minimum)), int(max_draws) // per_replicate)


def percentile_error(replicates: Any, confidence: float = 0.95) -> tuple[float, float]:
    """Monte-Carlo standard errors of the two ends of :func:`percentile_interval`.

    An end is the order statistic of rank r ~ B q of the B replicates; the rank of the true
    quantile among them is binomial with sd s = sqrt(B q (1 - q)), so half the distance
    between the order statistics s ranks either side estimates its standard error (the
    binomial interval for a quantile, without a density estimate).
    """
    reps = np.asarray(replicates, dtype=float).reshape(-1)
    if not 0.0 < confidence < 1.0:
        raise ConfigError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    if reps.size < 2:
        raise DataError("the Monte-Carlo error of an interval needs at least 2 bootstrap replicates")
    out = []
    for lo, hi in _error_ranks(reps.size, confidence):
        ordered = np.partition(reps, [lo, hi])
        out.append(float(ordered[hi] - ordered[lo]) / 2)
    return out[0], out[1]
