"""Browser keys that say when this server made them (no gradio).

A browser key is 32 random-looking bytes (gradebook.identity). Keys this app makes are
*stamped*: 18 random bytes, the minute they were made, and 10 bytes of an HMAC over both,
keyed by a random secret of the deployment (kept in the gradebook, never sent to anyone) mixed
with the instructor password. Anybody can send a key of the right shape, but only the server
can make one that verifies, and the stamp says how old it is. (Keyed by the password alone,
every key handed to a visitor let them test password guesses offline: fourth red team.)

What for (red team, issue 29): wrong instructor passwords are counted per browser, so that a
student guessing at the school's one address cannot lock the teacher out; but a script that
sends a fresh key with every guess was then compared about 100 times a second once the global
cap was reached. Past the cap (webapp.pages.instructor.authorize), tries from keys that are not
stamped, or were stamped within the last ``AGED_S``, share one small rate; keys stamped before
that (a browser that used the app earlier) share a small allowance per address; a browser that
logged in before is trusted and keeps its own count.
A new password forgets every stamp (they then count as unstamped), as it forgets every trust.
One address is given at most so many stamped keys an hour (the serving wing's ``key_stamps``),
so a spray cannot age an unbounded stock of keys either; past it pages get unstamped keys.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import secrets
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

from gradebook import Gradebook
from gradebook import identity as ids
from webapp.settings import WebSettings

AGED_S = 3600.0  # a stamp at least this old: the browser was here before any spray began
_RANDOM, _MAC = 18, 10  # bytes: 18 random + 4 (the minute) + 10 (the HMAC) = 32


def _secret(book: Gradebook) -> bytes | None:
    password = WebSettings.read("instructor_password")
    if not password:
        return None
    return secret_for(book.server_secret("key stamps"), password)


@functools.lru_cache(maxsize=4)
def secret_for(server_secret: bytes, password: str) -> bytes:
    """The stamps' HMAC key: the deployment's secret and the password (a new password voids
    every stamp)."""
    return hashlib.sha256(b"transformer-lab key stamp\x00" + server_secret
                          + password.encode("utf-8", "replace")).digest()


def new_key(book: Gradebook, now: float | None = None, allowance: Any = None,
            address: str | None = None) -> str:
    """A fresh browser key, stamped with this minute when an instructor password is set and
    ``address`` is still within its ``allowance`` of stamps (a RateLimiter: the serving wing's
    ``key_stamps``); unstamped otherwise (it works the same for everything but password tries
    past the global cap). ``book``: the gradebook that keeps the deployment's secret."""
    secret = _secret(book)
    if secret is None or address is None or allowance is None \
            or not allowance.check(f"stamp:{address}")[0]:
        return ids.new_browser_key()
    body = secrets.token_bytes(_RANDOM) + struct.pack(">I", int((now or time.time()) // 60))
    raw = body + hmac.new(secret, body, hashlib.sha256).digest()[:_MAC]
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def made_at(book: Gradebook, key: str | None) -> float | None:
    """When this server stamped ``key`` (seconds since the epoch, to the minute), or None for a
    key it did not make (or made under another password, or no key at all)."""
    secret = _secret(book)
    if secret is None or not ids.valid_browser_key(key):
        return None
    try:
        raw = base64.urlsafe_b64decode(str(key) + "=")
    except ValueError:
        return None
    body, mac = raw[:-_MAC], raw[-_MAC:]
    if len(raw) != 32 or not hmac.compare_digest(mac, hmac.new(secret, body, hashlib.sha256).digest()[:_MAC]):
        return None
    return float(struct.unpack(">I", body[_RANDOM:])[0] * 60)


def aged(book: Gradebook, key: str | None, now: float | None = None) -> bool:
    """Whether ``key`` was stamped by this server at least AGED_S ago."""
    at = made_at(book, key)
    return at is not None and (now or time.time()) - at >= AGED_S


class SessionKeys:
    """Keys made for page sessions whose browser had none yet: the page's load event and a
    click racing it (Submit within a second of a first visit) must agree on one key. Each
    lives ``ttl_s``; at most ``max_sessions`` (a flood of fresh page sessions must not grow it
    without bound: the oldest go first)."""

    def __init__(self, ttl_s: float = 600.0, max_sessions: int = 10_000) -> None:
        self.ttl_s, self.max_sessions = ttl_s, max_sessions
        self._made: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._made)

    def key(self, session: str, make: Callable[[], str]) -> str:
        """The key made for ``session`` (``make()`` now if none, or if it is too old)."""
        now = time.monotonic()
        with self._lock:
            if len(self._made) >= self.max_sessions:
                for old in [s for s, (at, _) in self._made.items() if now - at > self.ttl_s]:
                    del self._made[old]
                while len(self._made) >= self.max_sessions:
                    del self._made[next(iter(self._made))]
            at, made = self._made.get(session, (0.0, ""))
            if not made or now - at > self.ttl_s:
                made = make()
                self._made[session] = (now, made)
            return made
