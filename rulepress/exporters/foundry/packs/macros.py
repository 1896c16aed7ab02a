"""The `macros` pack: a script macro per kind whose registry entry has one, when the
ruleset has a document of that kind. A macro's script is rulepress's (or a plugin's)
code; the compendium reaches it only as JSON literals."""

from __future__ import annotations

import jinja2

from rulepress import kinds
from rulepress.exporters import templating
from rulepress.exporters.escaping import script_json
from rulepress.exporters.foundry.lang import texts, words
from rulepress.exporters.foundry.pack import Pack
from rulepress.exporters.foundry.packs.common import SORT_STEP, Module, document_id, key
from rulepress.exporters.markdown_text import TEMPLATES
from rulepress.kinds.systems import item_system


class JsLiteral(str):
    """A value written as a JavaScript literal by js_literal: the only thing a macro
    template may write."""


class JsSource(str):
    """The target system's code (`ItemSystem.actor_reader`), which a macro template writes
    as it is: only a registered system's, never a compendium's text."""


def js_literal(value: object) -> JsLiteral:
    """`value` as JSON that is the same value in any JavaScript or HTML script context."""
    return JsLiteral(script_json(value, sort_keys=True, ensure_ascii=False))


def _only_literals(value: object) -> JsLiteral | JsSource:
    """A macro template's every `{{ ... }}` is data, but for the system's own code: data
    reaches a script only as a literal, never as its source text or inside a comment."""
    if not isinstance(value, JsLiteral | JsSource):
        raise TypeError(f"a macro template wrote {value!r}, not a js_literal()")
    return value


def macro_environment() -> jinja2.Environment:
    """The installed macro templates (never a user's `--templates`: they are code),
    writing literals only."""
    return templating.environment(
        TEMPLATES / "foundry" / "macros",
        plugins="foundry/macros",
        autoescape=False,
        keep_trailing_newline=True,
        finalize=_only_literals,
    )


def dialog_api(foundry_version: int) -> str:
    """The dialog a macro asks its inputs in: v13's DialogV2, or the v12 build's Dialog
    (DialogV2 came in v12 as a preview; Dialog is the one v12 documents)."""
    return "DialogV2" if foundry_version >= 13 else "Dialog"


def macros_pack(module: Module) -> Pack:
    """The `macros` pack: a macro per kind that has one and a document in the ruleset."""
    ruleset = module.ruleset
    pack = module.open_pack("macros", f"{ruleset.info.title}: Macros", "Macro")
    env = macro_environment()
    stats = module.options.stats()
    # the system's reader, its last line break the template's own
    reader = JsSource(item_system(module.options.system).actor_reader.rstrip("\n"))
    with_macros = [kind for kind in kinds.registry().values() if kind.macro is not None]
    for position, kind in enumerate(with_macros, 1):
        macro = kind.macro
        if ruleset.one(kind.model) is None:
            continue
        macro_id = document_id(ruleset, "macro", macro.template)
        rules = macro.rules(ruleset)
        command = env.get_template(f"{macro.template}.js.j2").render(
            rules=js_literal(rules),
            words=js_literal(words(macro, "en")),
            texts=js_literal(texts(ruleset, macro, rules)),
            title=js_literal(f"{ruleset.info.title}: {macro.title}"),
            module=js_literal(module.options.module_id),
            macro=js_literal(macro.template),
            dialog=js_literal(dialog_api(stats.foundry_version)),
            actor_reader=reader,
        )
        pack.add(
            {
                "_id": macro_id,
                "_key": key("macros", macro_id),
                "name": macro.title,
                "type": "script",
                "author": None,
                "img": "icons/svg/dice-target.svg",
                "scope": "global",
                "command": command,
                "folder": None,
                "sort": position * SORT_STEP,
                "ownership": {"default": 0},
                "flags": {},
                "_stats": stats.field(),
            }
        )
    return pack
