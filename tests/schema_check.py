"""Checking record lines against the published JSON Schema (docs/record-schema.json), one compiled
validator per game."""

from __future__ import annotations

import functools

import jsonschema

from firmware_host.core.record_schema import record_schema


@functools.cache
def validator(part: str) -> jsonschema.Draft202012Validator:
    """The schema's check of one line of `part`: "header", or a game id (an event line of that game)."""
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{part}", "$defs": record_schema()["$defs"]})
