"""Red team (issue 17, A5) against the running app: a 20 MB body to an event call was parsed by
Gradio before any check (eight of them: +533 MB RSS, 272 MB kept). Event-call bodies are now
bounded before anything reads them (webapp/serving/body_limit.py); ordinary calls go on."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import httpx


def test_huge_event_bodies_are_refused_before_they_are_read(app_url):
    code = "x = 1\n" + "#" * (20 * 1024 * 1024)
    body = json.dumps({"data": ["causal-mask", code, "big"], "fn_index": 0,
                       "session_hash": "huge", "event_data": None, "trigger_id": None})
    for _ in range(4):
        r = httpx.post(f"{app_url}gradio_api/queue/join", content=body, timeout=60,
                       headers={"content-type": "application/json"})
        assert r.status_code == 413, r.status_code
        assert "request body over" in r.json()["error"]
        chunked = httpx.post(f"{app_url}gradio_api/call/grade", timeout=60,
                             content=iter([body[i:i + 65536].encode()
                                           for i in range(0, len(body), 65536)]),
                             headers={"content-type": "application/json"})
        assert chunked.status_code == 413  # no Content-Length: counted while read
    ok = httpx.get(f"{app_url}config", timeout=30)
    assert ok.status_code == 200


def _run(coro) -> None:
    """asyncio.run in a thread of its own: a browser test earlier in the same process (CI runs
    them together) can leave an event loop running in this one, where asyncio.run refuses."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro).result()


def test_the_app_behind_the_bound_never_sees_an_oversized_body():
    """The mechanism, deterministically (RSS in a shared test process is too noisy to pin):
    the app is never called for an oversized body, and a chunked one is read no further than
    the bound; a body within it reaches the app whole."""
    from webapp.serving.body_limit import BodyLimit

    called, sent, read = [], [], [0]

    async def app(scope, receive, send):
        called.append((await receive())["body"])

    async def send(message):
        sent.append(message)

    def receiver(chunks):
        it = iter(chunks)

        async def receive():
            chunk = next(it)
            read[0] += len(chunk)
            return {"type": "http.request", "body": chunk, "more_body": True}
        return receive

    scope = {"type": "http", "method": "POST", "path": "/gradio_api/queue/join",
             "headers": [(b"content-length", b"5000")]}
    _run(BodyLimit(app, max_bytes=1000)(scope, receiver([b"x" * 5000]), send))
    assert called == [] and sent[0]["status"] == 413 and read[0] == 0  # refused unread
    sent.clear()
    chunked = {**scope, "headers": []}
    _run(BodyLimit(app, max_bytes=1000)(chunked, receiver([b"x" * 400] * 100), send))
    assert called == [] and sent[0]["status"] == 413 and read[0] <= 1200  # stopped at the bound

    async def small_receive():
        return {"type": "http.request", "body": b'{"a": 1}', "more_body": False}

    _run(BodyLimit(app, max_bytes=1000)(chunked, small_receive, send))
    assert called == [b'{"a": 1}']
