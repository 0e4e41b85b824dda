"""What feedback on a hidden case may say: no expected values, no inputs, no learner-chosen text.

Everything a submission controls (exception messages, type names, numbers it returns) is a
channel out of the sandbox. On hidden cases the grader therefore says *what* is wrong in its
own words and echoes learner-controlled values only through a small, fixed vocabulary.
"""

from __future__ import annotations

import builtins
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from grader.model import ErrorInfo

# Exception and value type names a message may repeat; any other name is the learner's own
# (it could spell out hidden data) and is replaced by a neutral word.
_KNOWN_TYPES = {name for name, obj in vars(builtins).items() if isinstance(obj, type)} | {
    "ndarray", "Tensor", "Parameter", "Module", "Linear", "NoneType", "generator", "function",
    "OutOfMemoryError", "LinAlgError", "AxisError", "DeferredCudaCallError",
}
def safe_type(name: str | None, fallback: str = "an object of your own type") -> str:
    """``name`` when it is a builtin/numpy/torch type name, else a neutral phrase."""
    return name if name in _KNOWN_TYPES else fallback


def traceback_lines(tb: str) -> str:
    """Only the 'File "submission.py", line N, in f' lines of the learner's traceback.

    Source lines are dropped too: the sandbox may rewrite submission.py on disk, and the
    traceback would then print whatever it wrote.
    """
    keep = [line.strip() for line in tb.splitlines() if line.strip().startswith('File "submission.py"')]
    return "\n".join(re.sub(r"[^\w\s\".,<>()]", "", line)[:120] for line in keep[-8:])


# What a library error is about, in the grader's words. On hidden cases the learner's own
# exception text is never echoed (it could spell out hidden inputs); its category is.
_CATEGORIES = [
    (r"the contract (names|says)|should be a tensor parameter", "a parameter the contract names is "
     "missing, not a tensor, or of another shape (see the names and sizes in the statement)",
     "约定中的某个参数缺失、不是张量或形状不同（名称和尺寸见题目说明）"),
    (r"inplace|in-place", "an in-place operation overwrote a tensor autograd needs",
     "原地操作覆盖了 autograd 需要的张量"),
    (r"mat1 and mat2|must match the size|size mismatch|is invalid for input of size|cannot be "
     r"multiplied|expected size|size of tensor|dimension|broadcast|shape", "a shape mismatch "
     "(print the shapes along the way on the public examples)", "形状不匹配（可在公开示例中逐步打印形状）"),
    (r"dtype|scalar type|double|float|same type", "a dtype mismatch between tensors",
     "张量之间的 dtype 不一致"),
    (r"out of (bounds|range)", "an index out of range", "下标越界"),
    (r"is not defined", "a name that is not defined", "使用了未定义的名字"),
    (r"has no attribute", "an attribute that does not exist", "访问了不存在的属性"),
    (r"not callable|not subscriptable|not iterable|unsupported operand|must be|argument",
     "a value of the wrong type or an argument the call does not take", "值的类型不对，或传入了不接受的参数"),
]


def error_text(err: ErrorInfo, fn_label: str) -> dict[str, str]:
    """A hidden-safe bilingual message for an exception the learner's code raised: its type
    (when it is a builtin or library one) and what kind of error it is, never its text."""
    kind = safe_type(err.type, fallback="")
    if not kind:
        return {"en": f"`{fn_label}` raised an exception of your own class on a hidden test "
                      "(its text is shown in the public examples only).",
                "zh": f"`{fn_label}` 在隐藏测试中抛出了你自定义类型的异常（其内容只在公开示例中显示）。"}
    msg = err.message
    for pattern, en, zh in _CATEGORIES:
        if re.search(pattern, msg, re.I):
            return {"en": f"`{fn_label}` raised {kind} on a hidden test: {en}.",
                    "zh": f"`{fn_label}` 在隐藏测试中抛出了 {kind}：{zh}。"}
    return {"en": f"`{fn_label}` raised {kind} on a hidden test (the message is shown in the "
                  "public examples only).",
            "zh": f"`{fn_label}` 在隐藏测试中抛出了 {kind}（异常信息只在公开示例中显示）。"}


