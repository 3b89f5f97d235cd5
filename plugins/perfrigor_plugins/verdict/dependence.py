"""How much the verdict widens a comparison for serially dependent runs: in proportion to the evidence.

n dependent runs are worth n / tau independent ones; tau, the long-run variance factor, comes
from the autocorrelations of the runs' ranks at lags 1 and 2 through an autoregression
(``pr.stats.autoregressive_long_run_factor``: short series can estimate no more; a periodic
disturbance, which averages out over the run, costs nothing), and for long series at least
what a lag window sees. Below 20 runs the autoregression is an AR(1), unless the runs oscillate
decisively (:func:`oscillation`). A comparison's variance grows by tau on each side and its degrees of
freedom shrink by it. tau is a continuous function of the autocorrelations: weak evidence
widens a little, strong evidence a lot; no test switches it on or off.
Where the runs' level moves between several segments (invocations nobody declared: blocks a
lag window over a third of 30 runs cannot see), each side's variance is at least that of its
segments' means (batch means, :func:`block_factor`), with their degrees of freedom; a system
with fewer segments of its own, over the other system's (:func:`pair_factors`).

- **one benchmark** (``alone``): from its two series (the same harness measured both);
- **a suite** (``pooled``, in ``revise``): a suite measured by one harness shares its
  dependence. Each benchmark's autocorrelations are shrunk toward the suite's, lag by lag, as
  far as the benchmarks' differences allow (normal-normal empirical Bayes: all the way in a
  suite whose benchmarks depend alike, not at all where they differ more than their noise):
  a precise tau from 10 runs each.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
import perfrigor as pr

#: fewer runs than this carry no dependence evidence (the independence check does not check them)
MIN_RUNS = 10
#: fewer benchmarks than this give no usable pool: each is judged alone
SUITE_MIN = 8
#: the spread of a harness's autocorrelations before its runs are seen: the prior a benchmark judged alone is
#: shrunk toward (docs/methods/verdict.md, "Serial dependence": why this spread)
PRIOR_SD = 0.3
#: the lags a benchmark's evidence keeps: a third of 60 runs (the lag window of short series)
LAGS = 20


@attrs.frozen
class Observation:
    """One benchmark's dependence evidence, as pooled from its two systems' checks.

    ``rho``: lags 1 and 2 of the autocorrelations freed of their bias, each series with its own
    run count, averaged (weights: runs); ``acf``: the autocorrelations as measured (lags 1, 2,
    ...: the lag window corrects them itself), averaged likewise.
    """

    n: tuple[int, int]  # runs per side
    rho: tuple[float, ...]
    acf: tuple[float, ...]
    fitted: int  # parameters fitted to the level before the autocorrelations (1: the mean)
    own_tau: tuple[float, float]  # the checks' own long-run factors (lag windows on long series)
    #: per side, the variance factor from the segments' means where the level moves between several, and the
    #: effective count of segments it is from (Kish: n² / sum of sizes²)
    blocks: tuple[float, float] = (1.0, 1.0)
    segments: tuple[float, float] = (1.0, 1.0)

    @property
    def runs(self) -> int:
        return min(self.n)

    def to_dict(self) -> dict:
        return {"n": list(self.n), "rho": list(self.rho), "acf": list(self.acf), "fitted": self.fitted,
                "own_tau": list(self.own_tau), "blocks": list(self.blocks),
                "segments": list(self.segments)}

    @classmethod
    def from_dict(cls, d: dict) -> Observation:
        return cls(tuple(d["n"]), tuple(d["rho"]), tuple(d["acf"]), int(d["fitted"]), tuple(d["own_tau"]),
                   tuple(d.get("blocks", (1.0, 1.0))), tuple(d.get("segments", (1.0, 1.0))))


@attrs.frozen
class Widening:
    """What a comparison is widened by: taus per side, the relative variance of the estimate, and whence."""

    taus: tuple[float, float] = (1.0, 1.0)
    precision: float = 0.0
    pooled: bool = False
    #: what each side's runs are divided by for the degrees of freedom of its variance (None: the taus); where the
    #: segments' means set the widening, n / k_eff: k_eff - 1 degrees of freedom at least
    df_taus: tuple[float, float] | None = None
    #: over a suite, how uncertain the taus are: posterior weights and the factors relative to their posterior mean
    #: (:func:`factor_mixtures`); a p-value is taken over them (:func:`tail_ratio`). Empty: the taus are known
    mixture: tuple[Sequence[float], Sequence[float]] = ((), ())
    #: how much of the taus is the mixture's tails (:func:`tail_ratio`; 1: none)
    tails: float = 1.0
    #: below 20 runs, the runs oscillate decisively and the factor is an AR(2)'s (:func:`oscillation`): the
    #: measured autocorrelations at lags 1 and 3 it was read from; empty: it is not
    oscillation: tuple[float, ...] = ()

    @property
    def tau(self) -> float:
        return max(self.taus)


NONE = Widening()


def per_side(tau: float, obs: Observation) -> tuple[float, float]:
    """The factor each side's variance is multiplied by: tau, and the bias of the runs' own variance under
    dependence (its mean absorbs tau/n of it: Bartlett), (n - 1)/(n - tau); at least the segments' factor
    (:func:`block_factor`: it estimates the variance of the mean itself, no bias to undo)."""
    return tuple(max(tau * (n - 1.0) / max(n - tau, 1.0) if tau > 1.0 else 1.0, b)  # type: ignore[return-value]
                 for n, b in zip(obs.n, obs.blocks, strict=True))


#: the series the segments' factor is looked for in: long enough for 3 segments of SEGMENT_MIN runs, short enough
#: that the lag window (Politis' bandwidth) sees blocks on its own
BLOCK_RUNS = (20, 1000)
#: the fewest runs a segment of the level holds (as Pettitt's step: 5 either side)
SEGMENT_MIN = 5
#: the penalty per change of the level, times log(runs), in units of the runs' noise variance: false segments in
#: at most 2% of independent normal series of 20 to 300 runs (and a third of AR(1) 0.5 series of 30)
SEGMENT_PENALTY = 3.0


def block_factor(values: np.ndarray) -> tuple[float, float]:
    """The variance factor of a series' mean from the means of its segments of constant level, and their count.

    ``values``: the runs' ranks in run order, as for the autocorrelations (an outlier, or runs that
    switch between modes at random, make no level of their own).

    Where the level moves between several values (runs grouped in invocations that nobody
    declared), the runs of one segment share its level: the segments are clusters, and the
    variance of the series' mean is that of the clusters' means (batch means over the segments,
    the cluster-robust sum k/(k - 1) sum_j (m_j / n)² (mean_j - mean)²), worth k - 1 degrees of
    freedom for k equal segments; for unequal ones, k_eff - 1 with Kish's effective count
    k_eff = n² / sum_j m_j² (a short segment, e.g. a spurious split of one invocation, adds
    little). The segments are the change points of the level (:func:`level_segments`):
    data-chosen segments differ more than the clusters would, so this errs on the wide side.
    Returns (factor relative to the runs' variance / n, k_eff); (1, k) with fewer than 3
    segments (a single step is compared level by level; no step: the lag window's case; beside a
    system with 3 or more, :func:`pair_factors` reads it over those).
    """
    z = np.asarray(values, dtype=float)
    ws = pr.current_workspace()
    found = ws.get(_blocks_key(z)) if ws is not None and z.size <= BLOCK_RUNS[1] else None
    if found is not None:
        return found
    n = z.size
    variance = float(z.var(ddof=1)) if n > 1 else 0.0
    return _factor(z, variance, level_segments(z))


def pair_factors(ranks: Sequence[np.ndarray]) -> list[tuple[float, float]]:
    """Each system's :func:`block_factor`; a system with fewer than 3 segments of its own read over the segments
    of one with 3 or more (its means over those segments: batch means), the two series aligned at their ends.

    The same harness measured both systems, so runs grouped in invocations are grouped alike in
    both; where two neighbouring invocations of one system happen to sit alike, its level shows one
    step or none (40% of 3 flattened invocations of 10 runs) and its lags cannot see blocks of 10
    runs. The other system's segments are chosen from its own runs, independent of these: over them
    the batch means are neither wide nor narrow by the choice. Aligned at the ends: a steady part is
    a series without its leading runs (warm-up). Only where a system shows 3 segments (at most 1% of
    independent series of 30 runs): independent runs pay nothing elsewhere."""
    found = [block_factor(r) for r in ranks]
    clustered = [i for i, (f, _) in enumerate(found) if f > 1.0]
    if len(ranks) != 2 or len(clustered) != 1:
        return found
    other = 1 - clustered[0]
    z = np.asarray(ranks[other], dtype=float)
    if z.size < 2:
        return found
    edges = level_segments(ranks[clustered[0]]) - (ranks[clustered[0]].size - z.size)
    edges = np.unique(np.concatenate(([0], edges[(edges > 0) & (edges < z.size)], [z.size])))
    factor = _factor(z, float(z.var(ddof=1)), edges)
    found[other] = (max(factor[0], found[other][0]), factor[1])
    return found


def _blocks_key(ranks: np.ndarray) -> tuple:
    return ("perfrigor_plugins.verdict", "blocks", ranks.tobytes(), ranks.size)


def block_factors(rows: np.ndarray) -> list[tuple[float, float]]:
    """``[block_factor(row) for row in rows]`` (series of one length), the same numbers: the segments of all
    rows found at once (:func:`level_segments_rows`)."""
    z = np.ascontiguousarray(np.atleast_2d(np.asarray(rows, dtype=float)))
    variance = z.var(ddof=1, axis=1) if z.shape[1] > 1 else np.zeros(z.shape[0])
    return [_factor(row, float(v), edges) for row, v, edges in zip(z, variance, level_segments_rows(z), strict=True)]


def prepare(jobs: Sequence[pr.BenchmarkJob]) -> None:
    """The segments' factors the verdicts of a pipeline task will need, at once, into its workspace: each flat
    pair whose pipeline checks make :func:`observe` look for segments (``LOOKS_DEPENDENT``). Only a saving:
    ``block_factor`` computes what is missing."""
    from .evidence import find

    ws = pr.current_workspace()
    if ws is None:
        return
    rows: dict[int, dict[bytes, np.ndarray]] = {}
    for job in jobs:
        if job.candidate is None or not {job.baseline, job.candidate} <= set(job.samples):
            continue
        pair = [job.samples[job.baseline], job.samples[job.candidate]]
        if any(s.values.ndim != 1 for s in pair):
            continue
        checks = [find(job.previous, pr.DependenceCheck, system) for system in (job.baseline, job.candidate)]  # type: ignore[arg-type]
        usable = [f.result for f in checks if f is not None and isinstance(f.result, pr.DependenceCheck)
                  and f.result.n >= MIN_RUNS and len(f.result.autocorrelation) >= 1]
        if len(usable) != 2 or max(c.tau for c in usable) < LOOKS_DEPENDENT:
            continue
        for s in pair:
            ranks = pr.stats.rank_average(s.flat)
            if BLOCK_RUNS[0] <= ranks.size <= BLOCK_RUNS[1] and _blocks_key(ranks) not in ws:
                rows.setdefault(ranks.size, {})[ranks.tobytes()] = ranks
    for group in rows.values():
        ranks = list(group.values())
        for r, found in zip(ranks, block_factors(np.stack(ranks)), strict=True):
            ws.put(_blocks_key(r), found)


def _factor(z: np.ndarray, variance: float, edges: np.ndarray) -> tuple[float, float]:
    """:func:`block_factor` from the series, its variance and its segments' edges."""
    n = z.size
    k = edges.size - 1
    if k < 3 or variance <= 0.0:
        return 1.0, float(k)
    sizes = np.diff(edges)
    means = np.add.reduceat(z, edges[:-1]) / sizes
    between = k / (k - 1.0) * float(np.sum((sizes / n) ** 2 * (means - z.mean()) ** 2))
    return max(1.0, n * between / variance), n * n / float(np.sum(sizes.astype(float) ** 2))


def level_segments(values: np.ndarray) -> np.ndarray:
    """The edges of a series' segments of constant level (0, the change points, n): optimal partitioning of a
    Gaussian mean cost in units of the noise the runs' differences show (robust to the steps themselves), a
    penalty of ``SEGMENT_PENALTY`` log n per change, at least ``SEGMENT_MIN`` runs a segment; one segment for a
    series outside ``BLOCK_RUNS``, without noise or not finite (:func:`level_segments_rows` of one row)."""
    return level_segments_rows(np.asarray(values, dtype=float)[None, :])[0]


def level_segments_rows(z: np.ndarray) -> list[np.ndarray]:
    """:func:`level_segments` of every row of ``z`` (series of one length): the noise, the costs and the optimal
    partitions of all rows at once."""
    cp = pr.changepoints
    count, n = z.shape
    whole = [np.array([0, n]) for _ in range(count)]
    if not BLOCK_RUNS[0] <= n <= BLOCK_RUNS[1]:
        return whole
    diff = np.diff(z, axis=1)
    noise = 1.4826 * np.median(np.abs(diff - np.median(diff, axis=1)[:, None]), axis=1) / np.sqrt(2.0)
    noisy = np.flatnonzero((noise > 0.0) & np.isfinite(z).all(axis=1)).tolist()
    if not noisy:
        return whole
    rows = z[noisy]
    costs = cp.MeanCost.of_rows((rows - rows.mean(axis=1, keepdims=True)) / noise[noisy][:, None])
    changes = cp.optimal_partitions(costs, SEGMENT_PENALTY * np.log(n), min_size=SEGMENT_MIN)
    for i, found in zip(noisy, changes, strict=True):
        whole[i] = np.concatenate(([0], found, [n])).astype(int)
    return whole


def observe(checks: Sequence[pr.DependenceCheck | None], samples: Sequence[pr.Sample] = ()) -> Observation | None:
    """The benchmark's evidence from its systems' checks (None: too few runs, or a check missing); with the
    ``samples`` the checks are of (flat, in run order), the segments' factor of their ranks where the runs look
    dependent."""
    usable = [c for c in checks if c is not None and c.n >= MIN_RUNS and len(c.autocorrelation) >= 1]
    if len(usable) != len(checks) or not usable:
        return None
    lags = min(LAGS, *(len(c.autocorrelation) for c in usable))
    weights = np.array([c.n for c in usable], dtype=float)
    acf = np.average([c.autocorrelation[:lags] for c in usable], axis=0, weights=weights)
    rho = np.average([pr.stats.unbiased_autocorrelation(c.autocorrelation[:min(lags, 2)], c.n, c.fitted)
                      for c in usable], axis=0, weights=weights)
    blocks, segments = (1.0, 1.0), (1.0, 1.0)
    if samples and max(c.tau for c in usable) >= LOOKS_DEPENDENT:  # each side its own segments (clusters)
        found = pair_factors([pr.stats.rank_average(s.flat) for s in samples])
        blocks, segments = (found[0][0], found[1][0]), (found[0][1], found[1][1])
    return Observation(tuple(int(c.n) for c in usable), tuple(float(r) for r in rho), tuple(float(r) for r in acf),
                       max(int(c.fitted) for c in usable), tuple(float(c.tau) for c in usable), blocks, segments)


#: the checks' own long-run factor from which the segments are looked for (the independence check's relevance)
LOOKS_DEPENDENT = 1.5


def tau_of(rho: Sequence[float], acf: Sequence[float], obs: Observation) -> float:
    """The long-run factor from (shrunk) autocorrelations: an autoregression's, and from 20 runs at least a lag
    window's over a third of the runs (dependence beyond lag 2: runs grouped by invocation); for long series at
    least the checks' own (their windows reach further than the lags kept)."""
    n = obs.runs
    tau = pr.stats.autoregressive_long_run_factor(rho[0], rho[1] if len(rho) > 1 else None, n, obs.fitted,
                                                  unbiased=True)
    if n >= 20:
        tau = max(tau, pr.stats.long_run_factor(np.asarray(acf)[:max(1, n // 3)], n, fitted=obs.fitted))
    if n >= 60:
        tau = max(tau, min(obs.own_tau))
    return tau


#: from this many runs the long-run factor is an AR(2)'s anyway (``pr.stats.autoregressive_long_run_factor``)
AR2_RUNS = 20
#: below AR2_RUNS runs, the runs oscillate decisively when their measured lag-1 autocorrelation exceeds their lag-3 one
#: by more than this: no AR(1), nor any dependence whose autocorrelations decay, reaches 0.385 (phi - phi³ at most);
#: a sinusoid of 6-8 runs 1.3-1.5. At 10 runs a side it is exceeded by 0.2-1.7% of AR(1) series of 0.3-0.9 (0.7% at
#: 0.5, 2000 pairs), no independent ones (normal, t3, log-normal), 0.2% of drifting AR(1) and 85% of the 7-run
#: sinusoid of the calibration table; at 15 runs by 0-0.5% of AR(1) series and all of the sinusoid's
OSCILLATION = 0.9


def oscillation(obs: Observation | None) -> Widening | None:
    """Below 20 runs, the widening of runs that oscillate decisively (None where they do not): an AR(2)'s factor.

    Below 20 runs the long-run factor is an AR(1)'s: the lag-2 estimate of 10 runs is noise, and
    an AR(2) fitted to it reads independent runs as dependent as often as not. But an AR(1) reads
    a periodic disturbance (a sinusoid of about 7 runs) as strong dependence (lag 1 of 0.6-0.9),
    where it averages out over the run: the variance of 10 runs' mean is half of what independent
    runs' would be. So where the runs show the oscillation decisively (their measured lag-1
    autocorrelation exceeds lag 3's by more than OSCILLATION, which a decaying dependence cannot
    do), the factor is the AR(2)'s of the measured autocorrelations at lags 1 and 2 (Yule-Walker
    on sample autocorrelations always fits a stationary AR(2); the pair freed of its bias, lag 1
    moved by +0.4 at 10 runs, often fits none): complex roots, a spectral density at 0 near or
    below the variance's, tau near 1 (never below). The evidence is the benchmark's own, judged
    alone or in a suite: it is of a kind the suite's AR(1) pooling does not model.
    """
    if obs is None or obs.runs >= AR2_RUNS or len(obs.acf) < 3 or obs.acf[0] - obs.acf[2] <= OSCILLATION:
        return None
    tau = pr.stats.autoregressive_long_run_factor(obs.acf[0], obs.acf[1], obs.runs, obs.fitted, unbiased=True,
                                                  order=2)  # unbiased: taken as measured
    return Widening(per_side(tau, obs), oscillation=(obs.acf[0], obs.acf[2]))


def alone(obs: Observation | None) -> Widening:
    """One benchmark's widening from its own two series: its autocorrelations shrunk toward no dependence by
    their sampling error (:func:`toward_prior`), and the uncertainty left in its tau.

    The autocorrelation of a few runs is itself uncertain (at 10 runs a side the bias-corrected
    lag 1 has a standard error of about 0.37, against the prior's spread PRIOR_SD): 10 runs move
    the estimate a fifth of the way from 0 toward what they show, 30 runs two thirds, 100 runs
    nine tenths. What uncertainty is left (the posterior variance) lowers the degrees of freedom
    as far as the runs look dependent (its relative variance, 4 Var(rho) / (1 - rho²)², weighed
    by 1 - 1/tau: nothing for runs that look independent).
    """
    if obs is None:
        return NONE
    periodic = oscillation(obs)
    if periodic is not None:
        return periodic
    effective = float(sum(obs.n)) * (1.0 - 4.0 / obs.runs) ** 2 if obs.runs > 4 else 1.0  # the bias correction scales the noise
    rho, posterior = toward_prior(np.asarray(obs.rho), effective)
    tau = tau_of(rho, obs.acf, obs)  # the lag window (from 20 runs on) reads the runs' own: what 20 runs can show
    r = min(max((tau - 1.0) / (tau + 1.0), 0.0), 0.9)  # the AR(1) correlation with this tau
    precision = 4.0 * posterior / (1.0 - r * r) ** 2 * (1.0 - 1.0 / tau)
    return _with_blocks(Widening(per_side(tau, obs), precision), tau, obs)


def _with_blocks(widening: Widening, tau: float, obs: Observation) -> Widening:
    """Where the segments' means set the widening (their factor exceeds the lags'), its degrees of freedom are at
    least theirs, k_eff - 1 (the runs' worth n/tau - 1 alone can fall to 1: intervals many times too wide), and the
    lags' uncertainty no longer counts."""
    lags = per_side(tau, attrs.evolve(obs, blocks=(1.0, 1.0)))
    bound = [k for b, k, t in zip(obs.blocks, obs.segments, lags, strict=True) if b > t]
    if not bound:
        return widening
    worth = max(min(bound), 2.0)  # n / kappa - 1 >= k_eff - 1 on every widened side
    df_taus = tuple(min(t, n / worth) if t > 1.0 else t for t, n in zip(widening.taus, obs.n, strict=True))
    return attrs.evolve(widening, precision=0.0, df_taus=df_taus, mixture=((), ()))


def toward_prior(acf: np.ndarray, runs: float) -> tuple[np.ndarray, float]:
    """One benchmark's autocorrelations shrunk toward 0, and the posterior variance of the first.

    The suite's empirical Bayes (:func:`shrink`) with a fixed prior where there is no suite:
    rho_1 ~ N(0, PRIOR_SD²) (runs meant to be independent, dependence as strong as PRIOR_SD
    common), r_1 ~ N(rho_1, 1/runs) (Bartlett); the posterior mean moves toward the estimate by
    A / (A + v), the posterior variance is A v / (A + v). Every lag is shrunk by lag 1's factor:
    the strength of the dependence is what is uncertain, its shape (an oscillation: a periodic
    disturbance, which costs nothing) is kept.
    """
    prior, v = PRIOR_SD * PRIOR_SD, 1.0 / runs
    keep = prior / (prior + v)
    return keep * acf, keep * v


def pooled(observations: Sequence[Observation | None]) -> list[Widening]:
    """Every benchmark's widening with the suite's evidence (empirical Bayes); alone where too few benchmarks."""
    usable = [i for i, o in enumerate(observations) if o is not None]
    out = [alone(o) for o in observations]
    if len(usable) < SUITE_MIN:
        return out
    obs = [observations[i] for i in usable]
    runs = np.array([float(sum(o.n)) for o in obs])
    inflation = np.array([(1.0 - 4.0 / o.runs) ** -2 for o in obs])  # the bias correction scales the noise too
    lags = min(len(o.acf) for o in obs)
    rho = shrink(np.array([o.rho for o in obs]), runs / inflation)
    acf = shrink(np.array([o.acf[:lags] for o in obs]), runs)
    mixtures = factor_mixtures(np.array([o.rho[0] for o in obs]), np.array([lag1_variance(o.n) for o in obs]),
                               np.array([o.runs for o in obs]))
    for j, i in enumerate(usable):
        if out[i].oscillation:
            continue  # its own evidence: an oscillation the suite's AR(1) pooling does not model (alone's)
        tau = tau_of(rho[j], acf[j], obs[j])
        out[i] = _with_blocks(Widening(per_side(tau, obs[j]), pooled=True, mixture=mixtures[j]), tau, obs[j])
    return out


#: the lag-1 autocorrelations the suite's distribution of them is estimated on (:func:`factor_mixtures`)
GRID = np.linspace(-0.9, 0.95, 75)
#: at most this many EM steps for the grid's weights (Kiefer-Wolfowitz), which stop once no weight moves by 1e-7
GRID_STEPS = 300
#: a tail ratio below this is not applied: under 1% of the interval's width (a suite whose benchmarks depend alike
#: shows up to 1.01 from the grid's own noise), not worth recomputing a benchmark's answer for
NOT_WORTH = 1.02
#: posterior weights below this are left out of a benchmark's mixture (they move no p-value the verdict uses)
NEGLIGIBLE = 1e-6


def lag1_variance(n: Sequence[int]) -> float:
    """The sampling variance of an :class:`Observation`'s lag-1 autocorrelation on independent runs: each series'
    exactly as Moran (1948) gives it for independent normal runs, (n - 2)² / (n² (n - 1)), scaled by the bias
    correction's 1/(1 - 4/n)² (:func:`perfrigor.stats.unbiased_autocorrelation`), averaged with the runs as weights.
    At 10 runs a side 0.099 (simulated: 0.315², 300 pairs); Bartlett's 1/n overstates it by 40% there."""
    k = np.asarray(n, dtype=float)
    each = (k - 2.0) ** 2 / (k * k * (k - 1.0)) / (1.0 - 4.0 / k) ** 2
    w = k / k.sum()
    return float((w * w * each).sum())


def factor_mixtures(r1: np.ndarray, v: np.ndarray, runs: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each benchmark's uncertainty about its long-run factor under the suite's own distribution of lag-1
    autocorrelations: the posterior weights of the AR(1) factors on a grid, and those factors relative to their
    posterior mean.

    The shrunk estimate (:func:`shrink`, a normal prior) is the point, right on average; but a suite
    is rarely alike (most benchmarks' runs independent, a few strongly dependent: a collector, a cache
    that warms, a noisy neighbour) and ten runs cannot tell which is which (the lag-1 estimate's
    standard error is about 0.37). A dependent benchmark whose runs happen to look independent then
    gets an interval too narrow exactly where a gate looks, in the tails: an unchanged suite's gate
    fired on 11% of held-out seeds. Here the prior is the nonparametric maximum-likelihood one
    (Kiefer & Wolfowitz 1956; Koenker & Mizera 2014) on a grid of autocorrelations,
    r_b ~ N(rho_b, v_b (1 - rho_b²)) (v_b: :func:`lag1_variance`; 1 - rho²: Bartlett), so a cluster
    of dependent benchmarks shows as one, and a benchmark's factor (1 + rho)/(1 - rho), clipped to
    [1, runs/2] as the verdict clips it, has a posterior. Its spread relative to its mean is what is kept: the point stays the shrunk
    estimate (which reads periodic and grouped dependence the AR(1) grid cannot), its tails become
    the mixture's (:func:`tail_ratio`). A suite whose benchmarks depend alike has a narrow posterior,
    and nothing changes there.
    """
    var = v[:, None] * np.maximum(1.0 - GRID * GRID, 0.1)[None, :]
    log_like = -0.5 * ((r1[:, None] - GRID[None, :]) ** 2 / var + np.log(var))
    like = np.exp(log_like - log_like.max(axis=1, keepdims=True))  # each row's scale cancels in its posterior
    weights = np.full(GRID.size, 1.0 / GRID.size)
    for _ in range(GRID_STEPS):
        post = like * weights
        post /= post.sum(axis=1, keepdims=True)
        weights, before = post.mean(axis=0), weights
        if np.abs(weights - before).max() < 1e-7:
            break
    post = like * weights
    post /= post.sum(axis=1, keepdims=True)
    tau = np.clip((1.0 + GRID) / (1.0 - GRID), 1.0, None)[None, :]
    tau = np.minimum(tau, np.maximum(runs / 2.0, 1.0)[:, None])
    relative = tau / (post * tau).sum(axis=1, keepdims=True)
    keep = post >= NEGLIGIBLE  # small arrays, not Python floats: 10^5 benchmarks' mixtures in tens of MB
    return [(w[k], r[k]) for w, r, k in zip(post, relative, keep, strict=True)]


def tail_ratio(pvalue: float, mixture: tuple[Sequence[float], Sequence[float]]) -> float:
    """What a comparison's variance is multiplied by so that its p-value becomes the mixture's: the two-sided
    normal p-value averaged over the factor's posterior (each weight's variance scaled by its relative factor),
    p_mix = sum_g w_g 2 Phi(-z sqrt(1/f_g)) with z the comparison's own. One factor for the whole comparison, so
    its intervals at every level stay those of one test (the suite's decisions and intervals agree); 1 where
    it would move the interval's width by less than 1% (:data:`NOT_WORTH`) or the p-value carries no evidence."""
    from scipy import special
    weights, relative = (np.asarray(x, dtype=float) for x in mixture)
    if weights.size == 0 or not 0.0 < pvalue < 1.0:
        return 1.0
    z = -float(special.ndtri(max(pvalue, 1e-300) / 2.0))
    mixed = float((weights * 2.0 * special.ndtr(-z / np.sqrt(relative))).sum() / weights.sum())
    if mixed <= pvalue:
        return 1.0
    ratio = (z / -float(special.ndtri(min(mixed, 1.0) / 2.0))) ** 2
    return ratio if ratio > NOT_WORTH else 1.0


def shrink(acf: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """Each benchmark's autocorrelations shrunk toward the suite's, lag by lag.

    ``runs``: per benchmark, the runs its autocorrelations' sampling variance is inversely
    proportional to. Normal-normal empirical Bayes: r_bk ~ N(rho_bk, v_bk) with Bartlett's
    sampling variance (1 + 2 sum_{j<k} rho_j²) / runs, rho_bk ~ N(mean_k, A_k) over the suite; A_k is the variance of r_k between them less the mean sampling variance, at least
    0. A benchmark's estimate moves toward the pooled one by v / (A + v): all the way in a
    homogeneous suite, not at all where the benchmarks differ more than their noise.
    """
    w = runs / runs.sum()
    mean = (w[:, None] * acf).sum(axis=0)
    rho2 = np.concatenate([[0.0], np.cumsum(np.square(mean))[:-1]])
    v = (1.0 + 2.0 * rho2)[None, :] / runs[:, None]
    spread = (w[:, None] * (acf - mean) ** 2).sum(axis=0)
    between = np.maximum(spread - (w[:, None] * v).sum(axis=0), 0.0)
    keep = between / (between + v)
    return mean + keep * (acf - mean)
