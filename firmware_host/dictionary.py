"""The dictionary assist (ruling R3): load a German word list, if there is one, as a pure `Lexicon`.

Looked for in this order: the configured path, then Debian's `wngerman` list `/usr/share/dict/ngerman`.
Without a list the game works as well; the table decides about every word either way.
"""

from __future__ import annotations

from pathlib import Path

from firmware_host.core.games.perfektes_wort.lexicon import Lexicon

SYSTEM_LIST = Path("/usr/share/dict/ngerman")


class DictionaryError(Exception):
    """A configured word list that cannot be read."""


def read_word_list(path: Path) -> Lexicon:
    """One word per line (UTF-8, or Latin-1 for old lists); blank lines and '#' comments skipped."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DictionaryError(f"{path}: cannot read the word list ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    words = (line.strip() for line in text.splitlines())
    return Lexicon.of(w for w in words if w and not w.startswith("#") and " " not in w)


def load_dictionary(configured: Path | None = None, system: Path = SYSTEM_LIST) -> Lexicon | None:
    """The configured list (an error if it is unreadable), else the system list if present, else None."""
    if configured is not None:
        return read_word_list(configured)
    if system.is_file():
        return read_word_list(system)
    return None
