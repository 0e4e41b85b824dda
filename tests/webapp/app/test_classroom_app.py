"""Issue 17's classroom, against the running app: 30 page sessions behind one address (every
client here is 127.0.0.1, the app trusts no proxy: one school NAT) press the Exercises page's
Submit within two seconds, each with its own browser key and name. All 30 are graded and stored;
none is refused. Then the Train button pressed 30 times from that address: every press is served.
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from pathlib import Path

import httpx

import app
from gradebook.identity import guest_id, new_browser_key
from grader import variants
from grader.exercises import get

REPO = Path(__file__).resolve().parents[3]
EXERCISE = "manual-attention"


def _events(url: str) -> dict[str, tuple[int, list]]:
    config = httpx.get(f"{url}config", timeout=30).json()
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    return {d["api_name"]: (d["id"], [values.get(i) for i in d["inputs"]])
            for d in config["dependencies"] if d.get("api_name")}


def page_event(url: str, events: dict, name: str, data: list, session: str,
               timeout_s: float = 240.0) -> str:
    """One page event as a browser sends it (join, then read the stream); its messages."""
    index, defaults = events[name]
    data = [*data, *defaults[len(data):]]
    lines = []
    with httpx.Client(base_url=url, timeout=timeout_s) as http:
        r = http.post("gradio_api/queue/join", json={"data": data, "fn_index": index,
                                                     "session_hash": session, "event_data": None,
                                                     "trigger_id": None})
        assert r.status_code == 200, r.text  # the queue guard never refuses a class
        with http.stream("GET", "gradio_api/queue/data", params={"session_hash": session}) as s:
            for line in s.iter_lines():
                if line.startswith("data:"):
                    lines.append(line)
                    if '"process_completed"' in line:
                        assert json.loads(line[5:]).get("success"), line
                        break
    return "\n".join(lines)


def test_thirty_page_sessions_behind_one_address_are_all_graded(app_url, app_gradebook):
    events = _events(app_url)
    code = (REPO / "hidden" / EXERCISE / "reference.py").read_text(encoding="utf-8")
    tag = uuid.uuid4().hex[:6]
    outcomes: dict[int, str] = {}
    start = time.monotonic() + 0.3
    delays = sorted(random.Random(17).uniform(0, 2.0) for _ in range(30))

    def learner(k: int) -> None:
        time.sleep(max(0.0, start + delays[k] - time.monotonic()))
        key = new_browser_key()
        # Part A is graded on each learner's own numbers (grader/variants.py): the reference
        # as this learner (their browser key's guest id) would write it.
        own = get(EXERCISE).variant_values(app.LAB.submitter.numbers_key(guest_id(key)))
        text = page_event(app_url, events, "on_submit",
                          [EXERCISE, variants.render(code, own), f"room-{tag}-{k:02d}", key],
                          uuid.uuid4().hex[:11])
        tail = text.split('"process_completed"')[-1]
        outcomes[k] = "refused" if "⚠️" in tail else ("graded" if "Score" in tail else tail[-200:])

    threads = [threading.Thread(target=learner, args=(k,)) for k in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    last = time.monotonic() - start
    assert sorted(outcomes) == list(range(30))
    assert set(outcomes.values()) == {"graded"}, outcomes
    rows = [r for r in app_gradebook.all_rows(include_code=False)
            if r.learner.startswith(f"room-{tag}-")]
    assert len(rows) == 30 and all(r.score == r.max_score for r in rows)
    assert last < 120, f"the last of 30 answered after {last:.0f} s"


def test_thirty_train_presses_from_one_address_are_all_served(app_url):
    """Property 5: a preset replays (or trains once, the others waiting for that one run);
    custom runs wait in line with their position; none is refused."""
    events = _events(app_url)
    preset = ["reverse", 2, 16, 1, 32, 0.0, "sinusoidal", 30]
    texts: list[str] = []
    lock = threading.Lock()

    def press(k: int) -> None:
        steps = 30 if k % 3 else 20 + k  # two in three ask for the same run, the rest custom
        text = page_event(app_url, events, "on_train", [*preset[:-1], steps],
                          uuid.uuid4().hex[:11])
        with lock:
            texts.append(text.split('"process_completed"')[-1])

    threads = [threading.Thread(target=press, args=(k,)) for k in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    assert len(texts) == 30
    assert not [t for t in texts if "⚠️" in t], [t[:200] for t in texts if "⚠️" in t][:3]
