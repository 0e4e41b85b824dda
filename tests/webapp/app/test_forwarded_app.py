"""Forwarded headers through the running app (issue 29, item 5): uvicorn trusted any loopback
peer's X-Forwarded-For, so a process on the host was as many addresses as it liked, and a header
of `x` gave no address at all (6 of 6 sleepers past a bound of 3). The address is now the peer
unless the serving wing is told to trust a proxy."""

from __future__ import annotations

import dataclasses

import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError

from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey

EXERCISE = "causal-mask"


@pytest.fixture
def line(app_url, tmp_path):
    """The running app with a line of three workers and two places per address, two of them
    held (running) by the loopback address itself: its address is full, another is graded at
    once; a fresh gradebook; everything restored afterwards."""
    import app
    from gradebook import open_gradebook
    from webapp.serving.limits import Limits
    from webapp.serving.settings import ServingSettings

    submitter = app.LAB.submitter
    serving = submitter.serving
    saved = (serving.settings, serving.grading, serving.limits)
    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}")
    old_book = submitter.use_gradebook(book)
    serving.limits = Limits.in_memory(ServingSettings(rate_limit=1000))
    serving.grading = TurnQueue(slots=3, per_address=2)
    held = [serving.grading.admit(ClientKey(f"held{i}", "127.0.0.1", f"id:g:held{i}"))
            for i in range(2)]
    assert all(isinstance(t, Ticket) for t in held)
    yield serving
    for t in held:
        t.release()
    serving.settings, serving.grading, serving.limits = saved
    submitter.use_gradebook(old_book)
    book.close()


def _grade(app_url: str, xff: str) -> str:
    caller = Client(app_url, verbose=False, headers={"X-Forwarded-For": xff})
    try:
        out = caller.predict(EXERCISE, "x = 1\n", "Forger", api_name="/grade")
    except AppError as err:
        return str(err)
    return "graded" if out.get("max_score") else str(out)


@pytest.mark.parametrize("xff", ["203.0.113.9", "x", "198.51.100.1, 203.0.113.10"])
def test_a_loopback_clients_forwarded_header_is_not_its_address(app_url, line, xff):
    assert line.settings.forwarded_hops == 0  # off a Space: no trusted proxy
    assert "address_full" in _grade(app_url, xff)  # counted as 127.0.0.1, whose places are taken


def test_a_proxy_outside_the_trusted_list_is_not_believed(app_url, line):
    line.settings = dataclasses.replace(line.settings, forwarded_hops=1,
                                        trusted_proxies=("10.0.0.0/8",))
    assert "address_full" in _grade(app_url, "203.0.113.11")
    # The same header from a trusted peer is the proxy's word (here: any peer, as on a Space).
    line.settings = dataclasses.replace(line.settings, trusted_proxies=())
    assert _grade(app_url, "203.0.113.12") == "graded"
