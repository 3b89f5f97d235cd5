"""The ``gmm`` estimator and the ``gmm-fit`` (KSfit) test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import perfrigor as pr

from .results import KsFitResult, MixtureFit

#: memory held per KSfit replicate: its statistic, chosen K and refit bookkeeping (a few arrays)
REPLICATE_BYTES = 64


def max_components_param() -> Any:
    """K is searched in 1..max_components (mclust's default G = 1:9)."""
    return pr.int_param(9, minimum=1, help="the number of mixture components K is searched in 1..max_components")


def min_component_runs_param() -> Any:
    """Fewest runs per component: K is searched up to n // min_component_runs (1: mclust's search)."""
    from .modes import MIN_COMPONENT_RUNS

    return pr.int_param(MIN_COMPONENT_RUNS, minimum=1, help="fewest runs per mixture component: K is searched "
                        "up to n // min_component_runs (1: mclust's search)")


def model_param() -> Any:
    """"auto" (mclust's "E" and "V", the larger BIC wins), "E" (equal variances) or "V" (unequal)."""
    return pr.choice_param("auto", "E", "V", help="'E' equal or 'V' unequal variances; 'auto': the larger BIC")


@attrs.define(repr=False)
class GaussianMixture(pr.Estimator):
    """Gaussian mixture by EM, K and model by BIC as mclust; clusters and modes (I4)."""

    name: ClassVar[str] = "gmm"
    describes: ClassVar[bool] = True
    max_components: int = max_components_param()
    model: str = model_param()
    min_component_runs: int = min_component_runs_param()

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """The mixtures of every system of every benchmark, fitted together (one batched EM)."""
        from .fitting import fit_jobs

        fit_jobs(jobs, lambda job: job.samples)

    def estimate(self, sample: Any) -> MixtureFit:
        from .fitting import fit_mixture  # (the EM engine is imported when a mixture is fitted)

        return fit_mixture(sample, self.max_components, self.model, min_component_runs=self.min_component_runs)[2]


@attrs.define(repr=False)
class MixtureGoodnessOfFit(pr.Test):
    """KSfit: does a Gaussian mixture fit? KS distance calibrated by parametric bootstrap with refits."""

    name: ClassVar[str] = "gmm-fit"
    describes: ClassVar[bool] = True
    n_samples: ClassVar[int] = 1
    #: the conformance battery checks the contract, not the statistics: K in 1..3 keeps it to ~2 s
    #: (every one of the 200 replicates refits G = 1..max_components for both models)
    example_params: ClassVar[dict[str, Any]] = {"n_bootstrap": 200, "max_components": 3}
    n_bootstrap: int = pr.int_param(500, minimum=200, bytes_each=REPLICATE_BYTES,
                                    help="parametric bootstrap replicates calibrating the KS distance")
    confidence: float = pr.confidence_param(help="level of the test: the fit is rejected when p < 1 - "
                                                 "confidence")
    undersampling: float = pr.float_param(1.0, minimum=0.0, maximum=1.0, help="share of the values each "
                                          "replicate draws (the paper uses 0.9 for large samples; 1: all)")
    max_components: int = max_components_param()
    model: str = model_param()
    min_component_runs: int = min_component_runs_param()
    search: str = pr.choice_param("full", "windowed", help="'full': every G refitted on every replicate (the "
                                  "paper's test); 'windowed': G re-chosen near the data's K, every G when BIC may "
                                  "rise beyond (7-25x faster, but not exact: docs/methods/gmm.md)")
    random_state: Any = pr.random_state_param()

    def __attrs_post_init__(self) -> None:
        if self.undersampling <= 0.0:
            raise ValueError(f"undersampling must lie in (0, 1] (the paper uses 0.9), got {self.undersampling!r}")

    @classmethod
    def prepare(cls, jobs: Sequence[pr.BenchmarkJob]) -> None:
        """The mixtures of every system (KSfit's bootstrap then draws from them), fitted together."""
        from .fitting import fit_jobs

        fit_jobs(jobs, lambda job: job.samples)

    def test(self, x: Any, y: Any = None) -> KsFitResult:
        from . import ksfit
        from .fitting import fit_mixture, largest_k, model_names

        if y is not None:
            raise pr.ConfigError("gmm-fit is a one-sample test: test(sample)")
        s, values, fit = fit_mixture(x, self.max_components, self.model, min_component_runs=self.min_component_runs)
        rng = pr.check_random_state(self.random_state)
        alpha = 1.0 - self.confidence
        gmax = largest_k(values, self.max_components, self.min_component_runs)
        out = ksfit.ksfit_batch(values[None], self.n_bootstrap, rng, self.undersampling, gmax,
                                model_names(self.model), window=ksfit.WINDOW if self.search == "windowed" else None)
        statistic = float(out.statistic[0])
        pvalue, critical = ksfit.bootstrap_pvalue(statistic, out.bootstrap[0], alpha)
        warnings = list(fit.warnings)
        if self.undersampling < 1.0 and values.size < 100:
            warnings.append(f"{s.label}: undersampling with n = {values.size}; the paper advises it only for n "
                            "in the hundreds (at n = 30 it spoils the calibration)")
        ks_k = out.bootstrap_components[0]
        counts = {str(k): int((ks_k == k).sum()) for k in np.unique(ks_k)}
        return KsFitResult(
            statistic=statistic, pvalue=pvalue, alpha=alpha, reject=pvalue < alpha,
            alternative="the data do not come from a Gaussian mixture",
            method="KSfit (parametric bootstrap, mixture refitted on every replicate)",
            details={"critical_value": critical, "n_bootstrap": self.n_bootstrap,
                     "bootstrap_size": out.bootstrap_size, "n": int(values.size),
                     "n_components": fit.n_components, "model": fit.model,
                     "bootstrap_components": counts},
            warnings=tuple(warnings))
