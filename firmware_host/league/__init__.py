"""The league over MQTT (docs/league.md): the box's publisher (shell side) and `wordtable league` (the
venue's subscriber, its SQLite store and the live board)."""
