"""Who may write at the table page: the table code, the seat tokens, a lock-out and rate limits.

- The table code: `CODE_LENGTH` characters of an alphabet without look-alikes, from `secrets`; one per
  box, kept in the store beside the seat tokens across games and restarts until the table renews it
  (`SeatTokens.renew_code`). Every try of the code counts against its address before it is
  compared (`Lockout.attempt`): `MAX_FAILURES` wrong codes lock that address out for `LOCK_S` seconds, and
  `MAX_GLOBAL_FAILURES` from all addresses lock out every address that has not joined.
- Seat tokens: 32 random bytes (URL-safe text) in an HttpOnly, SameSite=Strict cookie. The store keeps
  only their SHA-256, with the seat and whether the token is active or waits for the table's START (a
  takeover); one active token per seat. It is a JSON file in the state directory, written atomically, so
  a phone keeps its seat across restarts of the service.
- Rate limits: a token bucket per seat (`RATE_PER_S`, `BURST`).
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


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Lockout:
    """Tries of the table code, counted before any is compared: each try counts as a wrong code until it
    turns out right (`succeeded`), so tries made at once are counted as they arrive, not as they are
    answered. `MAX_FAILURES` wrong tries lock the address for `LOCK_S` seconds; `MAX_GLOBAL_FAILURES`
    wrong tries from any addresses within `LOCK_S` lock every address that has not joined before, for
    `LOCK_S` (a crowd of addresses guessing together)."""

    clock: Callable[[], float]
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
        if count >= MAX_FAILURES:
            self.locked_until[address] = now + LOCK_S
            self.failures.pop(address, None)
            log.warning("page: %s locked out for %.0f s after %d wrong codes", address, LOCK_S, count)
        else:
            self.failures[address] = count
        self.recent = [t for t in self.recent if now - t < LOCK_S][-MAX_GLOBAL_FAILURES:]
        self.recent.append(now)
        if len(self.recent) >= MAX_GLOBAL_FAILURES and self.everyone_until <= now:
            self.everyone_until = now + LOCK_S
            log.warning("page: %d wrong codes within %.0f s from several addresses: joining is locked for "
                        "%.0f s (phones that joined before are not)", len(self.recent), LOCK_S, LOCK_S)

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


@dataclass
class Claims:
    """The takeovers waiting for the table (`events.ClaimsPending`), never journaled: at most one per seat
    and one per phone (a phone's new claim replaces its old one), at most `MAX_CLAIMS`, each lapsing after
    `CLAIM_S`; asking is rate-limited per address and per phone (`CLAIM_RATE_PER_S`, `CLAIM_BURST`)."""

    clock: Callable[[], float]
    waiting: dict[int, tuple[str, str, float]] = field(default_factory=dict)  # seat -> (claim, phone, since)
    rates: RateLimit = field(init=False)

    def __post_init__(self) -> None:
        self.rates = RateLimit(self.clock, CLAIM_RATE_PER_S, CLAIM_BURST)

    def ask(self, seat: int, address: str, phone: str | None) -> tuple[str | None, str | None]:
        """A takeover of `seat` asked from `address` by `phone` (its cookie's token; None: a phone without
        one): (the new claim, the claim it replaced) — or (None, why it is refused: "slow_down", "claimed")."""
        self.lapse()
        who = f"token:{_digest(phone)}" if phone else f"address:{address}"
        if not self.rates.allow(f"address:{address}") or not self.rates.allow(who):
            return None, "slow_down"
        held = self.waiting.get(seat)
        if held is not None and held[1] != who:
            return None, "claimed"  # another phone asks for this seat already: the table answers that first
        replaced = next((claim for claim, phone_of, _ in self.waiting.values() if phone_of == who), None)
        self.waiting = {s: held for s, held in self.waiting.items() if held[1] != who}
        if len(self.waiting) >= MAX_CLAIMS:
            return None, "claimed"
        claim = secrets.token_hex(8)
        self.waiting[seat] = (claim, who, self.clock())
        return claim, replaced

    def lapse(self) -> list[str]:
        """Drop the claims older than `CLAIM_S`; returns them."""
        now = self.clock()
        old = [claim for claim, _, since in self.waiting.values() if now - since >= CLAIM_S]
        self.waiting = {s: held for s, held in self.waiting.items() if held[0] not in old}
        return old

    def answered(self, claim: str) -> bool:
        """The table answered `claim`: it waits no more (False: it was not waiting)."""
        before = len(self.waiting)
        self.waiting = {s: held for s, held in self.waiting.items() if held[0] != claim}
        return len(self.waiting) != before

    def pending(self) -> tuple[tuple[int, str], ...]:
        """(seat, claim) of every claim waiting, oldest first."""
        return tuple((seat, claim) for seat, (claim, _, _) in sorted(self.waiting.items(), key=lambda i: i[1][2]))


@dataclass(frozen=True, slots=True)
class Holder:
    seat: int
    active: bool  # False: a takeover waiting for START on the box
    claim: str = ""


class SeatTokens:
    """Seat tokens (stored as digests) in `path`: which phone holds which seat; beside them the box's table
    `code`, which stays until `renew_code` (a missing, damaged or unreadable file: a new code, logged)."""

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
            for digest, held in data.get("tokens", {}).items():
                if isinstance(held, dict) and isinstance(held.get("seat"), int) and held.get("active") is True:
                    self.holders[str(digest)] = Holder(int(held["seat"]), True)
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
                "tokens": {d: {"seat": h.seat, "active": True} for d, h in self.holders.items() if h.active}}
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

    def holder_of(self, seat: int) -> str | None:
        return next((d for d, h in self.holders.items() if h.active and h.seat == seat), None)

    def grant(self, seat: int) -> str:
        """A new token holding `seat` (any other token for it is revoked)."""
        token = secrets.token_urlsafe(32)
        self.holders = {d: h for d, h in self.holders.items() if h.seat != seat or not h.active}
        self.holders[_digest(token)] = Holder(seat, True)
        self._save()
        return token

    def wait(self, seat: int, claim: str) -> str:
        """A new token waiting for the table to confirm its takeover of `seat` (`claim`)."""
        token = secrets.token_urlsafe(32)
        self.holders[_digest(token)] = Holder(seat, False, claim)
        return token

    def drop_waiting(self, claims: list[str]) -> None:
        """The tokens that waited for `claims` (lapsed or replaced) are dropped."""
        self.holders = {d: h for d, h in self.holders.items() if h.active or h.claim not in claims}

    def answer(self, claim: str, granted: bool) -> int | None:
        """The table answered takeover `claim`: the waiting token holds the seat now (the old holder's is
        revoked) or is dropped. Returns the seat when it was granted."""
        waiting = next(((d, h) for d, h in self.holders.items() if not h.active and h.claim == claim), None)
        if waiting is None:
            return None
        digest, held = waiting
        del self.holders[digest]
        if not granted:
            return None
        self.holders = {d: h for d, h in self.holders.items() if h.seat != held.seat or not h.active}
        self.holders[digest] = Holder(held.seat, True)
        self._save()
        return held.seat

    def settle(self, claim: str, seat: int) -> bool:
        """The core answered join `claim`: its waiting token holds `seat` now, or is dropped (seat < 0).
        False when no token waits for it (answered before)."""
        waiting = next((d for d, h in self.holders.items() if not h.active and h.claim == claim), None)
        if waiting is None:
            return False
        del self.holders[waiting]
        if seat >= 0:
            self.holders = {d: h for d, h in self.holders.items() if h.seat != seat or not h.active}
            self.holders[waiting] = Holder(seat, True)
            self._save()
        return True

    def release(self, token: str | None) -> None:
        if token and self.holders.pop(_digest(token), None) is not None:
            self._save()
