"""A bound on request bodies before anything reads them (no gradio): plain ASGI middleware.

Why: Gradio parses a /gradio_api/queue/join body whole (JSON into Python objects) before any
of our checks can refuse it: eight 20 MB bodies took the app from 336 to 869 MB, 608 MB of it
kept (red team, issue 17, A5), while a submission may hold at most 100 kB of code and an
upload 5 MB (both refused with a clear message by the gradebook's checks, below this bound). Event calls
(queue/join, call/, run/) are refused with 413 past ``max_bytes``: at once when
Content-Length says so, else as soon as the bytes read pass it (a body without one is read
here, never more than ``max_bytes``, and handed on). File uploads (/upload) keep
Gradio's own limit. The app passes it to Gradio through ``launch(app_kwargs={"middleware": ...})``.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from webapp.i18n import both

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]
GUARDED = ("/queue/join", "/call/", "/run/", "/api/")


class BodyLimit:
    """ASGI middleware: event-call bodies of at most ``max_bytes``."""

    def __init__(self, app: Callable, max_bytes: int = 12_000_000) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be >= 1, got {max_bytes}")
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST" \
                or not any(p in scope.get("path", "") for p in GUARDED):
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        # No Content-Length (chunked): read it here, at most max_bytes, then replay it.
        chunks, seen, more = [], 0, True
        while more:
            message = await receive()
            if message.get("type") != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body, sent = b"".join(chunks), False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        mb = f"{self.max_bytes / 1e6:g}"
        body = json.dumps({"error": f"request body over {self.max_bytes} bytes",
                           "message": both("limit.body", mb=mb)},
                          ensure_ascii=False).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
