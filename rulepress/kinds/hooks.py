"""The kinds' hooks: the `"module:attribute"` names and the functions a kind gives, made
ready to call. A plugin's hook that cannot be imported, or raises when called, is a
PluginError naming the plugin (exit 2), never an internal error."""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from typing import Any

from rulepress import kinds
from rulepress.errors import PluginError, RulepressError, raised_text
from rulepress.kinds import FoundryItems, Kind

HOOKS = ("chart", "calculator", "roll", "odds", "new")
"""The `"module:attribute"` hooks of a Kind (its Guide has `helpers` and `journal`)."""


def load_hook(reference: str) -> Any:
    """The object a `"module:attribute"` hook names. A plugin's hook that cannot be
    imported is a PluginError naming the plugin; a plugin's function is returned
    wrapped, so what it raises when called is one too (see `plugin_call`)."""
    owner = _hook_owner(reference)
    hooked = _imported(reference, owner)
    if owner is None or owner.package == "rulepress" or not inspect.isfunction(hooked):
        return hooked
    return plugin_call(hooked, f"hook {reference!r} of kind {owner.name!r}", owner.package)


def _imported(reference: str, owner: Kind | None) -> Any:
    """The object `reference` names; for a plugin's, an import that fails is a PluginError."""
    module, _, attribute = reference.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except Exception as exc:
        if owner is None or owner.package == "rulepress":
            raise  # rulepress's own hooks failing is a bug to report
        raise PluginError(
            f"hook {reference!r} of kind {owner.name!r} from plugin {owner.package} "
            f"cannot be imported: {raised_text(exc)}"
        ) from None


def hook(kind: Kind, name: str, passes: tuple[type[Exception], ...] = ()) -> Callable | None:
    """The kind's hook `name` (a `"module:function"` or a function) ready to call, None
    when the kind has none; a plugin's raises only PluginError and `passes`."""
    return _ready(kind, getattr(kind, name), f"hook {name!r} of kind {kind.name!r}", passes)


def kind_hook(kind: Kind, named: str | Callable | None, what: str) -> Callable | None:
    """A hook of the kind's records (its Foundry mapping's `description_context`...), given
    as `"module:function"` or as the function, ready to call, as `hook` makes it."""
    return _ready(kind, named, f"{what} hook of kind {kind.name!r}")


def _ready(
    kind: Kind, named: str | Callable | None, what: str, passes: tuple[type[Exception], ...] = ()
) -> Callable | None:
    """`named` imported if it is a `"module:function"`; a plugin's wrapped by plugin_call."""
    if named is None:
        return None
    function = _imported(named, kind) if isinstance(named, str) else named
    if kind.package == "rulepress":
        return function
    return plugin_call(function, what, kind.package, passes)


def plugin_call(
    function: Callable, what: str, package: str, passes: tuple[type[Exception], ...] = ()
) -> Callable:
    """`function`, a plugin's, with any Exception it raises but `passes` made a PluginError
    naming `what` and the package (exit 2, not an internal error). Ctrl-C and sys.exit,
    which are no Exception, still stop rulepress."""

    @functools.wraps(function)
    def called(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except (RulepressError, *passes):
            raise
        except Exception as exc:
            raise PluginError(f"{what} from plugin {package} failed: {raised_text(exc)}") from exc

    return called


def _hook_owner(reference: str) -> Kind | None:
    """The kind whose hook `reference` is, to name its package when the hook fails."""
    for kind in kinds.registry().values():
        named = [getattr(kind, hook) for hook in HOOKS]
        if kind.guide is not None:
            named += [kind.guide.helpers, kind.guide.journal]
        if isinstance(kind.foundry, FoundryItems):
            named.append(kind.foundry.description_context)
        if reference in named:
            return kind
    return None
