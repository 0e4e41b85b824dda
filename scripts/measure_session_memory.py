"""App RSS as browser sessions each train once (issue 12: 300 sessions within idle + 500 MB).

Starts the app on a free 127.0.0.1 port with a fresh data folder, trains the page's defaults
once (so every later session is a cache hit, as in a class), then opens sessions in batches,
each pressing Train once on the page, and prints the app's RSS after every batch, the slope per
session and its extrapolation to --target sessions. Then the sessions' tabs close (their
heartbeat connections end) and as many new sessions train once: RSS after release and after
them. Bounded: --sessions <= 400.

``--mix full`` plays the classroom load test's learner instead (3 playground pages, Train on
the page's preset, 2 honest submissions, progress; no thinking time) and takes the idle figure
as the load test does: the app started and one playground call served, nothing trained yet.
Environment variables (LAB_LIGHT_SESSIONS=0, LAB_MALLOC_ARENAS=0, ...) reach the app.

    python scripts/measure_session_memory.py --sessions 60 --batch 20
    python scripts/measure_session_memory.py --mix full --sessions 300 --batch 50
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "scripts")]
from classroom_load import PLAYGROUND, PRESETS, App, submissions  # noqa: E402
from load_test import stop  # noqa: E402


def full_visit(app: App, data: list, honest: list[tuple[str, str]]):
    """One classroom learner's events in a row, as the load test plays them (no thinking)."""
    from gradebook.identity import new_browser_key

    def visit(session: str) -> dict:
        rng = random.Random(session)
        key, name = new_browser_key(), f"mem-{session}"
        address = f"198.18.{rng.randrange(250)}.{rng.randrange(1, 250)}"  # one per learner
        for _ in range(3):
            assert app.call(rng.choice(PLAYGROUND), None, session, address)["ok"]
        trained = app.call("on_train", data, session, address)
        for _ in range(2):
            ex, code = rng.choice(honest)
            out = app.call("on_submit", [ex, code, name, key], session, address)
            assert out["ok"] and "⚠️" not in out["text"].split('"process_completed"')[-1], out
        assert app.call("on_refresh", [name, key], session, address)["ok"]
        return trained

    return visit


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=60)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--target", type=int, default=300)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--mix", choices=("train", "full"), default="train")
    args = ap.parse_args()
    if not 1 <= args.sessions <= 400 or not 1 <= args.batch <= args.sessions:
        ap.error("--sessions 1..400 and --batch 1..sessions")
    tmp = Path(tempfile.mkdtemp(prefix="session-memory-"))
    env = {**os.environ, "LAB_DATA_DIR": str(tmp / "data"), "GRADIO_ANALYTICS_ENABLED": "False",
           "GRADIO_HEARTBEAT_INTERVAL": "2", "LAB_WARM_RUN_CACHE": "0",
           "LAB_FORWARDED_HOPS": "1"}
    env.pop("DATABASE_URL", None)
    app = App(env, tmp / "app.log")
    out: dict = {"mix": args.mix, "sessions": [], "rss_mb": [], "env": {
        k: v for k, v in os.environ.items() if k.startswith(("LAB_", "MALLOC_"))}}
    try:
        data = PRESETS[0][1]
        visit = (lambda s: app.call("on_train", data, s, "127.0.0.1")) if args.mix == "train" \
            else full_visit(app, data, submissions()["honest"])
        if args.mix == "full":  # the load test's idle: served once, nothing trained
            time.sleep(5)
            app.call("attention_basics", None, "idle-" + uuid.uuid4().hex[:6], "127.0.0.1")
            out["idle_rss_mb"] = app.rss_mb()[0]
        app.call("on_train", data, "first-" + uuid.uuid4().hex[:6], "127.0.0.1", 900)  # trains
        app.call("on_train", data, "second-" + uuid.uuid4().hex[:6], "127.0.0.1", 900)  # a hit
        time.sleep(2)
        out.setdefault("idle_rss_mb", app.rss_mb()[0])
        sessions: list[str] = []
        done = 0
        with ThreadPoolExecutor(4) as pool:  # four learners press Train at a time
            while done < args.sessions:
                n = min(args.batch, args.sessions - done)
                batch = [uuid.uuid4().hex[:11] for _ in range(n)]
                results = list(pool.map(visit, batch))
                assert all(r["ok"] and "From the cache" in r["text"] for r in results), results[0]
                sessions += batch
                done += n
                time.sleep(1)
                out["sessions"].append(done)
                out["rss_mb"].append(app.rss_mb()[0])
                print(f"{done:4d} sessions: app RSS {out['rss_mb'][-1]:.0f} MB "
                      f"(idle + {out['rss_mb'][-1] - out['idle_rss_mb']:.0f})", flush=True)
        first, last = out["rss_mb"][0], out["rss_mb"][-1]
        span = out["sessions"][-1] - out["sessions"][0]
        out["mb_per_session"] = (last - first) / span if span else None
        if out["mb_per_session"] is not None:
            out["extrapolated_rss_mb"] = last + out["mb_per_session"] * (args.target - done)
        # Close every tab: each heartbeat connection opens and ends, Gradio fires unload.
        def close(session: str) -> None:
            with httpx.stream("GET", f"{app.url}/gradio_api/heartbeat/{session}", timeout=10) as b:
                next(b.iter_lines())

        threads = [threading.Thread(target=close, args=(s,)) for s in sessions]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        time.sleep(8)
        out["rss_after_close_mb"] = app.rss_mb()[0]
        # As many new sessions again: if the closed ones were released, their memory is reused
        # (glibc keeps freed memory in the process, so RSS does not shrink, but stops growing).
        with ThreadPoolExecutor(4) as pool:
            again = [uuid.uuid4().hex[:11] for _ in range(args.sessions)]
            results = list(pool.map(visit, again))
        assert all(r["ok"] for r in results)
        time.sleep(1)
        out["rss_after_as_many_new_mb"] = app.rss_mb()[0]
    finally:
        stop(app.proc)
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
