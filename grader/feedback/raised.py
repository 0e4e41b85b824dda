"""What the learner is told: crash and error wording, and what feedback on a hidden case may say.

Everything a submission controls (exception messages, type names, numbers it returns) is a
channel out of the sandbox. On hidden cases the grader therefore says *what* is wrong in its
own words and echoes learner-controlled values only through a small, fixed vocabulary.
"""

from __future__ import annotations

import builtins
import re
import signal as _signal
from typing import TYPE_CHECKING

from grader.feedback.learner_error import frames, learner_line, raise_lines, shown_message
from grader.report import frame_text
from grader.words import NOTHING, say

if TYPE_CHECKING:
    from grader.spec import JobLimits
    from grader.typed import ErrorInfo, RawResult


# Exception and value type names a message may repeat; any other name is the learner's own
# (it could spell out hidden data) and is replaced by a neutral word.
_KNOWN_TYPES = {name for name, obj in vars(builtins).items() if isinstance(obj, type)} | {
    "ndarray", "Tensor", "Parameter", "Module", "Linear", "NoneType", "generator", "function",
    "OutOfMemoryError", "LinAlgError", "AxisError", "DeferredCudaCallError",
}
def safe_type(name: str | None, fallback: str = "an object of your own type") -> str:
    """``name`` when it is a builtin/numpy/torch type name, else a neutral phrase."""
    return name if name in _KNOWN_TYPES else fallback


def traceback_lines(tb: str, source: str) -> str:
    """The innermost 'File "submission.py", line N, in f' frame of the learner's traceback that
    the submitted ``source`` accounts for (grader/learner_error.frames: a line holding code,
    in the function that holds it). Code compiled at run time under the same file name could
    otherwise choose lines and names from hidden inputs, and several frames say more than one
    (a red team read 8 bytes a case from 8 frames). Source lines are dropped too: the sandbox
    may rewrite submission.py on disk, and the traceback would then print whatever it wrote.
    """
    found = frames(tb, source)
    if not found:
        return ""
    return frame_text(list(found[-1]))


_EMPTY = re.compile(r"numel\(\) == 0|zero-size array|with no elements|empty (sequence|tensor)", re.I)
# Read from the shown message, where a slot that may not be shown is "…" (the inner sizes,
# which these need, are shown when they are sizes of the case's inputs).
_MATMUL = re.compile(r"mat1 and mat2 shapes cannot be multiplied \((\d+|…)x(\d+) and (\d+)x(\d+|…)\)"
                     r"|Expected size for first two dimensions of batch2 tensor to be: \[(?:\d+|…), "
                     r"(\d+)\] but got: \[(?:\d+|…), (\d+)\]", re.ASCII)
_BROADCAST = re.compile(r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) "
                        r"at non-singleton dimension (\d+)", re.ASCII)


_MASK_WORD = re.compile(r"mask|len|valid|keep|pad", re.I)
# Read from the learner's own failing line (their source, not anything computed at run time).
_DOT_T = re.compile(r"\.T(?![\w(])")
_IF_TENSOR = re.compile(r"^\s*(?:if|elif|while)\s+((?:not\s+)?([A-Za-z_]\w{0,40}))\s*:", re.ASCII)
_SUBSCRIPT = re.compile(r"\b([A-Za-z_]\w{0,40})\[\s*([A-Za-z_]\w{0,40})\s*\]", re.ASCII)
_DTYPE_MIX = re.compile(r"mat1 and mat2 must have the same dtype|expected m1 and m2 to have the same dtype")
_INDEX_AXIS0 = re.compile(r"index (?:-?\d+|…) is out of bounds for dimension 0 with size", re.ASCII)


def _line_text(source: str, line: int) -> str:
    lines = source.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _situation(msg: str, sizes: frozenset[int], masks: bool = False,
               line_text: str | None = None) -> dict[str, str] | None:
    """What an exception means in this case's situation, for the common ones: a reduction over
    an empty row, a matrix product or two shapes that do not fit (told with their sizes only
    when both are sizes of this case's own inputs, so no learner-chosen number shows).
    ``masks``: the case's inputs hide keys (a mask or valid lengths); only then may the words
    speak of a mask, a length or a query that sees no key; and a shape that does not broadcast
    is put on a mask or a length only when the failing line (``line_text``, when known) has one
    (`Q @ K.T` on batched input was told "a mask or a length may need an axis of size 1":
    blind set 4)."""
    if _EMPTY.search(msg) and masks:
        return say("situation.empty_reduction")
    line = line_text or ""
    if _DTYPE_MIX.search(msg):
        return say("situation.dtype_mix")
    if msg.startswith("view size is not compatible"):
        return say("situation.view_contiguous")
    cond = _IF_TENSOR.match(line)
    if msg.startswith("Boolean value of Tensor") and cond:
        return say("situation.if_tensor", cond=f"if {cond.group(1)}:", name=cond.group(2))
    indexed = _SUBSCRIPT.search(line)
    if _INDEX_AXIS0.search(msg) and indexed:
        return say("situation.index_axis0", x=indexed.group(1), i=indexed.group(2))
    dot_t = say("situation.dot_t") if _DOT_T.search(line) else NOTHING
    found = _MATMUL.search(msg)
    if found:
        g = found.groups()
        left, right = (int(g[1]), int(g[2])) if g[0] is not None else (int(g[4]), int(g[5]))
        if g[0] is not None and g[3] != "…" and int(g[3]) == left and \
                {left, right, int(g[3])} <= sizes:  # (., left) @ (right, left): the transpose fits
            # with .T on the line the operand was transposed once too often (blind set 6:
            # W1 given as (d_model, d_ff), used as an nn.Linear weight)
            key = "situation.matmul_extra_t" if dot_t["en"] else "situation.matmul_transposed"
            return say(key, left=left, rows=right, cols=left)
        if {left, right} <= sizes:
            return _joined(say("situation.matmul", left=left, right=right), dot_t)
    found = _BROADCAST.search(msg)
    if found:
        a, b, dim = (int(g) for g in found.groups())
        if {a, b} <= sizes:
            on_line = line_text is None or bool(_MASK_WORD.search(line_text))
            hint = say("situation.broadcast_mask") if masks and on_line else NOTHING
            if dot_t["en"]:  # the public examples may be 2-D, where `.T` is right: the line says it
                return _joined(say("situation.broadcast_dot_t", dim=dim, a=a, b=b), dot_t)
            return say("situation.broadcast", dim=dim, a=a, b=b, hint=hint)
    return None


def _joined(first: dict[str, str], then: dict[str, str]) -> dict[str, str]:
    return {lang: first[lang] + then.get(lang, "") for lang in first}


# Exception types a hidden test names (any other builtin type could be raised by name to pick
# one of ~100: a red team read 6.75 bits a case that way); any other reads "an exception".
HIDDEN_TYPES = frozenset({"RuntimeError", "ValueError", "TypeError", "IndexError", "KeyError",
                          "AttributeError", "NameError", "ZeroDivisionError", "AssertionError",
                          "NotImplementedError", "OverflowError", "RecursionError",
                          "UnboundLocalError", "StopIteration"})


def _own_raise_line(err: ErrorInfo, source: str) -> int | None:
    """The learner's line the exception came from (the innermost frame the source accounts
    for), when that line is inside a ``raise`` or ``assert`` they wrote, or an exec/eval/compile
    call: its text is then wholly theirs (grader/learner_error.raise_lines reads statements, so
    `if x: raise ValueError(...)` counts too)."""
    found = frames(err.traceback, source)
    if not found:
        return None
    line = found[-1][0]
    return line if line in raise_lines(source) else None


def _quoted(shown: str) -> dict[str, str]:
    return say("error.quoted", shown=shown) if shown else NOTHING


def error_text(err: ErrorInfo, fn_label: str, sizes: frozenset[int] = frozenset(),
               source: str = "", masks: bool = False) -> dict[str, str]:
    """What the learner's code raised on a hidden test, as it happened: the exception's type,
    the learner's line, the message Python or torch raised when it is one of the known messages
    (grader/feedback/learner_error.py: its slots shown only where they cannot carry hidden data), then
    what it means in this case when that is known. A ``raise``/``assert`` of their own is told
    by its line.
    ``sizes``: the sizes of the case's own inputs; ``masks``: its inputs hide keys."""
    kind = err.type if err.type in HIDDEN_TYPES else ""
    kind_said = kind or say("error.an_exception")
    own_line = _own_raise_line(err, source)
    if own_line is not None:  # a raise or assert the learner wrote, on inputs the statement allows:
        # its line is told, not its text (code can spell hidden inputs into it, and the learner
        # reads the text at that line anyway)
        if kind == "NotImplementedError":
            return say("error.own_not_implemented", fn=fn_label, line=own_line)
        return say("error.own_raise", fn=fn_label, kind=kind_said, line=own_line)
    shown = shown_message(err.message, sizes)  # the known message with its safe slots, or None
    quoted = _quoted(shown) if shown is not None else say("error.not_shown")
    line = learner_line(err.traceback, source) if source else None
    where = say("error.at_line", line=line) if line else NOTHING
    head = say("error.hidden_raised", fn=fn_label, kind=kind_said, where=where, shown=quoted)
    # What it means here is read from the shown text only: the raw one is the code's to compose
    # (a red team printed a 2,960-bit "dimension" through it).
    line_text = _line_text(source, line) if line else None
    what = _situation(shown, sizes, masks, line_text) if kind and shown is not None else None
    if what is not None:
        return say("error.hidden_situation", head=head, what=what)
    return say("error.hidden_plain", head=head)


def timed_out(raw: RawResult) -> bool:
    """The wall clock stopped it, or the CPU limit did (SIGXCPU): one cause, whichever fired."""
    return raw.status == "timeout" or raw.signal == _signal.SIGXCPU


def crash_message(raw: RawResult, limits: JobLimits, quiet: bool = False) -> dict[str, str]:
    """Why a run ended without a result for every case, in the grader's words. ``quiet``: the
    exit code and signal were chosen while hidden inputs existed, so their numbers are not told."""
    if raw.malformed:
        return say("crash.malformed")
    if timed_out(raw):
        return say("crash.timeout", wall=limits.wall_s, cpu=limits.cpu_s)
    if raw.status == "output_limit":
        return say("crash.output_limit", mib=limits.output_hard_bytes // 2**20)
    if raw.status == "result_limit":
        return say("crash.result_limit")
    if raw.signal is not None and quiet:
        return say("crash.signal_quiet")
    if raw.signal is not None:
        name = _signal.Signals(raw.signal).name if raw.signal in iter(_signal.Signals) else raw.signal
        if raw.signal == _signal.SIGXFSZ:
            return say("crash.file_size")
        return say("crash.signal", name=name)
    if raw.exit_code is not None and quiet:
        return say("crash.exit_quiet")
    if raw.exit_code is not None:
        return say("crash.exit", code=raw.exit_code)
    return say("crash.stopped")


# Errors the grader explains in its own words (the learner's text matters little for them).
OWN_WORDS = ("MemoryError", "SystemExit", "PermissionError", "BlockingIOError", "ModuleNotFoundError",
              "ImportError")


def error_message(err: ErrorInfo, memory_mib: int) -> dict[str, str]:
    """What an exception raised by the learner's code means (its text only where it may show)."""
    kind = err.type
    if kind == "MemoryError":
        return say("error.memory", mib=memory_mib)
    if kind in ("ModuleNotFoundError", "ImportError"):
        what = err.message[:200]
        return say("error.module", detail=say("error.module_detail", what=what) if what else NOTHING)
    if kind == "SystemExit":
        return say("error.sys_exit")
    if kind == "BlockingIOError" or (kind in ("PermissionError",) or
                                     "Operation not permitted" in err.message):
        return say("error.not_allowed")
    return say("error.raised", kind=kind, message=err.message[:300])


NOTE = "[output printed during the hidden tests is not shown; run the public examples to see it]"


def hidden_output(raw: RawResult) -> str:
    """What the learner may see of what their code printed in a hidden run: only what it
    printed while loading, before any hidden input reached the child (the pool sends the
    cases after 'loaded'), plus a note when the tests printed more."""
    shown = raw.load_output
    if len(raw.output) <= len(shown):
        return shown
    return (shown + "\n" if shown and not shown.endswith("\n") else shown) + NOTE
