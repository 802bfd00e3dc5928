"""The reveal's speed and memory over the full word lists. Prints numbers; asserts nothing.

    python bench/bench_reveal.py [--runs N] [--players N] [--german PATH] [--english PATH] [--lexicon PATH]
                                 [--precision-rounds N] [--dump]

Das perfekte Wort: one round's reveal (`best_words`, every player) over the words a table allows (the
reveal's default: `wngerman`'s words that the Ding lexicon has as base forms, no proper names,
`firmware_host.base_forms`) and over the whole of `wngerman` (/usr/share/dict/ngerman), on the shipped
Profi sheet and deck, with random earlier words. Precision: the distinct words that random reveals offer
(`--precision-rounds`, seeded), each looked up in a sample judged by hand as a German player would
(bench/data/reveal_judged_de.tsv for the allowed words, reveal_judged_wngerman.tsv for the whole list):
how many of them a player refuses, and how many were not judged (`--dump` prints those to judge them). Quiddler: the
best lay-down of a random 10-card hand (and of 11 cards with the discard) over `wamerican`
(/usr/share/dict/american-english). Memory: the resident set before and after loading an index (VmRSS),
and what a Python set of the same words would take. A list that is not installed is skipped
(`apt-get install wngerman wamerican dict-de-en`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_host.base_forms import DING_LEXICONS
from firmware_host.core.games.perfektes_wort.best_word import best_words
from firmware_host.core.games.perfektes_wort.rules import Game, Reveal, Setup, SoloStrike, Word, apply, new_game
from firmware_host.core.games.quiddler import rules as quiddler
from firmware_host.core.games.quiddler.best_lay import best_lay, reveal_round
from firmware_host.core.games.quiddler.deck import STANDARD_DECK
from firmware_host.games.perfektes_wort.data_files import load_game_data
from firmware_host.word_index import WordIndex, open_allowed_index, open_index

GERMAN = Path("/usr/share/dict/ngerman")
DATA = Path(__file__).resolve().parent / "data"
JUDGED = {"allowed": DATA / "reveal_judged_de.tsv", "all": DATA / "reveal_judged_wngerman.tsv"}
PRECISION_SEED = 36
ENGLISH = Path("/usr/share/dict/american-english")


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49], cuts[98]


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


RSS_PROBE = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from firmware_host import word_index
def rss():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS:"))
before = rss()
if {as_set!r}:
    kept = set(word_index.read_list(Path({source!r}), {language!r}))
else:
    kept = word_index.open_index(Path({source!r}), {language!r}, Path({state!r}))
print(rss() - before)
"""


def rss_of(source: Path, language: str, state: Path, as_set: bool) -> float:
    """MB the index (or a set of the words) adds to a fresh interpreter's resident set."""
    code = RSS_PROBE.format(
        root=str(Path(__file__).resolve().parents[1]), source=str(source), language=language,
        state=str(state), as_set=as_set,
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return int(out.split()[-1]) / 1024


def load(source: Path, language: str, state: Path) -> WordIndex:
    stalls = Stalls()
    start = time.perf_counter()
    with stalls:
        index = open_index(source, language, state)
    built = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    index = open_index(source, language, state)  # the second start: read from the state directory
    loaded = (time.perf_counter() - start) * 1000
    size = (state / "words" / f"{source.name}.{language}.idx").stat().st_size
    print(f"{source}: {index.words} words; index {size / 1e6:.1f} MB, built in {built:.0f} ms, "
          f"read in {loaded:.1f} ms; resident after reading it: +{rss_of(source, language, state, False):.1f} MB "
          f"(a Python set of the same words: +{rss_of(source, language, state, True):.1f} MB)")
    print(f"  while it was built (in the background at the box's first start), a thread sleeping 1 ms at a time "
          f"woke late by at most {stalls.longest * 1000:.0f} ms (p99 {stalls.p99 * 1000:.1f} ms): how long the "
          "alarm and the buttons' hold timers could wait for the interpreter")
    return index


def load_allowed(source: Path, lexicon: Path, state: Path) -> WordIndex:
    start = time.perf_counter()
    index = open_allowed_index(source, lexicon, state, "wngerman+Ding")
    built = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    index = open_allowed_index(source, lexicon, state, "wngerman+Ding")
    loaded = (time.perf_counter() - start) * 1000
    size = (state / "words" / f"{source.name}.allowed.de.idx").stat().st_size
    print(f"{source} allowed by {lexicon} (base forms, no proper names): {index.words} words; index "
          f"{size / 1e6:.2f} MB, built in {built:.0f} ms (once, in the background), read in {loaded:.1f} ms")
    return index


class Stalls:
    """While entered: a thread that sleeps 1 ms at a time and notes how late it wakes (the interpreter lock
    held by the main thread shows as a late wake-up)."""

    def __enter__(self) -> None:
        self._gaps: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._probe, daemon=True)
        self._thread.start()

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self._gaps.sort()
        self.longest = self._gaps[-1] if self._gaps else 0.0
        self.p99 = self._gaps[int(len(self._gaps) * 0.99)] if self._gaps else 0.0

    def _probe(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(0.001)
            now = time.perf_counter()
            self._gaps.append(now - last - 0.001)
            last = now


def random_round(index: WordIndex, players: int, rng: random.Random) -> tuple[Game, int]:
    """A game on the shipped Profi sheet and deck at a random round, earlier rows holding random words
    of the index; the round is revealed, nobody's word entered."""
    data = load_game_data()
    sheet = data.sheets["profi"]
    names = tuple(f"P{i}" for i in range(1, players + 1))
    deck = list(data.deck)
    rng.shuffle(deck)
    setup = Setup(names, sheet, vowels=rng.choice(data.faces).values, deck=tuple(deck[:10]))
    game = new_game(setup)
    rnd = rng.randint(1, 9)
    for r in range(1, rnd + 1):
        if r > 1 and players == 1:
            game = apply(game, SoloStrike(r - 1, names[0], sheet.bonus_fields[r - 2]))
        game = apply(game, Reveal(r))
        if r < rnd:
            for name in names:
                text = index.group(game.letter(r), min(game.max_length(r), 6))
                if text:
                    game = apply(game, Word(r, name, rng.choice(text.split("\n"))))
    return game, rnd


def bench_german(index: WordIndex, runs: int, players: int, rng: random.Random) -> None:
    samples: list[float] = []
    shown = 0
    for _ in range(runs):
        game, rnd = random_round(index, players, rng)
        found: list[object] = []
        samples.append(timed(lambda: found.extend(best_words(game, rnd, index))))  # noqa: B023
        if shown < 3:
            shown += 1
            print(f"  round {rnd} {game.letter(rnd)}/{game.max_length(rnd)}: {found[0]}")
    p50, p99 = percentiles(samples)
    print(f"Das perfekte Wort over {index.name}, one round's reveal for {players} players: p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms, max {max(samples):.1f} ms ({runs} rounds)")


def revealed(index: WordIndex, rounds: int, seed: int) -> list[str]:
    """The distinct words that `rounds` random reveals for 4 players offer, in the order first offered."""
    rng = random.Random(seed)
    words: dict[str, None] = {}
    for _ in range(rounds):
        game, rnd = random_round(index, 4, rng)
        words.update((best.word, None) for best in best_words(game, rnd, index) if best.word)
    return list(words)


def read_labels(path: Path) -> dict[str, tuple[str, str]]:
    """word -> (verdict, reason) of a judged sample: `word<TAB>allowed|refused<TAB>reason`, # comments."""
    labels: dict[str, tuple[str, str]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                word, verdict, *reason = line.split("\t")
                labels[word] = (verdict, reason[0] if reason else "")
    return labels


def precision(index: WordIndex, rounds: int, labels_file: Path, dump: bool) -> None:
    """How many of the words the reveal offers a German player would refuse, by the judged sample."""
    words = revealed(index, rounds, PRECISION_SEED)
    labels = read_labels(labels_file)
    judged = [w for w in words if w in labels]
    refused = [w for w in judged if labels[w][0] == "refused"]
    unjudged = [w for w in words if w not in labels]
    reasons: dict[str, int] = {}
    for word in refused:
        reasons[labels[word][1]] = reasons.get(labels[word][1], 0) + 1
    rate = 100 * len(refused) / len(judged) if judged else 0.0
    print(f"Das perfekte Wort over {index.name}: {len(words)} distinct words revealed by {rounds} random rounds "
          f"(4 players); judged {len(judged)} ({labels_file.name}): refused {len(refused)} = {rate:.1f} %"
          + (f" ({', '.join(f'{r} {n}' for r, n in sorted(reasons.items()))})" if reasons else "")
          + f"; not judged: {len(unjudged)}" + (f" ({' '.join(unjudged[:12])}…)" if unjudged else ""))
    if dump:
        for word in unjudged:
            print(f"{word}\t?\t", file=sys.stderr)


def bench_quiddler(index: WordIndex, runs: int, rng: random.Random) -> None:
    for size, discard in ((10, False), (11, True)):
        samples: list[float] = []
        for i in range(runs):
            cards = STANDARD_DECK.cards()
            rng.shuffle(cards)
            hand = cards[:size]
            found: list[object] = []
            samples.append(timed(lambda: found.append(best_lay(hand, index, STANDARD_DECK, discard=discard))))  # noqa: B023
            if i < 2:
                print(f"  {' '.join(hand)}: {found[0]}")
        p50, p99 = percentiles(samples)
        what = f"{size} cards" + (" with the discard" if discard else "")
        print(f"Quiddler, best lay-down of {what}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
              f"max {max(samples):.1f} ms ({runs} hands)")


def bench_quiddler_rounds(index: WordIndex, runs: int, rng: random.Random) -> None:
    for last in (True, False):
        samples: list[float] = []
        cpu_samples: list[float] = []  # the process's CPU time: what a loaded machine does not inflate
        for i in range(runs):
            names = [f"P{n}" for n in range(1, rng.randint(2, 8) + 1)]
            game = quiddler.new_game(names, two_player_bonus=rng.choice(("longest", "most")))
            rounds = 8 if last else rng.randint(1, 8)
            for number in range(1, rounds + 1):
                game = quiddler.start_round(game)
                cards = STANDARD_DECK.cards()
                rng.shuffle(cards)
                out = False
                for seat, name in enumerate(names):
                    size = number + 2
                    hand = cards[seat * size : (seat + 1) * size]
                    if number < rounds:
                        game = quiddler.lay_down(game, name, [], hand)
                        continue
                    lay = best_lay(hand, index, STANDARD_DECK)
                    goes = not lay.unused and not out
                    out = out or goes
                    game = quiddler.lay_down(game, name, lay.words, lay.unused, goes)
                game = quiddler.end_round(game)
            found: list[object] = []
            cpu = time.process_time()
            samples.append(timed(lambda: found.append(reveal_round(game, rounds, index))))  # noqa: B023
            cpu_samples.append((time.process_time() - cpu) * 1000)
            if i < 2:
                print(f"  round {rounds}, {len(names)} players: {found[0]}")
        p50, p99 = percentiles(samples)
        cpu50, cpu99 = percentiles(cpu_samples)
        what = "round 8" if last else "a random round"
        print(f"Quiddler, one round's reveal ({what}, 2-8 players): p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
              f"max {max(samples):.1f} ms; CPU p50 {cpu50:.1f} ms, p99 {cpu99:.1f} ms ({runs} rounds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--german", type=Path, default=GERMAN)
    parser.add_argument("--english", type=Path, default=ENGLISH)
    parser.add_argument("--lexicon", type=Path, default=DING_LEXICONS[0])
    parser.add_argument("--precision-rounds", type=int, default=240,
                        help="random rounds whose revealed words are looked up in the judged samples")
    parser.add_argument("--dump", action="store_true", help="print the revealed words not judged yet (stderr)")
    args = parser.parse_args()
    rng = random.Random(16)
    print(f"python {sys.version.split()[0]}, RSS at start {rss_kb() / 1024:.1f} MB")
    with tempfile.TemporaryDirectory() as state_dir:
        state = Path(state_dir)
        if args.german.is_file():
            german = load(args.german, "de", state)
            if args.lexicon.is_file():
                allowed = load_allowed(args.german, args.lexicon, state)
                precision(allowed, args.precision_rounds, JUDGED["allowed"], args.dump)
                precision(german, args.precision_rounds // 3, JUDGED["all"], args.dump)
                bench_german(allowed, args.runs, args.players, rng)
                bench_german(allowed, args.runs // 2, 6, rng)
            else:
                print(f"{args.lexicon}: not installed (apt-get install dict-de-en); the allowed words skipped")
            bench_german(german, args.runs, args.players, rng)
            bench_german(german, args.runs // 2, 6, rng)
        else:
            print(f"{args.german}: not installed (apt-get install wngerman); skipped")
        if args.english.is_file():
            english = load(args.english, "en", state)
            bench_quiddler(english, args.runs, rng)
            bench_quiddler_rounds(english, args.runs, rng)
        else:
            print(f"{args.english}: not installed (apt-get install wamerican); skipped")


if __name__ == "__main__":
    main()
