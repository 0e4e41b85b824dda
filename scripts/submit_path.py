"""Which product files a Submit click enters before the grader starts (issue 28's "files entered
from Submit to grader.api.grade").

Starts the app in this process on a free port with a fresh data folder, then sends one page
Submit (the Exercises page's ``on_submit`` event, as a browser sends it) and one call of the
``grade`` API. A profile hook on every thread records each product file (app.py, webapp/,
grader/, gradebook/, transformer_lab/) whose code runs from the moment the request is sent until
``grader.api.grade`` is entered; the grading itself is not counted. The app is otherwise idle,
so what runs in that window is the request's path (the event loop's middleware and queue, the
worker thread's handler).

    python scripts/submit_path.py            # counts and the files, per path
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import threading
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
PRODUCT = tuple(str(REPO / p) for p in ("app.py", "webapp", "grader", "gradebook",
                                         "transformer_lab"))


class Recorder:
    def __init__(self) -> None:
        self.on = False
        self.files: list[str] = []

    def hook(self, frame, event, arg):  # noqa: ANN001 - sys.setprofile's signature
        if self.on and event == "call":
            name = frame.f_code.co_filename
            if name.startswith(PRODUCT) and "/.venv/" not in name:
                rel = str(Path(name).relative_to(REPO))
                if rel not in self.files:
                    self.files.append(rel)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page_event(url: str, index: int, data: list, session: str) -> str:
    import httpx

    with httpx.Client(base_url=url, timeout=300) as http:
        r = http.post("gradio_api/queue/join", json={"data": data, "fn_index": index,
                                                     "session_hash": session, "event_data": None,
                                                     "trigger_id": None})
        r.raise_for_status()
        with http.stream("GET", "gradio_api/queue/data", params={"session_hash": session}) as s:
            for line in s.iter_lines():
                if '"process_completed"' in line:
                    return line
    return ""


def main() -> None:
    os.environ.setdefault("LAB_DATA_DIR", tempfile.mkdtemp(prefix="submit-path-"))
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    import httpx

    import app
    from grader import api

    rec = Recorder()
    real_grade = api.grade

    def grade(*args, **kwargs):
        rec.on = False  # the grader starts: stop counting
        return real_grade(*args, **kwargs)

    api.grade = grade
    threading.setprofile(rec.hook)  # before launch: the server's own threads are counted too
    sys.setprofile(rec.hook)
    port = free_port()
    app.launch(server_port=port, prevent_thread_lock=True, server_name="127.0.0.1")
    url = f"http://127.0.0.1:{port}/"
    config = httpx.get(f"{url}config", timeout=30).json()
    values = {c["id"]: c.get("props", {}).get("value") for c in config["components"]}
    events = {d["api_name"]: (d["id"], [values.get(i) for i in d["inputs"]])
              for d in config["dependencies"] if d.get("api_name")}
    from gradebook.identity import new_browser_key

    code = "def attention(q, k, v):\n    return None\n"
    key = new_browser_key()
    results = {}
    # The first of each opens what a process opens once (the gradebook, the limits' tables);
    # the second is every later click's path.
    for label, name, data in (
            ("page Submit, first", "on_submit", ["manual-attention", code, "path-probe", key]),
            ("page Submit", "on_submit", ["manual-attention", code, "path-probe", key]),
            ("grade API", "grade", ["manual-attention", code, "path-probe-api"])):
        index, defaults = events[name]
        rec.files, rec.on = [], True
        page_event(url, index, [*data, *defaults[len(data):]], uuid.uuid4().hex[:11])
        rec.on = False
        results[label] = list(rec.files)
    sys.setprofile(None)
    threading.setprofile(None)
    for label, files in results.items():
        print(f"{label}: {len(files)} product files entered before grader.api.grade")
        for f in files:
            print(f"  {f}")
    print(json.dumps({k: len(v) for k, v in results.items()}))
    os._exit(0)  # the app's threads


if __name__ == "__main__":
    main()
