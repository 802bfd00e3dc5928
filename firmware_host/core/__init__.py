"""The pure core of wordtable.

Contract: nothing in this package performs I/O, reads a clock, starts a thread or imports hardware
libraries (gpiozero, luma, serial), sqlite3 or the `hw`/`drivers` packages. Time arrives inside events.
Every state is an immutable value; `step(state, event) -> (state, effects)` is the only way it changes.
"""
