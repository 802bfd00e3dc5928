"""Data shipped with the appliance (game data, the simulator's demo script)."""
