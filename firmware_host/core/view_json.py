"""The JSON text of a view (the table page's): compact, keys sorted, umlauts as they are; and parts of a
view whose text is known, so that a view made of parts that did not change writes only what did.

`known_dict(part)` and `known_list(part)` are a dict or list equal to `part` (a view holding it is the
same data) that carries its text, made once from the texts of its items (a known item's own). A game's
page remembers the known parts of a value (e.g. a player's rows of the sheet), and `dumps` takes their
text instead of writing them again. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from json.encoder import encode_basestring
from typing import Any

_CONSTANTS: dict[bool | None, str] = {None: "null", True: "true", False: "false"}
_ENCODER = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"))  # stateless: shared
# The same encoder's C core made once (json makes one per call): without the check for circular values,
# which a view never is, it keeps no state between calls. None where json has no C core.
_MAKE_C: Callable[..., Callable[[Any, int], Iterable[str]]] | None = getattr(json.encoder, "c_make_encoder", None)
_C_ENCODE = _MAKE_C(None, _ENCODER.default, encode_basestring, None, ":", ",", True, False, True) if _MAKE_C else None


class KnownDict(dict[str, Any]):
    """A view's object and its JSON text (`text`). Never to be changed: the text would not follow."""

    __slots__ = ("text",)
    text: str


class KnownList(list[Any]):
    """A view's list and its JSON text (`text`). Never to be changed: the text would not follow."""

    __slots__ = ("text",)
    text: str


def dumps(value: Any) -> str:
    """The text of `value` (`json.dumps` compact with sorted keys, `ensure_ascii=False`); a known part's is
    its text. A known part inside a plain dict or list is written out again (the same text, only slower)."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)  # what json.dumps writes for a text
    if kind is KnownDict or kind is KnownList:
        text: str = value.text
        return text
    if kind is int:
        return int.__repr__(value)  # as json.dumps writes a whole number
    if value is None or kind is bool:
        return _CONSTANTS[value]
    return "".join(_C_ENCODE(value, 0)) if _C_ENCODE is not None else _ENCODER.encode(value)


def known_dict(data: Mapping[str, Any]) -> KnownDict:
    """`data` (keys: texts) as a known part."""
    part = KnownDict(data)
    part.text = "{" + ",".join(f"{dumps(key)}:{dumps(part[key])}" for key in sorted(part)) + "}"
    return part


def known_list(items: Sequence[Any]) -> KnownList:
    """`items` as a known part."""
    part = KnownList(items)
    part.text = "[" + ",".join(map(dumps, part)) + "]"
    return part
