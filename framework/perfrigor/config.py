"""Pipelines from TOML/JSON documents or mappings.

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
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from .errors import ConfigError


def _words(names: Any) -> str:
    """Names for a message: 'a', 'b' (not a Python list)."""
    return ", ".join(repr(n) for n in sorted(names))


def _suggest(unknown: Any, known: Any) -> str:
    """' (did you mean ...?)' for the first unknown name with a close known one."""
    from .registry import did_you_mean

    return next((hint for hint in (did_you_mean(str(u), known) for u in sorted(unknown, key=str)) if hint), "")

_TOP_KEYS = {"pipeline", "steps", "input", "name", "description", "preset", "baseline", "candidate"}
_PIPELINE_KEYS = {"name", "description", "preset", "baseline", "candidate"}


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

    def build(self):
        """The Pipeline of this spec; ConfigErrors name ``where``."""
        from .pipeline import Pipeline

        return Pipeline.from_spec(self)


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
    for section, kind in (("pipeline", Mapping), ("input", Mapping), ("steps", list)):
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
    name = head.get("name")
    if head.get("preset"):
        from .registry import get_registry

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
                        input_options=input_options, where=where)


def pipeline_from_config(config: str | os.PathLike | Mapping[str, Any]):
    """Build a Pipeline from a config file path or mapping."""
    return parse_config(config).build()
