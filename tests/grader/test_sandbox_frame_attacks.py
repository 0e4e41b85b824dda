"""Red team 5 (2026-12-01): the old frame-walk and frame-forging attacks adapted to the lazy
protocol (the cases reach the child only after it reports "loaded"), replayed as real attacks.

Held, and kept here as regressions:
- a hidden job's child walks frames and the GC after its cases arrived: the cases carry no
  expected values, and nothing of an earlier job (files, environment, IPC, GC) is there;
- a submission that forges "loaded" at import time and reads its cases from fd 4 before its
  code has loaded does receive them, but the learner sees nothing it printed after that;
- result-frame bombs inside the size cap (200k-node headers, a 180k-entry blob table, 190k-deep
  nesting) cost the trusted side little and score nothing.
Reproductions and figures: /tmp/redteam5/ (lazy_recon_src.py, run_raw.py, bloat.py).
"""

from __future__ import annotations

import re
import time

from grader import bundle, grading
from grader.exercises import get

EX = get("manual-attention")
MAGIC = "rt5-victim-7319"

ATTENTION = '''
import torch
def _attention(Q, K, V, mask=None):
    s = Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, -1)
    return w @ V, w
'''

# The victim: during its hidden cases it leaves its inputs (tagged MAGIC) everywhere it can.
VICTIM = ATTENTION + r'''
import ctypes, os, sys
KEEP = []
def attention(Q, K, V, mask=None):
    data = MAGIC + repr(Q.flatten()[:4].tolist())
    KEEP.append(data)
    os.environ["RT5"] = data
    sys.modules["builtins"].RT5 = data
    for d in (".", "/tmp", "/dev/shm", "/var/tmp"):
        try:
            with open(os.path.join(d, "rt5-" + MAGIC), "w") as f:
                f.write(data)
        except OSError:
            pass
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget(0x52355, 4096, 0o1666)
    libc.msgget(0x52355, 0o1666)
    return _attention(Q, K, V, mask)
'''.replace("MAGIC", repr(MAGIC))

# The attacker: once its own cases are there, it looks for the victim everywhere.
ATTACKER = ATTENTION + r'''
import ctypes, gc, os, sys
def _probe():
    found = []
    f = sys._getframe(1)
    while f is not None and not (f.f_code.co_name == "run_job" and "cases" in f.f_locals):
        f = f.f_back
    cases = f.f_locals["cases"]
    found += ["check:%r" % s["check"] for c in cases for s in c if s.get("check")]
    # What the victim stored (built at run time: a folded constant would find itself). Strings
    # are not GC-tracked, so look in the containers that are.
    tag = "".join([MAGIC, "["])
    found += ["gc:" + x[:40] for o in gc.get_objects() if isinstance(o, (list, tuple, dict))
              for x in (o.values() if isinstance(o, dict) else o) if isinstance(x, str) and tag in x]
    found += ["env" for v in os.environ.values() if MAGIC in v]
    found += ["builtins" for _ in [1] if hasattr(sys.modules["builtins"], "RT5")]
    for d in (".", "/tmp", "/dev/shm", "/var/tmp"):
        try:
            found += ["file:" + d for n in os.listdir(d) if MAGIC in n]
        except OSError:
            pass
    libc = ctypes.CDLL(None, use_errno=True)
    found += ["shm" for _ in [1] if libc.shmget(0x52355, 0, 0) >= 0]
    found += ["msg" for _ in [1] if libc.msgget(0x52355, 0) >= 0]
    print("CASES", len(cases), "FOUND", found, flush=True)
_done = []
def attention(Q, K, V, mask=None):
    if not _done:
        _done.append(1)
        _probe()
    return _attention(Q, K, V, mask)
'''.replace("MAGIC", repr(MAGIC))


def _hidden_run(grader, source: str, seed: int):
    """A hidden run with fresh inputs, as the app grades; the child's raw output (trusted side)."""
    cases = bundle.fresh(EX, seed)
    raw, run = grading.run_in_sandbox(cases.tests, source, grader.pool, grader._limits(EX))
    return raw, run, cases


def test_a_hidden_job_finds_no_expected_values_and_nothing_of_an_earlier_job(grader):
    raw, run, _ = _hidden_run(grader, VICTIM, 11)
    assert raw.status == "ok" and run.done, (raw.status, raw.output[-500:])
    for seed in (12, 13):
        raw, run, cases = _hidden_run(grader, ATTACKER, seed)
        found = re.search(r"CASES (\d+) FOUND (\[.*\])", raw.output)
        assert found, raw.output[-2000:]
        assert int(found.group(1)) == len(cases.tests)  # it did reach its own cases
        assert found.group(2) == "[]", found.group(2)


# Forge "loaded" while importing, read the hidden cases from fd 4 at once, print them, then
# forge the whole run (zeros) so the trusted side accepts it.
EARLY = r'''
import json, os, struct, sys
codec = sys.modules["grader.sandbox.codec"]
def _frame(msg):
    return codec.pack(msg)
os.write(3, _frame({"kind": "loaded", "names": ["attention"]}))
head = os.read(4, 4)
n = struct.unpack(">I", head)[0]
header = b""
while len(header) < n:
    header += os.read(4, n - len(header))
size = sum(json.loads(header)["blobs"])
blobs = b""
while len(blobs) < size:
    blobs += os.read(4, size - len(blobs))
cases = codec.unpack(head + header + blobs, as_torch=True)["cases"]
leak = [s["args"][0].flatten()[:3].tolist() for c in cases for s in c
        if s.get("op") == "call" and s.get("args") and hasattr(s["args"][0], "flatten")]
print("LEAK", leak, flush=True)
out = b"".join(_frame({"kind": "case", "index": i, "records": [{"value": None} for _ in c]})
               for i, c in enumerate(cases))
os.write(3, out + _frame({"kind": "done"}))
os._exit(0)
'''


def test_cases_read_before_loading_never_reach_the_learner(grader):
    raw, _, cases = _hidden_run(grader, EARLY, 21)
    leaked = re.search(r"LEAK (\[.*\])", raw.output)
    assert leaked and leaked.group(1) != "[]", raw.output[-1000:]  # the attack did get its inputs
    numbers = re.findall(r"-?\d+\.\d{4,}", leaked.group(1))
    assert numbers
    report = grading.grade(cases, EARLY, grader.pool, grader._limits(EX))
    shown = report.output + "".join(t.message["en"] + t.message["zh"] + (t.details or "")
                                   for t in report.tests)
    assert "LEAK" not in shown
    assert not [x for x in numbers if x in shown], "a hidden input reached the learner"
    assert report.score == 0


BOMB = r'''
import os, struct
def _raw(header):
    return struct.pack(">I", len(header)) + header
def attention(*a, **k):
    os.write(3, PAYLOAD[:4 * 1024 * 1024 - 100])
    os._exit(0)
'''
BOMBS = {
    "200k-node headers": "b''.join(_raw(b'{\"body\":{\"__dict\":{\"kind\":\"case\",\"index\":0,"
                         "\"records\":[' + b'{\"a\":1},' * 24000 + b'{\"a\":1}]}},\"blobs\":[]}')"
                         " for _ in range(3))",
    "180k-entry blob table": "_raw(b'{\"body\":{\"__dict\":{\"kind\":\"done\"}},\"blobs\":['"
                             " + b'0,' * 180000 + b'0]}')",
    "190k-deep nesting": "_raw(b'{\"body\":' + b'[' * 190000 + b']' * 190000 + b',\"blobs\":[]}')",
}


def test_result_frame_bombs_within_the_cap_cost_the_trusted_side_little(grader):
    for name, payload in BOMBS.items():
        source = BOMB.replace("PAYLOAD", payload)
        cpu = time.thread_time()
        report = grader.grade(EX.id, source)
        cpu = time.thread_time() - cpu
        assert report.score == 0, name
        assert cpu < 1.5, (name, cpu)
