"""A saved report: the JSON a report writes, read back with only the core.

``report.to_dict()`` (the JSON report) starts with ``"perfrigor_report": SCHEMA``, the
version of this layout, and holds every result with its ``type``, its ``description`` and,
for a plugin's type, its ``base`` (the nearest core type); the measurements the plots draw
(``data``: every value, or a large sample's fixed subsample, ``perfrigor.drawing.plotted``);
and, for results that draw (``plot_layers``), their layers as data. :func:`result_from_dict`
rebuilds the core's own types as themselves (``Comparison``, ``Verdict``, ...) and every
other type as a :class:`StoredResult` of its core base: a mode comparison stays a
Comparison, and keeps its fields (readable as attributes), its description and its plot
layers. Loading needs no plugin and uses none, so a saved report reads, and renders, the
same whichever plugins are installed.
"""

from __future__ import annotations

import copy
import functools
import math
import types
import typing
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from .data import BenchmarkInfo, Sample, Suite
from .drawing import layer_from_dict, layer_to_dict, layers, plotted, plotted_index
from .errors import DataError
from .results import Result, is_core_type, to_jsonable

#: the key that opens a saved report, and the version of its layout under it
MARKER = "perfrigor_report"
SCHEMA = 1


def looks_saved(head: str) -> bool:
    """Whether a file's first characters are those of a saved report (its marker is the first key)."""
    return head.lstrip().startswith("{") and f'"{MARKER}"' in head[:200]


# ---------------------------------------------------------------- results


class StoredResult:
    """A result of a type the core does not know, as a saved report holds it.

    It is an instance of the type's core base (``Comparison``, ``Estimate``, ``TestResult``,
    ``Result`` ...) with the base's fields; every other field it was saved with is readable as
    an attribute (``fit.means``); ``describe()`` is the saved description; ``plot_layers`` the
    saved layers; ``to_dict()`` what was saved; ``type(r).__name__`` the original class name,
    ``type_tag()`` its tag ("gmm:MixtureFit").
    """

    __slots__ = ()
    #: the core type this stored type derives from (set on each stored type)
    stored_base: type[Result] = Result

    def __getattr__(self, name: str) -> Any:  # only for names the base does not have
        saved = object.__getattribute__(self, "saved")
        if not name.startswith("_") and name in saved:
            return _value(saved[name])  # a result inside it rebuilt, as the base's fields are
        raise AttributeError(f"{type(self).__name__} (saved) has no attribute {name!r}")

    @classmethod
    def core_base(cls) -> type[Result]:
        return cls.stored_base

    def describe(self) -> str:
        return str(self.saved.get("description") or type(self).__name__)

    def to_dict(self) -> dict[str, Any]:
        return {k: copy.deepcopy(v) for k, v in self.saved.items() if k != "layers"}

    def plot_layers(self, sample: Any) -> list[Any]:
        return [layer_from_dict(layer) for layer in self.saved.get("layers") or ()]


@functools.cache
def stored_type(tag: str, base: type[Result]) -> type[Result]:
    """The stored type of ``tag`` (a subclass of ``base`` and :class:`StoredResult`), made once."""
    name = tag.rpartition(":")[2] or "StoredResult"
    namespace = {"__module__": __name__, "__qualname__": name, "type_name": tag, "stored_base": base,
                 "__doc__": f"A saved {tag} result (its type unknown to the core; a {base.__name__}).",
                 "__annotations__": {"saved": "Mapping[str, Any]"},
                 "saved": attrs.field(factory=dict, repr=False, eq=False)}
    return attrs.frozen(kw_only=True)(type(name, (StoredResult, base), namespace))


def core_types() -> dict[str, type[Result]]:
    """``{tag: type}`` of every core result type (the result types defined in perfrigor itself)."""
    found: dict[str, type[Result]] = {}
    todo = [Result]
    while todo:
        cls = todo.pop()
        if is_core_type(cls) and not issubclass(cls, StoredResult):
            found.setdefault(cls.type_tag(), cls)
        todo += cls.__subclasses__()
    return found


def _is_result(value: Any) -> bool:
    return isinstance(value, Mapping) and {"type", "description", "warnings"} <= value.keys()


def _value(value: Any, known: Mapping[str, type[Result]] | None = None) -> Any:
    """A saved field's value: results inside it rebuilt, the rest as JSON gives it."""
    if _is_result(value):
        return result_from_dict(value, known)
    if isinstance(value, Mapping):
        return {k: _value(v, known) for k, v in value.items()}
    if isinstance(value, list):
        return [_value(v, known) for v in value]
    return value


def result_from_dict(data: Mapping[str, Any], known: Mapping[str, type[Result]] | None = None) -> Result:
    """The result ``to_dict()`` wrote: a core type as itself, any other as a :class:`StoredResult`.

    A core type may take over its own rebuilding with a classmethod ``from_dict(data)``. Fields are
    held to their annotated types (a saved report is a file: a damaged one is a DataError naming the
    field, not a failure when it is drawn), and a stored type's plot layers are read here too.
    """
    known = core_types() if known is None else known
    if not isinstance(data, Mapping):
        raise DataError(f"a result must be a JSON object, got {_shown(data)}")
    tag = str(data.get("type", ""))
    cls = known.get(tag)
    if cls is None:
        base = known.get(str(data.get("base") or "Result"), Result)
        cls, extra = stored_type(tag, base), {"saved": dict(data)}
        _check_layers(tag, data.get("layers"))
    else:
        own = cls.__dict__.get("from_dict")
        if own is not None:
            return own.__get__(None, cls)(data)
        extra = {}
    hints = _hints(cls)
    fields = {f.name: _typed(tag, f.name, _value(data[f.name], known), hints.get(f.name))
              for f in attrs.fields(cls) if f.init and f.name in data and f.name != "saved"}
    try:
        return cls(**fields, **extra)
    except (TypeError, ValueError) as exc:
        raise DataError(f"cannot rebuild a {tag or 'result'}: {exc}") from None


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _typed(tag: str, name: str, value: Any, hint: Any) -> Any:
    """``value`` as the field's annotation ``hint`` wants it (JSON's lists for tuples, null for a float
    that was not finite), or a DataError naming the field."""
    ok, value = _conform(value, hint)
    if not ok:
        raise DataError(f"a {tag or 'result'}'s {name!r} holds {_shown(value)}, not a {_hint_name(hint)}")
    return value


def _conform(value: Any, hint: Any) -> tuple[bool, Any]:
    if hint is None or hint is Any or isinstance(hint, typing.TypeVar | str):
        return True, value
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return True, None
        for arg in args:
            ok, converted = _conform(value, arg)
            if ok:
                return True, converted
        return False, value
    if hint is type(None):
        return value is None, value
    if hint is float:
        if value is None:  # saved as null: not finite
            return True, math.nan
        return isinstance(value, int | float) and not isinstance(value, bool), value
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool), value
    if hint in (bool, str):
        return isinstance(value, hint), value
    if origin is tuple:
        if not isinstance(value, list | tuple):
            return False, value
        each = args[0] if len(args) == 2 and args[1] is Ellipsis else Any
        return all(_conform(v, each)[0] for v in value), value
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        if not isinstance(value, Mapping):
            return False, value
        each = args[1] if len(args) == 2 else Any
        return all(_conform(v, each)[0] for v in value.values()), value
    return True, value  # another type (a plugin's): as JSON gives it


def _hint_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("collections.abc.", "").replace("typing.", "")


def _check_layers(tag: str, saved: Any) -> None:
    """A stored result's plot layers, read once on loading: a damaged one is a DataError, not a crash when drawn."""
    if saved is None:
        return
    try:
        if not isinstance(saved, list):
            raise TypeError(f"expected a list, got {_shown(saved)}")
        for layer in saved:
            layer_from_dict(layer)
    except (LookupError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"a {tag or 'result'}'s plot layers are damaged: {type(exc).__name__}: {exc}") from None


def result_to_dict(result: Result, sample: Sample | None) -> dict[str, Any]:
    """``result.to_dict()``, with its plot layers for ``sample`` (the system it describes) as data."""
    out = result.to_dict()
    drawn = layers(result, sample) if sample is not None else []
    if drawn:
        out["layers"] = [layer_to_dict(layer, sample) for layer in drawn]
    return out


# ---------------------------------------------------------------- the report's layout

#: what each part of a saved report holds (checked on loading: a damaged file is one DataError naming the part)
LAYOUT: dict[str, Any] = {
    "pipeline": str, "baseline": str, "candidate": str | None, "source": str | None,
    "steps": tuple[Mapping[str, Any], ...],
    "inputs": Mapping[str, Mapping[str, Mapping[str, Any]]],
    "benchmarks": Mapping[str, Mapping[str, Mapping[str, Mapping[str, Any]]]],
    "suite": Mapping[str, Mapping[str, Any]],
    "errors": tuple[Mapping[str, Any], ...], "skipped": tuple[Mapping[str, Any], ...],
    "only_in": Mapping[str, tuple[str, ...]], "not_compared": Mapping[str, str], "excluded": Mapping[str, str],
    "data": Mapping[str, Any] | None,
}
#: what the inputs summary of each benchmark and system holds (``Sample.summary()``)
SUMMARY: dict[str, Any] = {
    "n": int, "shape": tuple[int, ...], "levels": tuple[str, ...], "unit": str, "lower_is_better": bool,
    "mean": float | None, "median": float | None, "sd": float | None, "min": float | None, "max": float | None,
    "metadata": Mapping[str, Any], "n_nonpositive": int,
}
_OPTIONAL = ("errors", "skipped", "only_in", "not_compared", "excluded", "data", "source")


def check_layout(data: Mapping[str, Any]) -> None:
    """DataError naming the first part of a saved report that is missing or of the wrong kind."""
    for part, hint in LAYOUT.items():
        if part not in data:
            if part in _OPTIONAL:
                continue
            raise DataError(f"its {part!r} is missing")
        if not _conform(data[part], hint)[0]:
            raise DataError(f"its {part!r} holds {_shown(data[part])}, not a {_hint_name(hint)}")
    for bench, systems in data["inputs"].items():
        for system, summary in systems.items():
            for key, hint in SUMMARY.items():
                if key in summary and not _conform(summary[key], hint)[0]:
                    raise DataError(f"the inputs of {bench!r}, {system!r}: {key!r} holds {_shown(summary[key])}, "
                                    f"not a {_hint_name(hint)}")


def record_from_dict(cls: type, data: Any, what: str) -> Any:
    """A record of the report (``StepInfo``, ``StepError``, ``StepSkip``) from its saved fields, held to
    their annotated types."""
    if not isinstance(data, Mapping):
        raise DataError(f"{what} must be a JSON object, got {_shown(data)}")
    hints = _hints(cls)
    try:
        return cls(**{k: _typed(what, k, v, hints.get(k)) for k, v in data.items()})
    except TypeError as exc:  # a field missing or unknown
        raise DataError(f"{what}: {exc}") from None


def check_drawn(suite: Suite, inputs: Mapping[str, Any]) -> None:
    """DataError when the measurements kept are neither all of them nor the drawn subsample of the shape
    the inputs summary gives (the plots place each run drawn by it: ``perfrigor.drawing.plotted_runs``)."""
    for bench, systems in suite.data.items():
        for system, sample in systems.items():
            shape = (inputs.get(bench) or {}).get(system, {}).get("shape")
            if shape is None:
                continue
            if not (isinstance(shape, list) and shape and all(isinstance(k, int) and not isinstance(k, bool)
                                                             and k > 0 for k in shape)):
                raise DataError(f"the inputs of {bench!r}, {system!r}: shape {_shown(shape)} is not a list of "
                                "positive whole numbers")
            try:
                index = plotted_index(shape)
            except (OverflowError, ValueError, MemoryError):  # no sample has 10^30 values
                raise DataError(f"the inputs of {bench!r}, {system!r}: shape {_shown(shape)} is not one of "
                                "measurements") from None
            drawn = tuple(shape) if index is None else tuple(len(i) for i in index)
            if sample.shape not in (drawn, tuple(shape)):  # (every value: a report saved before the subsample)
                raise DataError(f"the measurements of {bench!r}, {system!r} have shape {sample.shape}, where "
                                f"the inputs' shape {tuple(shape)} has {drawn} drawn")


# ---------------------------------------------------------------- the measurements


def suite_to_dict(suite: Suite) -> dict[str, Any]:
    """The measurements the plots draw, as JSON-ready data (values nested as the levels, in the unit of the
    report): every value, or above ``PLOTTED_VALUES`` the fixed subsample the plots draw
    (``perfrigor.drawing.plotted``), so a saved report stays small and renders as the live one."""
    return {
        "systems": list(suite.systems),
        "benchmarks": {bench: {system: {"values": plotted(sample).values.tolist(), "levels": list(sample.levels or ()),
                                        "unit": sample.unit, "lower_is_better": sample.lower_is_better,
                                        "name": sample.name, "source": sample.source,
                                        "metadata": to_jsonable(sample.metadata)}
                               for system, sample in systems.items()}
                       for bench, systems in suite.data.items()},
        "info": {bench: {"weight": i.weight, "confidence": i.confidence, **to_jsonable(i.extra)}
                 for bench, i in suite.info.items()},
    }


def suite_from_dict(data: Mapping[str, Any], source: str | None, only_in: Mapping[str, list[str]],
                    excluded: Mapping[str, str] | None = None) -> Suite:
    samples = {bench: {system: Sample(np.asarray(s["values"], dtype=float), levels=tuple(s["levels"]) or None,
                                      unit=s["unit"], lower_is_better=s["lower_is_better"], name=s.get("name"),
                                      source=s.get("source"), metadata=s.get("metadata") or {})
                       for system, s in systems.items()}
               for bench, systems in data["benchmarks"].items()}
    info = {bench: BenchmarkInfo.coerce(i, bench) for bench, i in (data.get("info") or {}).items()}
    return Suite(samples, systems=tuple(data["systems"]), info=info, source=source, only_in=only_in,
                 excluded=excluded or {})
