"""Thin adapters over gpiozero, luma and pyserial. No game logic here; hardware imported late."""
