"""The games as played at the table: one `Flow` module per game (see `core.flow`), listed in `registry`."""
