"""The games' impure parts outside the pure core: data file loaders and printable sheets, one package per game."""
