"""Who may write at the table page: the table code, the seat tokens, a lock-out and rate limits.

- The table code: `CODE_LENGTH` characters of an alphabet without look-alikes, from `secrets`; one per
  box, kept in the store beside the seat tokens across games and restarts until the table renews it
  (`SeatTokens.renew_code`). Every try of the code counts against its address before it is
  compared (`Lockout.attempt`): `MAX_FAILURES` wrong codes lock that address out for `LOCK_S` seconds, and
  `MAX_GLOBAL_FAILURES` from all addresses lock out every address that has not joined.
- Tokens: 32 random bytes (URL-safe text) in an HttpOnly, SameSite=Strict cookie. The store keeps only
  their SHA-256, with the person of the roster the phone belongs to (`Holder.person`: their seat follows
  them through every game and mode) — or, for a seat nobody named ("Spieler 2"), the seat — and whether the
  token is active or waits for the table's START (a takeover); one active token per person (per such
  seat). It is a JSON file in the state directory, written atomically, so a phone keeps its person across
  restarts of the service; a file written before people holds seats, which become their people once the
  free table shows who sits there (`SeatTokens.adopt`).
- Rate limits: a token bucket per phone's person or seat (`RATE_PER_S`, `BURST`).
Every clock is injected (monotonic seconds).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.paths import write_atomically

log = logging.getLogger("wordtable.page")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
MAX_FAILURES = 10
MAX_GLOBAL_FAILURES = 50  # wrong codes from all addresses within LOCK_S
LOCK_S = 60.0
RATE_PER_S = 2.0
BURST = 5.0
STORE_NAME = "page-seats.json"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _kept_code(value: object) -> str:
    """`value` when it is a table code as `new_code` makes them, else ""."""
    if isinstance(value, str) and len(value) == CODE_LENGTH and all(c in CODE_ALPHABET for c in value):
        return value
    return ""


def code_matches(given: str, code: str) -> bool:
    """Whether `given` is the table code (case and surrounding space ignored; constant time)."""
    return bool(code) and hmac.compare_digest(given.strip().upper().encode(), code.encode())


def _index(value: object) -> bool:
    """Whether `value` is a seat's index or a person's id as a file keeps it: an int from 0 (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Lockout:
    """Tries of a secret (the table code; the owner PIN with its own limits), counted before any is compared:
    each try counts as wrong until it turns out right (`succeeded`), so tries made at once are counted as
    they arrive, not as they are answered. `limit` wrong tries lock the address for `lock_s` seconds;
    `crowd` wrong tries from any addresses within `lock_s` lock every address that has not given the
    right one before, for `lock_s` (a crowd of addresses guessing together)."""

    clock: Callable[[], float]
    limit: int = MAX_FAILURES  # wrong tries that lock an address
    lock_s: float = LOCK_S
    crowd: int = MAX_GLOBAL_FAILURES  # wrong tries of all addresses within `lock_s` that lock everyone
    what: str = "codes"  # what is tried, for the log
    failures: dict[str, int] = field(default_factory=dict)
    locked_until: dict[str, float] = field(default_factory=dict)
    recent: list[float] = field(default_factory=list)  # times of the wrong tries of all addresses
    everyone_until: float = float("-inf")
    trusted: set[str] = field(default_factory=set)  # addresses that gave the right code

    def locked(self, address: str) -> float:
        """Seconds the address stays locked (0: not locked)."""
        now = self.clock()
        left = 0.0
        until = self.locked_until.get(address)
        if until is not None:
            if until <= now:
                del self.locked_until[address]
            else:
                left = until - now
        if address not in self.trusted and self.everyone_until > now:
            left = max(left, self.everyone_until - now)
        return left

    def attempt(self, address: str) -> float:
        """A try of the code from `address`, counted as wrong until `succeeded`: 0 when it may be compared,
        else the seconds the address stays locked (the try is then not counted)."""
        locked = self.locked(address)
        if locked:
            return locked
        self.failed(address)
        return 0.0

    def failed(self, address: str) -> None:
        now = self.clock()
        count = self.failures.get(address, 0) + 1
        if count >= self.limit:
            self.locked_until[address] = now + self.lock_s
            self.failures.pop(address, None)
            log.warning("page: %s locked out for %.0f s after %d wrong %s", address, self.lock_s, count, self.what)
        else:
            self.failures[address] = count
        self.recent = [t for t in self.recent if now - t < self.lock_s][-self.crowd:]
        self.recent.append(now)
        if len(self.recent) >= self.crowd and self.everyone_until <= now:
            self.everyone_until = now + self.lock_s
            log.warning("page: %d wrong %s within %.0f s from several addresses: locked for %.0f s (addresses "
                        "that gave the right one before are not)", len(self.recent), self.what, self.lock_s,
                        self.lock_s)

    def succeeded(self, address: str) -> None:
        """The try `attempt` counted was the right code: it is taken back, and the address trusted."""
        count = self.failures.get(address, 0) - 1
        if count > 0:
            self.failures[address] = count
        else:
            self.failures.pop(address, None)
        if self.recent:
            self.recent.pop()
        self.trusted.add(address)


@dataclass
class RateLimit:
    """A token bucket per key: `rate` per second, at most `burst` at once."""

    clock: Callable[[], float]
    rate: float = RATE_PER_S
    burst: float = BURST
    buckets: dict[Hashable, tuple[float, float]] = field(default_factory=dict)

    def allow(self, key: Hashable) -> bool:
        now = self.clock()
        level, then = self.buckets.get(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        if level < 1:
            self.buckets[key] = (level, now)
            return False
        self.buckets[key] = (level - 1, now)
        return True


CLAIM_S = 120.0  # a takeover waits this long for the table, then it lapses
CLAIM_RATE_PER_S = 1 / 20  # takeovers asked, per address and per phone
CLAIM_BURST = 3.0
MAX_CLAIMS = 8  # takeovers waiting at once, in all (one per seat)


Held = tuple[str, int]  # what a token holds: ("person", id) or ("seat", index) (`Holder.held`)


def held(seat: int, person: int = -1) -> Held:
    """What a phone of `person` (-1: of seat `seat`, nobody named sits there) holds."""
    return ("person", person) if person >= 0 else ("seat", seat)


@dataclass
class Claims:
    """The takeovers waiting for the table (`events.ClaimsPending`), never journaled: at most one per person
    (per seat nobody named) and one per phone (a phone's new claim replaces its old one), at most
    `MAX_CLAIMS`, each lapsing after `CLAIM_S`; asking is rate-limited per address and per phone
    (`CLAIM_RATE_PER_S`, `CLAIM_BURST`)."""

    clock: Callable[[], float]
    # person or seat -> (claim, phone, since, the seat shown on the box)
    waiting: dict[Held, tuple[str, str, float, int]] = field(default_factory=dict)
    rates: RateLimit = field(init=False)

    def __post_init__(self) -> None:
        self.rates = RateLimit(self.clock, CLAIM_RATE_PER_S, CLAIM_BURST)

    def ask(self, seat: int, address: str, phone: str | None, person: int = -1) -> tuple[str | None, str | None]:
        """A takeover of `person` (-1: of `seat`; `seat` is the person's seat now, shown on the box) asked
        from `address` by `phone` (its cookie's token; None: a phone without one): (the new claim, the claim
        it replaced) — or (None, why it is refused: "slow_down", "claimed")."""
        self.lapse()
        who = f"token:{_digest(phone)}" if phone else f"address:{address}"
        if not self.rates.allow(f"address:{address}") or not self.rates.allow(who):
            return None, "slow_down"
        key = held(seat, person)
        waits = self.waiting.get(key)
        if waits is not None and waits[1] != who:
            return None, "claimed"  # another phone asks for this one already: the table answers that first
        replaced = next((claim for claim, phone_of, _, _ in self.waiting.values() if phone_of == who), None)
        self.waiting = {k: waits for k, waits in self.waiting.items() if waits[1] != who}
        if len(self.waiting) >= MAX_CLAIMS:
            return None, "claimed"
        claim = secrets.token_hex(8)
        self.waiting[key] = (claim, who, self.clock(), seat)
        return claim, replaced

    def lapse(self) -> list[str]:
        """Drop the claims older than `CLAIM_S`; returns them."""
        now = self.clock()
        old = [claim for claim, _, since, _ in self.waiting.values() if now - since >= CLAIM_S]
        self.waiting = {k: waits for k, waits in self.waiting.items() if waits[0] not in old}
        return old

    def answered(self, claim: str) -> bool:
        """The table answered `claim`: it waits no more (False: it was not waiting)."""
        before = len(self.waiting)
        self.waiting = {k: waits for k, waits in self.waiting.items() if waits[0] != claim}
        return len(self.waiting) != before

    def pending(self) -> tuple[tuple[int, str], ...]:
        """(seat, claim) of every claim waiting, oldest first."""
        return tuple((seat, claim) for claim, _, _, seat in sorted(self.waiting.values(), key=lambda w: w[2]))


@dataclass(frozen=True, slots=True)
class Holder:
    """What a token holds: person `person` of the roster, whose seat follows them from game to game — or,
    when `person` is -1 (a seat nobody named, a file written before people), seat `seat`."""

    seat: int
    active: bool  # False: a takeover waiting for START on the box
    claim: str = ""
    person: int = -1

    @property
    def held(self) -> Held:
        return held(self.seat, self.person)


class SeatTokens:
    """Tokens (stored as digests) in `path`: which phone belongs to which person (or seat); beside them the
    box's table `code`, which stays until `renew_code` (a missing, damaged or unreadable file: a new code,
    logged)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.holders: dict[str, Holder] = {}
        self.code = ""
        if path is not None:
            self._load(path)
        if not self.code:
            self.code = new_code()
            self._save()

    def _load(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            for digest, kept in data.get("tokens", {}).items():
                if not isinstance(kept, dict) or kept.get("active") is not True:
                    continue
                person, seat = kept.get("person"), kept.get("seat")
                if _index(person):
                    self.holders[str(digest)] = Holder(-1, True, person=person)
                elif _index(seat):  # a seat's, or a file written before people: `adopt` makes it a person's
                    self.holders[str(digest)] = Holder(seat, True)
            self.code = _kept_code(data.get("code"))
            if not self.code:
                log.warning("page: no table code kept in %s: a new one", path)
        except FileNotFoundError:
            return
        except (OSError, ValueError, AttributeError) as exc:
            log.warning("page: seat tokens in %s unreadable, phones join anew with a new table code: %s", path, exc)

    def _save(self) -> None:
        if self.path is None:
            return
        data = {"code": self.code,
                "tokens": {d: {h.held[0]: h.held[1], "active": True} for d, h in self.holders.items() if h.active}}
        try:
            write_atomically(self.path, json.dumps(data).encode("utf-8"))
        except OSError as exc:
            log.error("page: cannot keep the seat tokens and the table code in %s: %s", self.path, exc)

    def renew_code(self) -> str:
        """A new table code, kept at once. Every token not active (a takeover or a join still waiting for the
        table) is dropped with the old code: only the seated phones stay in."""
        self.code = new_code()
        self.holders = {d: h for d, h in self.holders.items() if h.active}
        self._save()
        return self.code

    def seat_of(self, token: str | None) -> Holder | None:
        return self.holders.get(_digest(token)) if token else None

    def holder_of(self, seat: int, person: int = -1) -> str | None:
        """The digest of the active token of `person` (-1: of seat `seat`); None when no phone holds it."""
        key = held(seat, person)
        return next((d for d, h in self.holders.items() if h.active and h.held == key), None)

    def _revoked(self, key: Held) -> dict[str, Holder]:
        return {d: h for d, h in self.holders.items() if h.held != key or not h.active}

    def grant(self, seat: int, person: int = -1) -> str:
        """A new token of `person` (-1: holding `seat`); any other token of them is revoked."""
        token = secrets.token_urlsafe(32)
        self.holders = self._revoked(held(seat, person))
        self.holders[_digest(token)] = Holder(seat, True, person=person)
        self._save()
        return token

    def wait(self, seat: int, claim: str, person: int = -1) -> str:
        """A new token waiting for the table to confirm its takeover of `person` (-1: of `seat`; `claim`)."""
        token = secrets.token_urlsafe(32)
        self.holders[_digest(token)] = Holder(seat, False, claim, person)
        return token

    def adopt(self, people: tuple[int, ...]) -> None:
        """The free table's people per seat (`PageViews.people`; -1: nobody named): a token of a seat
        where a person sits now becomes that person's (unless a phone of that person holds one already)."""
        owned = {h.person for h in self.holders.values() if h.active}
        moved = False
        for digest, h in list(self.holders.items()):
            person = people[h.seat] if h.active and h.person < 0 and 0 <= h.seat < len(people) else -1
            if person >= 0 and person not in owned:
                self.holders[digest] = Holder(h.seat, True, person=person)
                owned.add(person)
                moved = True
        if moved:
            self._save()

    def drop_waiting(self, claims: list[str]) -> None:
        """The tokens that waited for `claims` (lapsed or replaced) are dropped."""
        self.holders = {d: h for d, h in self.holders.items() if h.active or h.claim not in claims}

    def answer(self, claim: str, granted: bool) -> int | None:
        """The table answered takeover `claim`: the waiting token holds the seat now (the old holder's is
        revoked) or is dropped. Returns the seat when it was granted."""
        waiting = next(((d, h) for d, h in self.holders.items() if not h.active and h.claim == claim), None)
        if waiting is None:
            return None
        digest, asked = waiting
        del self.holders[digest]
        if not granted:
            return None
        self.holders = self._revoked(asked.held)
        self.holders[digest] = Holder(asked.seat, True, person=asked.person)
        self._save()
        return asked.seat

    def settle(self, claim: str, seat: int, person: int = -1) -> bool:
        """The core answered join `claim`: its waiting token is `person`'s now (-1: holds `seat`), or is
        dropped (seat < 0). False when no token waits for it (answered before)."""
        waiting = next((d for d, h in self.holders.items() if not h.active and h.claim == claim), None)
        if waiting is None:
            return False
        del self.holders[waiting]
        if seat >= 0:
            self.holders = self._revoked(held(seat, person))
            self.holders[waiting] = Holder(seat, True, person=person)
            self._save()
        return True

    def release(self, token: str | None) -> None:
        if token and self.holders.pop(_digest(token), None) is not None:
            self._save()
