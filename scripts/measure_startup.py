"""Measure `python app.py`: seconds to HTTP 200 and idle RSS (python -m scripts.measure_startup)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def rss_mb(pid: int) -> float:
    """Resident set size of one process in MB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids = (task / "children").read_text().split()
        found += [int(k) for k in kids]
    return found + [g for k in found for g in children(k)]


def measure(idle_s: float = 20.0, timeout_s: float = 60.0) -> dict:
    """Start the app on a free port, time the first HTTP 200, wait idle, read RSS; stop it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False"}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ready = None
        while time.perf_counter() - start < timeout_s:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
                    if r.status == 200:
                        ready = time.perf_counter() - start
                        break
            except OSError:
                time.sleep(0.05)
        time.sleep(idle_s)  # the warm-up thread imports torch and starts the grader meanwhile
        kids = children(proc.pid)
        return {"http_200_s": ready, "app_rss_mb": round(rss_mb(proc.pid), 1),
                "worker_rss_mb": [round(rss_mb(k), 1) for k in kids],
                "load_avg": os.getloadavg()}
    finally:
        proc.terminate()
        proc.wait(timeout=20)


if __name__ == "__main__":
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 3):
        print(measure())
