"""The league's messages checked against their published JSON Schemas (docs/league-*.schema.json), with no
schema library at run time.

The schemas ship as package data beside the board (`static/league-<kind>.schema.json`: symbolic links to
the docs' files, which a wheel carries as the files themselves) and are compiled once into checkers of
the keywords they use: `type`, `required`, `properties`, `additionalProperties: false`, `items`,
`pattern`, `const`, `enum`, `minimum`; the annotations (`title`, `description`, `format`, `$schema`,
`$id`) check nothing, as in jsonschema's default. A schema with any other keyword is refused when
compiled, so a new keyword is never silently passed. `problems(kind, data)` lists what is wrong (empty:
valid); a test holds it equal to jsonschema's Draft 2020-12 verdict on generated payloads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

KINDS = ("state", "status", "game")  # topic kind "games" carries a "game" message
ANNOTATIONS = frozenset({"$schema", "$id", "title", "description", "format"})
Check = Callable[[Any, str], list[str]]


class SchemaError(ValueError):
    """A schema uses a keyword this checker does not know (its name)."""


def schema(kind: str) -> dict[str, Any]:
    """The published schema of a message kind ("state", "status" or "game")."""
    text = (resources.files("firmware_host.league") / "static" / f"league-{kind}.schema.json").read_text("utf-8")
    return dict(json.loads(text))


def problems(kind: str, data: Any) -> list[str]:
    """What makes `data` no valid `kind` message, each as "where: what" (empty: it is valid)."""
    return _checker(kind)(data, "")


@cache
def _checker(kind: str) -> Check:
    return compile_schema(schema(kind))


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float)
                                                                            and value.is_integer()))
    if name == "number":
        return not isinstance(value, bool) and isinstance(value, (int, float))
    kinds: dict[str, type | tuple[type, ...]] = {"string": str, "boolean": bool, "object": dict, "array": list,
                                                 "null": type(None)}
    return isinstance(value, kinds[name])


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _at(where: str, what: str) -> str:
    return f"{where or '(message)'}: {what}"


def compile_schema(node: Mapping[str, Any]) -> Check:
    """A checker of one schema node. Raises `SchemaError` for a keyword it does not know."""
    unknown = set(node) - ANNOTATIONS - {"type", "required", "properties", "additionalProperties", "items",
                                         "pattern", "const", "enum", "minimum"}
    if unknown:
        raise SchemaError(f"unsupported schema keywords: {', '.join(sorted(unknown))}")
    if node.get("additionalProperties", False) is not False:
        raise SchemaError("additionalProperties other than false")
    checks: list[Check] = []
    if "type" in node:
        names = [node["type"]] if isinstance(node["type"], str) else list(node["type"])

        def typed(value: Any, where: str) -> list[str]:
            return [] if any(_is_type(value, n) for n in names) else [_at(where, f"not {' or '.join(names)}")]
        checks.append(typed)
    if "const" in node:
        const = node["const"]
        checks.append(lambda value, where: [] if _same(value, const) else [_at(where, f"not {json.dumps(const)}")])
    if "enum" in node:
        options = list(node["enum"])
        checks.append(lambda value, where: [] if any(_same(value, o) for o in options)
                      else [_at(where, f"not one of {json.dumps(options)}")])
    if "minimum" in node:
        least = node["minimum"]
        checks.append(lambda value, where: [_at(where, f"below {least}")]
                      if _is_type(value, "number") and value < least else [])
    if "pattern" in node:
        pattern = re.compile(node["pattern"])
        checks.append(lambda value, where: [_at(where, f"does not match {pattern.pattern}")]
                      if isinstance(value, str) and not pattern.search(value) else [])
    if "items" in node:
        item = compile_schema(node["items"])
        checks.append(lambda value, where: [p for i, v in enumerate(value) for p in item(v, f"{where}/{i}")]
                      if isinstance(value, list) else [])
    if {"required", "properties", "additionalProperties"} & set(node):
        checks.append(_object_check(node))

    def check(value: Any, where: str) -> list[str]:
        return [problem for one in checks for problem in one(value, where)]
    return check


def _object_check(node: Mapping[str, Any]) -> Check:
    required = list(node.get("required", ()))
    properties = {name: compile_schema(sub) for name, sub in node.get("properties", {}).items()}
    closed = node.get("additionalProperties", True) is False

    def check(value: Any, where: str) -> list[str]:
        if not isinstance(value, dict):
            return []
        found = [_at(where, f"{name!r} is missing") for name in required if name not in value]
        for name, item in value.items():
            if name in properties:
                found += properties[name](item, f"{where}/{name}")
            elif closed:
                found.append(_at(where, f"{name!r} is not allowed"))
        return found
    return check
