"""Perfect Words' screen texts at the table, German and English."""

from __future__ import annotations

from firmware_host.core.i18n import Table, pick

TITLE = {"de": "Perfect Words", "en": "Perfect Words"}

TEXT: Table = {
    "de": {
        "phase1": "Phase 1 · {placed}/10 Pfeile",
        "arrow": "Pfeil {arrow}",
        "grid_done": "Gitter fertig",
        "hint_arrows": "Hinweiswörter: tippen/MENU · NEXT weiter",
        "clues_field": "Pfeil {arrow}: Hinweiswörter",
        "terms_title": "{player} – Pfeil {arrow}",
        "clues": "Hinweise: {clues}",
        "hint_terms": "Begriff: tippen/MENU · NEXT leer · lang NEXT: fertig",
        "strike_hint": "{warning} – lang START: streichen",
        "struck": "gestrichen: {player}, Pfeil {arrow}",
        "pick_double": "Welcher Pfeil zählt doppelt?",
        "pick_ignore": "Welcher Pfeil zählt nicht?",
        "hint_choose": "Drehen/NEXT wählen · START ok",
        "double_mark": "×2",
        "ignore_mark": "–",
        "reveal_title": "Aufdecken",
        "chosen": "×2: Pfeil {double} · –: Pfeil {ignore}",
        "hint_reveal_start": "START: aufdecken",
        "reveal": "Pfeil {arrow}{mark}: {points} P",
        "hint_reveal": "START 2 Gruppen zusammen · NEXT weiter",
        "selected": "gewählt: {term} – START auf die zweite Gruppe",
        "merged": "zusammengelegt: {terms}",
        "none": "(keine Begriffe)",
        "total": "{total} Punkte – {rank}",
        "hint_final": "START/BACK Ende",
        "undone": "Rückgängig",
        "no_text": "Hier ist keine Eingabe möglich",
    },
    "en": {
        "phase1": "Phase 1 · {placed}/10 arrows",
        "arrow": "Arrow {arrow}",
        "grid_done": "Grid done",
        "hint_arrows": "clue words: type/MENU · NEXT goes on",
        "clues_field": "Arrow {arrow}: clue words",
        "terms_title": "{player} – arrow {arrow}",
        "clues": "Clues: {clues}",
        "hint_terms": "term: type/MENU · NEXT empty · hold NEXT: done",
        "strike_hint": "{warning} – hold START: strike",
        "struck": "struck: {player}, arrow {arrow}",
        "pick_double": "Which arrow scores double?",
        "pick_ignore": "Which arrow does not score?",
        "hint_choose": "Turn/NEXT pick · START ok",
        "double_mark": "×2",
        "ignore_mark": "–",
        "reveal_title": "Reveal",
        "chosen": "×2: arrow {double} · –: arrow {ignore}",
        "hint_reveal_start": "START: reveal",
        "reveal": "Arrow {arrow}{mark}: {points} p",
        "hint_reveal": "START merge 2 groups · NEXT on",
        "selected": "selected: {term} – START on the second group",
        "merged": "merged: {terms}",
        "none": "(no terms)",
        "total": "{total} points – {rank}",
        "hint_final": "START/BACK leave",
        "undone": "Undone",
        "no_text": "No typing here",
    },
}


def t(lang: str, key: str, **fields: object) -> str:
    return pick(TEXT, lang, key, **fields)
