"""The games of the journal for other programs: `plays` (each game as a play: who played, their scores,
the winners, date and duration; and as CSV) and `bgstats` (a play in BG Stats' import format,
docs/bgstats.md). Pure functions of a game's summary and record text: no I/O here."""
