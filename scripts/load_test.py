"""Load test: 50 concurrent submissions to the app's `grade` endpoint while two trainings run.

Starts the app as a subprocess on a free 127.0.0.1 port with a fresh gradebook, fires a mix
of correct, wrong and hostile submissions through gradio_client, then prints throughput,
p50/p95 latency, errors and the rows that reached the gradebook, and stops everything it
started. Every request goes to loopback; every wait is bounded.

    python scripts/load_test.py                       # 50 submissions, SQLite gradebook
    python scripts/load_test.py --database-url "$TEST_DATABASE_URL" --json out.json

Exit status 0 when the goal is met: every submission answered, none lost, the app still
serving afterwards, p95 <= --p95-goal seconds.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# Hostile but bounded: each tries to escape, hog or crash; none can outlive the grader's limits.
HOSTILE = {
    "busy-loop": "while True:\n    pass\n",
    "memory-bomb": "blob = bytearray(16 * 1024 ** 3)\n",
    "kill-parent": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
    "read-hidden": "print(open('hidden/manual-attention/reference.py').read())\n",
    "environment": "import os\nprint(dict(os.environ))\n",
    "connect-app": "import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=1)\n",
    "flood-stdout": "print('x' * 50_000_000)\n",
    "recursion": "def f():\n    return f()\n\nf()\n",
    "exit": "import sys\nsys.exit(0)\n",
    "fork": "import os\nif os.fork() == 0:\n    os._exit(0)\n",
}

# Bad input (with --bad-input): each must be refused with a message and leave no row behind.
BAD_INPUT = {
    "empty-code": ("manual-attention", "", None),
    "1MB-code": ("manual-attention", "x = 1  # padding\n" * 62_000, None),
    "binary": ("manual-attention", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", None),
    "broken-notebook": ("manual-attention", '{"cells": [{"cell_type": "code", "source": "x', None),
    "unknown-exercise": ("no-such-exercise", "x = 1\n", None),
    "odd-name": ("manual-attention", "x = 1\n", "=cmd|' /C calc'!A0\u202e"),
}

STAND_IN_TRAINING = """
import torch, time
torch.set_num_threads(1)
torch.manual_seed(0)
model = torch.nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                             dim_feedforward=64, batch_first=True)
emb = torch.nn.Embedding(12, 32)
opt = torch.optim.Adam(list(model.parameters()) + list(emb.parameters()), lr=2e-3)
deadline = time.monotonic() + float(__import__('sys').argv[1])
while time.monotonic() < deadline:
    x = torch.randint(0, 12, (64, 10))
    out = model(emb(x), emb(x.flip(1)))
    loss = out.pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
"""


@dataclass
class Outcome:
    """One submission's fate as the client saw it."""

    index: int
    kind: str  # correct | wrong | hostile
    label: str
    exercise: str
    learner: str
    latency_s: float
    result: str  # answered | refused | error
    detail: str = ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def exercise_ids() -> list[str]:
    ids = []
    for path in sorted((REPO / "exercises").glob("*/exercise.json")):
        ids.append(json.loads(path.read_text(encoding="utf-8"))["id"])
    return ids


def build_submissions(n: int, port: int, tag: str, seed: int,
                      bad_input: bool = False) -> list[tuple[str, str, str, str, str]]:
    """(kind, label, exercise, code, learner) x n: about 50% correct, 30% wrong, 20% hostile.

    With ``bad_input``, one submission of each kind in BAD_INPUT follows the n.
    """
    hidden = Path(os.environ.get("LAB_HIDDEN_DIR") or REPO / "hidden")
    ids = [i for i in exercise_ids() if (hidden / i / "reference.py").is_file()]
    if not ids:
        sys.exit("no exercise with a hidden reference solution found: nothing correct to send")
    correct = [(i, "reference", (hidden / i / "reference.py").read_text()) for i in ids]
    from grader.exercises import get  # a mutant is the reference with one named edit

    wrong = [(i, f"mistake:{m.name}", m.source) for i in ids for m in get(i).mistakes()]
    wrong += [(i, "starter", (REPO / "exercises" / i / "starter.py").read_text()) for i in ids
              if (REPO / "exercises" / i / "starter.py").is_file()]
    hostile = [(ids[k % len(ids)], f"hostile:{name}", code.replace("{port}", str(port)))
               for k, (name, code) in enumerate(HOSTILE.items())]
    n_hostile, n_wrong = round(0.2 * n), round(0.3 * n)
    plan = (["hostile"] * n_hostile + ["wrong"] * n_wrong
            + ["correct"] * (n - n_hostile - n_wrong))
    pools = {"correct": correct, "wrong": wrong or correct, "hostile": hostile}
    rng = random.Random(seed)
    rng.shuffle(plan)
    out, used = [], {k: 0 for k in pools}
    for i, kind in enumerate(plan):
        ex, label, code = pools[kind][used[kind] % len(pools[kind])]
        used[kind] += 1
        out.append((kind, label, ex, code, f"load-{tag}-{i:03d}"))
    if bad_input:
        for k, (label, (ex, code, learner)) in enumerate(BAD_INPUT.items()):
            out.append(("bad", f"bad:{label}", ex, code, learner or f"load-{tag}-{n + k:03d}"))
    return out


def wait_http_ok(url: str, proc: subprocess.Popen, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with status {proc.returncode} while starting")
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"the app did not answer {url} within {timeout_s:.0f} s")


def stop(proc: subprocess.Popen | None, grace_s: float = 10.0) -> None:
    """SIGTERM the process group, then SIGKILL whatever is left after grace_s."""
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=grace_s)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=grace_s)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def start_trainings(client, api_names: dict, count: int, mode: str, seconds: float,
                    env: dict, log_dir: Path) -> tuple[list, list[subprocess.Popen], str]:
    """Two trainings by the app's own train endpoint when it has one, else stand-in processes."""
    # Only an endpoint that runs with no arguments at all can be started blind.
    train_api = next((name for name, info in api_names.items() if "train" in name
                      and all(p.get("parameter_has_default") for p in info.get("parameters", []))),
                     None)
    if mode in ("auto", "api") and train_api:
        jobs = [client.submit(api_name=train_api) for _ in range(count)]
        return jobs, [], f"app endpoint {train_api} x{count} (default arguments)"
    if mode == "api":
        raise RuntimeError(f"--trainings-via api: no train endpoint without required arguments "
                           f"({sorted(api_names)})")
    if mode == "none" or count == 0:
        return [], [], "none"
    procs = []
    for k in range(count):
        cmd = [sys.executable, "-c", STAND_IN_TRAINING, str(seconds)]
        log = open(log_dir / f"training-{k}.log", "w")  # noqa: SIM115 - closed with the process
        procs.append(subprocess.Popen(cmd, cwd=REPO, env={**env, "OMP_NUM_THREADS": "1"},
                                      stdout=log, stderr=subprocess.STDOUT,
                                      start_new_session=True))
    return [], procs, f"{count} stand-in training processes (torch Transformer d32, 1 thread each)"


def run(args: argparse.Namespace) -> int:
    from gradio_client import Client
    from gradio_client.exceptions import AppError

    from gradebook import open_gradebook

    tag = time.strftime("%H%M%S") + f"{random.randrange(1000):03d}"
    work = Path(tempfile.mkdtemp(prefix="lab-load-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port),
           "GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1",
           "LAB_DATA_DIR": str(work / "data"),
           # Each simulated learner is its own client: the app reads the address a proxy would
           # append (one grading per address and session, webapp/services/fairness.py).
           "LAB_FORWARDED_HOPS": "1"}
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
    app_proc, trainers, train_jobs = None, [], []
    try:
        print(f"starting {args.app} on {url} (log: {work / 'app.log'})", flush=True)
        t0 = time.monotonic()
        with open(work / "app.log", "w") as log:
            app_proc = subprocess.Popen([sys.executable, str(args.app)], cwd=REPO, env=env,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_http_ok(url, app_proc, args.start_timeout)
        print(f"app up in {time.monotonic() - t0:.1f} s", flush=True)
        client = Client(url, verbose=False, max_workers=args.n + 8, download_files=False,
                        analytics_enabled=False)
        api = client.view_api(print_info=False, return_format="dict")
        api_names = api.get("named_endpoints", {})
        if args.api_name not in api_names:
            print(f"the app has no {args.api_name} endpoint; it has: {sorted(api_names)}",
                  file=sys.stderr)
            return 2
        train_jobs, trainers, how = start_trainings(client, api_names, args.trainings,
                                                    args.trainings_via, args.timeout, env, work)
        print(f"trainings: {how}", flush=True)
        time.sleep(args.settle)  # let the trainings reach full speed before the burst

        plan = build_submissions(args.n, port, tag, args.seed, args.bad_input)
        gradebook_url = args.database_url or f"sqlite:///{work / 'data' / 'gradebook.sqlite3'}"
        with open_gradebook(gradebook_url) as book:
            rows_before = book.count()
        deadline = time.monotonic() + args.timeout
        barrier = threading.Barrier(len(plan))

        def learner_client(i: int) -> Client:
            # A browser session and an address of its own (documentation range, header only).
            xff = f"198.51.100.{1 + i % 254}" if i < 254 else f"203.0.113.{1 + i % 254}"
            # A browser waits for its POST far longer than httpx's 5 s default; a slow answer
            # still shows in the latency, not as a lost request.
            return Client(url, verbose=False, download_files=False, analytics_enabled=False,
                          headers={"X-Forwarded-For": xff}, httpx_kwargs={"timeout": 60})

        with ThreadPoolExecutor(max_workers=8) as pool:  # before the burst: not part of it
            learners = list(pool.map(learner_client, range(len(plan))))

        def one(i: int) -> Outcome:
            kind, label, ex, code, learner = plan[i]
            barrier.wait(timeout=60)  # all threads fire together: a real burst
            start = time.perf_counter()
            try:
                job = learners[i].submit(ex, code, learner, api_name=args.api_name)
                job.result(timeout=max(1.0, deadline - time.monotonic()))
                result, detail = "answered", ""
            except AppError as exc:  # the app answered with a message (gr.Error): not lost
                result, detail = "refused", str(exc)[:200]
            except Exception as exc:  # noqa: BLE001 - every failure is counted and shown
                result, detail = "error", f"{type(exc).__name__}: {exc}"[:200]
            return Outcome(i, kind, label, ex, learner, time.perf_counter() - start, result, detail)

        print(f"sending {len(plan)} submissions at once...", flush=True)
        burst = time.perf_counter()
        with ThreadPoolExecutor(max_workers=len(plan)) as pool:
            outcomes = list(pool.map(one, range(len(plan))))
        burst_s = time.perf_counter() - burst

        # Still serving? One more correct submission after the storm, plus the page itself.
        alive = app_proc.poll() is None
        after_s = math.nan
        if alive:
            kind, label, ex, code, _ = next(p for p in plan if p[0] == "correct")
            t = time.perf_counter()
            try:
                client.submit(ex, code, f"load-{tag}-after", api_name=args.api_name).result(timeout=60)
                after_s = time.perf_counter() - t
                wait_http_ok(url, app_proc, 10)
            except Exception as exc:  # noqa: BLE001
                alive = False
                print(f"the app stopped serving: {type(exc).__name__}: {exc}", file=sys.stderr)

        with open_gradebook(gradebook_url) as book:
            rows = book.all_rows(include_code=False)
        # Every new row must belong to an answered submission (or the check after the burst).
        unexplained = len(rows) - rows_before - sum(o.result == "answered" for o in outcomes)
        unexplained -= 0 if math.isnan(after_s) else 1
        # Match on the name we sent, in case the app decorates it (e.g. "name (guest)").
        sent = re.compile(rf"load-{tag}-\d+")
        stored = {m.group(0) for r in rows if (m := sent.match(r.learner))}
        rows = [r for r in rows if sent.match(r.learner)]
        return report(args, outcomes, burst_s, rows, stored, unexplained, alive, after_s, how)
    finally:
        for job in train_jobs:
            job.cancel()
        for proc in trainers:
            stop(proc, grace_s=5)
        stop(app_proc)
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


def report(args, outcomes: list[Outcome], burst_s: float, rows: list, stored: set[str],
           unexplained: int, alive: bool, after_s: float, trainings: str) -> int:
    bad = [o for o in outcomes if o.kind == "bad"]
    outcomes = [o for o in outcomes if o.kind != "bad"]
    lat = [o.latency_s for o in outcomes]
    answered = [o for o in outcomes if o.result == "answered"]
    refused = [o for o in outcomes if o.result == "refused"]
    errors = [o for o in outcomes if o.result == "error"]
    lost = [o for o in answered if o.learner not in stored]
    bad_ok = [o for o in bad if o.result == "refused" and o.detail.strip()]
    summary = {
        "submissions": len(outcomes), "trainings": trainings, "burst_s": round(burst_s, 3),
        "throughput_per_s": round(len(outcomes) / burst_s, 3) if burst_s else None,
        "p50_s": round(percentile(lat, 50), 3), "p95_s": round(percentile(lat, 95), 3),
        "max_s": round(max(lat), 3), "answered": len(answered), "refused": len(refused),
        "errors": len(errors), "gradebook_rows": len(rows), "lost": len(lost),
        "stored_unexplained": unexplained, "bad_input": len(bad),
        "bad_refused_with_message": len(bad_ok), "app_alive": alive,
        "after_s": None if math.isnan(after_s) else round(after_s, 3),
        "by_kind": {}, "goal_p95_s": args.p95_goal,
    }
    for kind in ("correct", "wrong", "hostile"):
        ks = [o.latency_s for o in outcomes if o.kind == kind]
        if ks:
            summary["by_kind"][kind] = {"n": len(ks), "p50_s": round(percentile(ks, 50), 3),
                                        "p95_s": round(percentile(ks, 95), 3),
                                        "max_s": round(max(ks), 3),
                                        "mean_s": round(statistics.fmean(ks), 3)}
    ok = (not errors and not lost and alive and len(answered) + len(refused) == len(outcomes)
          and summary["p95_s"] <= args.p95_goal and unexplained == 0 and len(bad_ok) == len(bad))
    summary["goal_met"] = ok

    print(f"\n{len(outcomes)} submissions in {burst_s:.1f} s -> {summary['throughput_per_s']} /s"
          f"   (trainings: {trainings})")
    print(f"latency p50 {summary['p50_s']:.2f} s   p95 {summary['p95_s']:.2f} s   "
          f"max {summary['max_s']:.2f} s   (goal p95 <= {args.p95_goal:g} s)")
    for kind, s in summary["by_kind"].items():
        print(f"  {kind:8s} n={s['n']:3d}  p50 {s['p50_s']:.2f}  p95 {s['p95_s']:.2f}  max {s['max_s']:.2f}")
    print(f"answered {len(answered)}   refused with a message {len(refused)}   errors {len(errors)}")
    print(f"gradebook rows {len(rows)}   lost (answered, not stored) {len(lost)}")
    if unexplained:
        print(f"ROWS NOBODY WAS TOLD ABOUT: {unexplained} (refused input stored, or other writers)")
    for o in bad:
        verdict = "ok" if o in bad_ok else "WRONG"
        print(f"  bad input {o.label:22s} {o.result:8s} {verdict}  {o.detail[:90]!r}")
    print(f"app alive afterwards: {alive}" + (f" (next grade took {after_s:.2f} s)" if alive else ""))
    slowest = sorted(outcomes, key=lambda o: -o.latency_s)[:5]
    print("slowest: " + ", ".join(f"{o.label} {o.latency_s:.1f}s" for o in slowest))
    for o in (errors + refused)[:10]:
        print(f"  {o.result}: #{o.index} {o.label}: {o.detail}")
    print("GOAL MET" if ok else "GOAL NOT MET")
    if args.json:
        summary["outcomes"] = [asdict(o) for o in outcomes + bad]
        Path(args.json).write_text(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=50, help="concurrent submissions (default 50)")
    p.add_argument("--app", type=Path, default=REPO / "app.py", help="the app to start")
    p.add_argument("--api-name", default="/grade", help="endpoint: grade(exercise_id, code, learner)")
    p.add_argument("--trainings", type=int, default=2, help="trainings running meanwhile (default 2)")
    p.add_argument("--trainings-via", choices=["auto", "api", "process", "none"], default="auto",
                   help="auto: the app's train endpoint if it has one, else stand-in processes")
    p.add_argument("--database-url", default=None,
                   help="PostgreSQL URL for the app's gradebook (default: fresh SQLite in a temp dir)")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds the burst may take in all")
    p.add_argument("--start-timeout", type=float, default=120.0, help="seconds for the app to start")
    p.add_argument("--settle", type=float, default=20.0,
                   help="seconds between starting the trainings and the burst (the app warms up meanwhile)")
    p.add_argument("--p95-goal", type=float, default=5.0)
    p.add_argument("--bad-input", action="store_true",
                   help="also send one of each bad input (empty, 1 MB, binary, broken notebook, "
                        "unknown exercise, odd name): each must be refused and leave no row")
    p.add_argument("--seed", type=int, default=0, help="shuffles the mix of submissions")
    p.add_argument("--json", default=None, help="also write the summary and every outcome here")
    p.add_argument("--keep", action="store_true", help="keep the temp dir (app log, gradebook)")
    args = p.parse_args(argv)
    if args.n < 1:
        p.error("--n must be at least 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
