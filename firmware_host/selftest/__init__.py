"""`wordtable selftest`: an interactive walk through every part of the box on its real pins (the hardware
`hw.build` makes from the profile), the OLED and the terminal saying what should happen and the maker
confirming; it ends with a summary to paste into a bug report. `walk.py` holds the steps, `steps.py` their
values and the summary, `conversation.py` the prompts and answers, `patterns.py` the OLED test images,
`hands.py` the maker's hands on a mock board, `text.py` what the OLED and the terminal say (German, English)."""

from firmware_host.selftest.steps import Outcome, Prompt, Result, Typed, summary
from firmware_host.selftest.walk import PARTS, Selftest

__all__ = ["PARTS", "Outcome", "Prompt", "Result", "Selftest", "Typed", "summary"]
