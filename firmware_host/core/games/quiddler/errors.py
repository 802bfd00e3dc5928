"""The typed errors of the Quiddler core. Each says which rule the input broke, in words a table reads.

All derive from the shared `RuleError`: a code (a key of `TEXTS`, German and English) with its fields, so a
German table reads a German reason, and `wordtable score --lang de` a German one — a deck's problems too.
"""

from __future__ import annotations

from typing import ClassVar

from firmware_host.core.games.rule_error import RuleError
from firmware_host.core.i18n import Table

TEXTS: Table = {
    "de": {
        "at": "{what} in „{typed}“ bei Zeichen {at}",
        "no_such_card": "das Spiel hat keine Karte {face}",
        "no_such_double": "das Spiel hat keine Karte {face} (Doppelkarten: {known})",
        "unclosed": "„(“ wird nicht mit „)“ geschlossen",
        "bracket_one": "in Klammern steht genau eine Doppelkarte",
        "bracket_single": "die Einzelkarte {face} ohne Klammern schreiben",
        "stray_close": "„)“ ohne „(“ davor",
        "not_a_letter": "„{ch}“ ist kein Kartenbuchstabe (Buchstaben; Doppelkarten in Klammern, z. B. (QU))",
        "no_cards": "keine Karten angegeben",
        "unknown_card": "keine Karte „{face}“ im Spiel",
        "rounds": "Quiddler hat Runden 1 bis {rounds}, nicht {number}",
        "players": "Quiddler ist für {low} bis {high} Spieler, nicht {count}",
        "name_needed": "jeder Spieler braucht einen Namen",
        "same_name": "zwei Spieler dürfen nicht gleich heißen: {names}",
        "no_dealer": "„{dealer}“ ist keiner der Spieler ({names})",
        "bonus": "der Zwei-Spieler-Bonus ist {choices}, nicht „{bonus}“",
        "round_open": "Runde {round} läuft noch; erst beenden",
        "game_over": "alle {rounds} Runden sind gespielt; das Spiel ist aus",
        "laid_already": "{player} hat in Runde {round} schon abgelegt",
        "short_word": "Wort {index} von {player} ({cards}) hat {count} Karte(n); ein Wort braucht mindestens zwei",
        "hand_size": "{player}: {laid} Karte(n) in Wörtern + {unused} übrig = {total}, aber Runde {round} gibt "
                     "{hand}: nach dem letzten Zug hält jeder genau {hand} Karten",
        "out_unused": "{player} kann mit übrigen Karten ({cards}) nicht ausgegangen sein: wer ausgeht, legt alle "
                      "Karten bis auf die Abwurfkarte in Wörter",
        "out_twice": "{other} ist in Runde {round} schon ausgegangen; nur einer kann ausgehen",
        "too_many": "Runde {round} hätte {count}× die Karte {card}, das Spiel hat nur {copies}",
        "own_word": "{owner} kann das eigene Wort nicht anzweifeln",
        "not_laid": "{owner} hat in Runde {round} noch nicht abgelegt",
        "no_word": "{owner} hat kein Wort {cards} gelegt (Wörter: {words})",
        "challenged": "{owner}s Wort {cards} ist schon angezweifelt; die Karten sind gesperrt",
        "cannot_end": "Runde {round} kann nicht enden: {missing} hat noch nicht abgelegt",
        "closed_over": "{action} geht nicht: das Spiel ist aus",
        "closed_none": "{action} geht nicht: keine Runde offen (erst eine beginnen)",
        "act_lay": "Ablegen",
        "act_challenge": "Anzweifeln",
        "act_end": "Runde beenden",
        "not_player": "„{player}“ spielt nicht mit ({names})",
        "none": "keine",
        "empty": "leer",
        "solo_short": "ein Wort braucht mindestens zwei Karten, nicht {count}",
        "no_pile": "es gibt keinen Stapel {pile} (Stapel 0 bis {last})",
        "empty_pile": "Stapel {pile} ist leer",
        "pile_twice": "Stapel {pile} zweimal, aber nur seine oberste Karte ist sichtbar",
        "deck": "Kartenspiel: {problems}",
        "deck_entry": "Karte „{face}“: Anzahl und Wert angeben",
        "deck_face": "Karte „{face}“: eine Karte ist ein oder zwei Großbuchstaben A–Z",
        "deck_copies": "Karte „{face}“: die Anzahl ist eine ganze Zahl ab 1, nicht {copies}",
        "deck_value": "Karte „{face}“: der Wert ist eine ganze Zahl ab 1, nicht {value}",
        "deck_total": "die Karten ergeben zusammen {total}; ein Quiddler-Spiel hat {size}",
    },
    "en": {
        "at": "{what} in {typed!r} at character {at}",
        "no_such_card": "the deck has no card {face}",
        "no_such_double": "the deck has no card {face} (double-letter cards: {known})",
        "unclosed": "'(' is never closed by ')'",
        "bracket_one": "brackets must hold one double-letter card",
        "bracket_single": "write the single-letter card {face} without brackets",
        "stray_close": "')' without a '(' before it",
        "not_a_letter": "{ch!r} is not a card letter (write letters; a double-letter card in brackets, e.g. (QU))",
        "no_cards": "no cards given",
        "unknown_card": "there is no card {face!r} in the deck",
        "rounds": "a Quiddler game has rounds 1 to {rounds}, not {number}",
        "players": "Quiddler is for {low} to {high} players, not {count}",
        "name_needed": "every player needs a name",
        "same_name": "two players may not share a name: {names}",
        "no_dealer": "the dealer {dealer!r} is not one of the players ({names})",
        "bonus": "the two-player bonus is {choices}, not {bonus!r}",
        "round_open": "round {round} is still open; end it first",
        "game_over": "all {rounds} rounds are played; the game is over",
        "laid_already": "{player} has already laid down in round {round}",
        "short_word": "{player}'s word {index} ({cards}) has {count} card(s); a word needs at least two cards",
        "hand_size": "{player} has {laid} card(s) in words and {unused} unused = {total}, but round {round} deals "
                     "{hand}: after the last turn (draw one, discard one) every player holds exactly {hand} "
                     "cards, each laid in a word or left unused",
        "out_unused": "{player} cannot have gone out with unused cards ({cards}): going out means laying every "
                      "card but the discard in words",
        "out_twice": "{other} already went out in round {round}; only one player can go out",
        "too_many": "round {round} would hold {count} cards {card} across the players, but the deck has only "
                    "{copies}",
        "own_word": "{owner} cannot challenge their own word",
        "not_laid": "{owner} has not laid down yet in round {round}",
        "no_word": "{owner} laid no word {cards} (their words: {words})",
        "challenged": "{owner}'s word {cards} has already been challenged; its cards are locked",
        "cannot_end": "round {round} cannot end: {missing} has not laid down",
        "closed_over": "cannot {action}: the game is over",
        "closed_none": "cannot {action}: no round is open (start one first)",
        "act_lay": "lay down",
        "act_challenge": "challenge",
        "act_end": "end the round",
        "not_player": "{player!r} is not a player of this game ({names})",
        "none": "none",
        "empty": "empty",
        "solo_short": "a word needs at least two cards, not {count}",
        "no_pile": "there is no pile {pile} (piles are 0 to {last})",
        "empty_pile": "pile {pile} is empty",
        "pile_twice": "pile {pile} is used twice, but only its top card is visible",
        "deck": "deck: {problems}",
        "deck_entry": "card {face!r}: give copies and value",
        "deck_face": "card {face!r}: a face is one or two capital letters A-Z",
        "deck_copies": "card {face!r}: copies must be a whole number of at least 1, not {copies!r}",
        "deck_value": "card {face!r}: value must be a whole number of at least 1, not {value!r}",
        "deck_total": "the copies add up to {total} cards; a Quiddler deck has {size}",
    },
}


class Word(RuleError):
    """A word of the catalogue used inside another error's text (`Word("none")`: "keine"/"none")."""

    TEXTS: ClassVar[Table] = TEXTS

__all__ = [
    "TEXTS",
    "CardCountError",
    "ChallengeError",
    "DeckError",
    "GoingOutError",
    "HandSizeError",
    "NotationError",
    "QuiddlerError",
    "RuleError",
    "SequenceError",
    "SetupError",
    "ShortWordError",
    "SolitaireError",
    "UnknownCardError",
    "UnknownPlayerError",
    "Word",
]


class QuiddlerError(RuleError):
    """The common base: Quiddler's texts."""

    TEXTS: ClassVar[Table] = TEXTS


class Problems(QuiddlerError):
    """Several problems at once (each a `Word`), said in one line, separated by semicolons."""

    def __init__(self, problems: tuple[Word, ...]) -> None:
        self.problems = problems
        super().__init__("problems")

    def text(self, lang: str) -> str:
        return "; ".join(problem.text(lang) for problem in self.problems)


class DeckError(QuiddlerError):
    """A deck table that is not a playable Quiddler deck (unknown face, bad copies or value, wrong total):
    every problem at once (`problems`, each a `Word` of the catalogue)."""

    def __init__(self, problems: tuple[Word, ...]) -> None:
        self.problems = problems
        super().__init__("deck", problems=Problems(problems))


class NotationError(QuiddlerError):
    """Typed cards that cannot be read: `typed` is the text, `position` the 0-based character where
    reading failed; `code` and `fields` say why (a key of `TEXTS`)."""

    def __init__(self, code: str, text: str, position: int, **fields: object) -> None:
        super().__init__("at", what=Word(code, 0, **fields), typed=text, at=position + 1)
        self.typed = text
        self.position = position


class UnknownCardError(QuiddlerError):
    """A card the deck does not have."""


class CardCountError(QuiddlerError):
    """More copies of a card in a round than the deck holds."""


class ShortWordError(QuiddlerError):
    """A word of fewer than two cards."""


class HandSizeError(QuiddlerError):
    """Laid and unused cards that do not add up to the round's hand size."""


class GoingOutError(QuiddlerError):
    """A going-out that is not one: unused cards left, or a second player going out in the same round."""


class UnknownPlayerError(QuiddlerError):
    """A name that is not one of the game's players."""


class SetupError(QuiddlerError):
    """A game set-up that cannot be played (player count, names, dealer, bonus choice)."""


class ChallengeError(QuiddlerError):
    """A challenge that cannot be made (own word, no such word, already challenged)."""


class SequenceError(QuiddlerError):
    """An event that does not fit the game's progress (laying outside a round, a ninth round, ...)."""


class SolitaireError(QuiddlerError):
    """A solitaire move that cannot be made (no such pile, an empty pile, a pile used twice)."""
