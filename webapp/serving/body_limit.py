"""A bound on every request body before anything reads it (no gradio): plain ASGI middleware.

Why: Gradio parses a /gradio_api/queue/join body whole (JSON into Python objects) before any
of our checks can refuse it: eight 20 MB bodies took the app from 336 to 869 MB, 608 MB of it
kept (red team, issue 17, A5), while a submission may hold at most 100 kB of code and an
upload 5 MB (both refused with a clear message by the gradebook's checks, below these bounds).
Its other routes had no bound at all: one 400 MiB multipart request to /component_server
raised the app's RSS by 401 MiB, and /upload stored 3 × 200 MiB from one client and kept them
(red team, issue 29, item 9). Now every request has a bound, by route:

- event calls (queue/join, call/, run/, api/): ``max_bytes``;
- uploads (a path ending in /upload): ``upload_bytes`` (one file and its multipart envelope),
  and one client address may send at most ``budget.per_address`` bytes in ``budget.window_s``
  (refused with 429 and Retry-After past it; the address comes from the app's ``address_of``);
- every other route: ``other_bytes``.

A body over its bound is refused with 413: at once when Content-Length says so (never read),
else as soon as the bytes read pass it (a body without one is read here, never more than its
bound, and handed on). GET, HEAD and OPTIONS requests without a body pass untouched. The app
passes it to Gradio through ``launch(app_kwargs={"middleware": ...})``.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from webapp.i18n import both

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]
GUARDED = ("/queue/join", "/call/", "/run/", "/api/")
ENVELOPE = 65_536  # multipart headers and boundaries around one uploaded file
NO_BODY = ("GET", "HEAD", "OPTIONS")


class UploadBudget:
    """At most ``per_address`` uploaded bytes per client address in any ``window_s`` seconds
    (in this process; thread-safe). Addresses with nothing in the window are forgotten."""

    def __init__(self, per_address: int, window_s: float,
                 clock: Callable[[], float] = time.monotonic, max_tracked: int = 10_000) -> None:
        if per_address < 1 or not (math.isfinite(window_s) and window_s > 0):
            raise ValueError(f"bad upload budget: {per_address} bytes in {window_s} s")
        self.per_address, self.window_s = per_address, float(window_s)
        self._clock, self._max_tracked = clock, max_tracked
        self._sent: dict[str | None, deque[tuple[float, int]]] = {}
        self._lock = threading.Lock()

    def take(self, address: str | None, size: int) -> tuple[bool, float]:
        """``(True, 0.0)`` and count ``size`` bytes for ``address``, or ``(False, seconds until
        they would fit)`` counting nothing."""
        now = self._clock()
        with self._lock:
            if address not in self._sent and len(self._sent) >= self._max_tracked:
                self._forget_idle(now)
            sent = self._sent.setdefault(address, deque())
            while sent and sent[0][0] <= now - self.window_s:
                sent.popleft()
            used = sum(n for _, n in sent)
            if used + size <= self.per_address:
                sent.append((now, size))
                return True, 0.0
            # Wait until enough of the oldest uploads leave the window.
            freed, wait = used + size - self.per_address, self.window_s
            for at, n in sent:
                freed -= n
                if freed <= 0:
                    wait = at + self.window_s - now
                    break
            if not sent:
                del self._sent[address]
            return False, max(0.0, wait)

    def _forget_idle(self, now: float) -> None:
        for address in [a for a, s in self._sent.items()
                        if not s or s[-1][0] <= now - self.window_s]:
            del self._sent[address]
        while len(self._sent) >= self._max_tracked:  # all busy: the oldest entry goes
            del self._sent[next(iter(self._sent))]


class BodyLimit:
    """ASGI middleware: every request body bounded by its route (see the module docstring)."""

    def __init__(self, app: Callable, max_bytes: int = 12_000_000, *,
                 other_bytes: int = 1_000_000, upload_bytes: int = 6_000_000 + ENVELOPE,
                 budget: UploadBudget | None = None,
                 address_of: Callable[[Scope], str | None] | None = None) -> None:
        for name, value in (("max_bytes", max_bytes), ("other_bytes", other_bytes),
                            ("upload_bytes", upload_bytes)):
            if value < 1:
                raise ValueError(f"{name} must be >= 1, got {value}")
        self.app, self.max_bytes = app, max_bytes
        self.other_bytes, self.upload_bytes = other_bytes, upload_bytes
        self.budget, self.address_of = budget, address_of

    def bound(self, path: str) -> tuple[str, int]:
        """The kind of route ("event", "upload" or "other") and its bound in bytes."""
        if any(p in path for p in GUARDED):
            return "event", self.max_bytes
        if path.rstrip("/").endswith("/upload"):
            return "upload", self.upload_bytes
        return "other", self.other_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        kind, bound = self.bound(scope.get("path", ""))
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and declared.strip().isdigit():
            # The server delivers no more than a declared length: check it, read nothing.
            size = int(declared)
            if size > bound:
                await self._refuse(send, bound)
            elif kind == "upload" and size and not await self._charge(scope, size, send):
                return
            else:
                await self.app(scope, receive, send)
            return
        if scope.get("method") in NO_BODY and b"transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        # No Content-Length (chunked): read it here, at most the bound, then replay it.
        chunks, seen, more = [], 0, True
        while more:
            message = await receive()
            if message.get("type") != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > bound:
                await self._refuse(send, bound)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, sent = b"".join(chunks), False
        if kind == "upload" and body and not await self._charge(scope, len(body), send):
            return

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _charge(self, scope: Scope, size: int, send: Send) -> bool:
        """Count an upload against its address's budget; False (429 sent) when it is spent."""
        if self.budget is None:
            return True
        address = self.address_of(scope) if self.address_of else None
        ok, wait = self.budget.take(address, size)
        if not ok:
            wait_s = max(1, math.ceil(wait))
            mb = f"{self.budget.per_address / 1e6:g}"
            minutes = f"{self.budget.window_s / 60:g}"
            await self._answer(send, 429, {
                "error": f"uploads over {self.budget.per_address} bytes from this address in "
                         f"{self.budget.window_s:g} s",
                "message": both("limit.uploads", mb=mb, minutes=minutes, wait=wait_s)},
                [(b"retry-after", str(wait_s).encode())])
        return ok

    async def _refuse(self, send: Send, bound: int) -> None:
        mb = f"{bound / 1e6:.3g}"
        await self._answer(send, 413, {"error": f"request body over {bound} bytes",
                                       "message": both("limit.body", mb=mb)})

    @staticmethod
    async def _answer(send: Send, status: int, payload: dict,
                      extra: list[tuple[bytes, bytes]] = ()) -> None:
        body = json.dumps(payload, ensure_ascii=False).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()), *extra]})
        await send({"type": "http.response.body", "body": body})
