"""The owner PIN on disk: only a salted slow hash (`hashlib.scrypt`), in `PIN_NAME` in the state directory.

The file is `{"kdf": "scrypt", "n": …, "r": …, "p": …, "salt": <hex>, "hash": <hex>}`, written atomically
(`paths.write_atomically`) and readable by the service's user only. It is the box's own, like the phones'
seats: no backup holds it (a PIN of 4 digits is quickly guessed from its hash, so it stays on the box),
and a restore leaves it as it is. `SetOwnerPin` (the menu on the box) writes or removes it; the table
page reads it at every owner request (`page/owner.py`), so a PIN set, changed or removed on the box takes
effect at once.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from firmware_host.paths import write_atomically

log = logging.getLogger("wordtable")

PIN_NAME = "owner-pin.json"
SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # ~16 MiB and ~0.1 s here, about a second on a Pi Zero 2 W
SALT_BYTES = 16
MAX_COST = 2**17  # a file asking for more work than this is not ours


@dataclass(frozen=True, slots=True)
class StoredPin:
    """A PIN's hash as the file keeps it."""

    salt: bytes
    digest: bytes
    n: int = SCRYPT["n"]
    r: int = SCRYPT["r"]
    p: int = SCRYPT["p"]

    def matches(self, pin: str) -> bool:
        """Whether `pin` is the PIN hashed here (slow by design: call it off the event loop)."""
        return hmac.compare_digest(_scrypt(pin, self.salt, self.n, self.r, self.p), self.digest)


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * r * n + 2**20, dklen=32)


def hashed(pin: str, salt: bytes | None = None) -> StoredPin:
    """`pin` hashed with a new random salt (or `salt`)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    return StoredPin(salt, _scrypt(pin, salt, SCRYPT["n"], SCRYPT["r"], SCRYPT["p"]))


def pin_path(state_dir: Path) -> Path:
    return state_dir / PIN_NAME


def save_pin(state_dir: Path, pin: str | None) -> None:
    """Keep the hash of `pin` as the owner PIN, or remove the PIN (None). Raises OSError."""
    path = pin_path(state_dir)
    if pin is None:
        path.unlink(missing_ok=True)
        log.info("owner PIN removed")
        return
    stored = hashed(pin)
    data = {"kdf": "scrypt", "n": stored.n, "r": stored.r, "p": stored.p, "salt": stored.salt.hex(),
            "hash": stored.digest.hex()}
    write_atomically(path, json.dumps(data).encode())
    os.chmod(path, 0o600)
    log.info("owner PIN set")


def read_pin(state_dir: Path | None) -> StoredPin | None:
    """The owner PIN's hash; None when none is set (no state directory, no file, or one that is not ours:
    logged — the owner sets the PIN again on the box)."""
    if state_dir is None:
        return None
    path = pin_path(state_dir)
    try:
        data = json.loads(path.read_bytes())
        n, r, p = (int(data[key]) for key in ("n", "r", "p"))
        if data["kdf"] != "scrypt" or not (1 < n <= MAX_COST and 0 < r <= 16 and 0 < p <= 4):
            raise ValueError("unknown parameters")
        return StoredPin(bytes.fromhex(data["salt"]), bytes.fromhex(data["hash"]), n, r, p)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("owner PIN in %s unreadable, taken as none set: %s", path, exc)
        return None
