"""wordtable: the program the Raspberry Pi runs at the game table.

`firmware_host.core` is pure (no I/O, no clock, no threads); everything else is the shell around it.
"""

__version__ = "0.1.0"
