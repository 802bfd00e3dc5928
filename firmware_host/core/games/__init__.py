"""Rules cores, one module per game. Pure: see `firmware_host.core`."""
