"""Input checks: turn what a learner sent into clean text, or refuse it with a bilingual message."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from gradebook.model import surrogate_safe
from grader.submission import (
    DEFAULT_LIMITS,
    InputLimits,
    looks_like_notebook,
    notebook_to_source,
)
from grader.words import say
from transformer_lab.message import Refused

ANONYMOUS = "anonymous"

# Punctuation a display name may contain besides letters, marks, digits and single spaces.
_NAME_PUNCTUATION = set("._-'@()")




@dataclass(frozen=True)
class CleanSubmission:
    """A submission that passed every input check: safe to grade and to store."""

    exercise_id: str
    code: str
    learner: str


def _kb(n: int) -> str:
    return f"{n / 1000:.0f} kB" if n < 1_000_000 else f"{n / 1_000_000:.1f} MB"


def _too_large(size: int, cap: int) -> None:
    raise Refused("too_large", **say("input.code_too_large", size=_kb(size), cap=_kb(cap)))


def _decode(data: bytes, limits: InputLimits) -> str:
    """UTF-8 text from an upload, or a clear refusal for anything that is not text."""
    if len(data) > limits.max_upload_bytes:
        raise Refused("too_large", **say("input.file_too_large", size=_kb(len(data)),
                                                    cap=_kb(limits.max_upload_bytes)))
    if b"\x00" in data:
        raise Refused("binary", **say("input.binary"))
    try:
        return data.decode("utf-8-sig")  # -sig: Windows editors like to prepend a BOM
    except UnicodeDecodeError:
        raise Refused("binary", **say("input.not_utf8")) from None


def _notebook_code(text: str) -> str:
    """The code cells of a notebook, by the grader's own rules (magics and `!` lines dropped).
    Its cheap bounds (cells, JSON containers, counted on the raw text) come before any parsing,
    and it is read without nbformat's validation (grader/submission.py)."""
    try:
        return notebook_to_source(text)
    except Refused as exc:  # the grader's notebook refusal, as every other input check's
        raise Refused(exc.refusal) from None


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
        raise Refused("binary", **say("input.nul"))
    if looks_like_notebook(text, filename):
        text = _notebook_code(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    # A lone surrogate (JSON "\\ud800" through the API) cannot be encoded, compiled or stored:
    # its backslash escape means the same inside a string literal and is valid UTF-8.
    text = surrogate_safe(text)
    if not text.strip():
        raise Refused("empty", **say("input.empty"))
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
        raise Refused("bad_name", **say("name.too_long", length=len(text),
                                                   limit=limits.max_learner_chars))
    for ch in text:
        cat = unicodedata.category(ch)
        if cat[0] in "LMN" or ch == " " or ch in _NAME_PUNCTUATION:
            continue
        shown = repr(ch) if cat[0] in "CZ" else f"'{ch}' (U+{ord(ch):04X})"
        raise Refused("bad_name", **say("name.bad_char", shown=shown))
    if unicodedata.category(text[0])[0] not in "LN":
        raise Refused("bad_name", **say("name.bad_start"))
    return text


def check_exercise(exercise_id: str | None, exercise_ids: Iterable[str]) -> str:
    """The exercise id itself if it is one of ``exercise_ids``, else a refusal listing them."""
    known = sorted(exercise_ids)
    if isinstance(exercise_id, str) and exercise_id.strip() in known:
        return exercise_id.strip()
    listed = ", ".join(known) or "(none)"
    shown = repr(exercise_id)[:80]
    raise Refused("unknown_exercise", **say("input.unknown_exercise", shown=shown,
                                                       listed=listed))


def validate_submission(code: str | bytes, exercise_ids: Iterable[str], exercise_id: str,
                        learner: str | None = None, *, filename: str | None = None,
                        limits: InputLimits = DEFAULT_LIMITS) -> CleanSubmission:
    """Every input check at once; raises :class:`Refused` on the first failure.

    Checks run cheapest first and nothing is stored here, so a refusal leaves no trace.
    """
    ex = check_exercise(exercise_id, exercise_ids)
    who = clean_learner(learner, limits)
    text = clean_code(code, filename=filename, limits=limits)
    return CleanSubmission(exercise_id=ex, code=text, learner=who)
