"""The games' impure parts outside the core: data files to load, sheets to print (one package per game)."""
