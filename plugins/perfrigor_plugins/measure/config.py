"""A measure config: the commands and the stopping rule in a ``[measure]`` table, the analysis beside it.

    [measure]
    until = "clear"          # or runs = 10 (a fixed design)
    max_runs = 100
    max_time = 600           # seconds
    warmup = 1
    seed = 1
    output = "runs.csv"

    [[measure.commands]]
    name = "old"
    command = "./sort-old input.txt"

    [[measure.commands]]
    name = "new"
    command = "./sort-new input.txt"
    prepare = "sync"

    [pipeline]               # optional: the analysis, as any pipeline config (default: the default preset)
    preset = "default"

The keys of ``[measure]`` are the command line's options with ``_`` for ``-``; a command's
table takes ``command``, ``name``, ``setup``, ``prepare``, ``cwd``, ``shell`` (the table's own
``setup``, ``prepare``, ``cwd`` and ``shell`` apply to commands that do not set theirs).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import perfrigor as pr

from .plan import MeasuredCommand, Plan, StoppingRule

RULE_KEYS = tuple(f.name for f in attrs.fields(StoppingRule))
PLAN_KEYS = ("warmup", "iterations", "seed", "ignore_failure", "benchmark", "timer")
SHARED_KEYS = ("shell", "setup", "prepare", "cwd")
KEYS = ("commands", *RULE_KEYS, *PLAN_KEYS, *SHARED_KEYS, "output", "force")
COMMAND_KEYS = ("command", "name", *SHARED_KEYS)


def load_config(path: str | os.PathLike) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A measure config file -> (its ``[measure]`` table, the analysis config or None)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise pr.ConfigError(f"{p}: cannot read config: {exc.strerror or exc}") from None
    try:
        doc = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise pr.ConfigError(f"{p}: invalid {'JSON' if p.suffix.lower() == '.json' else 'TOML'}: {exc}") from None
    if not isinstance(doc, Mapping) or not isinstance(doc.get("measure"), Mapping):
        raise pr.ConfigError(f"{p}: a measure config needs a [measure] table (the commands and the stopping rule)")
    rest = {k: v for k, v in doc.items() if k != "measure"}
    return dict(doc["measure"]), (rest or None)


def plan_from(settings: Mapping[str, Any], where: str = "[measure]") -> Plan:
    """A Plan from a ``[measure]`` table (or the options as one mapping); ConfigError naming the key."""
    unknown = sorted(set(settings) - set(KEYS))
    if unknown:
        raise pr.ConfigError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))} "
                             f"(keys: {', '.join(KEYS)})")
    entries = settings.get("commands")
    if not isinstance(entries, list) or not entries:
        raise pr.ConfigError(f"{where}: no commands: give [[measure.commands]] tables (command = \"...\"), "
                             "or the commands on the command line")
    shared = {k: settings[k] for k in SHARED_KEYS if settings.get(k) is not None}
    commands = []
    for i, entry in enumerate(entries, 1):
        entry = {"command": entry} if isinstance(entry, str) else entry
        if not isinstance(entry, Mapping):
            raise pr.ConfigError(f"{where}: command {i} must be a string or a table, got {entry!r}")
        bad = sorted(set(entry) - set(COMMAND_KEYS))
        if bad:
            raise pr.ConfigError(f"{where}: command {i}: unknown key(s) {', '.join(map(repr, bad))} "
                                 f"(keys: {', '.join(COMMAND_KEYS)})")
        fields = {**shared, **{k: v for k, v in entry.items() if v is not None}}
        for key in ("command", "name", "setup", "prepare", "cwd"):
            if key in fields and not isinstance(fields[key], str):
                raise pr.ConfigError(f"{where}: command {i}: {key} must be a string, got {fields[key]!r}")
        if not isinstance(fields.get("shell", False), bool):
            raise pr.ConfigError(f"{where}: command {i}: shell must be true or false, got {fields['shell']!r}")
        try:
            commands.append(MeasuredCommand(**fields))
        except TypeError:
            raise pr.ConfigError(f"{where}: command {i} has no 'command'") from None
    rule = {k: settings[k] for k in RULE_KEYS if settings.get(k) is not None}
    if rule.get("until") == "clear" and "runs" in rule:
        raise pr.ConfigError(f"{where}: runs fixes the number of rounds; with until = clear the rule stops "
                             "them (bound it with min_runs, max_runs, max_time)")
    if rule.get("until", "runs") == "runs" and "min_runs" in rule:
        raise pr.ConfigError(f"{where}: min_runs bounds the rule of until = clear; a fixed design has runs")
    if isinstance(rule.get("max_time"), int) and not isinstance(rule["max_time"], bool):
        rule["max_time"] = float(rule["max_time"])
    design = {k: settings[k] for k in PLAN_KEYS if settings.get(k) is not None}
    if "ignore_failure" in design and not isinstance(design["ignore_failure"], bool):
        raise pr.ConfigError(f"{where}: ignore_failure must be true or false")
    return Plan(tuple(commands), StoppingRule(**rule), **design)
