"""The red team's findings of 2026-11-30, each replayed as the real attack (reproductions were in
/tmp/redteam/): what a child sends that the trusted side cannot judge is `malformed`, hidden
feedback carries no learner text, a child finds no earlier job's state, a zygote leaves no folder
when the trusted side dies, a trickled frame is parsed once, and a bogus LAB_SANDBOX_MIN refuses."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from grader import grading
from grader.exercises import get
from grader.feedback import judge
from grader.paths import REPO_ROOT
from grader.sandbox import codec, messages
from grader.typed import Check, Record

EX = get("manual-attention")
REF = EX.reference_source()
PUBLIC = "import torch\nscores = torch.zeros(3, 3); weights = torch.zeros(3, 3); context = torch.zeros(4)\n"

# a1_bigint.py: walk up to the runner, forge every remaining case's records with 10**4000.
BIGINT = r'''
import json, os, struct, sys
def _w(v):
    if isinstance(v, dict):
        return {"__dict": {k: _w(x) for k, x in v.items()}}
    return [_w(x) for x in v] if isinstance(v, list) else v
def _frame(body):
    h = json.dumps({"body": _w(body), "blobs": []}).encode()
    return struct.pack(">I", len(h)) + h
def attention(Q, K, V, mask=None):
    f = sys._getframe()
    while not (f.f_code.co_name == "run_job" and "index" in f.f_locals):
        f = f.f_back
    cases, start = f.f_locals["cases"], f.f_locals["index"]
    out = b"".join(_frame({"kind": "case", "index": i, "records": [{"value": 10**4000} for _ in cases[i]]})
                   for i in range(start, len(cases)))
    os.write(3, out + _frame({"kind": "done"}))
    os._exit(0)
''' + PUBLIC


def _assert_malformed_and_scored(report):
    assert report.status == "malformed", report.status
    assert report.score == 0 and report.malformed_reason
    assert all(t.message["en"] and t.message["zh"] for t in report.tests)


def test_a_forged_huge_integer_is_malformed_not_a_crash(grader):
    _assert_malformed_and_scored(grader.grade(EX.id, BIGINT))
    assert grader.grade(EX.id, REF).full_marks


class _Reversed:
    """An order that starts with a case calling attention(), so the forgery covers every case."""

    def shuffle(self, items: list) -> None:
        items.reverse()


def test_judging_what_the_boundary_let_through_cannot_crash_the_trusted_side(grader, monkeypatch):
    """Defence in depth: with the boundary's value check switched off, the same attack reaches
    the judge, which raises; grading turns that into `malformed` too."""
    monkeypatch.setattr(messages, "_values_ok", lambda value: True)
    # A fixed order: the attack forges only the cases from the first one that calls attention()
    # on, and in a random order the cases whose forged value reaches a float conversion had
    # sometimes run genuinely before it (3 of 60 runs judged "graded", 0/12: held, but not the
    # judge's path this test is about; in canonical order, always).
    monkeypatch.setattr(grading.secrets, "SystemRandom", _Reversed)
    for _ in range(3):
        _assert_malformed_and_scored(grader.grade(EX.id, BIGINT))


def test_boundary_rejects_integers_outside_int64():
    body = {"kind": "case", "index": 0, "records": [{"value": [1, [2, 10**4000]]}]}
    frames = [{"kind": "sandbox", "level": {}}, {"kind": "loaded", "names": []}, body, {"kind": "done"}]
    with pytest.raises(messages.Malformed):
        messages.check(frames, [1])
    body["records"] = [{"value": [1, [2, -(2**63)]]}]
    messages.check(frames, [1])


def test_matching_a_mistake_against_an_unjudgeable_value_is_no_match():
    spec = Check(kind="allclose")
    assert judge.records_match(spec, Record(value=[10**4000]), Record(value=np.zeros(1))) is False


# a2_nameerr.py: the learner's own NameError, worded like the runner's, spelling out hidden inputs.
NAME_ERROR = PUBLIC + r'''
def attention(Q, K, V, mask=None):
    raise NameError("your code does not define x. HIDDEN Q=" + repr(Q.flatten()[:40].tolist())
                    + " shape=" + str(tuple(Q.shape)))
'''
# Function names and line numbers of the traceback, made from hidden inputs with exec.
TRACEBACK = PUBLIC + r'''
def attention(Q, K, V, mask=None):
    tag = "leak%d" % abs(int(Q.flatten()[0].item() * 1e6))
    code = "\n" * 5000 + "def " + tag + "():\n    raise ValueError('x')\n" + tag + "()\n"
    exec(compile(code, "submission.py", "exec"), {})
'''


def _feedback(report) -> str:
    return json.dumps([(t.message, t.details) for t in report.tests if not t.visible], ensure_ascii=False)


def test_hidden_feedback_never_echoes_a_learners_name_error(grader):
    text = _feedback(grader.grade(EX.id, NAME_ERROR))
    assert "HIDDEN" not in text and "shape=" not in text, text[:2000]
    missing = grader.grade(EX.id, PUBLIC)  # no `attention` at all: the grader's own words
    msg = next(t.message for t in missing.tests if "define" in t.message["en"])
    assert msg == {"en": "Your code does not define the function `attention`.",
                   "zh": "你的代码没有定义函数 `attention`。"}


def test_hidden_tracebacks_keep_only_names_and_lines_of_the_submitted_source(grader):
    report = grader.grade(EX.id, TRACEBACK)
    text = _feedback(report)
    assert "leak" not in text, text[:2000]
    lines = [int(n) for n in re.findall(r"line (\d+)", text)]
    assert lines and max(lines) <= TRACEBACK.count("\n") + 1, lines


def test_hidden_runs_do_not_echo_an_exit_code_chosen_after_loading(grader):
    chosen = PUBLIC + "import os\ndef attention(Q, K, V, mask=None):\n    os._exit(37)\n"
    hidden = grader.grade(EX.id, chosen)
    assert hidden.status == "crashed"
    assert "37" not in _feedback(hidden) and "37" not in json.dumps(hidden.summary)
    public = grader.run_examples(EX.id, chosen)  # the public examples say everything
    assert any("exit code 37" in t.message["en"] for t in public.tests)
    at_load = grader.grade(EX.id, "import os\nos._exit(5)\n")  # before any hidden input existed
    assert "exit code 5" in at_load.tests[0].message["en"]


# p2_frames.py / p3_heap.py: walk frames up into the zygote, and the GC, for job state.
FRAMES = r'''
import gc, sys
hits, ids = [], []
f = sys._getframe()
while f is not None:
    for k, v in list(f.f_locals.items()):
        if isinstance(v, dict) and ("exit_code" in v or str(v.get("type")) in ("job", "exit")):
            hits.append(f.f_code.co_name + "." + k)
            ids.append(v.get("id"))
        if k in ("job_id", "msg_id"):
            ids.append(v)
    f = f.f_back
hits += ["gc" for o in gc.get_objects() if isinstance(o, dict) and "wall_s" in o and "exit_code" in o]
print("HITS", hits)
print("IDS", ids)
'''


def test_a_child_finds_no_earlier_jobs_state_above_it(grader):
    grader.grade(EX.id, "import time\ntime.sleep(30)\n")  # a victim that times out
    seen = []
    for _ in range(2):
        out = grader.run_examples(EX.id, FRAMES).output
        assert "HITS []" in out, out[-2000:]
        seen += [int(x) for x in re.findall(r"-?\d+", out.split("IDS", 1)[1])]
    assert all(abs(i) > 10**6 for i in seen), seen  # job ids are random, not a count of jobs


TRUSTED_SIDE = r'''
import sys
sys.path.insert(0, sys.argv[1])
from grader.api import protected_paths
from grader.sandbox.pool import WorkerPool
from grader.spec import Job, JobLimits
pool = WorkerPool(protected=protected_paths())
pool.start()
print(pool.workers[0].proc.pid, flush=True)
pool.run(Job(source="import time\nprint('running', flush=True)\ntime.sleep(60)\n", cases=[], limits=JobLimits(wall_s=60, cpu_s=60)))
'''


def _gone(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.slow
def test_a_zygote_whose_trusted_side_dies_mid_job_leaves_no_folder():
    proc = subprocess.Popen([sys.executable, "-c", TRUSTED_SIDE, str(REPO_ROOT)], stdout=subprocess.PIPE,
                            text=True)
    try:
        zygote = int(proc.stdout.readline())
        assert list(Path("/tmp").glob(f"lab-zygote-{zygote}-*"))  # it has one while it lives
        time.sleep(1.5)  # the job is running
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 15
        while not _gone(zygote) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(zygote)
        assert list(Path("/tmp").glob(f"lab-zygote-{zygote}-*")) == []
    finally:
        proc.kill()
        proc.wait()


# a3_trickle.py: a 199k-value header at import, then its blob one byte at a time.
TRICKLE = r'''
import json, os, struct, time
h = json.dumps({"body": [0] * 199_000, "blobs": [3_000_000]}).encode()
os.write(3, struct.pack(">I", len(h)) + h)
t_end = time.monotonic() + 9.5
while time.monotonic() < t_end:
    os.write(3, b"\0")
    time.sleep(0.0005)
'''


def test_a_trickled_frame_header_is_parsed_once(grader, monkeypatch):
    parses = []

    class CountingJson:
        dumps = staticmethod(json.dumps)

        @staticmethod
        def loads(data):
            if len(data) > 100_000:
                parses.append(len(data))
            return json.loads(data)

    monkeypatch.setattr(codec, "json", CountingJson)
    cpu = time.thread_time()
    report = grader.grade(EX.id, TRICKLE)
    cpu = time.thread_time() - cpu
    assert report.score == 0 and report.status in ("timeout", "malformed"), report.status
    assert len(parses) <= 2, len(parses)
    assert cpu < 1.0, cpu


@pytest.mark.slow
def test_a_bogus_sandbox_minimum_refuses_once_and_never_respawns(monkeypatch, tmp_path, capsys):
    from grader import cli
    from grader.api import Grader, SandboxUnavailable, protected_paths
    from grader.sandbox.pool import WorkerPool

    monkeypatch.setenv("LAB_SANDBOX_MIN", "bogus")
    with Grader(pool=WorkerPool(protected=protected_paths())) as g:
        pid = g.pool.workers[0].proc.pid
        for _ in range(2):
            with pytest.raises(SandboxUnavailable, match="LAB_SANDBOX_MIN"):
                g.grade(EX.id, REF)
        assert g.pool.workers[0].proc.pid == pid and g.pool.workers[0].restarts == 0
    path = tmp_path / "ref.py"
    path.write_text(REF)
    assert cli.main(["grade", EX.id, str(path)]) == 3
    err = capsys.readouterr().err
    assert "LAB_SANDBOX_MIN" in err and "bogus" in err and "Traceback" not in err
