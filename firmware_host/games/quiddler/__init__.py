"""Quiddler outside the pure core: loading the deck from its data file (`data_files`)."""
