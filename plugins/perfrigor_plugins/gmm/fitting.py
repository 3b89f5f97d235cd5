"""From a sample to a MixtureFit: input checks, BIC search, modes, classification."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs
import numpy as np
import perfrigor as pr

from . import em
from .mixture import Mixture
from .modes import MIN_COMPONENT_RUNS, MIN_RUNS_FOR_MODES, peak, supported_modes
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
    with np.errstate(over="ignore", invalid="ignore"):
        spread = float(np.std(x))
    if not np.isfinite(spread):  # EM works on standardised values: they would all be NaN
        raise pr.DataError(f"{label}: values up to {np.abs(x).max():g} are too large for a mixture fit (their "
                           "spread overflows floating point)")
    distinct = _distinct(x)
    if x.size == 1:
        raise pr.DataError(f"{label}: one value ({x[0]:g}): no mixture to fit (it needs at least {MIN_DISTINCT} "
                           "distinct values); repeat the measurement")
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


@attrs.frozen
class _Fitted:
    """What a BIC search gives for one data set, whoever asks (labels and warnings come later)."""

    fit: MixtureFit      # without warnings
    at_largest: bool     # BIC best at the largest G tried, when that is max_components


def _key(x: np.ndarray, max_components: int, names: tuple[str, ...], min_component_runs: int) -> tuple:
    """Workspace key of a fit: the values (in order: they decide the classification) and the options."""
    return ("perfrigor_plugins.gmm", "fit", x.tobytes(), int(max_components), names, int(min_component_runs))


def _distinct(x: np.ndarray) -> int:
    """How many distinct values ``x`` holds; kept in the task's workspace (every step that reads a
    sample's mixture checks its values, and largest_k counts them again)."""
    ws = pr.current_workspace()
    if ws is None:
        return int(np.unique(x).size)
    key = ("perfrigor_plugins.gmm", "distinct", x.tobytes())
    found = ws.get(key)
    return found if found is not None else ws.put(key, int(np.unique(x).size))


def largest_k(x: np.ndarray, max_components: int, min_component_runs: int = MIN_COMPONENT_RUNS) -> int:
    """The largest K searched: ``max_components``, the number of distinct values (more components
    than values only fit noise) and ``n // min_component_runs`` (a component needs that many runs)."""
    if isinstance(min_component_runs, bool) or not isinstance(min_component_runs, int | np.integer) \
            or min_component_runs < 1:
        raise pr.ConfigError(f"min_component_runs must be a positive integer, got {min_component_runs!r}")
    return max(1, min(max_components, _distinct(x), x.size // min_component_runs))


def _fitted(x: np.ndarray, search: em.BicSearch, row: int, gmax: int, max_components: int,
            names: tuple[str, ...], unit: str, min_component_runs: int) -> _Fitted:
    g = int(search.n_components[row])
    m = int(search.model[row])
    mix = Mixture(search.weights[row, :g], search.means[row, :g], search.sds[row, :g])
    modes = mix.modes()
    table = {name: tuple(None if v != v else v for v in search.bic[row, :, j].tolist())  # v != v: NaN (mclust's NA)
             for j, name in enumerate(em.MODELS) if name in names}
    fit = MixtureFit(
        n_components=g, model=em.MODELS[m], weights=mix.weights, means=mix.means, sds=mix.sds,
        bic=float(search.bic[row, g - 1, m]), loglik=float(search.loglik[row, g - 1, m]),
        modes=int(modes.size), mode_locations=modes, classification=mix.classify(x),  # MAP, as mclust's map(z)
        bic_table=table, n=int(x.size), unit=unit, warnings=(), max_searched=gmax,
        max_components=max_components, min_component_runs=min_component_runs)
    # the modes that are findings: separated groups of components with enough runs each, the split
    # supported by BIC, and only from a sample large enough to tell modes from noise
    found = (supported_modes(mix, x.size, fit.bic_gain, min_runs=min_component_runs)
             if x.size >= MIN_RUNS_FOR_MODES else [])
    fit = attrs.evolve(fit, distinct_modes=[peak(mix, f, modes) for f in found],
                       distinct_mode_shares=[f.weight for f in found])
    return _Fitted(fit, g == gmax and gmax > 1 and gmax == max_components)


def fit_many(samples: Sequence[Any], max_components: int | Sequence[int] = 9,
             model: str | Sequence[str] = "auto",
             min_component_runs: int | Sequence[int] = MIN_COMPONENT_RUNS) -> int:
    """Fit the mixtures of many samples at once into the current workspace; returns how many were fitted.

    Samples already fitted there (same values, same options) and samples no mixture
    can be fitted to (``fit_mixture`` says why) are skipped; the others are fitted
    together, one batched BIC search per (size, options). ``fit_mixture`` then finds
    them: results are those of one fit at a time. Without a workspace, does nothing.
    """
    ws = pr.current_workspace()
    if ws is None:
        return 0
    count = len(samples)
    ks = [max_components] * count if isinstance(max_components, int | np.integer) else list(max_components)
    models = [model] * count if isinstance(model, str) else list(model)
    mins = ([min_component_runs] * count if isinstance(min_component_runs, int | np.integer)
            else list(min_component_runs))
    groups: dict[tuple, list[tuple[np.ndarray, int, tuple, str]]] = {}
    for obj, k, mdl, r in zip(samples, ks, models, mins, strict=True):
        try:
            s, x, _ = prepare(obj)
        except pr.DataError:
            continue  # fit_mixture reports it
        gmax, names = largest_k(x, k, r), model_names(mdl)
        key = _key(x, k, names, r)
        if key in ws:
            continue
        ws.put(key, None)  # claimed: a sample given twice is fitted once
        groups.setdefault((x.size, gmax, names, k, r), []).append((x, key, s.unit))
    fitted = 0
    for (_, gmax, names, k, r), items in groups.items():
        search = em.bic_search(np.stack([x for x, _, _ in items]), max_components=gmax, models=names)
        for row, (x, key, unit) in enumerate(items):
            ws.put(key, _fitted(x, search, row, gmax, k, names, unit, r))
        fitted += len(items)
    return fitted


def fit_jobs(jobs: Sequence[pr.BenchmarkJob], systems: Callable[[pr.BenchmarkJob], Iterable[str]]) -> int:
    """``fit_many`` for a pipeline's ``prepare`` hook: the samples ``systems(job)`` of every job,
    with each job's own ``max_components``, ``model`` and ``min_component_runs``."""
    todo = [(job.samples[name], job.component.max_components, job.component.model,
             getattr(job.component, "min_component_runs", MIN_COMPONENT_RUNS))
            for job in jobs for name in systems(job)]
    return fit_many([t[0] for t in todo], [t[1] for t in todo], [t[2] for t in todo], [t[3] for t in todo])


def fit_mixture(sample: Any, max_components: int = 9, model: str = "auto",
                what: str = "sample", min_component_runs: int = MIN_COMPONENT_RUNS
                ) -> tuple[pr.Sample, np.ndarray, MixtureFit]:
    """Fit the mixture of ``sample`` as ``mclust::Mclust(x, G = 1:gmax, modelNames)`` does.

    G goes up to ``largest_k``: ``max_components``, the number of distinct values
    (more components than values only fit noise; mclust would try them and usually
    fail) and n // ``min_component_runs`` (with ``min_component_runs=1``, mclust's
    own search). Inside a pipeline task the fit is shared through the workspace: the
    steps that need the mixture of the same values with the same options fit it once.
    """
    s, x, warnings = prepare(sample, what)
    gmax, names = largest_k(x, max_components, min_component_runs), model_names(model)
    ws = pr.current_workspace()
    key = _key(x, max_components, names, min_component_runs) if ws is not None else None
    done = ws.get(key) if ws is not None else None
    if done is None:
        search = em.bic_search(x[None], max_components=gmax, models=names)
        done = _fitted(x, search, 0, gmax, max_components, names, s.unit, min_component_runs)
        if ws is not None:
            ws.put(key, done)
    if done.at_largest:
        warnings.append(f"{s.label}: BIC is best at the largest number of components tried ({gmax}); "
                        "consider a larger max_components")
    fit = done.fit if done.fit.unit == s.unit else attrs.evolve(done.fit, unit=s.unit)
    return s, x, _with_warnings(fit, warnings)


def _with_warnings(fit: MixtureFit, warnings: list[str]) -> MixtureFit:
    """``attrs.evolve(fit, warnings=tuple(warnings))``, the same record, without converting every other field again
    (a shared fit is asked for by several steps a benchmark; its tuples' converters cost more than a copy)."""
    out = copy.copy(fit)
    object.__setattr__(out, "warnings", tuple(warnings))
    return out
