"""Input preparation shared by the random-effects estimators: coercion and warm-up removal."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import perfrigor as pr


def warmup_param() -> Any:
    """``warmup``: measurements dropped at the start of every execution (the paper's c_1 warm-up)."""
    return pr.int_param(0, minimum=0, help="measurements dropped at the start of every execution (warm-up)")


@attrs.frozen
class Prepared:
    """A sample ready for analysis: its values after warm-up removal and its level names."""

    sample: pr.Sample
    values: np.ndarray
    names: tuple[str, ...]  # lowest level first
    warmup: int

    @property
    def label(self) -> str:
        return self.sample.label

    def warmup_note(self) -> dict[str, Any]:
        """What the warm-up option did, for ``details``."""
        lowest = self.names[0]
        return {"warmup": self.warmup, "warmup_level": lowest,
                "measurements_per_unit_before_warmup": int(self.sample.shape[-1])}


def prepare(sample: Any, warmup: int, min_levels: int = 1, component: str = "") -> Prepared:
    """Coerce ``sample``, check its depth, drop ``warmup`` leading measurements of every execution."""
    s = pr.as_sample(sample)
    if s.n_levels < min_levels:
        raise pr.DataError(f"{s.label}: {component} needs hierarchical data with at least {min_levels} "
                           f"levels, shape {s.shape} has {s.n_levels} (give nested lists or an array "
                           "(n_top, ..., n_lowest))")
    try:
        values = pr.hierarchy.drop_warmup(s, warmup) if warmup else s.values
    except pr.DataError as exc:
        raise pr.DataError(f"{s.label}: {exc}") from None
    names = tuple(pr.hierarchy.level_names(s))
    return Prepared(sample=s, values=values, names=names, warmup=int(warmup))
