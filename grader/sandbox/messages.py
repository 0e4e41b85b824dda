"""Trusted-side decoding of what a sandboxed child sent: bounded, then checked against a schema.

The child runs learner code, so its result bytes are hostile input. Every frame is size-capped
before JSON parsing, every message must have the shape the runner writes, and anything else
makes the whole run "malformed" (scored as a crash, and stored so the instructor sees it).

Property (issue 19, 1): the trusted side bounds every piece of work by the bytes it received,
before doing the work. Here: a result's JSON values are counted (MAX_NODES, over the whole
result) before any is parsed, and a tensor's shape is bounded (codec.shape_problem: number of
dimensions, each dimension, the extent of an empty tensor) before any product of it is taken.
Judging then compares arrays as arrays, bounded by the expected value (grader/feedback/compare.py).
grader/worstcase.py forges the worst results under the size cap; each costs <= 0.2 s of CPU.
"""

from __future__ import annotations

from typing import Any

from grader.sandbox import codec, runner

MAX_HEADER = 1 << 20  # one frame's JSON; the largest real one is under 1 KiB
# Containers and items in one whole result: the largest real result has under 400 (a learner's
# nested lists add some); 20,000 keep decoding, checking and judging a result under ~40 ms.
MAX_NODES = 20_000
_ERROR_KEYS = {"type": str, "mro": list, "message": str, "traceback": str}
# The runner's own caps on what it says of an exception (runner._error_record, run_case): a
# longer text is forged, and feedback's patterns and traceback filter would scan all of it.
_TEXT_CAPS = {"message": runner.MESSAGE_CHARS, "traceback": runner.TRACEBACK_CHARS + 4,
              "type": runner.NAME_CHARS}


class Malformed(ValueError):
    """The child's result bytes are not what a runner writes."""


def _frames(data: bytes, max_frames: int, pos: int = 0, partial: bool = False,
            need: list[int] | None = None) -> tuple[list[Any], int]:
    """Decode frames from ``pos`` within the bounds above (codec.read_frames)."""
    try:
        return codec.read_frames(data, max_frames, pos, partial, max_header=MAX_HEADER,
                                 max_nodes=MAX_NODES, need=need)
    except codec.CodecError as exc:
        raise Malformed(str(exc)) from None


def scan(data: bytes, pos: int) -> tuple[list[str], int, int]:
    """Kinds of the complete messages from ``pos`` on (for the trusted side to act on "loaded"
    while the child runs), where to resume, and how long ``data`` must be before scanning
    again is worth it (a frame's header is parsed once, however slowly its bytes arrive);
    Malformed on anything unexpected."""
    need = [len(data) + 1]
    start = pos
    found, pos = _frames(data, max_frames=8, pos=pos, partial=True, need=need)
    kinds = [m.get("kind") if isinstance(m, dict) else None for m in found]
    if "sandbox" in kinds[1 if start == 0 else 0:]:
        # Only the first frame is the sandbox report (the child writes it before any learner
        # code runs): another one is forged, and would keep the trusted side scanning.
        kinds.append("malformed")
    return kinds, pos, need[0]


def _values_ok(value: Any) -> bool:
    """Whether a returned value is data the trusted side can judge: every int within int64
    (the runner sends larger ones as opaque), so no comparison overflows converting it."""
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) is int and not -(2**63) <= item < 2**63:
            return False
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return True


def _names_ok(names: Any) -> bool:
    return (isinstance(names, list) and len(names) <= runner.MRO_NAMES
            and all(isinstance(c, str) and len(c) <= runner.NAME_CHARS for c in names))


def _is_error(err: Any) -> bool:
    return (isinstance(err, dict) and set(err) == set(_ERROR_KEYS)
            and all(isinstance(err[k], t) for k, t in _ERROR_KEYS.items())
            and all(len(err[k]) <= cap for k, cap in _TEXT_CAPS.items()) and _names_ok(err["mro"]))


def _is_record(rec: Any) -> bool:
    if not isinstance(rec, dict):
        return False
    keys = set(rec)
    if keys == {"error"}:
        return _is_error(rec["error"])
    if keys == {"value"}:
        return _values_ok(rec["value"])
    if keys in ({"raised", "message"}, {"raised", "value"}):
        raised = rec["raised"]
        ok = raised is None or _names_ok(raised)
        text = rec.get("message", "")
        return ok and isinstance(text, str) and len(text) <= runner.RAISED_CHARS \
            and _values_ok(rec.get("value"))
    return False


def check(messages: list, steps_per_case: list[int]) -> None:
    """Raise Malformed unless ``messages`` is a run the runner could have written, in its order:
    sandbox, then a load error and nothing more, or "loaded", cases, "done" ("too_large" may
    end a run early). A load error after "loaded" is forged: a learner's code only runs after
    loading once the cases arrived, so it must not be able to pass off case data as one."""
    if not messages or not isinstance(messages[0], dict) or messages[0].get("kind") != "sandbox" \
            or not isinstance(messages[0].get("level"), dict):
        raise Malformed("no sandbox report first")
    seen: set[int] = set()
    state = "start"  # start -> loaded -> ended
    for msg in messages[1:]:
        if not isinstance(msg, dict) or state == "ended":
            raise Malformed("message after the end")
        kind = msg.get("kind")
        if kind in ("syntax", "load_error") and state == "start":
            if not _is_error(msg.get("error")) or set(msg) != {"kind", "error"}:
                raise Malformed("bad load error")
            state = "ended"
        elif kind == "loaded" and state == "start":
            names = msg.get("names")
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise Malformed("bad names")
            state = "loaded"
        elif kind == "case" and state == "loaded":
            index, records = msg.get("index"), msg.get("records")
            if type(index) is not int or not 0 <= index < len(steps_per_case) or index in seen:
                raise Malformed("bad case index")
            if not isinstance(records, list) or len(records) > steps_per_case[index] \
                    or not all(_is_record(r) for r in records):
                raise Malformed("bad records")
            seen.add(index)
        elif kind in ("done", "too_large") and state == "loaded":
            state = "ended"
        else:
            raise Malformed(f"unexpected message {str(kind)[:20]!r} in state {state}")


def decode(data: bytes, steps_per_case: list[int]) -> list[dict]:
    """Frames -> checked messages (tensors as numpy arrays); Malformed on anything unexpected."""
    messages, _ = _frames(data, max_frames=len(steps_per_case) + 5)
    check(messages, steps_per_case)
    return messages
