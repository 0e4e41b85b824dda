"""Red team 5 (N5): Gradio's queue has one app-wide max_size and no bound per client, so one
address keeping ~64 slow calls waiting had every other visitor refused "Queue is full". With
webapp.serving.gradio_patch.guard, one address (or one tab) holds a bounded share of the places and a
visitor from another address still gets in. Attacked through POST /gradio_api/queue/join on a
running server, with clients told apart by our proxy's X-Forwarded-For entry (1 trusted hop)."""

from __future__ import annotations

import threading

import gradio as gr
import httpx
import pytest
from browser_support import free_port

from webapp.serving import gradio_patch
from webapp.serving.who import client_of_request

ATTACKER, VISITOR = "203.0.113.9", "198.51.100.7"


@pytest.fixture
def slow_app():
    release = threading.Event()

    def slow(x):
        release.wait(30)  # the first call holds the pool's one worker; the rest wait in the queue
        return x

    with gr.Blocks() as blocks:
        box = gr.Textbox()
        box.submit(slow, box, box, api_name="slow", concurrency_limit=1)
    blocks.queue(max_size=10)
    # One trusted hop (our proxy's X-Forwarded-For entry), as the app reads it on a Space.
    gradio_patch.guard_blocks(blocks, per_address=4, per_session=3,
                              address=lambda request: client_of_request(request, 1).address)
    blocks.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=free_port(),
                  quiet=True)
    fn_index = next(i for i, f in blocks.fns.items() if f.api_name == "slow")
    yield blocks, fn_index
    release.set()
    blocks.close()


def _join(url: str, fn_index: int, address: str, session: str, lang: str = "en-US"):
    headers = {"x-forwarded-for": address, "accept-language": lang}
    return httpx.post(f"{url}gradio_api/queue/join", headers=headers, timeout=10,
                      json={"data": ["x"], "fn_index": fn_index, "session_hash": session,
                            "event_data": None, "trigger_id": None})


def test_one_address_cannot_fill_the_queue_for_everyone(slow_app):
    blocks, fn = slow_app
    url = blocks.local_url
    codes = [_join(url, fn, ATTACKER, f"flood{i}").status_code for i in range(12)]
    # one runs, four wait: the address's share; every further join is refused before queueing
    assert codes.count(200) <= 1 + 4 and codes[-1] == 503, codes
    assert len(gradio_patch.waiting(blocks._queue)) <= 4
    assert _join(url, fn, VISITOR, "honest").status_code == 200  # another address gets a place
    refused = _join(url, fn, ATTACKER, "flood-zh", lang="zh-CN,zh;q=0.9")
    assert refused.status_code == 503 and "排队" in refused.json()["detail"]


def test_one_tab_holds_at_most_its_own_share(slow_app):
    blocks, fn = slow_app
    url = blocks.local_url
    codes = [_join(url, fn, VISITOR, "one-tab").status_code for _ in range(6)]
    assert codes.count(200) <= 1 + 3 and codes[-1] == 503, codes
    assert _join(url, fn, VISITOR, "another-tab").status_code == 200  # same address, new tab


def test_the_app_bounds_every_clients_share_of_its_queue():
    import app

    assert app.demo._queue.push.__name__ == "bounded_push"
    per_address, per_session = app.demo._queue.guarded

    s = app.LAB.serving.settings  # the bounds are the wing's settings, read once
    assert (per_address, per_session, app.demo._queue.max_size) == \
        (s.queue_per_address, s.queue_per_session, s.queue_max)
    # One address may hold a lecture hall's page loads (512 of 4096 by default); filling the
    # queue still takes 8 addresses, as before (96 of 1024).
    assert per_address * 8 <= app.demo._queue.max_size
    assert per_session < per_address  # one tab cannot take its whole address's share


def test_the_guard_refuses_bad_bounds():
    with pytest.raises(ValueError, match="queue bounds"):
        gradio_patch.guard(object(), per_address=0, per_session=3, address=lambda r: None)


@pytest.fixture
def wide_slow_app():
    """One worker, a queue roomy enough for a flood (per address 40 of 100)."""
    release = threading.Event()

    def slow(x):
        release.wait(30)
        return x

    with gr.Blocks() as blocks:
        box = gr.Textbox()
        box.submit(slow, box, box, api_name="slow", concurrency_limit=1)
    blocks.queue(max_size=100)
    gradio_patch.guard_blocks(blocks, per_address=40, per_session=3,
                              address=lambda request: client_of_request(request, 1).address)
    blocks.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=free_port(),
                  quiet=True)
    fn_index = next(i for i, f in blocks.fns.items() if f.api_name == "slow")
    yield blocks, fn_index
    release.set()
    blocks.close()


def test_a_stranger_waits_behind_one_event_per_other_address_not_a_flood(wide_slow_app):
    """Red team (issue 17, A7): 522 playground events of one address, each from a fresh session,
    kept a stranger's event at rank 510 for 40 s; Gradio serves a pool first come first served.
    The guard now orders each pool round-robin by address: the stranger is second in line."""
    blocks, fn = wide_slow_app
    url = blocks.local_url
    codes = [_join(url, fn, ATTACKER, f"flood{i}").status_code for i in range(30)]
    assert codes.count(200) == 30
    assert _join(url, fn, VISITOR, "honest").status_code == 200
    order = [gradio_patch.waiting(blocks._queue)]
    owners = [e.session_hash for e in order[0]]
    # One flood event runs; of those waiting, the stranger's is the first or the second.
    assert "honest" in owners[:2], owners[:5]
