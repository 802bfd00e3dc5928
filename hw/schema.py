"""A small schema for TOML tables that reports EVERY error with its dotted key (Mopidy style).

Used by the board profile (`hw.profile`) and the user config (`firmware_host.config`). A field reads one
key; its check returns the value or appends `(key, message)` errors. Nothing here raises on bad input
except `ValidationError`, which carries the whole list.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.core.text_input import Field as TextField
from firmware_host.core.text_input import TextRefused, clean, shortened

Errors = list[tuple[str, str]]


class ValidationError(ValueError):
    """Bad input: `errors` lists every problem as (dotted key, message)."""

    def __init__(self, errors: Errors) -> None:
        self.errors = list(errors)
        super().__init__("\n".join(f"{key}: {message}" for key, message in self.errors))


# A check gets (key, raw value, errors) and returns the converted value, or INVALID after adding errors.
Check = Callable[[str, object, Errors], Any]
INVALID = object()
REQUIRED = object()


def _type_name(value: object) -> str:
    names = {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }
    return names.get(type(value), type(value).__name__)


def integer(lo: int | None = None, hi: int | None = None) -> Check:
    def check(key: str, value: object, errors: Errors) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append((key, f"expected an integer, got {_type_name(value)}"))
            return INVALID
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            errors.append((key, f"{shortened(value)} is out of range {lo}–{hi}"))
            return INVALID
        return value

    return check


def boolean() -> Check:
    def check(key: str, value: object, errors: Errors) -> Any:
        if not isinstance(value, bool):
            errors.append((key, f"expected true or false, got {_type_name(value)}"))
            return INVALID
        return value

    return check


def text(choices: Sequence[str] | None = None, *, nonempty: bool = True, max_len: int | None = None) -> Check:
    def check(key: str, value: object, errors: Errors) -> Any:
        if not isinstance(value, str):
            errors.append((key, f"expected a string, got {_type_name(value)}"))
            return INVALID
        if choices is not None and value not in choices:
            errors.append((key, f"{shortened(value)} is not one of {', '.join(repr(c) for c in choices)}"))
            return INVALID
        if nonempty and not value.strip():
            errors.append((key, "must not be empty"))
            return INVALID
        if max_len is not None and len(value) > max_len:
            errors.append((key, f"{shortened(value)} is longer than {max_len} characters"))
            return INVALID
        return value

    return check


def shown_text(field: TextField) -> Check:
    """A text shown at the table (a player's name): normalised by `core.text_input.clean` as a text of
    `field`'s kind, so the config refuses what the table would (a control character, too long), and
    not empty."""

    def check(key: str, value: object, errors: Errors) -> Any:
        if not isinstance(value, str):
            errors.append((key, f"expected a string, got {_type_name(value)}"))
            return INVALID
        try:
            cleaned = clean(value, field)
        except TextRefused as exc:
            errors.append((key, exc.message))
            return INVALID
        if not cleaned:
            errors.append((key, "must not be empty"))
            return INVALID
        return cleaned

    return check


def listing(item: Check, *, min_len: int = 0, max_len: int | None = None, unique: bool = False) -> Check:
    """A list whose items each pass `item`; item errors are keyed `key[i]`. Returns a tuple."""

    def check(key: str, value: object, errors: Errors) -> Any:
        if not isinstance(value, list):
            errors.append((key, f"expected a list, got {_type_name(value)}"))
            return INVALID
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            bound = f"{min_len}–{max_len}" if max_len is not None else f"at least {min_len}"
            errors.append((key, f"expected {bound} entries, got {len(value)}"))
            return INVALID
        before = len(errors)
        items = tuple(item(f"{key}[{i}]", v, errors) for i, v in enumerate(value))
        if len(errors) > before:
            return INVALID
        if unique:
            seen: dict[object, int] = {}
            for i, v in enumerate(items):
                if v in seen:
                    errors.append((f"{key}[{i}]", f"{shortened(v)} repeats {key}[{seen[v]}]"))
                seen.setdefault(v, i)
            if len(errors) > before:
                return INVALID
        return items

    return check


@dataclass(frozen=True, slots=True)
class Field:
    check: Check
    default: Any = REQUIRED


def read_table(
    data: Mapping[str, object], prefix: str, fields: Mapping[str, Field], errors: Errors
) -> dict[str, Any]:
    """Read `fields` from `data` (a TOML table at `prefix`); unknown keys and missing ones are errors.

    The result holds every field: its value, its default, or INVALID (an error was recorded).
    """
    out: dict[str, Any] = {}
    for name in data:
        if name not in fields:
            errors.append((f"{prefix}.{name}", f"unknown key (known: {', '.join(fields)})"))
    for name, spec in fields.items():
        key = f"{prefix}.{name}"
        if name in data:
            out[name] = spec.check(key, data[name], errors)
        elif spec.default is REQUIRED:
            errors.append((key, "missing"))
            out[name] = INVALID
        else:
            out[name] = spec.default
    return out


def read_sections(
    data: Mapping[str, object], sections: Mapping[str, tuple[Mapping[str, Field], bool]], errors: Errors
) -> dict[str, dict[str, Any]]:
    """Read each `[section]` (fields, required?); unknown or non-table sections are errors."""
    out: dict[str, dict[str, Any]] = {}
    for name in data:
        if name not in sections:
            errors.append((name, f"unknown section (known: {', '.join(sections)})"))
    for name, (fields, required) in sections.items():
        table = data.get(name)
        if table is None:
            if required:
                errors.append((name, "missing section"))
            table = {}
        if not isinstance(table, dict):
            errors.append((name, f"expected a table [{name}], got {_type_name(table)}"))
            table = {}
        out[name] = read_table(table, name, fields, errors)
    return out


def load_toml(path: Path, what: str) -> dict[str, Any]:
    """Parse a TOML file; unreadable or malformed files raise ValidationError keyed by `what` (the message
    does not repeat the path: every caller prints the file before the key)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValidationError([(what, f"cannot read it: {exc.strerror or exc}")]) from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValidationError([(what, "not UTF-8 text")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError([(what, f"invalid TOML: {shortened(str(exc), 200)}")]) from None
    except RecursionError:
        raise ValidationError([(what, "its arrays or tables are nested too deeply")]) from None


def valid(values: Mapping[str, Any]) -> bool:
    return all(v is not INVALID for v in values.values())
