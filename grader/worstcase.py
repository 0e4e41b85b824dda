"""The worst result bytes a learner can send under the size cap, and what judging them costs.

Issue 19, property 1: the trusted side bounds every piece of work by the bytes it received
before doing it. A child that runs learner code can write any bytes on its result pipe, so
each forger below writes what a hostile child could (hand-made frames, no runner involved)
and ``trusted_cpu`` runs the whole trusted side on them: messages.decode, judging every case,
matching every known mistake, the exercise's diagnoser, the report. The tests and
``python -m grader bench`` hold each at <= 0.2 s of CPU.
"""

from __future__ import annotations

import json
import random
import struct
import time
from collections.abc import Callable

from grader import grading
from grader.bundle import Bundle
from grader.report import Report
from grader.sandbox import codec, messages, pool, runner
from grader.spec import Job, JobLimits
from grader.typed import RawResult

Forger = Callable[[list[int], int], bytes]  # (steps per case, byte budget) -> result bytes
SANDBOX = {"kind": "sandbox", "level": {"summary": "strict", "landlock": 7, "seccomp": True}}


def frame(body: object, blobs: tuple[bytes, ...] = ()) -> bytes:
    """One frame as a hostile child would write it: header length, JSON header, blobs."""
    header = json.dumps({"body": body, "blobs": [len(b) for b in blobs]}).encode()
    return struct.pack(">I", len(header)) + header + b"".join(blobs)


def _msg(**fields: object) -> dict:
    return {"__dict": fields}


def _run(steps: list[int], value: Callable[[int, int], tuple[object, list[bytes]]]) -> bytes:
    """sandbox, loaded, then one case frame per case whose every record is ``value``."""
    out = [codec.pack(SANDBOX), codec.pack({"kind": "loaded", "names": []})]
    for index, n in enumerate(steps):
        records, blobs = [], []
        for step in range(n):
            body, extra = value(index, step)
            records.append(_msg(value=_renumber(body, len(blobs))))
            blobs += extra
        out.append(frame(_msg(kind="case", index=index, records=records), tuple(blobs)))
    out.append(codec.pack({"kind": "done"}))
    return b"".join(out)


def _renumber(body: object, base: int) -> object:
    """Shift the blob indices of ``body``'s tensors by ``base`` (one frame holds every record)."""
    if isinstance(body, dict) and "__t" in body:
        return {**body, "__t": body["__t"] + base}
    if isinstance(body, dict):
        return {k: _renumber(v, base) for k, v in body.items()}
    if isinstance(body, list):
        return [_renumber(v, base) for v in body]
    return body


def _tensor(dtype: str, shape: list[int], index: int = 0) -> dict:
    return {"__t": index, "dtype": dtype, "shape": shape, "kind": "torch"}


def huge_shape(dims: int, digits: int) -> Forger:
    """F1: ``dims`` dimensions of ``digits`` digits ending in 0, so the tensor holds no data
    (math.prod over 30,000 of 10**30 cost 8.9 s)."""
    def forge(steps: list[int], budget: int) -> bytes:
        shape = [10**digits] * dims + [0]
        return codec.pack(SANDBOX) + frame(_tensor("bool", shape), (b"",))
    return forge


def empty_rows(rows: int) -> Forger:
    """F2: every record a pair of (rows, 0) tensors: 0 bytes, ``rows`` lists per .tolist()."""
    def forge(steps: list[int], budget: int) -> bytes:
        pair = {"__tuple": [_tensor("bool", [rows, 0], 0), _tensor("float64", [rows, 0], 1)]}
        return _run(steps, lambda i, s: (pair, [b"", b""]))
    return forge


def big_arrays(dtype: str) -> Forger:
    """The byte budget spread over every record as flat arrays (a pair, for tuple outputs)."""
    def forge(steps: list[int], budget: int) -> bytes:
        size = {"bool": 1, "int8": 1, "float64": 8}[dtype]
        n = max(1, (budget - 65536) // (2 * size * max(1, sum(steps))))
        blob = b"\x01" * (n * size)
        pair = {"__tuple": [_tensor(dtype, [n], 0), _tensor(dtype, [1, n], 1)]}
        return _run(steps, lambda i, s: (pair, [blob, blob]))
    return forge


def many_values(steps: list[int], budget: int) -> bytes:
    """As many JSON values as the node cap lets through, as nested lists in every record."""
    per = max(1, int(0.8 * messages.MAX_NODES) // (2 * max(1, sum(steps))))
    row = [[0.5] * 8 for _ in range(max(1, per // 9))]
    return _run(steps, lambda i, s: ({"__tuple": [row, row]}, []))


def deep_values(steps: list[int], budget: int) -> bytes:
    """Values nested as deep as the codec allows."""
    deep: object = 1.0
    for _ in range(codec.MAX_DEPTH - 4):  # as deep as a record's value may go
        deep = [deep, deep] if isinstance(deep, float) else [deep]
    return _run(steps, lambda i, s: (deep, []))


def long_texts(steps: list[int], budget: int) -> bytes:
    """Values that are long strings, and errors whose texts are as long as the runner's caps."""
    text = "x\n" * max(1, (budget // 4) // (4 * max(1, sum(steps))))
    line = 'File "submission.py", line 1, in f\n'
    err = {"type": "ValueError" * 20, "mro": ["ValueError"] * runner.MRO_NAMES,
           "message": "shape dtype " * (runner.MESSAGE_CHARS // 12),
           "traceback": (line * runner.TRACEBACK_CHARS)[: runner.TRACEBACK_CHARS]}
    out = [codec.pack(SANDBOX), codec.pack({"kind": "loaded", "names": []})]
    for index, n in enumerate(steps):
        out.append(codec.pack({"kind": "case", "index": index,
                               "records": [{"value": text}] * (n - 1) + [{"error": err}]}))
    return b"".join(out) + codec.pack({"kind": "done"})


def random_values(seed: int) -> Forger:
    """Random structures of numbers, strings, tuples, dicts and small tensors."""
    def forge(steps: list[int], budget: int) -> bytes:
        rng = random.Random(seed)

        def value(depth: int = 0) -> tuple[object, list[bytes]]:
            pick = rng.randrange(6 if depth < 4 else 3)
            if pick == 0:
                return rng.choice([0, 1, True, None, 2.5, "nan", "tensor"]), []
            if pick == 1:
                return {"__float": rng.choice(["nan", "inf", "-inf"])}, []
            if pick == 2:
                shape = [rng.randrange(0, 5) for _ in range(rng.randrange(0, 5))]
                n = 1
                for d in shape:
                    n *= d
                dtype = rng.choice(["bool", "float32", "float64", "int64"])
                return _tensor(dtype, shape), [bytes(n * {"bool": 1}.get(dtype, 8 if "64" in dtype else 4))]
            items, blobs = [], []
            for _ in range(rng.randrange(0, 4)):
                body, extra = value(depth + 1)
                items.append(_renumber(body, len(blobs)))
                blobs += extra
            if pick == 3:
                return {"__tuple": items}, blobs
            if pick == 4:
                return items, blobs
            return {"__dict": {str(k): v for k, v in enumerate(items)}}, blobs
        return _run(steps, lambda i, s: value())
    return forge


FORGERS: dict[str, Forger] = {
    "30,000 huge dimensions (F1)": huge_shape(30_000, 30),
    "huge dimensions under the node cap": huge_shape(3_000, 300),
    "2**19 empty rows (F2)": empty_rows(2**19),
    "empty rows at the cap": empty_rows(codec.MAX_EMPTY_EXTENT),
    "4 MiB of bool arrays": big_arrays("bool"),
    "4 MiB of float64 arrays": big_arrays("float64"),
    "the node cap in nested lists": many_values,
    "the deepest values": deep_values,
    "long texts and errors": long_texts,
    **{f"random values #{seed}": random_values(seed) for seed in range(3)},
}


class ForgedPool:
    """Stands in for a WorkerPool: the child's result bytes come from a forger, and go through
    the same bounds and decoding as a real child's (pool._decode)."""

    def __init__(self, forge: Forger) -> None:
        self.forge = forge
        self.forging_s = 0.0  # time spent making the bytes: the child's work, not ours

    def run(self, job: Job) -> RawResult:
        t0 = time.thread_time()
        data = self.forge([len(steps) for steps in job.cases], job.limits.result_bytes)
        self.forging_s = time.thread_time() - t0
        if len(data) > job.limits.result_bytes:  # what pool._collect does with more
            return RawResult(status="result_limit")
        return pool._decode(RawResult(status="ok"), data, job, "basic")


def trusted_cpu(bundle: Bundle, forge: Forger, limits: JobLimits | None = None) -> tuple[Report, float]:
    """Grade ``forge``'s bytes as a child's against ``bundle``: the report and the CPU seconds
    this thread spent (everything the trusted side does with a child's result)."""
    forged = ForgedPool(forge)
    t0 = time.thread_time()
    report = grading.grade(bundle, "def f():\n    pass\n", forged, limits or JobLimits())
    return report, time.thread_time() - t0 - forged.forging_s


def worst(exercise_ids: list[str] | None = None, seed: int = 0) -> list[tuple[float, str, str, str]]:
    """(CPU seconds, exercise, "hidden"/"examples", forger) for every forger on every exercise,
    slowest first: the figures ``python -m grader bench`` and scripts/measure_trusted_cost.py print."""
    from grader import bundle
    from grader.exercises import all_exercises

    rows = []
    for ex_id in exercise_ids or sorted(all_exercises()):
        ex = all_exercises()[ex_id]
        hidden = bundle.load(ex, seed)
        hidden.known_mistakes()  # once per deployment, not per submission
        for which, b in (("hidden", hidden), ("examples", bundle.examples(ex))):
            for name, forge in FORGERS.items():
                cpu = min(trusted_cpu(b, forge)[1] for _ in range(2))
                rows.append((cpu, ex_id, which, name))
    return sorted(rows, reverse=True)
