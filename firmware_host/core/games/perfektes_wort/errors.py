"""Typed errors of Das perfekte Wort. Each says what is wrong and what the table can do instead.

An error is a text code with its fields (the shared `games.rule_error.RuleError`), so that the table UI can
show it in German (the default) or English: `error.text(lang)`; `error.message` is the English text
(records and logs). `ref` names the table event at fault (the record's line number; 0 when unknown), so
that an error found only while scoring can still point at the entry that caused it.
"""

from __future__ import annotations

from typing import Any

from firmware_host.core.games.rule_error import RuleError as BaseRuleError
from firmware_host.core.i18n import Table

TEXTS: Table = {
    "de": {
        "players_count": "Das perfekte Wort ist für 1 bis {max} Spieler, nicht für {n}",
        "empty_name": "ein Spielername ist leer",
        "name_twice": "der Name {name} kommt doppelt vor",
        "deck_full": "der Stapel hat schon die {need} Karten, die 9 Runden brauchen",
        "card_missing": "Runde {round} braucht Karte {need} (erst {have} Karten bekannt): "
        "zuerst die nächste Karte scannen oder eingeben",
        "card_too_long": "Karte {round} erlaubt {length} Buchstaben, "
        "aber Zeile {round} hat nur {cells} Felder",
        "unknown_player": "{name} spielt nicht mit; es spielen {players}",
        "second_word": "{player} hat in Runde {round} schon ein Wort ({word}); bitte als Korrektur eingeben",
        "no_word": "{player} hat in Runde {round} kein Wort",
        "too_long_shorten": "{player}, Runde {round}: {word} hat {n} Buchstaben, erlaubt sind {limit}; "
        "kürzen (zu {options}) oder streichen",
        "too_long_strike": "{player}, Runde {round}: {word} hat {n} Buchstaben, "
        "erlaubt sind {limit}; streichen",
        "invalid_shorten": "{player}, Runde {round}: {word} wurde für ungültig erklärt; "
        "kürzen (zu {options}) oder streichen",
        "invalid_strike": "{player}, Runde {round}: {word} wurde für ungültig erklärt; streichen",
        "no_round": "Runde {round} gibt es nicht; das Spiel hat die Runden 1 bis 9",
        "not_revealed": "Runde {round} hat noch nicht begonnen: ihre Karte ist noch nicht aufgedeckt "
        "(aufgedeckt: {revealed})",
        "after_ninth": "das Spiel endet nach Runde 9; es gibt keine weitere Karte",
        "wrong_reveal": "als Nächstes wird die Karte für Runde {next} aufgedeckt, nicht für Runde {round}",
        "before_next": "vor der nächsten Karte: {problem}",
        "solo_strike_due": "Solo: nach Runde {round} ein unbenutztes Bonusfeld streichen (offen: {open}), "
        "dann die nächste Karte",
        "empty_word": "das Wort ist leer; streiche es stattdessen",
        "bad_letters": "{text} enthält {wrong}: ein Buchstabe pro Feld, nur A–Z, Ä, Ö, Ü und ß",
        "wrong_letter": "{word} beginnt nicht mit {letter}, dem Anfangsbuchstaben von Runde {round}",
        "longer_than_row": "{word} hat {n} Buchstaben, aber Zeile {round} hat nur {cells} Felder",
        "is_struck": "das Wort von {player} in Runde {round} ist gestrichen; für ein neues Wort korrigieren",
        "too_long_not_valid": "{word} ist länger als {limit} Buchstaben und damit nicht gültig; "
        "kürzen oder streichen",
        "not_prefix": "{to} ist keine Kürzung von {word}: nur hinten Buchstaben wegnehmen",
        "still_too_long": "{to} ist immer noch länger als {limit} Buchstaben",
        "solo_only": "Bonusfelder nach Wahl streicht man nur in der Solo-Variante",
        "not_a_field": "{field} ist kein Bonusfeld; die Felder sind {fields}",
        "one_strike": "nach Runde {round} wird nur ein Bonusfeld gestrichen",
        "strike_used": "{field} wurde benutzt (eingekreist in Runde {round}); streiche ein unbenutztes Feld",
        "already_struck": "{field} ist schon durchgestrichen (Runde {round})",
        "data_not_a_card": "„{card}“ ist keine Karte: den Buchstaben und die Länge schreiben, z. B. „F8“",
        "data_card_length": "„{card}“: eine Karte erlaubt {low} bis {high} Buchstaben, nicht {length}",
        "data_deck_list": "muss eine Liste von mindestens {minimum} Karten wie „F8“ sein",
        "data_deck_size": "der Stapel hat {count} Karten; er muss {size} haben",
        "data_no_face": "keine Punktekarten-Seite „{face}“; bekannt: {known}",
    },
    "en": {
        "players_count": "Das perfekte Wort is for 1 to {max} players, not {n}",
        "empty_name": "a player's name is empty",
        "name_twice": "the player name {name} is given twice",
        "deck_full": "the deck already holds the {need} cards 9 rounds need",
        "card_missing": "round {round} needs card {need} ({have} cards known so far): "
        "scan or enter the next card first",
        "card_too_long": "card {round} allows {length} letters, "
        "but row {round} of the sheet has {cells} cells",
        "unknown_player": "{name} is not playing; the players are {players}",
        "second_word": "{player} already has a word in round {round} ({word}); enter a correction instead",
        "no_word": "{player} has no word in round {round}",
        "too_long_shorten": "{player}, round {round}: {word} has {n} letters, the maximum is {limit}; "
        "shorten it (to {options}) or strike it",
        "too_long_strike": "{player}, round {round}: {word} has {n} letters, "
        "the maximum is {limit}; strike it",
        "invalid_shorten": "{player}, round {round}: {word} was declared invalid; "
        "shorten it (to {options}) or strike it",
        "invalid_strike": "{player}, round {round}: {word} was declared invalid; strike it",
        "no_round": "there is no round {round}; the game has rounds 1 to 9",
        "not_revealed": "round {round} has not begun: its card is not revealed yet "
        "(revealed so far: {revealed})",
        "after_ninth": "the game ends after round 9; there is no further card to reveal",
        "wrong_reveal": "the next card to reveal is round {next}'s, not round {round}'s",
        "before_next": "before the next card: {problem}",
        "solo_strike_due": "solo: strike one bonus field you have not used after round {round} "
        "(open: {open}) before the next card",
        "empty_word": "the word is empty; strike it instead",
        "bad_letters": "{text} holds {wrong}: one letter per cell, A–Z, Ä, Ö, Ü and ß only",
        "wrong_letter": "{word} does not start with round {round}'s letter {letter}",
        "longer_than_row": "{word} has {n} letters but row {round} has only {cells} cells",
        "is_struck": "{player}'s word in round {round} is struck; correct it to enter it anew",
        "too_long_not_valid": "{word} is longer than the maximum {limit}, so not valid; shorten or strike it",
        "not_prefix": "{to} is not a shortening of {word}: cut letters from the end only",
        "still_too_long": "{to} is still longer than the maximum {limit}",
        "solo_only": "bonus fields are struck by choice only in the solo variant",
        "not_a_field": "{field} is not a bonus field; the fields are {fields}",
        "one_strike": "only one bonus field is struck after round {round}",
        "strike_used": "{field} was used (circled in round {round}); strike a field not used",
        "already_struck": "{field} is already struck (round {round})",
        "data_not_a_card": '{card!r} is not a card: write the letter and the length, e.g. "F8"',
        "data_card_length": "{card!r}: a card's length is {low} to {high}, not {length}",
        "data_deck_list": 'must be a list of at least {minimum} cards such as "F8"',
        "data_deck_size": "the deck has {count} cards; it must have {size}",
        "data_no_face": "no points-card face {face!r}; known: {known}",
    },
}


class RuleError(BaseRuleError):
    """An event or state that the rules do not allow: a text `code` (a key of `TEXTS`) with its `fields`."""

    TEXTS = TEXTS


class DataError(RuleError):
    """Game data (sheet, deck, points cards, vowel values) that is malformed; `key` names the place.

    `why` is a code of `TEXTS` with its fields (the deck's and the cards' problems, which a record read by
    `wordtable score` may show a table) or an English text for the people who edit the sheet files; the
    text is "key: why"."""

    def __init__(self, key: str, why: str, **fields: Any) -> None:
        self.key = key
        super().__init__(why, **fields)

    def text(self, lang: str) -> str:
        why = super().text(lang)
        return f"{self.key}: {why}" if self.key else why


class SetupError(RuleError):
    """The setup cannot start a game (players, deck, sheet)."""


class UnknownPlayer(RuleError):
    """An event names a player who is not in the game."""


class RoundError(RuleError):
    """An event for a round that does not exist, is not yet revealed, or a reveal out of turn."""


class WrongStartingLetter(RuleError):
    """The word does not begin with the round's starting letter."""


class BadLetters(RuleError):
    """The word holds characters that are not letters of the game."""


class TooLong(RuleError):
    """A word longer than the round's maximum length (or its row); `prefixes` are the allowed shortenings."""

    def __init__(self, code: str, prefixes: tuple[str, ...], ref: int = 0, **fields: Any) -> None:
        super().__init__(code, ref, **fields)
        self.prefixes = prefixes


class EntryError(RuleError):
    """An entry step that does not fit the entry (no word yet, a second word, not a prefix, …)."""


class Unresolved(RuleError):
    """A word declared invalid (or too long) that was neither shortened nor struck, or a solo strike due."""


class FieldError(RuleError):
    """A bonus-field action that is not allowed (solo strike of a used or struck field, unknown field…)."""
