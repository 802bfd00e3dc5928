"""Thin adapters over gpiozero, luma and pyserial. No game logic here; hardware imported late.

Import rule (tests/test_imports.py): a driver imports the stdlib, its hardware library, other drivers and,
from the program, only the core's value types it speaks — `firmware_host.core.events` (the events it
emits) and `firmware_host.core.sounds` (the notes it plays). Nothing from `hw` (which builds the drivers)
and nothing else of `firmware_host`: pins, ports, clocks, `emit` and each part's config arrive as
parameters or as the driver's own small config dataclass (`DisplayConfig`, `ReaderConfig`).
"""
