"""The ruleset registry: one place that knows which rulesets exist.

    from jxbot import rulesets
    rulesets.names()              # ("jiaxing", "caishen", ...) in registration order
    rulesets.get("caishen")       # the plug-in object (jxbot.rulesets.base.RulesetPlugin)
    rulesets.behaviour(rs)        # the plug-in that plays a jxbot.rules.Ruleset (by rs.family)
    rulesets.register(plugin)     # add one (a test's toy, a regional variant)

The built-in rulesets (``BUILTIN``) are imported on first use, so that importing the core never
imports a ruleset package. See docs/rulesets.md.
"""

from __future__ import annotations

import importlib

from .base import RulesetPlugin

__all__ = ["BUILTIN", "RulesetPlugin", "behaviour", "get", "names", "register", "unregister"]

BUILTIN = ("jiaxing", "caishen")  # jxbot.rulesets.<name>.plugin defines PLUGIN

_PLUGINS: dict[str, RulesetPlugin] = {}
_loaded = False
_loading = False


def _load() -> None:
    global _loaded, _loading
    if _loaded or _loading:
        return
    _loading = True
    try:
        complete = True
        for name in BUILTIN:
            mod = importlib.import_module(f"{__name__}.{name}.plugin")
            plugin = getattr(mod, "PLUGIN", None)  # None while that module is still being imported
            if plugin is None:
                complete = False
            elif name not in _PLUGINS:
                _PLUGINS[name] = plugin
        _loaded = complete
    finally:
        _loading = False


def register(plugin: RulesetPlugin, *, replace: bool = False) -> RulesetPlugin:
    """Add ``plugin`` under ``plugin.name``; its data must carry the same name. Returns it."""
    _load()
    if plugin.data.name != plugin.name:
        raise ValueError(f"ruleset {plugin.name!r}: its data is named {plugin.data.name!r}")
    if plugin.name in _PLUGINS and not replace and _PLUGINS[plugin.name] is not plugin:
        raise ValueError(f"ruleset {plugin.name!r} is already registered")
    _PLUGINS[plugin.name] = plugin
    return plugin


def unregister(name: str) -> None:
    """Remove a ruleset (tests). The built-in ones stay."""
    if name in BUILTIN:
        raise ValueError(f"{name!r} is built in")
    _PLUGINS.pop(name, None)


def names() -> tuple[str, ...]:
    _load()
    return tuple(_PLUGINS)


def get(name: str) -> RulesetPlugin:
    """The registered ruleset ``name``; ValueError (naming the known ones) otherwise."""
    _load()
    try:
        return _PLUGINS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; known: {', '.join(sorted(_PLUGINS))}") from None


def find(name: str | None) -> RulesetPlugin | None:
    """The registered ruleset ``name``, or None (a stored table of a ruleset no longer installed)."""
    _load()
    return _PLUGINS.get(name or "")


def behaviour(rs: object) -> RulesetPlugin:
    """The plug-in that plays ``rs`` (a ``jxbot.rules.Ruleset``: by its ``family``; a name works too)."""
    if not _loaded:
        _load()
    family = rs if isinstance(rs, str) else rs.family  # type: ignore[attr-defined]
    try:
        return _PLUGINS[family]
    except KeyError:
        raise ValueError(f"no registered ruleset plays family {family!r}") from None


def of_view(view: dict) -> RulesetPlugin:
    """The ruleset of a seat/public/result view (its ``ruleset`` name; unknown names play as jiaxing)."""
    _load()
    return _PLUGINS.get(view.get("ruleset") or "jiaxing") or _PLUGINS["jiaxing"]
