"""A class behind one school address presses Submit at once (issue 17): graded, refused, timing.

Starts the app with its defaults (behind one simulated trusted proxy, as on a Space) on a free
loopback port with a fresh data folder, then plays bursts through the Exercises page's own
Submit event over plain HTTP, each learner with its own page session and browser key:

1. ``--learners`` (30) behind one address, all within ``--spread`` (2) seconds;
2. 100 behind one address;
3. 300 behind 10 addresses;
4. burst 1 again while a second address floods 200 requests in 10 s: with a fresh browser key
   each (``--flood-keys fresh``, the worst case: 200 learners), or all under one key (``one``).

Each burst prints graded / refused (by reason) / gradebook rows, the seconds from the first click
to the last answer, and the quiet-machine target: the median single grading (measured first, on
the idle app) x learners / workers + 5 s. Loopback only; every wait is bounded.

    python scripts/classroom_burst.py                      # all four bursts
    python scripts/classroom_burst.py --json docs/bench/classroom-burst.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "scripts")]
from classroom_load import App  # noqa: E402
from load_test import stop  # noqa: E402

EXERCISE = "manual-attention"
WORKERS = 2  # the app's default LAB_GRADER_WORKERS


def reference() -> str:
    hidden = Path(os.environ.get("LAB_HIDDEN_DIR") or REPO / "hidden")
    return (hidden / EXERCISE / "reference.py").read_text(encoding="utf-8")


def reason_of(tail: str) -> str:
    """A refusal's kind from its text (the page shows the message, not the code)."""
    for pattern, reason in (("in line, the most one address", "address_full"),
                            ("line is full", "queue_full"), ("submissions in line", "learner_waiting"),
                            ("new learners", "new_learners"), ("submissions in the last", "rate_limited"),
                            ("busy", "busy"), ("retry", "retry")):
        if pattern in tail:
            return reason
    return "other"


def one_submit(app: App, address: str, tag: str, k: int, code: str, key: str | None = None) -> dict:
    from gradebook.identity import new_browser_key

    session, key = uuid.uuid4().hex[:11], key or new_browser_key()
    out = app.call("on_submit", [EXERCISE, code, f"burst-{tag}-{k:03d}", key], session, address,
                   timeout_s=600)
    tail = out["text"].split('"process_completed"')[-1]
    refused = not out["ok"] or "⚠️" in tail
    return {"refused": refused, "reason": reason_of(tail) if refused else None,
            "end": time.monotonic(), "score": re.search(r"Score: (\d+)", tail) is not None}


def machine_cpu_s() -> float:
    """CPU seconds every core of this machine has spent busy since boot (/proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_s() -> float:
    t = os.times()
    return t.user + t.system


def process_cpu_s(pid: int) -> float:
    """CPU seconds of one process, every thread (not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_now(app: App) -> tuple[float, float, float]:
    return machine_cpu_s(), own_cpu_s(), process_cpu_s(app.proc.pid)


def cpu_share(app: App, before: tuple[float, float, float]) -> dict:
    """Busy CPU seconds since ``before``: the machine, this load generator (on the same cores
    as the app here, which a real class's browsers are not), the app's own process (HTTP,
    Gradio's queue, the lines, judging results, the gradebook) and the rest (grader workers)."""
    machine, own, main = (a - b for a, b in zip(cpu_now(app), before, strict=True))
    return {"machine_busy_s": round(machine, 1), "load_generator_s": round(own, 1),
            "app_process_s": round(main, 1), "grader_workers_s": round(machine - own - main, 1)}


def burst(app: App, addresses: list[str], learners: int, spread_s: float, tag: str,
          code: str, rng: random.Random) -> tuple[list[dict], float]:
    results: list[dict] = []
    lock = threading.Lock()
    start = time.monotonic() + 0.5
    delays = sorted(rng.uniform(0, spread_s) for _ in range(learners))

    def go(k: int) -> None:
        time.sleep(max(0.0, start + delays[k] - time.monotonic()))
        r = one_submit(app, addresses[k % len(addresses)], tag, k, code)
        with lock:
            results.append(r)

    threads = [threading.Thread(target=go, args=(k,), daemon=True) for k in range(learners)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(900)
    return results, start


def summary(results: list[dict], start: float, learners: int, stored: tuple[int, float | None],
            median_s: float) -> dict:
    """``stored``: (gradebook rows, seconds from the first click to the last row the app
    stored: the server's side of the last answer, without the load generator's own delay)."""
    refused = Counter(r["reason"] for r in results if r["refused"])
    return {"learners": learners, "answered": len(results),
            "graded": sum(not r["refused"] for r in results), "refused": sum(refused.values()),
            "refused_by_reason": dict(refused), "gradebook_rows": stored[0],
            "last_answer_s": round(max(r["end"] for r in results) - start, 1) if results else None,
            "last_stored_s": stored[1],
            "quiet_target_s": round(median_s * learners / WORKERS + 5, 1)}


def rows_of(data: Path, tag: str, start: float) -> tuple[int, float | None]:
    """Rows of this burst, and when the last was stored, in seconds after ``start``
    (time.monotonic() of the first click)."""
    from datetime import datetime

    from gradebook import open_gradebook

    wall_start = time.time() - (time.monotonic() - start)
    with open_gradebook(f"sqlite:///{data / 'gradebook.sqlite3'}") as book:
        rows = [r for r in book.all_rows(include_code=False) if r.learner.startswith(f"burst-{tag}-")]
    last = max((datetime.fromisoformat(r.submitted_at).timestamp() for r in rows), default=None)
    return len(rows), (round(last - wall_start, 1) if last is not None else None)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--spread", type=float, default=2.0, help="seconds the clicks spread over")
    ap.add_argument("--only", choices=("class", "hundred", "three-hundred", "flood"), nargs="*")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--flood-keys", choices=("fresh", "one"), default="fresh")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--nice", type=int, default=0,
                    help="lower this load generator's CPU priority once the app runs (the app "
                         "keeps its own): a real class's browsers are not on the server's cores")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="burst-"))
    env = {**os.environ, "LAB_DATA_DIR": str(tmp / "data"), "LAB_FORWARDED_HOPS": "1",
           "GRADIO_ANALYTICS_ENABLED": "False", "LAB_WARM_RUN_CACHE": "0"}
    for name in list(env):  # the app's defaults: no serving setting from this shell
        if name in ("DATABASE_URL", "SPACE_ID") or name.startswith(("LAB_PER_", "LAB_MAX_",
                                                                       "LAB_RATE", "LAB_QUEUE")):
            env.pop(name)
    rng, code = random.Random(args.seed), reference()
    app = App(env, tmp / "app.log")
    if args.nice:
        os.nice(args.nice)
    report: dict = {"exercise": EXERCISE, "machine_cpus": os.cpu_count(),
                    "load_generator_nice": args.nice}
    try:
        time.sleep(5)  # the background warm-up (torch, grader workers) settles
        alone = []
        for i in range(7):  # one learner on an idle app: the service time
            t0 = time.monotonic()
            one_submit(app, "198.19.9.9", "idle", i, code)
            alone.append(time.monotonic() - t0)
        median_s = statistics.median(alone[2:])
        report["median_single_s"] = round(median_s, 3)
        school = ["198.51.100.7"]
        plans = {"class": (school, args.learners), "hundred": (school, 100),
                 "three-hundred": ([f"198.51.100.{10 + i}" for i in range(10)], 300)}
        for name, (addrs, n) in plans.items():
            if args.only and name not in args.only:
                continue
            tag = f"{name[:3]}{uuid.uuid4().hex[:4]}"
            cpu0 = cpu_now(app)
            results, start = burst(app, addrs, n, args.spread, tag, code, rng)
            report[name] = {"addresses": len(addrs),
                            **summary(results, start, n, rows_of(tmp / "data", tag, start), median_s),
                            "cpu": cpu_share(app, cpu0)}
            print(name, json.dumps(report[name]), flush=True)
        if not args.only or "flood" in args.only:
            tag = f"fld{uuid.uuid4().hex[:4]}"
            flood: list[dict] = []

            from gradebook.identity import new_browser_key

            one_key = new_browser_key() if args.flood_keys == "one" else None

            def flooder() -> None:  # 200 requests in 10 s from another address
                threads = []
                for k in range(200):
                    th = threading.Thread(target=lambda k=k: flood.append(
                        one_submit(app, "203.0.113.66", f"x{tag}", k, code, one_key)), daemon=True)
                    th.start()
                    threads.append(th)
                    time.sleep(10 / 200)
                for th in threads:
                    th.join(900)

            cpu0 = cpu_now(app)
            f = threading.Thread(target=flooder)
            f.start()
            time.sleep(2.0)  # the flood is under way when the class clicks
            results, start = burst(app, school, args.learners, args.spread, tag, code, rng)
            f.join(900)
            report["class_under_flood"] = {
                **summary(results, start, args.learners, rows_of(tmp / "data", tag, start),
                          median_s),
                "flood": {"sent": 200, "keys": args.flood_keys,
                          "graded": sum(not r["refused"] for r in flood),
                          "refused_by_reason": dict(Counter(r["reason"] for r in flood
                                                            if r["refused"]))},
                "cpu": cpu_share(app, cpu0)}
            print("class_under_flood", json.dumps(report["class_under_flood"]), flush=True)
    finally:
        stop(app.proc)
    print(json.dumps(report, indent=2))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    bursts = [report[k] for k in ("class", "hundred", "three-hundred", "class_under_flood")
              if k in report]
    return 0 if all(b["refused"] == 0 and b["gradebook_rows"] == b["learners"] for b in bursts) else 1


if __name__ == "__main__":
    sys.exit(main())
