"""A saved report: the JSON a report writes, read back with only the core.

``report.to_dict()`` (the JSON report) starts with ``"perfrigor_report": SCHEMA``, the
version of this layout, and holds every result with its ``type``, its ``description`` and,
for a plugin's type, its ``base`` (the nearest core type); the measurements (``data``);
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
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from .data import BenchmarkInfo, Sample, Suite
from .drawing import layer_from_dict, layer_to_dict, layers
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
            return saved[name]
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


def _value(value: Any, known: Mapping[str, type[Result]]) -> Any:
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

    A core type may take over its own rebuilding with a classmethod ``from_dict(data)``.
    """
    known = core_types() if known is None else known
    tag = str(data.get("type", ""))
    cls = known.get(tag)
    if cls is None:
        base = known.get(str(data.get("base") or "Result"), Result)
        cls, extra = stored_type(tag, base), {"saved": dict(data)}
    else:
        own = cls.__dict__.get("from_dict")
        if own is not None:
            return own.__get__(None, cls)(data)
        extra = {}
    fields = {f.name: _value(data[f.name], known) for f in attrs.fields(cls) if f.init and f.name in data}
    fields.pop("saved", None)
    try:
        return cls(**fields, **extra)
    except (TypeError, ValueError) as exc:
        raise DataError(f"cannot rebuild a {tag or 'result'}: {exc}") from None


def result_to_dict(result: Result, sample: Sample | None) -> dict[str, Any]:
    """``result.to_dict()``, with its plot layers for ``sample`` (the system it describes) as data."""
    out = result.to_dict()
    drawn = layers(result, sample) if sample is not None else []
    if drawn:
        out["layers"] = [layer_to_dict(layer, sample) for layer in drawn]
    return out


# ---------------------------------------------------------------- the measurements


def suite_to_dict(suite: Suite) -> dict[str, Any]:
    """The measurements as JSON-ready data (values nested as the levels, in the unit of the report)."""
    return {
        "systems": list(suite.systems),
        "benchmarks": {bench: {system: {"values": sample.values.tolist(), "levels": list(sample.levels or ()),
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
