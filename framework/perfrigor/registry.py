"""Plugin manager and registry: entry points -> names -> components, presets, readers, renderers.

Built-in plugins are registered through the entry-point group ``perfrigor``
exactly like third-party ones. ``PERFRIGOR_PLUGINS`` (comma-separated
entry-point names) restricts which are loaded, e.g. for tests.

A plugin may name a component without importing it (:class:`LazyComponent`: its
``module:Class`` and what ``perfrigor list`` shows): ``perfrigor list`` and ``--help``
then import no method module, and a component's module is imported when it is first
used, and checked against what the plugin declared.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import attrs
import pluggy

from . import hookspecs
from .component import KINDS, SCOPES, Component, build
from .errors import ConfigError, did_you_mean

ENTRY_POINT_GROUP = "perfrigor"
PROTOCOLS = {"perfrigor_readers": hookspecs.Reader, "perfrigor_renderers": hookspecs.Renderer}
ENV_ALLOW = "PERFRIGOR_PLUGINS"
HOOK_PREFIX = "perfrigor_"


@attrs.frozen
class LazyComponent:
    """A component a plugin names without importing it: ``target`` (``"package.module:Class"``) and
    what ``perfrigor list`` and ``--help`` show, so that they import no method module.

    The class is imported when the component is first used; the registry then checks that it is
    what this record declares (name, kind, scope, first line of its docstring, shorthands).
    """

    target: str
    name: str
    kind: str
    description: str
    scope: str = "benchmark"
    shorthands: tuple[str, ...] = ()

    def load(self) -> Any:
        """The class named by ``target`` (its module imported now)."""
        module, _, attr = self.target.partition(":")
        return getattr(importlib.import_module(module), attr)


@attrs.define(eq=False)
class Registered:
    """One named contribution and the plugin it came from.

    ``obj`` is the contribution itself: a component class is imported on first access when the
    plugin named it lazily (``entry`` is then the :class:`LazyComponent` until then); ``kind``,
    ``scope``, ``description`` and ``shorthands`` of a component are known without it.
    """

    name: str
    entry: Any
    plugin: str
    version: str | None = None

    @property
    def obj(self) -> Any:
        if isinstance(self.entry, LazyComponent):
            self.entry = _resolve(self.entry, self.plugin)
        return self.entry

    @property
    def kind(self) -> str:
        return self.entry.kind

    @property
    def scope(self) -> str:
        return self.entry.scope

    @property
    def description(self) -> str:
        return self.entry.description if isinstance(self.entry, LazyComponent) else self.entry.description()

    @property
    def shorthands(self) -> tuple[str, ...]:
        return tuple(self.entry.shorthands)


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A package's ``__getattr__`` (PEP 562) importing each exported name from its submodule on first use.

    ``exports``: ``{name: submodule}``. A plugin package that names its components lazily
    (:class:`LazyComponent`) keeps its public names (``from plugin import Class``) this way
    without importing its modules when the plugin is loaded.
    """
    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
        setattr(sys.modules[package], name, value)  # once: the next look-up finds it
        return value

    return __getattr__


def _resolve(lazy: LazyComponent, plugin: str) -> type[Component]:
    """The class of a lazily named component, checked against what its plugin declared."""
    try:
        cls = lazy.load()
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"plugin {plugin}: component {lazy.name!r} ({lazy.target}) cannot be loaded: "
                          f"{type(exc).__name__}: {exc}") from exc
    Registry._check_component(cls, plugin)
    declared = {"name": lazy.name, "kind": lazy.kind, "scope": lazy.scope, "description": lazy.description,
                "shorthands": tuple(lazy.shorthands)}
    actual = {"name": cls.name, "kind": cls.kind, "scope": cls.scope, "description": cls.description(),
              "shorthands": tuple(cls.shorthands)}
    # the description is what `perfrigor list` shows: a stale one is a test failure (tests/framework), not an error here
    wrong = [k for k in declared if declared[k] != actual[k] and k != "description"]
    if wrong:
        k = wrong[0]
        raise ConfigError(f"plugin {plugin}: component {lazy.name!r} ({lazy.target}) declares {k} {declared[k]!r} "
                          f"but its class has {actual[k]!r}")
    return cls


class Registry:
    """Names of every component, preset, reader and renderer the loaded plugins contribute."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self.pm = pm
        self.components: dict[str, Registered] = {}
        self.presets: dict[str, Registered] = {}
        self.readers: dict[str, Registered] = {}
        self.renderers: dict[str, Registered] = {}
        self.commands: dict[str, Registered] = {}
        self._collect()

    def _plugin_label(self, plugin: Any) -> tuple[str, str | None]:
        name = self.pm.get_name(plugin) or getattr(plugin, "__name__", repr(plugin))
        dist = getattr(self.pm, "dists", {}).get(name)
        if dist is None:
            return name, None
        return f"{name} ({dist[0]})", dist[1]

    def _collect(self) -> None:
        tables = {
            "perfrigor_components": (self.components, lambda c: getattr(c, "name", "")),
            "perfrigor_pipelines": (self.presets, lambda p: p.get("name", "") if isinstance(p, dict) else ""),
            "perfrigor_readers": (self.readers, lambda r: getattr(r, "name", "")),
            "perfrigor_renderers": (self.renderers, lambda r: getattr(r, "name", "")),
            "perfrigor_commands": (self.commands, lambda c: getattr(c, "name", "")),
        }
        for hook_name, (table, get_name) in tables.items():
            hook = getattr(self.pm.hook, hook_name)
            for impl in hook.get_hookimpls():
                plugin_name, version = self._plugin_label(impl.plugin)
                try:
                    items = impl.function() or []
                except Exception as exc:  # noqa: BLE001 - a broken plugin is reported by name
                    raise ConfigError(f"plugin {plugin_name}: {hook_name}() failed: {type(exc).__name__}: {exc}") from exc
                if not isinstance(items, list | tuple):
                    raise ConfigError(f"plugin {plugin_name}: {hook_name}() must return a list, "
                                      f"got {type(items).__name__}")
                for item in items:
                    if hook_name == "perfrigor_components":
                        if isinstance(item, LazyComponent):
                            self._check_lazy(item, plugin_name)
                        else:
                            self._check_component(item, plugin_name)
                    elif hook_name == "perfrigor_commands" and not isinstance(item, hookspecs.Command):
                        raise ConfigError(f"plugin {plugin_name}: perfrigor_commands() returned {item!r}, "
                                          "not a perfrigor.Command")
                    name = get_name(item)
                    if not name or not isinstance(name, str):
                        raise ConfigError(f"plugin {plugin_name}: {hook_name}() returned {item!r} without a name")
                    if hook_name == "perfrigor_pipelines":
                        self._check_preset(item, plugin_name)
                    elif hook_name in PROTOCOLS and not isinstance(item, PROTOCOLS[hook_name]):
                        proto = PROTOCOLS[hook_name]
                        raise ConfigError(f"plugin {plugin_name}: {hook_name}() returned {name!r}, which lacks "
                                          f"what a {proto.__name__.lower()} needs ({proto.__doc__.split('.')[0]}; "
                                          "see perfrigor.hookspecs)")
                    if name in table:
                        other = table[name].plugin
                        raise ConfigError(f"name clash: {name!r} is registered by both {other} and {plugin_name}")
                    table[name] = Registered(name, item, plugin_name, version)

    @staticmethod
    def _check_component(cls: Any, plugin: str) -> None:
        if not (isinstance(cls, type) and issubclass(cls, Component) and attrs.has(cls)):
            raise ConfigError(f"plugin {plugin}: {cls!r} is not an attrs subclass of Estimator, Test, Comparator or Detector")
        if cls.kind not in KINDS or not issubclass(cls, KINDS[cls.kind]):
            raise ConfigError(f"plugin {plugin}: component {cls.name!r} has unknown kind {cls.kind!r}")
        if cls.scope not in SCOPES:
            raise ConfigError(f"plugin {plugin}: component {cls.name!r} has scope {cls.scope!r}, "
                              f"expected one of {list(SCOPES)}")
        if not isinstance(cls.name, str) or not cls.name:
            return  # reported as "without a name" by the caller
        if any(c.isspace() for c in cls.name):
            raise ConfigError(f"plugin {plugin}: component name {cls.name!r} contains spaces")

    @staticmethod
    def _check_lazy(lazy: LazyComponent, plugin: str) -> None:
        """What can be checked of a lazily named component before its class is imported."""
        if lazy.kind not in KINDS:
            raise ConfigError(f"plugin {plugin}: component {lazy.name!r} has unknown kind {lazy.kind!r}")
        if lazy.scope not in SCOPES:
            raise ConfigError(f"plugin {plugin}: component {lazy.name!r} has scope {lazy.scope!r}, "
                              f"expected one of {list(SCOPES)}")
        if ":" not in lazy.target:
            raise ConfigError(f"plugin {plugin}: component {lazy.name!r}: target {lazy.target!r} is not "
                              "'package.module:Class'")
        if any(c.isspace() for c in lazy.name):
            raise ConfigError(f"plugin {plugin}: component name {lazy.name!r} contains spaces")

    @staticmethod
    def _check_preset(preset: Any, plugin: str) -> None:
        steps = preset.get("steps")
        if not isinstance(steps, list | tuple) or not steps:
            raise ConfigError(f"plugin {plugin}: preset {preset['name']!r} needs a non-empty list of 'steps'")

    # -- look-ups with helpful errors
    def _lookup(self, table: dict[str, Registered], name: str, what: str) -> Registered:
        if not isinstance(name, str):  # e.g. format = 3 in a config's [input]
            raise ConfigError(f"{what} must be given by name (a string, e.g. {next(iter(sorted(table)), 'NAME')!r}), "
                              f"got {name!r}")
        try:
            return table[name]
        except KeyError:
            raise ConfigError(f"unknown {what} {name!r}{did_you_mean(name, table)}; "
                              f"known: {', '.join(sorted(table)) or 'none'}") from None

    def component_class(self, name: str) -> type[Component]:
        return self._lookup(self.components, name, "component").obj

    def preset(self, name: str) -> dict[str, Any]:
        return self._lookup(self.presets, name, "pipeline preset").obj

    def reader(self, name: str) -> Any:
        return self._lookup(self.readers, name, "input format").obj

    def renderer(self, name: str) -> Any:
        return self._lookup(self.renderers, name, "output format").obj


class PluginManager(pluggy.PluginManager):
    """pluggy's manager, remembering which distribution (and version) each plugin came from.

    As pytest does for ``pytest_*`` functions, a plugin's ``perfrigor_*`` function is a hook
    implementation with or without ``@pr.hookimpl`` (the marker adds nothing perfrigor needs),
    so a forgotten marker is not a silently ignored function, and a misspelled hook name is
    reported by ``check_pending`` either way.
    """

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.dists: dict[str, tuple[str, str]] = {}

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        opts = super().parse_hookimpl_opts(plugin, name)
        if opts is None and name.startswith(HOOK_PREFIX) and inspect.isroutine(getattr(plugin, name, None)):
            return {}  # unmarked: pluggy's defaults (not a wrapper, not first/last)
        return opts


def make_plugin_manager(allow: Iterable[str] | None = None, extra_plugins: Iterable[Any] = ()) -> PluginManager:
    """A plugin manager with perfrigor's hookspecs and the entry-point plugins loaded."""
    import importlib.metadata  # here, not at import: ``perfrigor --help`` needs no plugins

    pm = PluginManager()
    pm.add_hookspecs(hookspecs)
    if allow is None and os.environ.get(ENV_ALLOW):
        allow = [s.strip() for s in os.environ[ENV_ALLOW].split(",") if s.strip()]
    allowed = None if allow is None else set(allow)
    entry_points = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    if allowed is not None:
        names = {ep.name for ep in entry_points}
        unknown = sorted(allowed - names)
        if unknown:
            hints = "; ".join(f"{n!r}{did_you_mean(n, names)}" for n in unknown)
            raise ConfigError(f"{ENV_ALLOW} names unknown plugin(s) {hints}; installed: {', '.join(sorted(names))}")
    for ep in entry_points:
        if allowed is not None and ep.name not in allowed:
            continue
        if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
            continue
        try:
            plugin = ep.load()
        except Exception as exc:  # noqa: BLE001 - a broken plugin is reported by name
            dist = f" (from {ep.dist.name})" if ep.dist else ""
            raise ConfigError(f"plugin {ep.name!r}{dist} cannot be loaded: {type(exc).__name__}: {exc}") from exc
        _register(pm, plugin, ep.name)
        if ep.dist is not None:
            pm.dists[ep.name] = (ep.dist.name, ep.dist.version)
    for plugin in extra_plugins:
        _register(pm, plugin, None)
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        name = pm.get_name(exc.plugin) or getattr(exc.plugin, "__name__", repr(exc.plugin))
        hooks = [n for n in dir(hookspecs) if n.startswith("perfrigor_")]
        bad = [n for n in dir(exc.plugin) if n.startswith("perfrigor") and n not in hooks
               and callable(getattr(exc.plugin, n, None))]
        hints = "; ".join(f"{n!r}{did_you_mean(n, hooks)}" for n in bad)
        raise ConfigError(f"plugin {name!r} implements unknown hook(s) {hints or exc}; "
                          f"hooks: {', '.join(hooks)}") from exc
    return pm


def _register(pm: pluggy.PluginManager, plugin: Any, name: str | None) -> None:
    """Register one plugin, turning pluggy's validation errors into a ConfigError naming it."""
    label = name or getattr(plugin, "__name__", None) or repr(plugin)
    try:
        pm.register(plugin, name=name)
    except pluggy.PluginValidationError as exc:
        raise ConfigError(f"plugin {label!r} is invalid: {exc}") from exc
    except ValueError as exc:  # registered twice under one name
        raise ConfigError(f"plugin {label!r}: {exc}") from exc


_lock = threading.Lock()
_registry: Registry | None = None


def get_registry() -> Registry:
    """The process-wide registry, built on first use."""
    global _registry
    with _lock:
        if _registry is None:
            _registry = Registry(make_plugin_manager())
        return _registry


def reload(allow: Iterable[str] | None = None, extra_plugins: Iterable[Any] = ()) -> Registry:
    """Rebuild the registry (after installing a plugin, or with an allow-list / extra plugin objects)."""
    global _registry
    with _lock:
        _registry = Registry(make_plugin_manager(allow, extra_plugins))
        return _registry


@contextlib.contextmanager
def temporary(allow: Iterable[str] | None = None, extra_plugins: Iterable[Any] = ()) -> Iterator[Registry]:
    """A registry with only the ``allow``-ed entry-point plugins and ``extra_plugins``, for a ``with``
    block (tests, a plugin's own checks); the registry in use before is back afterwards."""
    global _registry
    with _lock:
        previous = _registry
    try:
        yield reload(allow, extra_plugins)
    finally:
        with _lock:
            _registry = previous


def components() -> dict[str, str]:
    """``{name: kind}`` of every registered component."""
    return {name: rec.kind for name, rec in sorted(get_registry().components.items())}


def get(name: str, **params: Any) -> Component:
    """An instance of the component registered as ``name`` with ``params`` (ConfigError if bad)."""
    return build(get_registry().component_class(name), params)
