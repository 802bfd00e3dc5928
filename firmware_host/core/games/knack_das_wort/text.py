"""Knack das Wort's screen texts at the table, German and English."""

from __future__ import annotations

from firmware_host.core.i18n import Table, pick

TITLE = {"de": "Knack das Wort", "en": "Knack das Wort"}

TEXT: Table = {
    "de": {
        "turn": "Zug {n} · Name und Punkte",
        "turn_timed": "Zug {n} · {time}",
        "hint_turn": "Wort/Zahl: tippen/MENU · NEXT zieht · START Karten",
        "word_field": "Wort von {player}",
        "card_field": "Karte von {player}",
        "tasks": "Aufgabe: {tasks}",
        "played": "gespielt: {cards}",
        "scored": "{player} +{points} → {total}",
        "drew": "{player} zieht / passt",
        "card": "{player}: {card}",
        "out": "{player} keine Karten mehr",
        "actions": "Aktionen: {player}",
        "action_card": "Karte {card}",
        "action_draw": "zieht / passt",
        "action_out": "{player}: keine Karten mehr",
        "end_discard": "Ende: Ablagestapel leer",
        "end_grid": "Ende: Tabelle voll",
        "hint_menu": "START wählen · Karte: tippen/MENU · BACK zurück",
        "board": "Punkte",
        "left": "Restkarten: {player}",
        "hint_left": "Drehen/NEXT ± · Zahl tippen · START ok",
        "winner": "Gewonnen: {players}",
        "hint_final": "START Ende · BACK rückgängig",
        "undone": "Rückgängig",
        "no_text": "Hier ist keine Eingabe möglich",
        "not_count": "„{text}“ ist keine Anzahl Karten",
    },
    "en": {
        "turn": "Turn {n} · name and points",
        "turn_timed": "Turn {n} · {time}",
        "hint_turn": "word/number: type/MENU · NEXT draws · START cards",
        "word_field": "Word of {player}",
        "card_field": "Card of {player}",
        "tasks": "Task: {tasks}",
        "played": "played: {cards}",
        "scored": "{player} +{points} → {total}",
        "drew": "{player} draws / passes",
        "card": "{player}: {card}",
        "out": "{player} has no cards left",
        "actions": "Actions: {player}",
        "action_card": "Card {card}",
        "action_draw": "draws / passes",
        "action_out": "{player}: no cards left",
        "end_discard": "End: discard pile used up",
        "end_grid": "End: grid full",
        "hint_menu": "START choose · card: type/MENU · BACK back",
        "board": "Scores",
        "left": "Cards left: {player}",
        "hint_left": "Turn/NEXT ± · type a number · START ok",
        "winner": "Winner: {players}",
        "hint_final": "START leave · BACK undo",
        "undone": "Undone",
        "no_text": "No typing here",
        "not_count": "“{text}” is not a number of cards",
    },
}


def t(lang: str, key: str, **fields: object) -> str:
    return pick(TEXT, lang, key, **fields)
