"""`wordtable selftest`: an interactive walk through every part of the box on its real pins (the hardware
`hw.build` makes from the profile), the OLED and the terminal saying what should happen and the maker
confirming; it ends with a summary to paste into a bug report. `walk.py` holds the steps, `patterns.py`
the OLED test images, `hands.py` the maker's hands on a mock board, `text.py` the OLED's texts."""

from firmware_host.selftest.walk import PARTS, Outcome, Prompt, Result, Selftest, Typed, summary

__all__ = ["PARTS", "Outcome", "Prompt", "Result", "Selftest", "Typed", "summary"]
