"""The words a table allows in Das perfekte Wort — base forms, no proper names — read from a dictionary
that says what each word is: Ding, the TU Chemnitz German–English dictionary (Debian's `dict-de-en`,
GPL-2+), `/usr/share/dictd/german-english.dict.dz`.

That file (dictd text, gzip-compatible) holds one entry per German word or phrase: the headword on a line
of its own, a line of tags (`{m}` `{f}` `{n}` `{pl}` nouns, `{vt}` `{vi}` `{vr}` `{v}` verbs, `{adj}`,
`{adv}`, `{pron}`, …, domains such as `[geogr.]`, notes in parentheses) and its English indented under it.
Inflected forms (`ging`, `gegangen`, `sitzend`, `schöner`) come as entries without a part of speech;
proper names (`Berlin (Hauptstadt von Deutschland) [geogr.]` → `Berlin (capital of Germany)`) have a
capitalised English gloss. A word is allowed when it is one word of the game's letters, not an acronym,
has an entry with a part of speech (not an interjection, not old spelling, not dated or regional), is not
only a name, and is no form of another word (`allowed_words`). The reveal takes these words that the
German list also holds (`word_index.open_allowed_index`), so both have to know a word. Reading files lives
here, in the shell.
"""

from __future__ import annotations

import gzip
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from firmware_host.core.games.perfektes_wort.words import normalize

DING_LEXICONS = (Path("/usr/share/dictd/german-english.dict.dz"),)
RULES = 1  # the version of `allowed_words`: an index built by another version is rebuilt

PART_OF_SPEECH = re.compile(
    r"\{([mfn](?:,[mfn])+|m|f|n|pl|adj|adv|vt|vi|vr|v|num|pron|ppron|conj|art|prp)(?:[;,][^}]*)?\}"
)
MODIFIER_TAGS = frozenset({"adj", "adv", "num", "pron", "ppron"})  # parts of speech that decline or compare
NOUN_TAGS = frozenset({"n", "pl", "m,f", "f,m"})  # the tags of an adjective or participle used as a noun
VERB_TAGS = frozenset({"v", "vt", "vi", "vr"})
REFUSED_TAGS = (  # interjections; old spelling (daß), dated and regional words: a table may not know them
    "{interj}", "[alt]", "[veraltet]", "[veraltend]",
    "[Bayr.]", "[Ös.]", "[Schw.]", "[Süddt.]", "[Norddt.]", "[Mitteldt.]", "[Westdt.]", "[Ostdt.]", "[Lux.]",
)
ENDINGS = ("STEM", "STEN", "STER", "STES", "STE", "EST", "EM", "EN", "ER", "ES", "E")  # declension, comparison
MODIFIER, NOMINAL, OTHER = 1, 2, 4  # kinds of entry: a lower-case modifier, a capitalised noun only, others
OBJECTS = frozenset({"sich", "jdn.", "jdm.", "jds.", "etw."})  # a verb's objects named before it
SMALL_WORDS = frozenset({"a", "an", "and", "de", "du", "for", "in", "la", "of", "on", "the", "to", "von"})
ONE_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")  # the game's letters (what `normalize` spells as LETTERS)
NOTES = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}|/[^/]*/|<[^>]*>")


class LexiconError(Exception):
    """A lexicon file that cannot be read."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of the dictionary: the German `headword`, its `tags` line and its English `gloss`."""

    headword: str
    tags: str
    gloss: str


def parse_entries(lines: Iterable[str]) -> Iterator[Entry]:
    """The entries of a Ding dictd text. A headword is an unindented line followed by a tag line (indented
    by one space, or empty); an unindented line followed by another is a wrapped line of the English."""
    head: str | None = None
    tags = ""
    gloss: list[str] = []
    previous: str | None = None
    for line in lines:
        line = line.rstrip("\n")
        if previous is not None:
            if line == "" or (line.startswith(" ") and not line.startswith("   ")):
                if head is not None:
                    yield Entry(head, tags, " ".join(gloss))
                head, tags, gloss, previous = previous, line.strip(), [], None
                continue
            gloss.append(previous.strip())
            previous = None
        if line.startswith("   "):
            gloss.append(line.strip())
        elif line and not gloss and tags.count("(") > tags.count(")"):
            tags = f"{tags} {line.strip()}"  # a tag line wrapped inside its note
        elif line:
            previous = line
    if previous is not None:
        gloss.append(previous.strip())
    if head is not None:
        yield Entry(head, tags, " ".join(gloss))


def is_name(entry: Entry) -> bool:
    """A proper name: a capitalised headword whose English is a name too — every alternative capitalised
    word by word (`Rhine (river)`, `North Korea`), or capitalised and marked `[geogr.]`. It also takes
    days, languages and peoples (`Monday`, `Latin`, `Bavarians`): the reveal can do without them."""
    if not entry.headword[:1].isupper():
        return False
    alternatives = [a.strip() for a in NOTES.sub("", entry.gloss).split(";")]
    alternatives = [re.sub(r"^(?:the|a|an) ", "", a) for a in alternatives if a.strip()]
    if not alternatives:
        return False
    if "[geogr.]" in entry.tags:
        return alternatives[0][:1].isupper()
    return all(all(w[:1].isupper() for w in a.split() if w not in SMALL_WORDS) for a in alternatives)


def _word(headword: str, verb: bool = False) -> str | None:
    """The headword in the game's spelling when it is one word of the game's letters and no acronym; a
    verb's headword may name its objects first (`sich verspäten`, `jdn./etw. rächen`)."""
    words = headword.split()
    while verb and len(words) > 1 and all(part in OBJECTS for part in words[0].split("/")):
        words = words[1:]
    if len(words) != 1:
        return None
    word = words[0]
    if not ONE_WORD.fullmatch(word) or word[1:] != word[1:].lower():  # not the game's letters; an acronym
        return None
    return normalize(word) if "ß" in word else word.upper()  # normalize keeps ß (upper() makes it SS)


def allowed_words(entries: Iterable[Entry]) -> set[str]:
    """The allowed words of `entries`, in the game's spelling (see the module's docstring):

    - tagged: an entry with a part of speech (no plain word before it on the tag line), no interjection,
      no old spelling, not dated, not only regional;
    - not a name: an entry that is a proper name (`is_name`) does not count, so a word needs another;
    - not a form: a modifier (a lower-case word that is only adjective, adverb, numeral or pronoun) is
      refused when it is a verb's participle — `sitzend` (a verb + d), `gegangen` (listed after a verb's
      present participles, as Ding lists a verb's forms) — or another modifier with a declension or
      comparison ending (`meines`, `schöner`, `schönsten`, `neuest`); an adjective or participle used as
      a noun (capitalised, only `{n}`, `{pl}` or `{m,f}`) is refused in the same declined forms (`das
      Weitere`, `die Neuen`, `die Weinende`), and so is a superlative of a modifier (`die Liebste`).
      Lexicalised ones (`spannend`, `die Heilige`) go too: the rulebook refuses `sitzend`, and the
      reveal can do without them."""
    kinds: dict[str, int] = {}  # word -> the bits of the kinds of its entries (a bit mask: small in memory)
    verbs: set[str] = set()
    forms = _VerbForms()
    for entry in entries:
        parts = _parts_of_speech(entry.tags)
        word = _word(entry.headword, bool(parts & VERB_TAGS))
        forms.see(entry, word, parts)
        if parts & VERB_TAGS:
            verbs.add(normalize(entry.headword.split()[-1]))  # "wild herumtoben": its participle is a form too
        if word is None or not parts or is_name(entry) or any(tag in entry.tags for tag in REFUSED_TAGS):
            continue
        lower = entry.headword[:1].islower()
        kind = MODIFIER if parts <= MODIFIER_TAGS and lower else NOMINAL if parts <= NOUN_TAGS and not lower else OTHER
        kinds[word] = kinds.get(word, 0) | kind
    modifiers = {word for word, kind in kinds.items() if kind == MODIFIER}
    nominal = {word for word, kind in kinds.items() if kind == NOMINAL}

    def declined(word: str) -> bool:
        return any(word.endswith(e) and word[: -len(e)] in modifiers for e in ENDINGS)

    def participle(word: str) -> bool:
        return any(word.endswith("D" + e) and word[: -len(e) - 1] in verbs for e in ("", *ENDINGS))

    refused = {w for w in modifiers if w in forms.past or participle(w) or declined(w)}
    refused |= {w for w in nominal if w[-1] in "EMNRS" and (participle(w) or declined(w))}
    refused |= {w for w in kinds if _superlative(w, modifiers)}
    return set(kinds) - refused


def _superlative(word: str, modifiers: set[str]) -> bool:
    """A modifier's superlative (used as a noun: `die Liebste`, `das Schönste`)."""
    return any(word.endswith(e) and word[: -len(e)] in modifiers for e in ENDINGS if e.startswith("ST"))


def _parts_of_speech(tags: str) -> set[str]:
    """The parts of speech of a tag line ({"m"}, {"adj", "adv"}, …); none when a plain word stands
    before the first of them: a wrapped headword (`(flaches) Stück {n}` under `großes`), not tags."""
    first = PART_OF_SPEECH.search(tags)
    if first is None or NOTES.sub("", tags[: first.start()]).strip():
        return set()
    return {match.group(1) for match in PART_OF_SPEECH.finditer(tags)}


class _VerbForms:
    """The past participles in Ding's order of a verb's forms: the verb's entry (tagged), then untagged
    the present participles (…nd, one English gloss), then the past participles (the next gloss, shared
    by all of them); any other gloss or a tagged entry ends the verb."""

    def __init__(self) -> None:
        self.past: set[str] = set()
        self._stage = ""  # "verb", "present", "past" or "" (outside a verb's forms)
        self._gloss = ""

    def see(self, entry: Entry, word: str | None, parts: set[str]) -> None:
        """The next entry, its word (None: not one word) and its parts of speech."""
        if parts:
            self._stage, self._gloss = ("verb" if parts & VERB_TAGS else ""), entry.gloss
        elif self._stage in ("verb", "present") and word is not None and word.endswith("ND"):
            if self._stage == "present" and entry.gloss != self._gloss:
                self._stage = ""
            else:
                self._stage, self._gloss = "present", entry.gloss
        elif self._stage == "present" and word is not None and entry.gloss != self._gloss:
            self._stage, self._gloss = "past", entry.gloss
            self.past.add(word)
        elif self._stage == "past" and word is not None and entry.gloss == self._gloss:
            self.past.add(word)
        elif not (self._stage == "verb" and entry.gloss == self._gloss):
            self._stage = ""


def read_allowed(path: Path) -> set[str]:
    """The allowed words of a Ding dictd file (gzip-compressed, as Debian installs it, or plain text).
    Read line by line: Debian's whole text is 32 MB, far more as Python strings. Raises `LexiconError`."""
    try:
        with path.open("rb") as raw:
            compressed = raw.read(2) == b"\x1f\x8b"
        opener = gzip.open if compressed else open
        with opener(path, "rt", encoding="utf-8") as text:
            return allowed_words(parse_entries(text))
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise LexiconError(f"{path}: cannot read the lexicon ({reason})") from None
