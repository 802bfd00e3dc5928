"""The compact word index the reveal solvers read (`core.games.word_groups.WordGroups`), kept in a file.

A plain word list (one word a line, e.g. Debian's `/usr/share/dict/ngerman`) is read once, spelled the
game's way, grouped by (first letter, length) and written to `<state dir>/words/<name>.idx`:

    WTIDX 1\\n
    {"source", "size", "mtime_ns", "language", "words", "groups": [[first, length, offset, bytes], ...]}\\n
    <one Latin-1 blob: each group's words, sorted, joined by newlines>

Latin-1 holds every letter of both games (A–Z, Ä Ö Ü ß) in one byte, so the blob of the ~356,000 words of
`wngerman` is ~4.5 MB and is the index's whole resident memory (a Python set of them is ~30 MB). The file
is rebuilt when the source list's size or modification time changed. The reveal of Das perfekte Wort
reads a second index of the German list, `<list>.allowed.de.idx`: only its words that the Ding lexicon
allows (`base_forms`: base forms, no proper names), rebuilt when either file changes. Reading files lives
here, in the shell; the core only gets the finished value.

A build never runs in the service: it runs in a child process (`python -m firmware_host.word_index`) in
the idle class (SCHED_IDLE, idle I/O: `thread_priority.run_when_idle`) that writes the file, which the
service then reads. So the build's CPU and storage cannot stall the loop, the display or the alarm,
and its memory (the list as a set of strings, ~100 MB for `wngerman`) is never the service's: it holds
the finished blob (~4.5 MB) only. The file is read, not mapped: a mapped file cut short under it would
kill the service with SIGBUS. Only when no child can write the file (a read-only state directory) is the
index built in memory, as before.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from firmware_host.base_forms import RULES, LexiconError, read_allowed
from firmware_host.core.games.perfektes_wort.words import LETTERS, normalize
from firmware_host.paths import write_atomically
from firmware_host.thread_priority import run_when_idle

log = logging.getLogger("wordtable")

MAGIC = b"WTIDX 1\n"
SPELLING = 4  # the version of the spellings below: an index of another version is rebuilt
GERMAN_LISTS = (Path("/usr/share/dict/ngerman"),)
ENGLISH_LISTS = (Path("/usr/share/dict/american-english"), Path("/usr/share/dict/british-english"))
ENGLISH_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class WordIndexError(Exception):
    """A word list or index file that cannot be read or written."""


def german_spelling(line: str) -> str | None:
    """A list line in the spelling of Das perfekte Wort, or None when it is no word of the game."""
    word = normalize(line)
    return word if word and all(ch in LETTERS for ch in word) else None


# Abbreviations Debian's English lists hold in lower case with a vowel (or Y), which Quiddler does not
# allow; Roman numerals (`ROMAN`) are left out as well, but for the words among them.
ENGLISH_ABBREVIATIONS = frozenset("""
    ca cu ea yd yr
    adj adv amt avg cal doz esp est etc gov hoc hwy inc ind int min neg non obj rte viz vol xor yrs
    abbr advt assn avdp conj contd excl govt natl recd subj ttys wkly
    abbrev approx asst cont dept ibid illus interj ioctl masc misc pron regexp vols
""".upper().split())
ROMAN = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
ROMAN_WORDS = frozenset({"MI", "MIX", "XI"})  # words that are Roman numerals too


def english_spelling(line: str) -> str | None:
    """A list line in Quiddler's spelling (A–Z upper case), or None: possessives, accents, proper names
    and the like (a capital anywhere: "Boston", "iPod", "eBay"), abbreviations (without a vowel: "ct",
    "qt"; or in `ENGLISH_ABBREVIATIONS`: "adj", "ea") and Roman numerals ("xiv"), which Quiddler does not
    allow. The list still holds some words a table would refuse; the table decides, as ever."""
    line = line.strip()
    if not line or not line.islower():
        return None
    word = line.upper()
    if not all(ch in ENGLISH_LETTERS for ch in word) or not any(ch in "AEIOUY" for ch in word):
        return None
    if word in ENGLISH_ABBREVIATIONS or (ROMAN.fullmatch(word) and word not in ROMAN_WORDS):
        return None
    return word


SPELLINGS: dict[str, Callable[[str], str | None]] = {"de": german_spelling, "en": english_spelling}


@dataclass(frozen=True, slots=True)
class WordIndex:
    """A `WordGroups` over one blob: `spans` maps (first, length) to (offset, size) in `blob`."""

    name: str
    language: str
    words: int
    blob: bytes
    spans: dict[tuple[str, int], tuple[int, int]]

    def group(self, first: str, length: int) -> str:
        span = self.spans.get((first, length))
        if span is None:
            return ""
        offset, size = span
        return self.blob[offset : offset + size].decode("latin-1")

    def firsts(self) -> frozenset[str]:
        return frozenset(first for first, _ in self.spans)

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        text = self.group(word[0], len(word))
        return f"\n{word}\n" in f"\n{text}\n"


def read_list(path: Path, language: str) -> set[str]:
    """The words of a list file in the language's spelling, once each. UTF-8, else Latin-1. Unsorted:
    sorting all of them at once would hold the interpreter lock for the whole sort (0.3 s here, seconds
    on a Pi 3), and the alarm, the buttons' hold timers and the loop would wait for it while the index is
    built in the background; `encode_index` sorts each small group instead."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise WordIndexError(f"{path}: cannot read the word list ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    spell = SPELLINGS[language]
    return {w for line in text.splitlines() if not line.startswith("#") and (w := spell(line)) is not None}


def encode_index(words: Iterable[str], header: dict[str, object]) -> bytes:
    """The index file's bytes for `words` (in the game's spelling) and the source `header` fields."""
    groups: dict[tuple[str, int], list[str]] = {}
    for word in words:
        groups.setdefault((word[0], len(word)), []).append(word)
    parts: list[bytes] = []
    spans: list[list[object]] = []
    offset = 0
    count = 0
    for (first, length), group in sorted(groups.items()):
        data = "\n".join(sorted(set(group))).encode("latin-1")
        spans.append([first, length, offset, len(data)])
        parts.append(data)
        offset += len(data)
        count += len(set(group))
    head = json.dumps({**header, "words": count, "groups": spans}, ensure_ascii=True).encode("ascii")
    return MAGIC + head + b"\n" + b"".join(parts)


def decode_index(name: str, data: bytes) -> tuple[WordIndex, dict[str, object]]:
    """The index and its header from a file's bytes; raises `WordIndexError` for anything else."""
    if not data.startswith(MAGIC):
        raise WordIndexError(f"{name}: not a word index")
    end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC) : end])
        spans = {(str(f), int(n)): (int(o), int(s)) for f, n, o, s in header["groups"]}
        language, words = str(header["language"]), int(header["words"])
    except (ValueError, KeyError, TypeError) as exc:
        raise WordIndexError(f"{name}: damaged word index ({exc})") from None
    blob = data[end + 1 :]
    if end < 0 or sum(size for _, size in spans.values()) != len(blob):  # cut short (a power cut while kept)
        raise WordIndexError(f"{name}: damaged word index (its words are cut short)")
    return WordIndex(name, language, words, blob, spans), header


def _source_stamp(source: Path) -> dict[str, object]:
    stat = source.stat()
    return {"source": str(source), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def open_index(source: Path, language: str, state_dir: Path, name: str | None = None) -> WordIndex:
    """The index of `source` from `<state_dir>/words/`, built (once) when missing or out of date.
    `name` is what the table is told (default: the list's file name). Raises `WordIndexError`."""
    target = state_dir / "words" / f"{source.name}.{language}.idx"
    return _open(target, name or source.name, {"language": language, "spelling": SPELLING}, (source,),
                 ("list", str(source), language))


def open_allowed_index(source: Path, lexicon: Path, state_dir: Path, name: str) -> WordIndex:
    """The index of the German words of `source` that the lexicon allows (`base_forms.read_allowed`:
    base forms, no proper names), kept as `<state_dir>/words/<list>.allowed.de.idx` and rebuilt when
    either file or the rules change. Raises `WordIndexError` (a lexicon that cannot be read included)."""
    target = state_dir / "words" / f"{source.name}.allowed.de.idx"
    stamp = {"language": "de", "spelling": SPELLING, "rules": RULES}
    return _open(target, name, stamp, (source, lexicon), ("allowed", str(source), str(lexicon)))


def _words(recipe: Sequence[str]) -> set[str]:
    """The words a recipe names: ("list", source, language) or ("allowed", source, lexicon)."""
    kind, source, other = recipe
    if kind == "list":
        return read_list(Path(source), other)
    try:
        allowed = read_allowed(Path(other))
    except LexiconError as exc:
        raise WordIndexError(str(exc)) from None
    return read_list(Path(source), "de") & allowed


def _open(target: Path, label: str, stamp: dict[str, object], sources: tuple[Path, ...],
          recipe: Sequence[str]) -> WordIndex:
    """The index kept at `target` when its header matches `stamp` and the sources' sizes and times, else
    the one built from `recipe` (`_words`) by a child process and kept at `target` for the next time."""
    try:
        first, *more = (_source_stamp(path) for path in sources)
    except OSError as exc:
        raise WordIndexError(f"{exc.filename}: cannot read the word list ({exc.strerror})") from None
    stamp = {**first, **stamp, **({"also": more} if more else {})}
    kept = _kept(target, label, stamp)
    if kept is not None:
        return kept
    if build_in_child(target, stamp, recipe):
        built = _kept(target, label, stamp)
        if built is not None:
            log.info("word index of %s built by a child process: %s", sources[0], target)
            return built
    data = encode_index(_words(recipe), stamp)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(target, data)  # a power cut leaves no index cut short under its name
        log.info("word index of %s built: %s (%d bytes)", sources[0], target, len(data))
    except OSError as exc:
        log.warning("word index of %s not kept (%s); built in memory this time", sources[0], exc)
    return decode_index(label, data)[0]


def _kept(target: Path, label: str, stamp: dict[str, object]) -> WordIndex | None:
    """The index file at `target` when it reads and its header matches `stamp`; else None."""
    try:
        index, header = decode_index(label, target.read_bytes())
    except (OSError, WordIndexError):
        return None
    return index if all(header.get(key) == value for key, value in stamp.items()) else None


def build_in_child(target: Path, stamp: dict[str, object], recipe: Sequence[str]) -> bool:
    """Build the index of `recipe` into `target` in a child process at a lower priority; whether it
    did. A list or lexicon the child cannot read raises `WordIndexError` with the child's reason. A child
    still building when the service exits is ended with it (`_end_builds`)."""
    child = subprocess.Popen([sys.executable, "-m", "firmware_host.word_index", str(target), json.dumps(stamp),
                              *recipe], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    _building.add(child)
    try:
        _, err = child.communicate()
    finally:
        _building.discard(child)
    if child.returncode == CHILD_REFUSED:
        raise WordIndexError(err.strip().splitlines()[-1] if err.strip() else "word list refused")
    if child.returncode:
        log.warning("word index child failed (exit %d): %s", child.returncode, err.strip()[-300:])
    return child.returncode == 0


_building: set[subprocess.Popen[str]] = set()


@atexit.register
def _end_builds() -> None:
    for child in list(_building):
        with contextlib.suppress(OSError):
            child.kill()


CHILD_REFUSED = 3  # the child's exit code for a list or lexicon that cannot be read (`WordIndexError`)


BUILD_NICE = 5  # where SCHED_IDLE is refused (not Linux): at least below the service


def lower_priority() -> None:
    """This process in the idle class (`thread_priority.run_when_idle`): a wake-up of the loop, the display
    writer or the page preempts it at once, whatever the service's own policy. (Under the unit the
    service is SCHED_FIFO and the child is reset to SCHED_OTHER at fork, `CPUSchedulingResetOnFork=`,
    before it moves itself lower.) The table is idle most of the time, so the build still ends in
    seconds; on a core that is busy for good it gets the kernel's sliver for idle tasks and takes longer,
    while the reveal of Das perfekte Wort waits for it. Where SCHED_IDLE is refused: nice `BUILD_NICE`."""
    if "SCHED_IDLE" not in run_when_idle():
        with contextlib.suppress(OSError):
            os.nice(BUILD_NICE - os.nice(0))


def child_main(argv: Sequence[str]) -> int:
    """`python -m firmware_host.word_index TARGET STAMP_JSON KIND SOURCE OTHER`: build and keep one index."""
    lower_priority()
    target, stamp, *recipe = argv
    try:
        data = encode_index(_words(recipe), json.loads(stamp))
    except WordIndexError as exc:
        print(exc, file=sys.stderr)
        return CHILD_REFUSED
    target_path = Path(target)
    target_path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(target_path, data)
    return 0


def first_list(configured: Path | None, system: Iterable[Path]) -> Path | None:
    """The configured list (or lexicon), else the first system one that exists, else None."""
    if configured is not None:
        return configured
    return next((path for path in system if path.is_file()), None)


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1:]))
