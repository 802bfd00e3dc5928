"""Letters and words of Das perfekte Wort: spelling rules shared by data, rules and scoring.

A word is a sequence of letters A–Z, Ä, Ö, Ü and ß; each is one letter (one cell). Words are kept in
upper case, except ß, which has no single upper-case letter here (Python's "ß".upper() is "SS").
"""

from __future__ import annotations

LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜß")
VOWELS = ("A", "E", "I", "O", "U")  # Ä, Ö and Ü are not vowels in this game


def normalize(text: str) -> str:
    """`text` in the game's spelling: upper case, ß kept as one letter (ẞ becomes ß), spaces trimmed."""
    return "".join("ß" if ch in "ßẞ" else ch.upper() for ch in text.strip())


def bad_letters(word: str) -> str:
    """The characters of a normalized `word` that are not letters of the game, in order, once each."""
    seen: list[str] = []
    for ch in word:
        if ch not in LETTERS and ch not in seen:
            seen.append(ch)
    return "".join(seen)


def vowel_counts(word: str) -> dict[str, int]:
    """How often each vowel A E I O U occurs in a normalized `word`."""
    return {vowel: word.count(vowel) for vowel in VOWELS}
