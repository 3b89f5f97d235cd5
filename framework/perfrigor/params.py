"""Parameter helpers: typed, validated attrs fields for a component's parameters.

``confidence_param()``, ``int_param()``, ``float_param()``, ``choice_param()`` and
``random_state_param()`` declare a parameter with its validation (a bad value is refused when
the component is built, as a ConfigError naming it) and what ``perfrigor list NAME`` shows of it
(:class:`ParamInfo`).
"""

from __future__ import annotations

import math
from typing import Any

import attrs
import numpy as np

from .memory import check_memory
from .results import to_jsonable

# Each helper also records, in the attrs field's ``metadata``, what ``perfrigor list NAME``
# shows of the parameter: "help" (one line), "type", "range" and "choices". Any attrs field
# may carry ``metadata={"help": "..."}`` itself.


def _meta(help: str | None, type: str, **extra: Any) -> dict[str, Any]:
    return {"help": help, "type": type, **extra}


def _range_text(minimum: float | None, maximum: float | None, strict: bool, optional: bool) -> str | None:
    if minimum is None and maximum is None:
        text = None
    elif minimum is None or maximum is None:
        text = f"{'>' if minimum is not None else '<'}{'' if strict else '='} " \
               f"{minimum if minimum is not None else maximum}"
    else:
        text = f"{'(' if strict else '['}{minimum}, {maximum}{')' if strict else ']'}"
    return f"{text} or None" if text and optional else text


@attrs.frozen
class ParamInfo:
    """One parameter of a component as ``perfrigor list NAME`` shows it."""

    name: str
    default: Any
    help: str | None = None
    #: no default: the parameter must be given
    required: bool = False
    type: str | None = None
    range: str | None = None
    choices: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        return to_jsonable(attrs.asdict(self, recurse=False))



#: the levels every method can compute with: beyond them a two-sided quantile rounds to 0 or to
#: infinity in floating point ((1 + 0.9999999999999999) / 2 == 1.0), and intervals, sample sizes
#: and test levels derived from it divide by zero or overflow
CONFIDENCE_RANGE = (1e-6, 1 - 1e-9)


def _check_confidence(instance: Any, attribute: attrs.Attribute, value: float) -> None:
    if not (isinstance(value, int | float) and 0.0 < float(value) < 1.0):
        raise ValueError(f"{attribute.name} must be a level strictly between 0 and 1 (e.g. 0.95), got {value!r}")
    low, high = CONFIDENCE_RANGE
    if not low <= value <= high:
        raise ValueError(f"{attribute.name} = {value!r} is too close to {0 if value < low else 1} to compute "
                         f"with; give a level in [{low:g}, {high!r}]")


def confidence_param(default: float = 0.95, help: str | None = None) -> Any:
    """A ``confidence`` field (1 - alpha), validated to lie in (0, 1)."""
    return attrs.field(default=default, converter=float, validator=_check_confidence,
                       metadata=_meta(help or "confidence level (1 - alpha)", "float", range="(0, 1)"))


def choice_param(default: str, *options: str, help: str | None = None) -> Any:
    """A string field restricted to ``options``."""
    allowed = (default, *[o for o in options if o != default])

    def check(instance: Any, attribute: attrs.Attribute, value: str) -> None:
        if value not in allowed:
            raise ValueError(f"{attribute.name} must be one of {list(allowed)}, got {value!r}")

    return attrs.field(default=default, validator=check, metadata=_meta(help, "choice", choices=allowed))


def int_param(default: int | None, minimum: int = 1, optional: bool = False,
              bytes_each: float | None = None, help: str | None = None) -> Any:
    """An integer field >= ``minimum`` (None allowed when ``optional``).

    ``bytes_each``: memory the computation holds per unit of the count (e.g. 8 bytes per bootstrap
    replicate kept for the percentile interval); a count whose memory exceeds the machine's is
    refused when the component is built, naming the limit, instead of failing later.
    """

    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
            raise ValueError(f"{attribute.name} must be an integer >= {minimum}, got {value!r}")
        if bytes_each is not None:
            check_memory(attribute.name, int(value), bytes_each)

    return attrs.field(default=default, validator=check,
                       metadata=_meta(help, "int", range=f">= {minimum}" + (" or None" if optional else "")))


def float_param(default: float | None, minimum: float | None = None, maximum: float | None = None,
                optional: bool = False, strict: bool = False, allow_inf: bool = False,
                help: str | None = None) -> Any:
    """A float field within [minimum, maximum] (open bounds when ``strict``).

    NaN is always refused (every comparison with it is false, so it would pass any bound
    unnoticed); so are infinities unless ``allow_inf`` says one means something (e.g. "no limit").
    """

    def check(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int | float | np.number):
            raise ValueError(f"{attribute.name} must be a number, got {value!r}")
        if math.isnan(value) or (math.isinf(value) and not allow_inf):
            raise ValueError(f"{attribute.name} must be a finite number, got {value!r}")
        low_bad = minimum is not None and (value <= minimum if strict else value < minimum)
        high_bad = maximum is not None and (value >= maximum if strict else value > maximum)
        if low_bad or high_bad:
            if minimum is None or maximum is None:  # one bound: say it as an inequality, not "(0, None)"
                bound = f"{'>' if minimum is not None else '<'}{'' if strict else '='} " \
                        f"{minimum if minimum is not None else maximum}"
                raise ValueError(f"{attribute.name} must be {bound}, got {value!r}")
            raise ValueError(f"{attribute.name} must lie in {'(' if strict else '['}{minimum}, {maximum}"
                             f"{')' if strict else ']'}, got {value!r}")

    return attrs.field(default=default, validator=check,
                       metadata=_meta(help, "float", range=_range_text(minimum, maximum, strict, optional)))


def _check_random_state(instance: Any, attribute: attrs.Attribute, value: Any) -> None:
    if value is None or isinstance(value, np.random.Generator):
        return
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise ValueError(f"random_state must be None, a non-negative int or a numpy Generator, got {value!r}")


def random_state_param(default: int | None = None, help: str | None = None) -> Any:
    """A ``random_state`` field: None, an int seed or a numpy Generator."""
    return attrs.field(default=default, validator=_check_random_state, eq=False,
                       metadata=_meta(help or "seed of the random draws, for reproducible results (--seed)",
                                      "random_state", range="None, an int >= 0 or a numpy Generator"))


def check_random_state(random_state: Any) -> np.random.Generator:
    """A numpy Generator from None, an int seed or a Generator (returned as is)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)
