"""Go's benchmark format: the output of ``go test -bench`` (what benchstat reads).

::

    goos: linux
    pkg: golang.org/x/perf/cmd/benchstat/testdata
    BenchmarkEncode/format=json-48     690848     1726 ns/op     1206 B/op     12 allocs/op

A *configuration line* (``key: value``, the key starting with a lower-case
letter and holding no space) applies to the results after it. A *result line*
is ``Benchmark<name> <iterations> <value> <unit> [<value> <unit>]...``; every
other line (``PASS``, ``ok ...``, test logs) is not part of the format and is
skipped, and counted in ``Sample.metadata``. Each repetition (``-count N``)
of a benchmark is one measurement.

Names are written as benchstat writes them: without the ``Benchmark`` prefix,
sub-benchmarks (``/format=json``) and the GOMAXPROCS suffix (``-48``) kept.
When a file holds several packages (``pkg:``), names are prefixed with the
package. Metrics are named as benchstat names them: ``sec/op`` (from
``ns/op``, the default), ``B/s`` (from ``MB/s``), ``B/op``, ``allocs/op`` and
any custom unit; ``metric=`` picks one. Values are kept in the unit Go wrote
(``ns/op``, ``MB/s``): read exactly, converted only when two files differ.

A benchmark measured under two values of a configuration key (benchstat's
``-col note``) is an error unless ``system=KEY`` names that key: each value is
then a system of the suite (``note: before`` / ``note: after`` in one file).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..data import Sample, Suite
from ..errors import DataError
from ..units import lower_is_better as unit_direction
from ._common import at, positions, read_text, sample_or_suite
from .numbers import ASCII_SPACE, parse_number, shown
from .options import LOWER_IS_BETTER, ReaderOption

# fields are separated by ASCII white space only: a no-break space is part of a field (and no number)
_RESULT = re.compile(r"^Benchmark(?P<name>[^\s]*)\s+(?P<iters>\S+)\s+(?P<rest>.*)$", re.ASCII)
_CONFIG = re.compile(r"^(?P<key>[^\s:]+):(?:\s+(?P<value>.*?))?\s*$", re.ASCII)
_SNIFF = re.compile(r"^Benchmark\S*\s+\d+\s+[-+.\dEeInfNa]+\s+\S+", re.MULTILINE)
#: benchstat's names for Go's units, and what they stand for
METRIC_NAMES = {"ns/op": "sec/op", "MB/s": "B/s"}
#: configuration keys that describe the machine or package, never a system
CONTEXT_KEYS = ("goos", "goarch", "pkg", "cpu")


def metric_name(unit: str) -> str:
    """benchstat's name of a metric written in ``unit`` (``ns/op`` -> ``sec/op``)."""
    return METRIC_NAMES.get(unit, unit)


def _is_config_key(key: str) -> bool:
    return bool(key) and key[0].islower()


class GoBenchReader:
    """Go benchmark output (`go test -bench`, benchstat's input): names, -count repetitions, several metrics."""

    name = "go"
    suffixes = (".txt", ".bench", "")
    priority = 20
    options = {"metric": ReaderOption("str", "the metric to read (sec/op, B/op, allocs/op, a custom unit...)"),
               "system": ReaderOption("str", "the configuration key whose values are the systems (e.g. note)"),
               "lower_is_better": LOWER_IS_BETTER}

    def sniff(self, path: Path, head: str) -> bool:
        return _SNIFF.search(head) is not None

    def read(self, path: Path, metric: str | None = None, system: str | None = None,
             lower_is_better: bool | None = None) -> Sample | Suite:
        results, skipped = self._parse(path)
        if not results:
            raise DataError(f"{path}: no benchmark results (lines 'BenchmarkName  N  value unit ...')")
        metric = self._choose_metric(results, metric, path)
        return self._build(results, metric, system, lower_is_better, skipped, path)

    @staticmethod
    def _parse(path: Path) -> tuple[list[dict[str, Any]], int]:
        config: dict[str, str] = {}
        results: list[dict[str, Any]] = []
        skipped = 0
        for lineno, raw in enumerate(read_text(path).split("\n"), 1):
            line = raw.strip(ASCII_SPACE)
            if not line:
                continue
            m = _RESULT.match(line)
            if m and (not m.group("name") or not m.group("name")[0].islower()):
                results.append(_result(m, dict(config), path, lineno))
                continue
            c = _CONFIG.match(line)
            if c and _is_config_key(c.group("key")):
                config[c.group("key")] = c.group("value") or ""
                continue
            skipped += 1
        return results, skipped

    @staticmethod
    def _choose_metric(results: list[dict[str, Any]], metric: str | None, path: Path) -> str:
        found: dict[str, None] = {}
        for r in results:
            for name in r["metrics"]:
                found.setdefault(name, None)
        if metric is None:
            if "sec/op" in found:
                return "sec/op"
            if len(found) == 1:
                return next(iter(found))
            raise DataError(f"{path}: several metrics {list(found)} and no sec/op; choose one with metric=... "
                            "(CLI: --metric)")
        wanted = metric_name(metric)
        if wanted not in found:
            raise DataError(f"{path}: no metric {metric!r} (metrics: {', '.join(found)})")
        return wanted

    def _build(self, results: list[dict[str, Any]], metric: str, system_key: str | None,
               lower_is_better: bool | None, skipped: int, path: Path) -> Sample | Suite:
        packages = {r["config"].get("pkg") for r in results}
        results, excluded = _with_metric(results, metric, system_key, path)
        values: dict[str, dict[str, list[float]]] = {}
        lines: dict[str, dict[str, list[int]]] = {}
        units: dict[str, str] = {}
        seen_config: dict[tuple[str, str], tuple[dict[str, str], int]] = {}
        for r in results:
            name = _full_name(r, packages)
            if system_key is None:
                system = path.name
            elif system_key not in r["config"]:
                raise DataError(f"{at(path, r['line'])}: benchmark {r['name']!r} comes before any "
                                f"'{system_key}:' line (system={system_key!r} names the systems)")
            else:
                system = r["config"][system_key]
            config = {k: v for k, v in r["config"].items() if k not in CONTEXT_KEYS and k != system_key}
            first = seen_config.setdefault((name, system), (config, r["line"]))
            if first[0] != config:
                key = next(k for k in sorted(set(config) | set(first[0])) if config.get(k) != first[0].get(k))
                raise DataError(f"{at(path, r['line'])}: benchmark {r['name']!r} appears with {key}: "
                                f"{config.get(key, '(unset)')!r} here and {first[0].get(key, '(unset)')!r} on line "
                                f"{first[1]}; if these are the systems to compare, say so with system={key!r} "
                                f"(CLI: --input system={key})")
            value, unit = r["metrics"][metric]
            if units.setdefault(name, unit) != unit:
                raise DataError(f"{at(path, r['line'])}: benchmark {r['name']!r}: {metric} in {unit!r} where "
                                f"earlier results used {units[name]!r}")
            values.setdefault(name, {}).setdefault(system, []).append(value)
            lines.setdefault(name, {}).setdefault(system, []).append(r["line"])
        data: dict[str, dict[str, Sample]] = {}
        for name, systems in values.items():
            unit = units[name]
            direction = lower_is_better
            if direction is None:
                direction = unit_direction(unit)
                direction = True if direction is None else direction
            data[name] = {}
            for system, vals in systems.items():
                metadata: dict[str, Any] = {"format": "go", "metric": metric}
                if skipped:
                    metadata["other_lines_skipped"] = skipped
                data[name][system] = Sample(vals, unit=unit, lower_is_better=direction, name=system,
                                            source=str(path), metadata=metadata,
                                            positions=positions(lines[name][system]))
        return sample_or_suite(data, path, excluded={_full_name(r, packages): why for r, why in excluded})


def _full_name(result: dict[str, Any], packages: set[str | None]) -> str:
    """A result's benchmark name, prefixed with its package when the file holds several."""
    return result["name"] if len(packages) <= 1 else f"{result['config'].get('pkg', '')}.{result['name']}"


def _with_metric(results: list[dict[str, Any]], metric: str, system_key: str | None,
                 path: Path) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    """The results that report ``metric``, and the benchmarks that never do (with why), as benchstat does.

    A benchmark that reports the metric in none of its results is not compared but listed (zero.txt in
    benchstat's tests: each benchmark its own metric). One that reports it in some of its results
    but not others (of one system) is a DataError naming the line: dropping those would go unseen.
    """
    def key(r: dict[str, Any]) -> tuple[str, str | None]:
        return r["name"], r["config"].get(system_key) if system_key else None

    having = {key(r) for r in results if metric in r["metrics"]}
    named = {r["name"] for r in results if metric in r["metrics"]}
    kept, excluded, seen = [], [], set()
    for r in results:
        if metric in r["metrics"]:
            kept.append(r)
        elif key(r) in having:
            raise DataError(f"{at(path, r['line'])}: benchmark {r['name']!r} has no {metric} here "
                            f"(it reports {', '.join(r['metrics'])}) but does in other results")
        elif r["name"] not in named and r["name"] not in seen:
            seen.add(r["name"])
            excluded.append((r, f"no {metric}; it reports {', '.join(r['metrics'])}"))
    return kept, excluded


def _result(m: re.Match, config: dict[str, str], path: Path, lineno: int) -> dict[str, Any]:
    """One result line: its name, configuration and ``{metric: (value, unit)}``."""
    where = at(path, lineno)
    name = m.group("name") or "Benchmark"
    if re.fullmatch(r"[0-9]+", m.group("iters")) is None:
        raise DataError(f"{where}: benchmark {name!r}: iteration count {shown(m.group('iters'))} is not a whole "
                        "number (digits 0-9)")
    iterations = int(m.group("iters"))
    rest = m.group("rest").strip(ASCII_SPACE)
    fields = re.split(r"\s+", rest, flags=re.ASCII) if rest else []
    if not fields or len(fields) % 2:
        raise DataError(f"{where}: benchmark {name!r}: expected value-unit pairs after the iteration count, "
                        f"got {' '.join(fields)[:60]!r}")
    metrics: dict[str, tuple[float, str]] = {}
    for raw, unit in zip(fields[::2], fields[1::2], strict=True):
        value = parse_number(raw, where, f"benchmark {name!r} {unit[:20]} value")
        key = metric_name(unit)
        if key in metrics:
            raise DataError(f"{where}: benchmark {name!r}: metric {key} appears twice on one line")
        metrics[key] = (value, unit)
    return {"name": name, "iterations": iterations, "metrics": metrics, "config": config, "line": lineno}
