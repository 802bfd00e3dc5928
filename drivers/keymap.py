"""Keyboard layouts: which character a key gives, plain, with Shift and with AltGr. Pure data.

Linux key codes name the key's place on a US keyboard (KEY_Y is the key right of T), so a layout maps
codes to characters: German QWERTZ ("de", the default: Ä Ö Ü ß, Z and Y swapped, AltGr @ € { } [ ] \\ ~
| µ; the dead keys ´ ` ^ give nothing) and US QWERTY ("us"). Caps Lock turns letters to capitals
(Shift then gives small ones). Keys not in a layout give no character, so no control character is ever
made from a key. The key codes the decoder acts on besides characters are named here too.
"""

from __future__ import annotations

KEY_ESC = 1
KEY_BACKSPACE = 14
KEY_TAB = 15
KEY_ENTER = 28
KEY_LEFTCTRL = 29
KEY_LEFTSHIFT = 42
KEY_RIGHTSHIFT = 54
KEY_LEFTALT = 56
KEY_SPACE = 57
KEY_CAPSLOCK = 58
KEY_KPENTER = 96
KEY_RIGHTCTRL = 97
KEY_RIGHTALT = 100  # AltGr
KEY_UP = 103
KEY_LEFT = 105
KEY_RIGHT = 106
KEY_DOWN = 108
KEY_COMPOSE = 127  # the menu key of PC keyboards
KEY_MENU = 139
KEY_A, KEY_Z = 30, 44

_ROW_Q = dict(zip(range(16, 26), "qwertyuiop", strict=True))
_ROW_A = dict(zip(range(30, 39), "asdfghjkl", strict=True))
_ROW_Z = dict(zip(range(44, 51), "zxcvbnm", strict=True))
LETTER_KEYS = {**_ROW_Q, **_ROW_A, **_ROW_Z}  # key code -> its US letter
_DIGITS = dict(zip(range(2, 12), "1234567890", strict=True))
_KEYPAD = {71: "7", 72: "8", 73: "9", 74: "-", 75: "4", 76: "5", 77: "6", 78: "+", 79: "1", 80: "2", 81: "3",
           82: "0", 83: ".", 55: "*", 98: "/"}

Keys = dict[int, tuple[str, str, str]]  # code -> (plain, shift, altgr); "" where the key gives nothing


def _layout(letters: dict[int, str], shifted_digits: str, others: dict[int, tuple[str, str, str]],
            altgr: dict[int, str]) -> Keys:
    keys: Keys = {code: (ch, ch.upper(), "") for code, ch in letters.items()}
    keys |= {code: (digit, shifted, "") for (code, digit), shifted in zip(_DIGITS.items(), shifted_digits, strict=True)}
    keys |= {code: (ch, ch, "") for code, ch in _KEYPAD.items()}
    keys[KEY_SPACE] = (" ", " ", " ")
    keys |= others
    for code, ch in altgr.items():
        plain, shift, _ = keys.get(code, ("", "", ""))
        keys[code] = (plain, shift, ch)
    return keys


US: Keys = _layout(
    LETTER_KEYS,
    "!@#$%^&*()",
    {12: ("-", "_", ""), 13: ("=", "+", ""), 26: ("[", "{", ""), 27: ("]", "}", ""), 39: (";", ":", ""),
     40: ("'", '"', ""), 41: ("`", "~", ""), 43: ("\\", "|", ""), 51: (",", "<", ""), 52: (".", ">", ""),
     53: ("/", "?", ""), 86: ("\\", "|", "")},
    {},
)

DE: Keys = _layout(
    LETTER_KEYS | {21: "z", 44: "y"},
    '!"§$%&/()=',
    {12: ("ß", "?", ""), 13: ("", "", ""), 26: ("ü", "Ü", ""), 27: ("+", "*", ""), 39: ("ö", "Ö", ""),
     40: ("ä", "Ä", ""), 41: ("", "°", ""), 43: ("#", "'", ""), 51: (",", ";", ""), 52: (".", ":", ""),
     53: ("-", "_", ""), 86: ("<", ">", "")},
    {16: "@", 18: "€", 50: "µ", 3: "²", 4: "³", 8: "{", 9: "[", 10: "]", 11: "}", 12: "\\", 27: "~", 86: "|"},
)

LAYOUTS: dict[str, Keys] = {"de": DE, "us": US}
DEFAULT_LAYOUT = "de"
