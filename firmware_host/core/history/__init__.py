"""History and statistics per person over the games the journal archived (issue 37). Pure: the shell
reads the journal and scores each record; `played` turns a scored record into a `PlayedGame`, `people`
counts per person, `evenings` groups the games by evening, `summary` says the OLED's line at a game's end,
`report` gives it all as JSON."""

from firmware_host.core.history.evenings import EVENING_GAP_S, Evening, evenings
from firmware_host.core.history.people import GameStats, Person, Rival, minutes_seconds, people, person_of
from firmware_host.core.history.played import PlayedGame, Seat, Word, played_game
from firmware_host.core.history.report import RECENT_EVENINGS, person_json, table_json
from firmware_host.core.history.summary import highlight, highlight_text

__all__ = [
    "EVENING_GAP_S", "RECENT_EVENINGS", "Evening", "GameStats", "Person", "PlayedGame", "Rival", "Seat", "Word",
    "evenings", "highlight", "highlight_text", "minutes_seconds", "people", "person_json", "person_of",
    "played_game", "table_json",
]
