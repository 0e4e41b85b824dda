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

from grader.learner_error import frames, learner_line, raise_lines, shown_message
from grader.report import bilingual as _m
from transformer_lab.message import Message

if TYPE_CHECKING:
    from grader.model import ErrorInfo, RawResult
    from grader.spec import Limits


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
    line, name = found[-1]
    return f'File "submission.py", line {line}, in {name}'[:120]


_EMPTY = re.compile(r"numel\(\) == 0|zero-size array|with no elements|empty (sequence|tensor)", re.I)
# Read from the shown message, where a slot that may not be shown is "…" (the inner sizes,
# which these need, are shown when they are sizes of the case's inputs).
_MATMUL = re.compile(r"mat1 and mat2 shapes cannot be multiplied \((\d+|…)x(\d+) and (\d+)x(\d+|…)\)"
                     r"|Expected size for first two dimensions of batch2 tensor to be: \[(?:\d+|…), "
                     r"(\d+)\] but got: \[(?:\d+|…), (\d+)\]", re.ASCII)
_BROADCAST = re.compile(r"size of tensor a \((\d+)\) must match the size of tensor b \((\d+)\) "
                        r"at non-singleton dimension (\d+)", re.ASCII)


def _situation(msg: str, sizes: frozenset[int], masks: bool = False) -> Message | None:
    """What an exception means in this case's situation, for the common ones: a reduction over
    an empty row, a matrix product or two shapes that do not fit (told with their sizes only
    when both are sizes of this case's own inputs, so no learner-chosen number shows).
    ``masks``: the case's inputs hide keys (a mask or valid lengths); only then may the words
    speak of a mask, a length or a query that sees no key."""
    if _EMPTY.search(msg) and masks:
        return Message(
            "a reduction such as `.max()` over an empty tensor: in this test a row has nothing to "
            "reduce (for example the visible keys of a query whose valid length is 0, which sees "
            "no key); handle that row without reducing over nothing",
            "对空张量做了 `.max()` 之类的归约：本测试中有一行没有任何元素可归约（例如有效长度为 0 的查询，"
            "它看不到任何键）；请在不对空行归约的前提下处理这一行")
    found = _MATMUL.search(msg)
    if found:
        g = found.groups()
        left, right = (int(g[1]), int(g[2])) if g[0] is not None else (int(g[4]), int(g[5]))
        if {left, right} <= sizes:
            return Message(
                f"a matrix product (`@`, matmul) whose inner sizes differ: the left operand's last "
                f"axis has size {left}, the right operand's second-to-last {right}; they must be equal "
                "(print the shapes of both operands on the public examples)",
                f"矩阵乘法（`@`、matmul）的内侧大小不一致：左操作数最后一维大小为 {left}，右操作数倒数第二维为 "
                f"{right}；两者必须相等（可在公开示例中打印两个操作数的形状）")
    found = _BROADCAST.search(msg)
    if found:
        a, b, dim = (int(g) for g in found.groups())
        if {a, b} <= sizes:
            hint = Message(
                "; a mask or a length may need an axis of size 1 where it should repeat",
                "；掩码或长度可能需要在应重复的位置加一个大小为 1 的维") if masks else Message("", "")
            return Message(
                f"two shapes that do not broadcast: at dimension {dim} one operand has size {a} and "
                f"the other {b} (print the shapes on the public examples{hint.en})",
                f"两个形状无法广播：在第 {dim} 维上一个操作数大小为 {a}，另一个为 {b}（可在公开示例中打印形状"
                f"{hint.zh}）")
    return None


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


def _quoted(shown: str) -> tuple[str, str]:
    return (f': "{shown}"', f"：“{shown}”") if shown else ("", "")


def error_text(err: ErrorInfo, fn_label: str, sizes: frozenset[int] = frozenset(),
               source: str = "", masks: bool = False) -> dict[str, str]:
    """What the learner's code raised on a hidden test, as it happened: the exception's type,
    the learner's line, the message Python or torch raised when it is one of the known messages
    (grader/learner_error.py: its slots shown only where they cannot carry hidden data), then
    what it means in this case when that is known. A ``raise``/``assert`` of their own is told
    by its line.
    ``sizes``: the sizes of the case's own inputs; ``masks``: its inputs hide keys."""
    kind = err.type if err.type in HIDDEN_TYPES else ""
    kind_en = kind or "an exception"
    kind_zh = kind or "一个异常"
    own_line = _own_raise_line(err, source)
    if own_line is not None:  # a raise or assert the learner wrote, on inputs the statement allows:
        # its line is told, not its text (code can spell hidden inputs into it, and the learner
        # reads the text at that line anyway)
        if kind == "NotImplementedError":
            return _m(f"`{fn_label}` raised NotImplementedError at line {own_line} of your code: "
                      "that part is not written yet.",
                      f"`{fn_label}` 在你代码的第 {own_line} 行抛出了 NotImplementedError：这一部分还没有写。")
        return _m(f"`{fn_label}` raised {kind_en} at line {own_line} of your code, on a hidden test "
                  "whose inputs the statement allows (the test's name says what they are): look at "
                  f"the condition that leads to line {own_line}.",
                  f"`{fn_label}` 在一个输入符合题目规定的隐藏测试中，于你代码的第 {own_line} 行抛出了 "
                  f"{kind_zh}（测试名说明了输入是什么）：请检查通向第 {own_line} 行的条件。")
    shown = shown_message(err.message, sizes)  # the known message with its safe slots, or None
    shown_en, shown_zh = _quoted(shown) if shown is not None else (
        " (its message is shown in the public examples only)", "（异常信息只在公开示例中显示）")
    line = learner_line(err.traceback, source) if source else None
    where_en = f" at line {line} of your code" if line else ""
    where_zh = f"于你代码的第 {line} 行" if line else ""
    en = f"`{fn_label}` raised {kind_en}{where_en} on a hidden test{shown_en}"
    zh = f"`{fn_label}` 在隐藏测试中{where_zh}抛出了 {kind_zh}{shown_zh}"
    # What it means here is read from the shown text only: the raw one is the code's to compose
    # (a red team printed a 2,960-bit "dimension" through it).
    what = _situation(shown, sizes, masks) if kind and shown is not None else None
    if what is not None:
        return _m(f"{en}. Here: {what.en}.", f"{zh}。也就是说：{what.zh}。")
    return _m(f"{en}.", f"{zh}。")


def timed_out(raw: RawResult) -> bool:
    """The wall clock stopped it, or the CPU limit did (SIGXCPU): one cause, whichever fired."""
    return raw.status == "timeout" or raw.signal == _signal.SIGXCPU


def crash_message(raw: RawResult, limits: Limits, quiet: bool = False) -> dict[str, str]:
    """Why a run ended without a result for every case, in the grader's words. ``quiet``: the
    exit code and signal were chosen while hidden inputs existed, so their numbers are not told."""
    if raw.malformed:
        return _m("Your code wrote into the grader's private result channel (malformed output); the "
                  "run cannot be trusted and scores 0.",
                  "你的代码向评分器的内部结果通道写入了数据（输出格式不合法）；本次运行不可信，记 0 分。")
    if timed_out(raw):
        return _m(f"Time limit reached ({limits.wall_s:g} s wall clock, {limits.cpu_s} s CPU): look "
                  "for an infinite loop or very slow code.",
                  f"超出时间限制（{limits.wall_s:g} 秒墙钟时间，{limits.cpu_s} 秒 CPU）：请检查死循环或过慢的代码。")
    if raw.status == "output_limit":
        return _m(f"Your code printed too much (more than {limits.output_hard_bytes // 2**20} MiB); "
                  "it was stopped.", f"你的代码输出过多（超过 {limits.output_hard_bytes // 2**20} MiB），已被终止。")
    if raw.status == "result_limit":
        return _m("Your code returned values far larger than the tests need; it was stopped.",
                  "你的代码返回的数据远大于测试所需，已被终止。")
    if raw.signal is not None and quiet:
        return _m("Your code crashed the Python process (it was killed by a signal) during the hidden "
                  "tests; no result could be collected.",
                  "你的代码在隐藏测试中使 Python 进程崩溃（被信号终止）；无法收集结果。")
    if raw.signal is not None:
        name = _signal.Signals(raw.signal).name if raw.signal in iter(_signal.Signals) else raw.signal
        if raw.signal == _signal.SIGXFSZ:
            return _m("Your code wrote a file larger than allowed.", "你的代码写入的文件超出了允许的大小。")
        return _m(f"Your code crashed the Python process (signal {name}), e.g. through ctypes or "
                  "native code; no result could be collected.",
                  f"你的代码使 Python 进程崩溃（信号 {name}），例如通过 ctypes 或原生代码；无法收集结果。")
    if raw.exit_code is not None and quiet:
        return _m("Your code ended the process early during the hidden tests (e.g. os._exit or "
                  "sys.exit) before all tests ran.",
                  "你的代码在隐藏测试中提前结束了进程（例如 os._exit 或 sys.exit），测试未全部运行。")
    if raw.exit_code is not None:
        return _m(f"Your code ended the process early (exit code {raw.exit_code}, e.g. os._exit or "
                  "sys.exit) before all tests ran.",
                  f"你的代码提前结束了进程（退出码 {raw.exit_code}，例如 os._exit 或 sys.exit），测试未全部运行。")
    return _m("The test run stopped unexpectedly.", "测试运行意外停止。")


# Errors the grader explains in its own words (the learner's text matters little for them).
OWN_WORDS = ("MemoryError", "SystemExit", "PermissionError", "BlockingIOError", "ModuleNotFoundError",
              "ImportError")


def error_message(err: ErrorInfo, memory_mib: int) -> dict[str, str]:
    """What an exception raised by the learner's code means (its text only where it may show)."""
    kind = err.type
    if kind == "MemoryError":
        return _m(f"Your code ran out of memory (limit about {memory_mib} MiB above the worker).",
                  f"你的代码内存不足（限制约为 {memory_mib} MiB）。")
    if kind in ("ModuleNotFoundError", "ImportError"):
        what = err.message[:200]
        return _m(f"This module is not available in the grader{': ' + what if what else ''}. "
                  "Use torch, numpy, math and the common standard library.",
                  f"评分器中没有这个模块{'：' + what if what else ''}。请使用 torch、numpy、math 和常用标准库。")
    if kind == "SystemExit":
        return _m("Your code called sys.exit(); the tests need it to return normally.",
                  "你的代码调用了 sys.exit()；测试需要它正常返回。")
    if kind == "BlockingIOError" or (kind in ("PermissionError",) or
                                     "Operation not permitted" in err.message):
        return _m("Your code tried something the grader does not allow (network, new processes, "
                  "signals, or files outside its own folder).",
                  "你的代码尝试了评分器不允许的操作（网络、新进程、信号或访问自身目录以外的文件）。")
    return _m(f"Your code raised {kind}: {err.message[:300]}",
              f"你的代码抛出了 {kind}：{err.message[:300]}")


NOTE = "[output printed during the hidden tests is not shown; run the public examples to see it]"


def hidden_output(raw: RawResult) -> str:
    """What the learner may see of what their code printed in a hidden run: only what it
    printed while loading, before any hidden input reached the child (the pool sends the
    cases after 'loaded'), plus a note when the tests printed more."""
    shown = raw.load_output
    if len(raw.output) <= len(shown):
        return shown
    return (shown + "\n" if shown and not shown.endswith("\n") else shown) + NOTE
