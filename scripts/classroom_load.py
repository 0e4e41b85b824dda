"""Classroom load test (issue 12): N learners over a bounded time against 1-2 app processes.

Starts the app (or two replicas sharing --database-url) on free 127.0.0.1 ports with a fresh
data folder, then plays learners who browse playground pages, train (mostly the page's preset,
some custom settings), submit exercises through the page (mostly honest, some wrong, a few
hostile) and read their progress, all through the page's own events over plain HTTP, each
learner with its own browser session, browser key and (behind one simulated trusted proxy)
client address. Prints p50/p95/max per action, errors, refusals, cache hit rate, peak RSS and
gradebook rows, and stops everything it started. Loopback only; every wait is bounded.

    python scripts/classroom_load.py --learners 300 --duration 600          # the issue's class
    python scripts/classroom_load.py --learners 40 --duration 120 --json out.json
    python scripts/classroom_load.py --replicas 2 --database-url "$TEST_DATABASE_URL"
    python scripts/classroom_load.py --learners 30 --addresses 1     # a school behind one NAT

``--addresses K`` spreads the learners over K client addresses (K = 1 is a school; the default
gives every learner its own) and reports refusals per address.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "scripts")]
from load_test import HOSTILE, free_port, percentile, stop, wait_http_ok  # noqa: E402

PLAYGROUND = ("attention_basics", "pooling", "multihead", "positional", "permutation")
# The Train page's first inputs: task, heads, d_model, layers, d_ff, dropout, pe, steps.
PRESETS = [(0.8, ["reverse", 4, 32, 1, 64, 0.0, "sinusoidal", 600]),  # the page as it opens
           (0.2, ["reverse", 4, 32, 1, 64, 0.0, "none", 600])]  # "now without positions"


class App:
    """One app process and what the load test knows about its events."""

    def __init__(self, env: dict, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**env, "GRADIO_SERVER_PORT": str(self.port), "GRADIO_SERVER_NAME": "127.0.0.1"}
        self.proc = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env,
                                     stdout=open(log, "w"), stderr=subprocess.STDOUT,  # noqa: SIM115
                                     start_new_session=True)
        wait_http_ok(self.url, self.proc, 120)
        config = httpx.get(f"{self.url}/config", timeout=30).json()
        values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
        self.events = {d["api_name"]: (d["id"], [values.get(i) for i in d["inputs"]])
                       for d in config["dependencies"] if d.get("api_name")}

    def rss_mb(self) -> tuple[float, float]:
        """(app process, app + its children) resident memory in MB."""
        def rss(pid: int) -> float:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
            except OSError:
                pass
            return 0.0

        kids = subprocess.run(["pgrep", "-g", str(self.proc.pid)], capture_output=True, text=True)
        pids = {int(p) for p in kids.stdout.split()} | {self.proc.pid}
        return rss(self.proc.pid), sum(rss(p) for p in pids)

    def call(self, name: str, data: list | None, session: str, address: str,
             timeout_s: float = 180.0) -> dict:
        """One page event as a browser sends it: {ok, seconds, first_s, text}."""
        index, defaults = self.events[name]
        data = [*data, *defaults[len(data):]] if data is not None else defaults
        headers = {"x-forwarded-for": address, "accept-language": "en-US"}
        t0 = time.monotonic()
        first, lines = None, []
        with httpx.Client(base_url=self.url, timeout=timeout_s, headers=headers) as http:
            r = http.post("/gradio_api/queue/join", json={
                "data": data, "fn_index": index, "session_hash": session, "event_data": None,
                "trigger_id": None})
            r.raise_for_status()
            with http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session}) as s:
                for line in s.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    if first is None and '"process_generating"' in line:
                        first = time.monotonic() - t0
                    lines.append(line)
                    if '"process_completed"' in line:
                        done = json.loads(line[5:])
                        return {"ok": bool(done.get("success")), "seconds": time.monotonic() - t0,
                                "first_s": first, "text": "\n".join(lines)}
                    if time.monotonic() - t0 > timeout_s:
                        break
        return {"ok": False, "seconds": time.monotonic() - t0, "first_s": first,
                "text": "\n".join(lines) or "no answer"}


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.counts: dict[str, int] = defaultdict(int)
        self.errors: list[str] = []
        self.refusals: list[str] = []
        self.refused_by_address: dict[str, int] = defaultdict(int)

    def add(self, action: str, seconds: float, **counts: int) -> None:
        with self.lock:
            self.times[action].append(seconds)
            for key, n in counts.items():
                self.counts[key] += n

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text[:300])


def submissions() -> dict[str, list[tuple[str, str]]]:
    hidden = Path(os.environ.get("LAB_HIDDEN_DIR") or REPO / "hidden")
    ids = sorted(p.name for p in hidden.iterdir() if (p / "reference.py").is_file())
    honest = [(i, (hidden / i / "reference.py").read_text()) for i in ids]
    from grader.exercises import get  # a mutant is the reference with one named edit

    wrong = [(i, m.source) for i in ids for m in get(i).mistakes()]
    hostile = [(ids[k % len(ids)], code.replace("{port}", "7860"))
               for k, code in enumerate(HOSTILE.values())]
    return {"honest": honest, "wrong": wrong or honest, "hostile": hostile}


def address_of(k: int, addresses: int | None) -> str:
    """Learner ``k``'s client address: one per learner, or one of ``addresses`` (RFC 2544's
    benchmark range)."""
    n = k if addresses is None else k % addresses
    return f"198.18.{n // 250}.{n % 250 + 1}"


def learner(k: int, apps: list[App], res: Results, rng: random.Random, codes: dict,
            deadline: float, tag: str, addresses: int | None = None) -> None:
    """One learner's visit: browse, train, submit, read progress (think time in between)."""
    from gradebook.identity import new_browser_key

    session, key = uuid.uuid4().hex[:11], new_browser_key()
    address = address_of(k, addresses)
    name = f"cls-{tag}-{k:03d}"

    def act(action: str, event: str, data: list | None, app: App, **extra) -> dict | None:
        if time.monotonic() > deadline:
            return None
        try:
            out = app.call(event, data, session, address)
        except Exception as exc:  # noqa: BLE001 - every failure is counted, none stops the test
            res.error(f"{action}: {type(exc).__name__}: {exc}")
            return None
        if not out["ok"]:
            res.error(f"{action}: {out['text'][-300:]}")
        res.add(action, out["seconds"], **extra)
        return out

    plan = ["browse"] * rng.randint(2, 4) + ["train"] + ["submit"] * rng.randint(1, 3) + ["progress"]
    for step in plan:
        app = rng.choice(apps)  # behind a load balancer any replica may answer
        if step == "browse":
            act("playground", rng.choice(PLAYGROUND), None, app)
        elif step == "train":
            custom = rng.random() < 0.2
            if custom:
                data = ["reverse", rng.choice([2, 4]), rng.choice([16, 32]), 1, rng.choice([32, 64]),
                        0.0, "sinusoidal", rng.randint(40, 120)]
            else:
                data = rng.choices([p for _, p in PRESETS], [w for w, _ in PRESETS])[0]
            out = act("train_custom" if custom else "train_preset", "on_train", data, app)
            if out and out["ok"]:
                hit = "From the cache" in out["text"]
                queued = "in the queue" in out["text"]
                res.add("train_first_update", out["first_s"] or out["seconds"], trains=1,
                        cache_hits=int(hit), queued=int(queued))
        elif step == "submit":
            kind = rng.choices(["honest", "wrong", "hostile"], [0.7, 0.24, 0.06])[0]
            ex, code = rng.choice(codes[kind])
            out = act(f"submit_{kind}", "on_submit", [ex, code, name, key], app)
            if out and out["ok"]:
                tail = out["text"].split('"process_completed"')[-1]
                refused = "⚠️" in tail
                res.add("_submit", 0.0, submitted=1, refused=int(refused))
                if refused:
                    with res.lock:
                        res.refusals.append(tail[tail.index("⚠️"):][:200])
                        res.refused_by_address[address] += 1
        else:
            act("progress", "on_refresh", [name, key], app)
        time.sleep(rng.uniform(1.0, 4.0))  # reading, typing


def rate_limit_check(apps: list[App], tag: str, sent: int = 12) -> dict:
    """One learner (one browser key) submits ``sent`` times, alternating replicas: with the
    limit shared, exactly LAB_RATE_LIMIT (10 per minute) are graded in all."""
    from gradebook.identity import new_browser_key

    key, name = new_browser_key(), f"cls-{tag}-limit"
    ex, code = submissions()["wrong"][0]
    graded = 0
    for i in range(sent):
        session = uuid.uuid4().hex[:11]  # a new tab each time: only the learner's id counts
        out = apps[i % len(apps)].call("on_submit", [ex, code, name, key], session, "198.19.1.1")
        tail = out["text"].split('"process_completed"')[-1]
        graded += int(out["ok"] and "⚠️" not in tail)
    return {"sent": sent, "graded": graded, "limit": int(os.environ.get("LAB_RATE_LIMIT") or 10)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--learners", type=int, default=40)
    ap.add_argument("--duration", type=float, default=120.0, help="seconds learners arrive over")
    ap.add_argument("--replicas", type=int, default=1, choices=(1, 2))
    ap.add_argument("--database-url", default="", help="PostgreSQL shared by the replicas")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--addresses", type=int, default=None,
                    help="spread the learners over K client addresses (1 = a school's NAT)")
    ap.add_argument("--no-warm", action="store_true", help="skip training the presets first")
    ap.add_argument("--json", type=Path, help="write the figures here too")
    args = ap.parse_args()
    if args.replicas > 1 and not args.database_url:
        ap.error("--replicas 2 needs --database-url (they share the gradebook, limits and cache)")
    if not 1 <= args.learners <= 1000 or not 1 <= args.duration <= 1800:
        ap.error("--learners 1..1000 and --duration 1..1800 s keep the test bounded")
    tmp = Path(tempfile.mkdtemp(prefix="classroom-"))
    env = {**os.environ, "LAB_DATA_DIR": str(tmp / "data"), "LAB_FORWARDED_HOPS": "1",
           "GRADIO_ANALYTICS_ENABLED": "False", "LAB_WARM_RUN_CACHE": "0"}
    env.pop("SPACE_ID", None)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
    apps: list[App] = []
    tag = uuid.uuid4().hex[:6]
    # Replicas agree on the run cache's version, and a shared database's runs from earlier
    # tests do not count as hits of this one.
    env.setdefault("LAB_RUN_CACHE_VERSION", f"classroom-{tag}")
    try:
        for r in range(args.replicas):
            apps.append(App(env, tmp / f"app{r}.log"))
        time.sleep(5)  # the background warm-up (torch, grader worker) settles
        for a in apps:  # one page load's worth of calls, so the idle figure is a served app
            a.call("attention_basics", None, "idle-" + tag, "198.19.0.1")
        idle = [a.rss_mb() for a in apps]
        report: dict = {"learners": args.learners, "duration_s": args.duration,
                        "addresses": args.addresses or args.learners,
                        "replicas": args.replicas, "backend": "postgresql" if args.database_url
                        else "sqlite", "idle_rss_mb": idle}
        if not args.no_warm:  # the instructor opens the class: presets trained once, on app 0
            t0 = time.monotonic()
            for _, data in PRESETS:
                apps[0].call("on_train", data, "warm-" + uuid.uuid4().hex[:6], "198.19.0.2", 900)
            report["warm_s"] = round(time.monotonic() - t0, 1)
        if args.replicas == 2:  # trained on A, a hit on B
            data = ["sort", 2, 16, 1, 32, 0.0, "sinusoidal", 50]
            apps[0].call("on_train", data, "xa-" + tag, "198.19.0.3")
            out = apps[1].call("on_train", data, "xb-" + tag, "198.19.0.4")
            report["cross_replica_cache_hit"] = "From the cache" in out["text"]
            report["rate_limit_across_replicas"] = rate_limit_check(apps, tag)
        res, rng = Results(), random.Random(args.seed)
        codes = submissions()
        peak = [list(x) for x in idle]
        stop_sampling = threading.Event()

        def sample() -> None:
            while not stop_sampling.wait(1.0):
                for i, a in enumerate(apps):
                    now = a.rss_mb()
                    peak[i] = [max(peak[i][0], now[0]), max(peak[i][1], now[1])]

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        start = time.monotonic()
        deadline = start + args.duration * 1.5 + 300  # arrivals, then a bounded drain
        threads = []
        for k in range(args.learners):
            delay = start + args.duration * 0.8 * k / max(1, args.learners - 1) - time.monotonic()
            time.sleep(max(0.0, delay))
            th = threading.Thread(target=learner, args=(k, apps, res, random.Random(rng.random()),
                                                       codes, deadline, tag, args.addresses),
                                  daemon=True)
            th.start()
            threads.append(th)
        for th in threads:
            th.join(max(0.0, deadline - time.monotonic()) + 5)
        stop_sampling.set()
        report["wall_s"] = round(time.monotonic() - start, 1)
        report["unfinished_learners"] = sum(th.is_alive() for th in threads)
        report["end_rss_mb"] = [a.rss_mb() for a in apps]
        report["peak_rss_mb"] = peak
        report["actions"] = {a: {"n": len(v), "p50_s": round(percentile(v, 50), 3),
                                 "p95_s": round(percentile(v, 95), 3), "max_s": round(max(v), 3)}
                             for a, v in sorted(res.times.items()) if not a.startswith("_")}
        c = res.counts
        report["trains"], report["cache_hits"] = c["trains"], c["cache_hits"]
        report["cache_hit_rate"] = round(c["cache_hits"] / c["trains"], 3) if c["trains"] else None
        report["trains_that_queued"] = c["queued"]
        report["submitted"], report["refused"] = c["submitted"], c["refused"]
        report["refusal_samples"] = res.refusals[:5]
        report["refused_by_address"] = dict(res.refused_by_address)
        report["errors"] = len(res.errors)
        report["error_samples"] = res.errors[:5]
        from gradebook import open_gradebook

        url = args.database_url or f"sqlite:///{tmp / 'data' / 'gradebook.sqlite3'}"
        with open_gradebook(url) as book:
            rows = [r for r in book.all_rows(include_code=False)
                    if r.learner.startswith(f"cls-{tag}-") and "-limit" not in r.learner]
        report["gradebook_rows"] = len(rows)
        report["lost_submissions"] = c["submitted"] - c["refused"] - len(rows)
    finally:
        for a in apps:
            stop(a.proc)
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False))
    ok = report["errors"] == 0 and report["lost_submissions"] == 0 and not report["unfinished_learners"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
