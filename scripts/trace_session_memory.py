"""Where a learner's session memory goes: tracemalloc over N classroom learners, in-process.

Launches app.demo in this process on a free 127.0.0.1 port (fresh data folder), plays three
warm-up learners (the first training, figures, grader worker), then N learners of the
classroom load test's mix (3 playground pages, Train on the page's preset, 2 honest
submissions, progress; 4 at a time, no thinking) under tracemalloc, and prints the Python
memory still held per learner by file and by allocation site. RSS is not comparable here
(tracemalloc's own bookkeeping grows it): use measure_session_memory.py for RSS.

    python scripts/trace_session_memory.py --learners 30
    LAB_LIGHT_SESSIONS=0 python scripts/trace_session_memory.py --learners 30   # Gradio's own
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time
import tracemalloc
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "scripts")]
from classroom_load import PLAYGROUND, PRESETS, submissions  # noqa: E402
from load_test import free_port  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    if not 1 <= args.learners <= 200:
        ap.error("--learners 1..200 keeps the run bounded")
    os.environ["LAB_DATA_DIR"] = tempfile.mkdtemp(prefix="trace-session-")
    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
    import app
    from gradebook.identity import new_browser_key

    app.warm_up()
    port = free_port()
    app.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True)
    url = f"http://127.0.0.1:{port}"
    config = httpx.get(f"{url}/config", timeout=30).json()
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    events = {d["api_name"]: (d["id"], [values.get(i) for i in d["inputs"]])
              for d in config["dependencies"] if d.get("api_name")}

    def call(name: str, data: list | None, session: str, address: str) -> None:
        index, defaults = events[name]
        data = [*data, *defaults[len(data):]] if data is not None else defaults
        headers = {"accept-language": "en-US", "x-forwarded-for": address}
        with httpx.Client(base_url=url, timeout=300, headers=headers) as http:
            http.post("/gradio_api/queue/join", json={
                "data": data, "fn_index": index, "session_hash": session, "event_data": None,
                "trigger_id": None}).raise_for_status()
            with http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session}) as s:
                for line in s.iter_lines():
                    if '"process_completed"' in line:
                        assert json.loads(line[5:]).get("success"), line[:300]
                        return
        raise AssertionError(f"{name}: no answer")

    honest = submissions()["honest"]

    def learner(k: int) -> None:
        rng, session, key = random.Random(k), uuid.uuid4().hex[:11], new_browser_key()
        address = f"198.18.{k // 250}.{k % 250 + 1}"
        for _ in range(3):
            call(rng.choice(PLAYGROUND), None, session, address)
        call("on_train", PRESETS[0][1], session, address)
        for _ in range(2):
            ex, code = rng.choice(honest)
            call("on_submit", [ex, code, f"trace-{k}", key], session, address)
        call("on_refresh", [f"trace-{k}", key], session, address)

    try:
        for k in range(3):
            learner(10_000 + k)
        time.sleep(2)
        gc.collect()
        tracemalloc.start(8)
        before = tracemalloc.take_snapshot()
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(learner, range(args.learners)))
        time.sleep(2)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        app.demo.close()
    n = args.learners
    by_file = after.compare_to(before, "filename")
    print(f"Python memory held per learner: {sum(d.size_diff for d in by_file) / n / 1024:.0f} KB "
          f"(LAB_LIGHT_SESSIONS={os.environ.get('LAB_LIGHT_SESSIONS', '1')})")
    for d in by_file[: args.top]:
        print(f"{d.size_diff / n / 1024:8.1f} KB  {d.traceback[0].filename}")
    print("by allocation site (innermost frames last):")
    for d in after.compare_to(before, "traceback")[: args.top]:
        frames = [f"{Path(f.filename).name}:{f.lineno}" for f in d.traceback][-4:]
        print(f"{d.size_diff / n / 1024:8.1f} KB  {' <- '.join(reversed(frames))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
