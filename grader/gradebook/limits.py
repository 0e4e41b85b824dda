"""Input limits: turn what a learner sent into clean text, or refuse it with a bilingual message."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from grader.gradebook.model import surrogate_safe
from grader.submission import (
    DEFAULT_LIMITS,
    InputLimits,
    NotebookRefused,
    looks_like_notebook,
    notebook_to_source,
)

ANONYMOUS = "anonymous"

# Punctuation a display name may contain besides letters, marks, digits and single spaces.
_NAME_PUNCTUATION = set("._-'@()")




class SubmissionRejected(ValueError):
    """Bad input, refused before grading and before anything is stored.

    ``message`` holds the same sentence in English (``en``) and Simplified Chinese (``zh``);
    ``str(error)`` gives both, one per line. ``reason`` is a short machine-readable code.
    """

    def __init__(self, reason: str, en: str, zh: str) -> None:
        super().__init__(f"{en}\n{zh}")
        self.reason = reason
        self.message = {"en": en, "zh": zh}


@dataclass(frozen=True)
class CleanSubmission:
    """A submission that passed every input check: safe to grade and to store."""

    exercise_id: str
    code: str
    learner: str


def _kb(n: int) -> str:
    return f"{n / 1000:.0f} kB" if n < 1_000_000 else f"{n / 1_000_000:.1f} MB"


def _too_large(size: int, cap: int) -> None:
    raise SubmissionRejected(
        "too_large",
        f"The code is {_kb(size)}; the limit is {_kb(cap)}. "
        "A solution to these exercises fits in a few kB.",
        f"代码大小为 {_kb(size)}，上限为 {_kb(cap)}。这些练习的答案只需几 kB。")


def _decode(data: bytes, limits: InputLimits) -> str:
    """UTF-8 text from an upload, or a clear refusal for anything that is not text."""
    if len(data) > limits.max_upload_bytes:
        raise SubmissionRejected(
            "too_large",
            f"The file is {_kb(len(data))}; the limit is {_kb(limits.max_upload_bytes)}.",
            f"文件大小为 {_kb(len(data))}，上限为 {_kb(limits.max_upload_bytes)}。")
    if b"\x00" in data:
        raise SubmissionRejected(
            "binary",
            "This file is binary, not Python source. Upload a .py file or a .ipynb notebook.",
            "这是一个二进制文件，不是 Python 源代码。请上传 .py 文件或 .ipynb 笔记本。")
    try:
        return data.decode("utf-8-sig")  # -sig: Windows editors like to prepend a BOM
    except UnicodeDecodeError:
        raise SubmissionRejected(
            "binary",
            "This file is not UTF-8 text. Save your code as UTF-8 and upload it again.",
            "该文件不是 UTF-8 文本。请将代码保存为 UTF-8 编码后重新上传。") from None


def _notebook_code(text: str) -> str:
    """The code cells of a notebook, by the grader's own rules (magics and `!` lines dropped).
    Its cheap bounds (cells, JSON containers, counted on the raw text) come before any parsing,
    and it is read without nbformat's validation (grader/submission.py)."""
    try:
        return notebook_to_source(text)
    except NotebookRefused as exc:
        raise SubmissionRejected(exc.reason, exc.message["en"], exc.message["zh"]) from None


def clean_code(code: str | bytes, filename: str | None = None,
               limits: InputLimits = DEFAULT_LIMITS) -> str:
    """Python source ready to grade, from pasted text or an uploaded .py / .ipynb file's bytes.

    Newlines are normalised to ``\\n`` and the text always ends with one: that also keeps a
    one-line submission from being mistaken for a file path by the grader.
    """
    if isinstance(code, (bytes, bytearray, memoryview)):
        text = _decode(bytes(code), limits)
    elif isinstance(code, str):
        text = code
    elif code is None:
        text = ""
    else:
        raise TypeError(f"code must be text or bytes, not {type(code).__name__}")
    if len(text) > limits.max_upload_bytes:  # refuse megabytes before scanning them
        _too_large(len(text.encode("utf-8")), limits.max_code_bytes)
    if "\x00" in text:
        raise SubmissionRejected(
            "binary",
            "The code contains a NUL character, so it is not Python source.",
            "代码中包含 NUL 字符，因此不是 Python 源代码。")
    if looks_like_notebook(text, filename):
        text = _notebook_code(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # A lone surrogate (JSON "\\ud800" through the API) cannot be encoded, compiled or stored:
    # its backslash escape means the same inside a string literal and is valid UTF-8.
    text = surrogate_safe(text)
    if not text.strip():
        raise SubmissionRejected(
            "empty",
            "There is no code to grade. Write your solution in the editor first.",
            "没有可评分的代码。请先在编辑器中写下你的答案。")
    size = len(text.encode("utf-8"))
    if size > limits.max_code_bytes:
        _too_large(size, limits.max_code_bytes)
    return text if text.endswith("\n") else text + "\n"


def clean_learner(name: str | None, limits: InputLimits = DEFAULT_LIMITS) -> str:
    """A learner name safe to store, show and export: normalised, or refused with a reason.

    Unicode is NFKC-normalised (full-width letters become ASCII), surrounding spaces are
    dropped and inner runs of spaces become one. No name at all means ``"anonymous"``.
    Letters of any script, digits, spaces and ``. _ - ' @ ( )`` are allowed; the name must
    start with a letter or digit, which also keeps spreadsheet formulas (``=cmd|...``) out of
    the CSV export.
    """
    if name is None:
        return ANONYMOUS
    if not isinstance(name, str):
        raise TypeError(f"a learner name must be text, not {type(name).__name__}")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        return ANONYMOUS
    if len(text) > limits.max_learner_chars:
        raise SubmissionRejected(
            "bad_name",
            f"The name is {len(text)} characters long; use at most {limits.max_learner_chars}.",
            f"名字长度为 {len(text)} 个字符，最多允许 {limits.max_learner_chars} 个。")
    for ch in text:
        cat = unicodedata.category(ch)
        if cat[0] in "LMN" or ch == " " or ch in _NAME_PUNCTUATION:
            continue
        shown = repr(ch) if cat[0] in "CZ" else f"'{ch}' (U+{ord(ch):04X})"
        raise SubmissionRejected(
            "bad_name",
            f"The name contains {shown}, which is not allowed. Use letters, digits, spaces "
            "and . _ - ' @ ( ) only.",
            f"名字中包含不允许的字符 {shown}。只能使用字母、数字、空格以及 . _ - ' @ ( )。")
    if unicodedata.category(text[0])[0] not in "LN":
        raise SubmissionRejected(
            "bad_name",
            "The name must start with a letter or a digit.",
            "名字必须以字母或数字开头。")
    return text


def check_exercise(exercise_id: str | None, exercise_ids: Iterable[str]) -> str:
    """The exercise id itself if it is one of ``exercise_ids``, else a refusal listing them."""
    known = sorted(exercise_ids)
    if isinstance(exercise_id, str) and exercise_id.strip() in known:
        return exercise_id.strip()
    listed = ", ".join(known) or "(none)"
    shown = repr(exercise_id)[:80]
    raise SubmissionRejected(
        "unknown_exercise",
        f"There is no exercise {shown}. Known exercises: {listed}.",
        f"不存在练习 {shown}。现有练习：{listed}。")


def validate_submission(code: str | bytes, exercise_ids: Iterable[str], exercise_id: str,
                        learner: str | None = None, *, filename: str | None = None,
                        limits: InputLimits = DEFAULT_LIMITS) -> CleanSubmission:
    """Every input check at once; raises :class:`SubmissionRejected` on the first failure.

    Checks run cheapest first and nothing is stored here, so a refusal leaves no trace.
    """
    ex = check_exercise(exercise_id, exercise_ids)
    who = clean_learner(learner, limits)
    text = clean_code(code, filename=filename, limits=limits)
    return CleanSubmission(exercise_id=ex, code=text, learner=who)
