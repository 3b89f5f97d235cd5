"""Pipeline configs (TOML/JSON documents or mappings) parsed once into a PipelineSpec; ``Pipeline.from_spec`` builds it.

    [pipeline]
    name = "my-check"
    baseline = "O0"          # optional: which systems to compare
    candidate = "O3"
    preset = "speedup-test"  # optional: start from a preset's steps

    [input]                  # optional: reader options (format, column names...)
    value = "time"

    [[steps]]
    component = "fieller"
    confidence = 0.99        # parameters inline, or in a [steps.params] table

    [output]                 # optional: how the command line reports (its flags win)
    format = "markdown"
    fail_on_regression = "warn"
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .errors import ConfigError, did_you_mean
from .registry import get_registry


def _words(names: Any) -> str:
    """Names for a message: 'a', 'b' (not a Python list)."""
    return ", ".join(repr(n) for n in sorted(names))


def _suggest(unknown: Any, known: Any) -> str:
    """' (did you mean ...?)' for the first unknown name with a close known one."""
    return next((hint for hint in (did_you_mean(str(u), known) for u in sorted(unknown, key=str)) if hint), "")

_TOP_KEYS = {"pipeline", "steps", "input", "output", "name", "description", "preset", "baseline", "candidate"}
_PIPELINE_KEYS = {"name", "description", "preset", "baseline", "candidate"}
#: the keys of [output] (what the command line's flags of the same names set) and what each takes
OUTPUT_KEYS: dict[str, tuple[tuple[type, ...], str]] = {
    "format": ((str,), "an output format name"),
    "verbose": ((bool,), "true or false"),
    "max_plots": ((int,), "a number of benchmarks"),
    "max_chars": ((int,), "a number of characters (0: no limit)"),
    "full_report": ((str,), "a file name"),
    "github": ((bool,), "true or false"),
    "only_changed": ((bool,), "true or false"),
    "fail_on_regression": ((bool, str), 'true, false or "warn"'),
}


def load_config(path: str | os.PathLike) -> dict[str, Any]:
    """Parse a TOML or JSON config file; errors name the file (and line where the parser gives it)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read config: {exc.strerror or exc}") from None
    if p.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{p}, line {exc.lineno}: invalid JSON: {exc.msg}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{p}: invalid TOML: {exc}") from None


@attrs.frozen
class PipelineSpec:
    """A config parsed and merged with its preset, once: what :meth:`Pipeline.from_spec` builds from.

    ``steps`` are the preset's steps then the config's (component names or mappings, not
    built yet: components are looked up when the pipeline is built); ``input_options`` the
    preset's ``[input]`` updated by the config's; ``where`` names the source in messages.
    """

    steps: tuple[Any, ...]
    name: str = "custom"
    description: str = ""
    baseline: str | None = None
    candidate: str | None = None
    input_options: Mapping[str, Any] = attrs.field(factory=dict)
    where: str = "config"
    #: the config's ``[output]``: how the command line reports (format, gates, GitHub), checked
    output: Mapping[str, Any] = attrs.field(factory=dict)


def parse_config(config: str | os.PathLike | Mapping[str, Any], where: str | None = None) -> PipelineSpec:
    """Check a config's structure and merge its preset (the one place this is done).

    ``config`` is a TOML/JSON file path or a mapping; ``where`` names it in messages
    (default: the path, or "config"). Component names and parameters are checked later,
    when the pipeline is built from the spec.
    """
    if isinstance(config, str | os.PathLike):
        where = where or str(config)
        config = load_config(config)
    where = where or "config"
    if not isinstance(config, Mapping):
        raise ConfigError(f"{where}: a pipeline config is a table/object, got {type(config).__name__}")
    unknown = set(config) - _TOP_KEYS
    if unknown:
        raise ConfigError(f"{where}: unknown section(s) {_words(map(str, unknown))}"
                          f"{_suggest(unknown, _TOP_KEYS)}; expected {_words(_TOP_KEYS)}")
    for section, kind in (("pipeline", Mapping), ("input", Mapping), ("output", Mapping), ("steps", list)):
        if section in config and not isinstance(config[section], kind):
            want = "a table" if kind is Mapping else "an array of tables ([[steps]])"
            raise ConfigError(f"{where}: [{section}] must be {want}, got {type(config[section]).__name__}")
    head = dict(config.get("pipeline", {}) or {})
    for key in _PIPELINE_KEYS:
        if key in config:
            head.setdefault(key, config[key])
    bad = set(head) - _PIPELINE_KEYS
    if bad:
        raise ConfigError(f"{where}: unknown key(s) {_words(map(str, bad))} in [pipeline]"
                          f"{_suggest(bad, _PIPELINE_KEYS)}; expected {_words(_PIPELINE_KEYS)}")
    for key, value in head.items():
        if value is not None and not isinstance(value, str):
            raise ConfigError(f"{where}: [pipeline] {key} must be a string, got {value!r}")
    steps = list(config.get("steps", []) or [])
    for i, step in enumerate(steps, 1):
        if not isinstance(step, Mapping | str):
            raise ConfigError(f"{where}: step {i} must be a table with a 'component' key (or a component "
                              f"name), got {step!r}")
    input_options = dict(config.get("input", {}) or {})
    if not isinstance(input_options.get("format", ""), str):
        raise ConfigError(f"{where}: [input] format must be given by name (a string, e.g. 'criterion'), "
                          f"got {input_options['format']!r}")
    output = _output_options(config.get("output", {}) or {}, where)
    name = head.get("name")
    if head.get("preset"):
        try:
            preset = get_registry().preset(head["preset"])
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
        steps = list(preset.get("steps", [])) + steps
        name = name or preset.get("name")
        for key in ("baseline", "candidate", "description"):
            head.setdefault(key, preset.get(key))
        input_options = {**dict(preset.get("input", {}) or {}), **input_options}
    if not steps:
        raise ConfigError(f"{where}: no steps (add [[steps]] tables or a preset)")
    return PipelineSpec(tuple(steps), name=name or "custom", description=head.get("description") or "",
                        baseline=head.get("baseline"), candidate=head.get("candidate"),
                        input_options=input_options, where=where, output=output)


def _output_options(output: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The ``[output]`` table, its keys and value types checked."""
    bad = set(output) - set(OUTPUT_KEYS)
    if bad:
        raise ConfigError(f"{where}: unknown key(s) {_words(map(str, bad))} in [output]"
                          f"{_suggest(bad, OUTPUT_KEYS)}; expected {_words(OUTPUT_KEYS)}")
    for key, value in output.items():
        types, want = OUTPUT_KEYS[key]
        wrong = not isinstance(value, types) or (bool not in types and isinstance(value, bool))
        if key == "fail_on_regression" and isinstance(value, str) and value != "warn":
            wrong = True
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            wrong = True
        if wrong:
            raise ConfigError(f"{where}: [output] {key} must be {want}, got {value!r}")
    return dict(output)

