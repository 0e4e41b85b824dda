"""gradio_patch.UnreadResults (issue 29, item 8) on Gradio's own Queue and messages: a finished
event's result that nobody reads is dropped after ``keep_s``, past the newest ``per_session`` of
its session and past the newest ``max_total`` of all; results read in time are never touched,
and the session's other messages keep their order. The running app: test_uploads_unread_app."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from gradio.queueing import Queue
from gradio.server_messages import EstimationMessage, ProcessCompletedMessage

from webapp.serving.gradio_patch import UnreadResults


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(coro_fn) -> None:
    """In a loop of its own, in a thread (as test_body_limit_app: a loop may be running here)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro_fn()).result()


def setup(keep_s=60.0, per_session=2, max_total=10):
    queue = Queue(live_updates=False, concurrency_count=1, update_intervals=1, max_size=None,
                  blocks=None)
    clock = Clock()
    results = UnreadResults(queue, keep_s, per_session, max_total, clock=clock)
    results.wrap()
    return queue, results, clock


def joined(queue, session: str, event_id: str):
    """What Queue.push sets up for an event of ``session``."""
    queue.pending_messages_per_session.setdefault(session, asyncio.Queue())
    queue.pending_event_ids_session.setdefault(session, set()).add(event_id)
    return SimpleNamespace(_id=event_id, session_hash=session, alive=True)


def finish(queue, event) -> None:
    queue.send_message(event, ProcessCompletedMessage(output={"data": ["x" * 1000]}, success=True))


def held(queue, session: str) -> list[tuple[str, str | None]]:
    messages = queue.pending_messages_per_session.get(session)
    return [] if messages is None else [(m.msg, m.event_id) for m in list(messages._queue)]


def test_a_session_keeps_its_newest_unread_results_only():
    async def go():
        queue, results, _ = setup(per_session=2)
        events = [joined(queue, "a", f"e{i}") for i in range(4)]
        queue.send_message(events[3], EstimationMessage(rank=0, queue_size=1))  # still waiting
        for event in events[:3]:
            finish(queue, event)
        assert held(queue, "a") == [("estimation", "e3"), ("process_completed", "e1"),
                                    ("process_completed", "e2")]
        assert queue.pending_event_ids_session["a"] == {"e1", "e2", "e3"}
        assert results.dropped == 1
        finish(queue, events[3])
        assert [e for _, e in held(queue, "a")] == ["e3", "e2", "e3"]  # e1 went, order kept
        assert queue.pending_event_ids_session["a"] == {"e2", "e3"}
    run(go)


def test_results_read_in_time_are_never_dropped_nor_counted():
    async def go():
        queue, results, _ = setup(per_session=2, max_total=3)
        for i in range(20):  # a page reading each result as it comes
            finish(queue, joined(queue, "page", f"p{i}"))
            assert queue.pending_messages_per_session["page"].get_nowait().event_id == f"p{i}"
        assert results.dropped == 0 and len(results.finished) <= 3
    run(go)


def test_all_sessions_together_keep_the_newest_max_total():
    async def go():
        queue, results, _ = setup(per_session=8, max_total=3)
        for i in range(5):
            finish(queue, joined(queue, f"s{i}", f"e{i}"))
        assert results.dropped == 2
        # The oldest two sessions held nothing else: Gradio forgets them ("session not found")
        assert set(queue.pending_messages_per_session) == {"s2", "s3", "s4"}
        assert set(queue.pending_event_ids_session) == {"s2", "s3", "s4"}
    run(go)


def test_unread_results_are_dropped_after_the_time_kept():
    async def go():
        queue, results, clock = setup(keep_s=60.0)
        finish(queue, joined(queue, "old", "o1"))
        clock.now += 30
        finish(queue, joined(queue, "new", "n1"))
        waiting = joined(queue, "old", "o2")  # the old session has another event in line
        assert results.sweep() == 0
        clock.now += 31
        assert results.sweep() == 1
        assert held(queue, "old") == [] and queue.pending_event_ids_session["old"] == {"o2"}
        assert "old" in queue.pending_messages_per_session  # its next result still arrives
        finish(queue, waiting)
        assert held(queue, "old") == [("process_completed", "o2")]
        assert held(queue, "new") == [("process_completed", "n1")]
    run(go)


def test_the_sweep_runs_by_itself_on_the_loop():
    async def go():
        queue, results, _ = setup(keep_s=0.2)
        results.clock = asyncio.get_running_loop().time
        finish(queue, joined(queue, "s", "e"))
        await asyncio.sleep(0.5)
        assert results.dropped == 1 and "s" not in queue.pending_messages_per_session
        queue.stopped = True
    run(go)
