"""What feedback on a hidden case may say: no expected values, no inputs, no learner-chosen text.

Everything a submission controls (exception messages, type names, numbers it returns) is a
channel out of the sandbox. On hidden cases the grader therefore says *what* is wrong in its
own words and echoes learner-controlled values only through a small, fixed vocabulary.
"""

from __future__ import annotations

import builtins
import re

# Exception and value type names a message may repeat; any other name is the learner's own
# (it could spell out hidden data) and is replaced by a neutral word.
_KNOWN_TYPES = {name for name, obj in vars(builtins).items() if isinstance(obj, type)} | {
    "ndarray", "Tensor", "Parameter", "Module", "Linear", "NoneType", "generator", "function",
    "OutOfMemoryError", "LinAlgError", "AxisError", "DeferredCudaCallError",
}
_FLOAT = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\d+[eE][-+]?\d+")
_LONG_INT = re.compile(r"\d{4,}")
_RUN = re.compile(r"(?:[-+]?\w+\s*[,;]\s*){6,}[-+]?\w+")  # long lists of anything
MESSAGE_CHARS = 160


def safe_type(name: str | None, fallback: str = "an object of your own type") -> str:
    """``name`` when it is a builtin/numpy/torch type name, else a neutral phrase."""
    return name if name in _KNOWN_TYPES else fallback


def redact(text: str, limit: int = MESSAGE_CHARS) -> str:
    """A library error message with data-looking parts removed (floats, long numbers, lists)."""
    text = _RUN.sub("…", _LONG_INT.sub("…", _FLOAT.sub("…", text)))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def traceback_lines(tb: str) -> str:
    """Only the 'File "submission.py", line N, in f' lines of the learner's traceback.

    Source lines are dropped too: the sandbox may rewrite submission.py on disk, and the
    traceback would then print whatever it wrote.
    """
    keep = [line.strip() for line in tb.splitlines() if line.strip().startswith('File "submission.py"')]
    return "\n".join(re.sub(r"[^\w\s\".,<>()]", "", line)[:120] for line in keep[-8:])


def error_text(err: dict, fn_label: str) -> dict[str, str]:
    """A hidden-safe bilingual message for an exception the learner's code raised."""
    kind = safe_type(err.get("type"), fallback="")
    msg = err.get("message", "")
    if not kind:
        return {"en": f"`{fn_label}` raised an exception of your own class (its text is shown "
                      "in the public examples only).",
                "zh": f"`{fn_label}` 抛出了你自定义类型的异常（其内容只在公开示例中显示）。"}
    shown = redact(msg)
    if not shown or _looks_made_up(msg):
        return {"en": f"`{fn_label}` raised {kind} on a hidden test (run the public examples to "
                      "see messages your own code writes).",
                "zh": f"`{fn_label}` 在隐藏测试中抛出了 {kind}（你的代码自己写出的消息只在公开示例中显示）。"}
    return {"en": f"`{fn_label}` raised {kind}: {shown}", "zh": f"`{fn_label}` 抛出了 {kind}：{shown}"}


_LIBRARY_WORDS = re.compile(
    r"(shape|size|dimension|dim |dims|mat1|mat2|tensor|index|expected|must|cannot|can't|"
    r"not |invalid|argument|inplace|gradient|dtype|broadcast|object|attribute|divis|"
    r"unsupported|operand|memory|match|implemented|callable|subscript|iterable|range|"
    r"positional|keyword|defined|module|float|int|bool|none|type|the )", re.I)


def _looks_made_up(msg: str) -> bool:
    """A message that is mostly not the vocabulary of library errors (encoded data, say)."""
    words = re.findall(r"[A-Za-z]{2,}", msg)
    if not words:
        return True
    hits = len(_LIBRARY_WORDS.findall(msg))
    return hits * 4 < len(words)
