"""The two-panel picture of a fitted mixture (VARCORE's plot_clustering_result and plotCDF_fit)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import perfrigor as pr

from .results import MixtureFit


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise pr.ConfigError("plots need matplotlib: pip install 'perfrigor[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_mixture(sample: pr.Sample, result: MixtureFit, path: str | Path) -> Path:
    """Left: histogram, fitted density and its weighted components, modes; right: EDF vs fitted CDF."""
    plt = _pyplot()
    x = np.sort(np.asarray(sample, dtype=float).ravel())
    mix = result.mixture()
    unit = f" ({result.unit})" if result.unit else ""
    spread = x[-1] - x[0]
    lo = min(x[0], float(np.min(mix.means - 3 * mix.sds))) - 0.05 * spread
    hi = max(x[-1], float(np.max(mix.means + 3 * mix.sds))) + 0.05 * spread
    # fine enough to draw the narrowest component
    grid = np.unique(np.concatenate([np.linspace(lo, hi, 2000),
                                     (mix.means[:, None] + mix.sds[:, None] * np.linspace(-4, 4, 200)).ravel()]))
    grid = grid[(grid >= lo) & (grid <= hi)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
    # Freedman-Diaconis bins (narrow clusters stay visible), between 10 and 100 of them; values
    # spread over decades (positive) get a log axis, or the narrow clusters would be slivers
    bins = int(np.clip(len(np.histogram_bin_edges(x, "fd")) - 1, 10, 100))
    log_axis = bool(x[0] > 0 and x[-1] / x[0] > 20)
    if log_axis:
        lo, hi = max(lo, x[0] / 1.5), hi
        grid = grid[grid >= lo]
        bins = np.geomspace(x[0], x[-1], bins + 1)
        for ax in (left, right):
            ax.set_xscale("log")
    left.hist(x, bins=bins, density=True, color="0.82", edgecolor="0.6", label=f"data (n = {x.size})")
    left.plot(grid, mix.pdf(grid), color="k", lw=2.2, alpha=0.8, label="fitted mixture")
    for k, comp in enumerate(mix.component_pdfs(grid).T):  # weighted components, drawn over the mixture
        left.plot(grid, comp, lw=1.3, ls="--", label=f"component {k + 1}: {mix.weights[k]:.0%}, "
                                                     f"mean {mix.means[k]:.4g}, sd {mix.sds[k]:.2g}")
    left.plot(result.mode_locations, mix.pdf(np.asarray(result.mode_locations)), "v", color="crimson",
              label=f"{result.modes} mode(s) (I4)")
    left.plot(x, np.zeros_like(x), "|", color="k", alpha=0.4, ms=8)
    left.set_xlim(lo, hi)
    left.set_xlabel(f"{sample.name or 'measurement'}{unit}")
    left.set_ylabel("density")
    left.set_title(f"{result.n_components} component(s), model {result.model}, BIC {result.bic:.1f}"
                   + (" (log x axis)" if log_axis else ""))
    left.legend(fontsize=7, loc="upper right")
    edf = np.arange(1, x.size + 1) / x.size
    right.step(x, edf, where="post", color="0.35", label="empirical CDF")
    right.plot(grid, mix.cdf(grid), color="k", lw=1.5, label="fitted mixture CDF")
    gap = np.maximum(edf - mix.cdf(x), mix.cdf(x) - (edf - 1.0 / x.size))
    i = int(np.argmax(gap))
    right.axvline(x[i], color="crimson", lw=0.8, ls=":", label=f"KS distance {gap[i]:.3f}")
    right.set_xlim(lo, hi)
    right.set_ylim(0, 1.02)
    right.set_xlabel(f"{sample.name or 'measurement'}{unit}")
    right.set_ylabel("P[X <= x]")
    right.set_title("empirical vs fitted CDF")
    right.legend(fontsize=8, loc="lower right")
    path = Path(path)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
