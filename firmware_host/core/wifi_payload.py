"""The `WIFI:` QR payload phones read to join a network (the ZXing convention every phone camera follows):
`WIFI:T:WPA;S:<ssid>;P:<password>;;`, where `\\ ; , : "` in a value are escaped with a backslash.
`parse` is a reader of the same standard (tests and the VM test read the box's QR with it). Pure."""

from __future__ import annotations

from dataclasses import dataclass

SPECIAL = '\\;,:"'


@dataclass(frozen=True, slots=True)
class WifiJoin:
    """A network to join: its name, its password ("" for an open one) and whether it is hidden."""

    ssid: str
    password: str = ""
    hidden: bool = False


def escape(value: str) -> str:
    """`value` with each of `SPECIAL` preceded by a backslash."""
    return "".join("\\" + char if char in SPECIAL else char for char in value)


def split_escaped(text: str, separator: str) -> list[str]:
    """`text` split at each `separator` not escaped by a backslash, the backslashes taken out (`a\\;b;c` at
    ";" is ["a;b", "c"]): the fields of a payload's body, or of a line of `nmcli -t`, which escapes alike."""
    fields, field, escaped = [], "", False
    for char in text:
        if escaped:
            field, escaped = field + char, False
        elif char == "\\":
            escaped = True
        elif char == separator:
            fields.append(field)
            field = ""
        else:
            field += char
    return [*fields, field]


def payload(join: WifiJoin) -> str:
    """The QR text that joins a phone to `join` (WPA/WPA2 with a password, else open)."""
    kind = "WPA" if join.password else "nopass"
    fields = [f"T:{kind}", f"S:{escape(join.ssid)}"]
    if join.password:
        fields.append(f"P:{escape(join.password)}")
    if join.hidden:
        fields.append("H:true")
    return "WIFI:" + "".join(field + ";" for field in fields) + ";"


def parse(text: str) -> WifiJoin:
    """The network a `WIFI:` payload names; ValueError when `text` is not one."""
    if not text.startswith("WIFI:"):
        raise ValueError("not a WIFI: payload")
    fields: dict[str, str] = {}
    key, value, escaped, in_value = "", "", False, False
    for char in text[len("WIFI:"):]:
        if escaped:
            value, escaped = value + char, False
        elif char == "\\" and in_value:
            escaped = True
        elif not in_value:
            if char == ":":
                in_value = True
            elif char == ";":
                break  # the empty field that ends the payload
            else:
                key += char
        elif char == ";":
            fields[key], key, value, in_value = value, "", "", False
        else:
            value += char
    else:
        raise ValueError("a WIFI: payload ends with ;;")
    if "S" not in fields:
        raise ValueError("a WIFI: payload names its network (S:)")
    return WifiJoin(fields["S"], fields.get("P", ""), fields.get("H", "").lower() == "true")
