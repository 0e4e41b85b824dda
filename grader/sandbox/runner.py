"""Runs a submission's module code and the steps of each case; used in the sandbox and for references."""

from __future__ import annotations

import builtins
import traceback
from collections.abc import Callable
from typing import Any

from grader.sandbox import codec
from grader.sandbox.jobs import Ref

FILENAME = "submission.py"
# What a record says of an exception is capped here, and grader/sandbox/messages.py refuses longer.
TRACEBACK_CHARS = 4000
MESSAGE_CHARS = 1000  # an error's text
RAISED_CHARS = 500  # the text of an exception a step expected
NAME_CHARS = 200  # a class name
MRO_NAMES = 12


def _error_record(exc: BaseException) -> dict:
    """Describe an exception with the learner's own frames only."""
    kind = type(exc).__name__
    text = str(exc)
    if isinstance(exc, MemoryError) or (
        isinstance(exc, RuntimeError) and "alloc" in text.lower() and "memory" in text.lower()
    ):
        kind = "MemoryError"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    tb = "".join(lines)
    if len(tb) > TRACEBACK_CHARS:
        tb = "...\n" + tb[-TRACEBACK_CHARS:]
    return {"type": kind[:NAME_CHARS], "mro": _class_names(exc),
            "message": text[:MESSAGE_CHARS], "traceback": tb}


def _class_names(exc: BaseException) -> list[str]:
    return [c.__name__[:NAME_CHARS] for c in type(exc).__mro__][:MRO_NAMES]


def load_module(source: str) -> dict:
    """Compile and execute the submission as a fresh module named ``submission``."""
    code = compile(source, FILENAME, "exec", dont_inherit=True)
    namespace: dict = {"__name__": "submission", "__builtins__": builtins, "__file__": FILENAME}
    exec(code, namespace)
    return namespace


def _resolve(value: Any, saved: dict) -> Any:
    if isinstance(value, Ref):
        if value.name not in saved:
            raise KeyError(f"internal: nothing saved as {value.name!r}")
        return saved[value.name]
    if isinstance(value, list):
        return [_resolve(v, saved) for v in value]
    if isinstance(value, tuple):
        return tuple(_resolve(v, saved) for v in value)
    if isinstance(value, dict):
        return {k: _resolve(v, saved) for k, v in value.items()}
    return value


def _lookup(namespace: dict, name: str, what: str) -> Any:
    if name not in namespace:
        raise NameError(f"your code does not define {what} `{name}`")
    return namespace[name]


def describe_attr(obj: Any, name: str) -> str:
    """A short description of ``obj.<name>`` that compares exactly across processes."""
    import torch

    if not hasattr(obj, name):
        return "missing"
    value = getattr(obj, name)
    if isinstance(value, torch.nn.Linear):
        return f"Linear({value.in_features}, {value.out_features}, bias={value.bias is not None})"
    return type(value).__name__


def _set_params(obj: Any, params: dict, dtype: str | None) -> None:
    import torch

    if dtype is not None:
        obj.to(getattr(torch, dtype))
    with torch.no_grad():
        for dotted, value in params.items():
            target, parent = obj, None
            for part in dotted.split("."):
                if not hasattr(target, part):
                    raise AttributeError(f"your module has no attribute `{dotted}` (the contract names it)")
                parent, target = target, getattr(target, part)
            if target is None and dotted.endswith(".bias") and isinstance(parent, torch.nn.Linear):
                # nn.Linear(..., bias=False) where the contract says bias=True: the contract
                # case charges it once; with the contract's bias in place every value test
                # still tests the attention itself
                parent.bias = torch.nn.Parameter(value.to(parent.weight.dtype).clone())
                continue
            if not isinstance(target, torch.Tensor):
                raise TypeError(f"`{dotted}` should be a tensor parameter, found {type(target).__name__}")
            if tuple(target.shape) != tuple(value.shape):
                raise ValueError(
                    f"`{dotted}` has shape {tuple(target.shape)}, the contract says {tuple(value.shape)}"
                )
            target.copy_(value.to(target.dtype))


def run_step(namespace: dict, step: dict, saved: dict) -> Any:
    """Execute one step and return its raw result."""
    op = step["op"]
    args = _resolve(step.get("args", []), saved)
    kwargs = _resolve(step.get("kwargs", {}), saved)
    if op == "get":
        return _lookup(namespace, step["name"], "the module-level name")
    if op == "call":
        fn = step["fn"]
        target = saved[fn.name] if isinstance(fn, Ref) else _lookup(namespace, fn, "the function")
        return target(*args, **kwargs)
    if op == "new":
        return _lookup(namespace, step["cls"], "the class")(*args, **kwargs)
    if op == "set_params":
        _set_params(saved[step["obj"]], step["params"], step.get("dtype"))
        return None
    if op == "describe":
        obj = saved[step["obj"]]
        return {name: describe_attr(obj, name) for name in step["attrs"]}
    if op == "keep":  # its inputs as objects: later steps pass the very same tensors (spec.keep)
        if "check" in step:  # read back: as they are now (a case's records are sent at its end)
            args = [a.clone() if hasattr(a, "clone") else a for a in args]
        return args[0] if len(args) == 1 else args
    if op == "fixture":
        from grader.sandbox import fixtures  # torch; preloaded in the worker

        return fixtures.build(step["name"], **kwargs)
    raise ValueError(f"internal: unknown step op {op!r}")


def run_case(namespace: dict, steps: list[dict]) -> list[dict]:
    """Run a case's steps; each record is {"value"}, {"raised"} or {"error"}. Stops at the first error."""
    saved: dict = {}
    records: list[dict] = []
    for step in steps:
        try:
            value = run_step(namespace, step, saved)
        except BaseException as exc:  # noqa: BLE001 - learner code may raise anything, even SystemExit
            if isinstance(exc, KeyboardInterrupt):
                raise
            if step.get("raises") and not isinstance(exc, SystemExit):
                records.append({"raised": _class_names(exc), "message": str(exc)[:RAISED_CHARS]})
                continue
            records.append({"error": _error_record(exc)})
            break
        if step.get("save"):
            saved[step["save"]] = value
        if step.get("raises"):
            records.append({"raised": None, "value": value if "check" in step else None})
        else:
            records.append({"value": value if "check" in step else None})
    return records


def run_job(job: dict, emit: Callable[[dict], None]) -> None:
    """Load the submission and run every case, emitting one message per event.

    ``job["cases"]`` may be a callable: then the cases are fetched only once the code has
    loaded, so nothing the submission runs at import time can see a hidden input.
    """
    try:
        namespace = load_module(job["source"])
    except SyntaxError as exc:
        emit({"kind": "syntax", "error": _error_record(exc)})
        return
    except BaseException as exc:  # noqa: BLE001
        emit({"kind": "load_error", "error": _error_record(exc)})
        return
    emit({"kind": "loaded", "names": sorted(k for k in namespace if not k.startswith("__"))[:500]})
    cases = job["cases"]() if callable(job["cases"]) else job["cases"]
    for index, steps in enumerate(cases):
        emit({"kind": "case", "index": index, "records": run_case(namespace, steps)})
    emit({"kind": "done"})


def as_received(cases: list[list[dict]]) -> list[list[dict]]:
    """The cases' steps as a sandboxed learner receives them: the checks' contents left out
    (as ``TestCase.to_wire`` sends them) and every input decoded from the codec, so each step
    has its own copy of each tensor. Code that changes an input in place then changes only that
    step's copy: never a later step's input, nor the cases the next trusted run is given."""
    wire = [[{**step, "check": {}} if "check" in step else step for step in steps]
            for steps in cases]
    return codec.unpack(codec.pack({"cases": wire}), as_torch=True)["cases"]


def run_trusted(source: str, cases: list[list[dict]]) -> list[dict]:
    """Run a trusted submission (reference, mistake) in-process on the inputs a sandboxed
    learner would get (``as_received``); outputs go through the codec round trip so they look
    exactly like a sandboxed learner's."""
    messages: list[dict] = []

    def emit(msg: dict) -> None:
        messages.append(codec.unpack(codec.pack(msg)))

    run_job({"source": source, "cases": lambda: as_received(cases)}, emit)
    return messages
