"""Red team (issue 17, A5) against the running app: a 20 MB body to an event call was parsed by
Gradio before any check (eight of them: +533 MB RSS, 272 MB kept). Event-call bodies are now
bounded before anything reads them (webapp/serving/body_limit.py); ordinary calls go on."""

from __future__ import annotations

import json
import os

import httpx


def _rss_mb() -> float:
    for line in open(f"/proc/{os.getpid()}/status", encoding="ascii"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_huge_event_bodies_are_refused_before_they_are_read(app_url):
    code = "x = 1\n" + "#" * (20 * 1024 * 1024)
    body = json.dumps({"data": ["causal-mask", code, "big"], "fn_index": 0,
                       "session_hash": "huge", "event_data": None, "trigger_id": None})
    before = _rss_mb()
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
    assert _rss_mb() - before < 120, (before, _rss_mb())  # the test's own 20 MB strings aside
    ok = httpx.get(f"{app_url}config", timeout=30)
    assert ok.status_code == 200
