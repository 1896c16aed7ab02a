"""Whether a JSON Schema of the export describes files that a reader of an older one still
reads: the promise a format version makes (docs/json-export.md). Conservative: what it
cannot prove compatible, it reports."""

from __future__ import annotations

ANNOTATIONS = {"title", "description", "default", "examples", "$comment", "$schema", "$id"}
LOWER_BOUNDS = {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"}
UPPER_BOUNDS = {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"}
STRUCTURE = {"anyOf", "oneOf", "$ref", "$defs", "type", "properties", "required", "items"}
STRUCTURE |= {"additionalProperties", "enum", "const", "patternProperties", "propertyNames"}


def _resolved(node: dict, root: dict) -> dict:
    """`node` with its `$ref` (into the root's `$defs`) replaced by what it names."""
    while "$ref" in node:
        name = node["$ref"].removeprefix("#/$defs/")
        node = {**root["$defs"][name], **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _branches(node: dict) -> list[dict]:
    return node.get("anyOf") or node.get("oneOf") or [node]


def _values(node: dict) -> set | None:
    if "const" in node:
        return {repr(node["const"])}
    return {repr(v) for v in node["enum"]} if "enum" in node else None


def breaks(
    old: dict, new: dict, old_root: dict, new_root: dict, at: str = "$", seen: dict | None = None
) -> list[str]:
    """How a value `new` allows could surprise a reader written for `old` (empty: none).
    Added properties are compatible (readers ignore keys they do not know); a removed or
    retyped property, a new type or enum value, a looser bound, a changed pattern are not."""
    seen = {} if seen is None else seen
    refs = (old.get("$ref"), new.get("$ref"), repr(sorted(set(old) | set(new))))
    if refs[0] and refs[1]:
        if refs not in seen:  # compared once (and a recursive model's inner pair: as fine)
            seen[refs] = []
            seen[refs] = _compared(old, new, old_root, new_root, at, seen)
        return seen[refs]
    return _compared(old, new, old_root, new_root, at, seen)


def _compared(old: dict, new: dict, old_root: dict, new_root: dict, at: str, seen: dict) -> list:
    old, new = _resolved(old, old_root), _resolved(new, new_root)
    old_branches, new_branches = _branches(old), _branches(new)
    if len(old_branches) > 1 or len(new_branches) > 1:
        problems = []
        for number, branch in enumerate(new_branches):
            found = [breaks(o, branch, old_root, new_root, at, seen) for o in old_branches]
            if all(found):
                problems.append(f"{at}: alternative {number} fits none of the old ones")
        return problems
    problems = []
    old_types, new_types = old.get("type"), new.get("type")
    if old_types is not None:
        old_set = set(old_types) if isinstance(old_types, list) else {old_types}
        new_set = set(new_types) if isinstance(new_types, list) else {new_types}
        if new_types is None or not new_set <= old_set:
            problems.append(f"{at}: type {old_types!r} became {new_types!r}")
    old_values, new_values = _values(old), _values(new)
    if old_values is not None and (new_values is None or not new_values <= old_values):
        problems.append(f"{at}: the values {sorted(old_values)} became {new_values}")
    for name, schema in old.get("properties", {}).items():
        if name not in new.get("properties", {}):
            problems.append(f"{at}.{name}: removed")
        else:
            problems += breaks(
                schema, new["properties"][name], old_root, new_root, f"{at}.{name}", seen
            )
    for name in set(old.get("required", ())) - set(new.get("required", ())):
        problems.append(f"{at}.{name}: no longer always there")
    for keyword in ("items", "additionalProperties", "propertyNames"):
        if isinstance(old.get(keyword), dict):
            if not isinstance(new.get(keyword), dict):
                problems.append(f"{at}: {keyword} changed")
            else:
                problems += breaks(old[keyword], new[keyword], old_root, new_root, f"{at}[]", seen)
    if old.get("patternProperties", {}).keys() != new.get("patternProperties", {}).keys():
        problems.append(f"{at}: patternProperties changed")
    for pattern, schema in old.get("patternProperties", {}).items():
        if pattern in new.get("patternProperties", {}):
            new_schema = new["patternProperties"][pattern]
            problems += breaks(schema, new_schema, old_root, new_root, f"{at}[{pattern}]", seen)
    for keyword in sorted((old.keys() | new.keys()) - ANNOTATIONS - STRUCTURE):
        before, after = old.get(keyword), new.get(keyword)
        if keyword in LOWER_BOUNDS and before is not None and after is not None:
            loosened = after < before
        elif keyword in UPPER_BOUNDS and before is not None and after is not None:
            loosened = after > before
        else:
            loosened = before != after and before is not None
        if loosened:
            problems.append(f"{at}: {keyword} {before!r} became {after!r}")
    return problems


def incompatibilities(old_root: dict, new_root: dict) -> list[str]:
    """What in `new_root` (a whole schema) a reader of `old_root` could not read, each
    once (at the first place a shared definition is met)."""
    return list(dict.fromkeys(breaks(old_root, new_root, old_root, new_root)))
