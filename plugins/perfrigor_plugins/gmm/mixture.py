"""A fitted 1-D Gaussian mixture: density, CDF, quantiles, sampling and modes (I4)."""

from __future__ import annotations

from collections.abc import Callable

import attrs
import numpy as np

#: grid values x components whose score is computed at once in ``modes`` (work arrays of 128 KiB:
#: below glibc's mmap threshold, so they are not page-faulted in afresh for every block)
SCORE_BLOCK = 1 << 14
#: values classified at once (bounds the (values x K) work arrays)
CLASSIFY_BLOCK = 1 << 16


_SQRT_2PI = float(np.sqrt(2 * np.pi))


def _normal_pdf(x: np.ndarray, loc: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """``scipy.stats.norm.pdf(x, loc, scale)``, the same arithmetic without its per-call machinery
    (a tenth of a millisecond a call, and a mixture's mode needs a few)."""
    z = (x - loc) / scale
    return np.exp(-z**2 / 2.0) / _SQRT_2PI / scale


def _as_vector(v: object) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(v, dtype=float)).copy()
    arr.setflags(write=False)
    return arr


@attrs.frozen(eq=False)
class Mixture:
    """sum_k weights[k] N(means[k], sds[k]) (standard deviations, as in the paper)."""

    weights: np.ndarray = attrs.field(converter=_as_vector)
    means: np.ndarray = attrs.field(converter=_as_vector)
    sds: np.ndarray = attrs.field(converter=_as_vector)

    @property
    def n_components(self) -> int:
        return int(self.weights.size)

    @property
    def mean(self) -> float:
        """Mixture mean sum pi_k mu_k (equals the sample mean at an EM fixed point)."""
        return float(self.weights @ self.means)

    @property
    def sd(self) -> float:
        """Mixture standard deviation."""
        second = self.weights @ (self.sds**2 + self.means**2)
        return float(np.sqrt(max(second - self.mean**2, 0.0)))

    def negated(self) -> Mixture:
        """The mixture of -X (turns "higher is better" into "lower is better")."""
        return Mixture(self.weights, -self.means, self.sds)

    def pdf(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return (self.weights * _normal_pdf(x[..., None], self.means, self.sds)).sum(axis=-1)

    def cdf(self, x: np.ndarray) -> np.ndarray:
        """P[X <= x] (VARCORE's ``probXa``)."""
        from scipy import special
        x = np.asarray(x, dtype=float)
        return (self.weights * special.ndtr((x[..., None] - self.means) / self.sds)).sum(axis=-1)

    def sf(self, x: np.ndarray) -> np.ndarray:
        """P[X > x], accurate in the right tail."""
        from scipy import special
        x = np.asarray(x, dtype=float)
        return (self.weights * special.ndtr((self.means - x[..., None]) / self.sds)).sum(axis=-1)

    def component_pdfs(self, x: np.ndarray) -> np.ndarray:
        """pi_k phi(x; mu_k, sigma_k), shape x.shape + (K,) (for plots)."""
        x = np.asarray(x, dtype=float)
        return self.weights * _normal_pdf(x[..., None], self.means, self.sds)

    def quantile(self, q: float) -> float:
        """The q-quantile (VARCORE's ``quantile_Mclust``), by bracketing root finding on the CDF."""
        if not 0.0 < q < 1.0:
            raise ValueError(f"quantile level must lie in (0, 1), got {q!r}")
        lo = np.array([np.min(self.means - 40 * self.sds)])
        hi = np.array([np.max(self.means + 40 * self.sds)])
        return float(bisect(lambda t: self.cdf(t) - q, lo, hi, xtol=1e-14)[0])

    def sample(self, size: int | tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        """Draw a label C ~ Categorical(weights), then N(mu_C, sigma_C)."""
        labels = rng.choice(self.n_components, size=size, p=self.weights / self.weights.sum())
        return rng.normal(self.means[labels], self.sds[labels])

    def classify(self, x: np.ndarray) -> np.ndarray:
        """MAP component (0-based, in this mixture's order) of each value: argmax_k pi_k phi(x; mu_k, sigma_k)."""
        x = np.asarray(x, dtype=float)
        if x.size > CLASSIFY_BLOCK:  # in blocks: (values x K) temporaries of 10^6 runs would take 100s of MB
            flat = x.reshape(-1)
            out = np.concatenate([self.classify(flat[i:i + CLASSIFY_BLOCK])
                                  for i in range(0, flat.size, CLASSIFY_BLOCK)])
            return out.reshape(x.shape)
        logp = np.log(self.weights) - np.log(self.sds) - 0.5 * ((x[..., None] - self.means) / self.sds) ** 2
        return logp.argmax(axis=-1)

    def _score(self, x: np.ndarray) -> np.ndarray:
        """f'(x) / f(x) = sum_k r_k(x) (mu_k - x) / sigma_k^2, computed in log space.

        Its sign is the sign of f'; log-sum-exp weights r_k never underflow, so
        flat tails between far-apart narrow components create no spurious modes.
        """
        x = np.asarray(x, dtype=float)[..., None]
        logp = np.log(self.weights) - np.log(self.sds) - 0.5 * ((x - self.means) / self.sds) ** 2
        r = np.exp(logp - logp.max(axis=-1, keepdims=True))
        r /= r.sum(axis=-1, keepdims=True)
        return (r * (self.means - x) / self.sds**2).sum(axis=-1)

    def _score_grid(self, x: np.ndarray) -> np.ndarray:
        """``_score`` of a 1-D grid, the same numbers, components along the first axis for K < 8.

        With few components, sums over a short last axis cost numpy more per value than the
        arithmetic; laid out (K, values) every operation runs along the values. numpy sums a
        row of fewer than 8 terms in order, as the sum over the first axis does (8 or more
        pairwise: those keep ``_score``'s layout).
        """
        k = self.n_components
        if not 2 <= k < 8:
            return self._score(x)
        x = np.asarray(x, dtype=float)[None, :]
        means, sds = self.means[:, None], self.sds[:, None]
        logp = (np.log(self.weights) - np.log(self.sds))[:, None] - 0.5 * ((x - means) / sds) ** 2
        r = np.exp(logp - np.maximum.reduce(logp, axis=0))
        r /= np.add.reduce(r, axis=0)
        return np.add.reduce(r * (means - x) / sds**2, axis=0)

    def modes(self) -> np.ndarray:
        """Locations of the strict local maxima of the density (I4 = their number).

        Hand-written (scipy has no mode finder for mixtures), following spec
        section 6.4: every mode lies in [min mu, max mu]; the sign of f' is
        scanned on a grid with step <= sigma_k / 50 around every component
        (plus a uniform grid of the whole interval) and each + to - change is
        refined by bisection (exact zeros of f', if any, lie inside a bracket).
        """
        lo, hi = float(self.means.min()), float(self.means.max())
        step = float(self.sds.min()) / 50
        if hi == lo:  # normals sharing one mean: one mode, at it
            return np.array([lo])
        local = (self.means[:, None] + self.sds[:, None] * np.linspace(-10, 10, 1001)).ravel()
        # one point just outside [lo, hi] on each side, where f is strictly increasing / decreasing
        grid = np.concatenate([np.linspace(lo, hi, 20001), local, self.means, [lo - step, hi + step]])
        grid.sort(kind="stable")  # sorted runs, merged (np.unique's quicksort would not see them)
        grid = grid[np.concatenate([[True], grid[1:] != grid[:-1]])]
        grid = grid[(grid >= lo - step) & (grid <= hi + step)]
        # in blocks: (grid x K) temporaries of a few MB would be mapped and page-faulted in afresh
        block = max(1, SCORE_BLOCK // self.n_components)
        s = np.concatenate([self._score_grid(grid[i:i + block]) for i in range(0, grid.size, block)])
        idx = np.flatnonzero(s != 0)  # (exact zeros, if any, sit inside a bracket)
        change = np.flatnonzero((s[idx[:-1]] > 0) & (s[idx[1:]] < 0))
        return bisect(self._score, grid[idx[change]], grid[idx[change + 1]], xtol=1e-13)


def bisect(f: Callable[[np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray, xtol: float) -> np.ndarray:
    """A root of ``f`` in each bracket [lo, hi] (f changes sign across it), to ``xtol`` plus 4 ulps.

    Bisection, every bracket at once: a mixture's few roots cost one vectorised ``f`` a halving,
    and scipy.optimize (whose ``brentq`` takes one bracket a call) is not imported, a tenth of a
    second of every command's start-up.
    """
    lo, hi = np.array(lo, dtype=float), np.array(hi, dtype=float)
    low_sign = np.sign(f(lo))
    for _ in range(200):  # 2^-200 of any float bracket: beyond the tolerance long before
        mid = 0.5 * (lo + hi)
        if np.all(hi - lo <= xtol + 4 * np.finfo(float).eps * np.abs(mid)):
            break
        same = np.sign(f(mid)) == low_sign
        lo, hi = np.where(same, mid, lo), np.where(same, hi, mid)
    return 0.5 * (lo + hi)
