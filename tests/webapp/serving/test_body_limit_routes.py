"""webapp.serving.body_limit by route (issue 29, item 9), at the ASGI level: event calls, uploads
and every other route have their own bound, bodyless requests pass untouched, and one address's
uploads are counted over a window (429 with Retry-After past it). The running app:
tests/webapp/test_uploads_unread_app.py."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from webapp.serving.body_limit import BodyLimit, UploadBudget


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def call(limit: BodyLimit, path: str, size: int, *, method: str = "POST", declared: bool = True,
         client: str = "10.0.0.1") -> tuple[int, dict, bytes | None]:
    """One request through ``limit``: (status, response headers, the body the app read, or None
    when the app was never called)."""
    reached, sent = [], []

    async def app(scope, receive, send):
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        reached.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    limit.app = app
    chunks = [b"x" * min(1000, size - i) for i in range(0, size, 1000)] or [b""]

    async def receive():
        chunk = chunks.pop(0) if chunks else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message):
        sent.append(message)

    headers = [(b"content-length", str(size).encode())] if declared else \
        [(b"transfer-encoding", b"chunked")]
    scope = {"type": "http", "method": method, "path": path, "headers": headers,
             "client": (client, 1234)}
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, limit(scope, receive, send)).result()
    start = sent[0]
    return start["status"], dict(start["headers"]), reached[0] if reached else None


def limit(budget: UploadBudget | None = None) -> BodyLimit:
    async def never(scope, receive, send):  # replaced per call
        raise AssertionError
    return BodyLimit(never, max_bytes=10_000, other_bytes=2_000, upload_bytes=6_000,
                     budget=budget, address_of=lambda scope: scope["client"][0])


@pytest.mark.parametrize("path, bound", [
    ("/gradio_api/queue/join", 10_000), ("/gradio_api/call/positional", 10_000),
    ("/gradio_api/upload", 6_000), ("/upload/", 6_000),
    ("/gradio_api/component_server", 2_000), ("/gradio_api/component_server/", 2_000),
    ("/gradio_api/cancel", 2_000), ("/login", 2_000), ("/anything/else", 2_000)])
def test_each_route_has_its_bound(path, bound):
    for declared in (True, False):
        status, _, reached = call(limit(), path, bound + 1, declared=declared)
        assert status == 413 and reached is None, (path, declared)  # the app never saw it
        status, _, reached = call(limit(), path, bound, declared=declared)
        assert status == 200 and len(reached) == bound, (path, declared)


def test_a_refusal_says_why_in_both_languages():
    lim = limit()
    sent = []

    async def send(message):
        sent.append(message)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, lim._refuse(send, 6_065_536)).result()
    payload = json.loads(sent[1]["body"])
    assert payload["error"] == "request body over 6065536 bytes"
    assert "6.07 MB" in payload["message"]["en"] and "6.07 MB" in payload["message"]["zh"]


def test_requests_without_a_body_pass_untouched():
    lim = limit()
    seen = []

    async def app(scope, receive, send):
        seen.append(receive)
        await send({"type": "http.response.start", "status": 200, "headers": []})
    lim.app = app

    async def receive():
        raise AssertionError("a GET's body is never read here")
    scope = {"type": "http", "method": "GET", "path": "/gradio_api/queue/data", "headers": []}
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, lim(scope, receive, lambda m: asyncio.sleep(0))).result()
    assert seen == [receive]  # the app got the server's own receive


def test_one_address_has_an_upload_budget_over_a_window():
    clock = Clock()
    budget = UploadBudget(per_address=10_000, window_s=60, clock=clock)
    lim = limit(budget)
    assert [call(lim, "/gradio_api/upload", 4_000)[0] for _ in range(2)] == [200, 200]
    clock.now += 10
    status, headers, _ = call(lim, "/gradio_api/upload", 4_000)
    assert status == 429 and headers[b"retry-after"] == b"50"  # the first leaves at 60 s
    assert call(lim, "/gradio_api/upload", 4_000, declared=False)[0] == 429  # chunked too
    assert call(lim, "/gradio_api/upload", 4_000, client="10.0.0.2")[0] == 200  # another address
    assert call(lim, "/gradio_api/cancel", 1_000)[0] == 200  # other routes are not counted
    clock.now += 50
    assert call(lim, "/gradio_api/upload", 4_000)[0] == 200  # the window moved on
    assert call(lim, "/gradio_api/upload", 7_000)[0] == 413  # too big is 413, not counted
    assert budget.take("10.0.0.1", 2_000) == (True, 0.0)


def test_the_budget_forgets_idle_addresses():
    clock = Clock()
    budget = UploadBudget(per_address=100, window_s=10, clock=clock, max_tracked=3)
    for a in "abc":
        assert budget.take(a, 100)[0]
    clock.now += 11
    assert budget.take("d", 1)[0] and len(budget._sent) == 1  # a, b and c had nothing left
    assert budget.take("a", 100)[0]
