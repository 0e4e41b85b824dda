"""The learner's own exception on a hidden test, shown as raised, in words that cannot carry
hidden data.

When learner code raises, its exception is theirs to read: torch's "view size is not compatible
with input tensor's size and stride … Use .reshape(...) instead" says more than any paraphrase.
But on a hidden test the message is built while hidden inputs exist, and code can put them in
it (``raise ValueError(str(x))``, ``t[int(x.sum() * 1e4)]``, ``getattr(t, name_from(x))``).
So every token of the message is kept only when it could not have come from hidden values:

- a word: one of the words Python, numpy and torch use in their messages
  (grader/error_words.txt) or a word written in the learner's own source;
- a number: a size of this case's own inputs (the test's name states them) or a small integer
  (n <= 16: axes, ranks, counts of dimensions); no other number, not even one written in the
  source (code can pick which of its own numbers to raise);
- a run of other letters (Chinese): one written in the source;
- ASCII punctuation.

Anything else becomes "…". Control, zero-width and bidi characters are dropped and the text is
bounded. What remains is a fixed vocabulary, so a hidden run leaks at most a few bits per case
by which words it picks; the app draws fresh hidden inputs for every submission anyway.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

MAX_CHARS = 300
SMALL = 16
HIDDEN = "…"

_WORDS_FILE = Path(__file__).with_name("error_words.txt")
# Control characters, zero-width and bidi marks: never shown (they could hide or reorder text).
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+")
_TOKEN = re.compile(r"(?P<num>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(?P<word>[A-Za-z_]+)"
                    r"|(?P<punct>[!-/:-@\[-`{-~ ])|(?P<other>[^\x00-\x7f]+)")
_FRAME = re.compile(r'File "submission\.py", line (\d+), in ')


@lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """The words library messages use (lower case), from grader/error_words.txt."""
    lines = _WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


@lru_cache(maxsize=64)
def _source_words(source: str) -> frozenset[str]:
    return frozenset(re.findall(r"[A-Za-z_]+", source))


def _number_ok(text: str, sizes: frozenset[int]) -> bool:
    return text.isdigit() and (int(text) <= SMALL or int(text) in sizes)


def shown_message(message: str, source: str, sizes: frozenset[int] = frozenset()) -> str:
    """``message`` with every token that could carry hidden data replaced by "…" (the module's
    rules), on one line, at most MAX_CHARS characters."""
    words = _source_words(source)
    vocab = vocabulary()
    text = _INVISIBLE.sub(" ", message)
    out: list[str] = []
    for m in _TOKEN.finditer(text[: MAX_CHARS * 4]):
        kind, token = m.lastgroup, m.group()
        if kind == "num":
            keep = _number_ok(token, sizes)
        elif kind == "word":
            keep = token.lower() in vocab or token in words
        elif kind == "other":
            keep = token == HIDDEN or token in source
        else:
            keep = True
        piece = token if keep else HIDDEN
        if piece == HIDDEN and out and out[-1] == HIDDEN:
            continue
        out.append(piece)
    shown = re.sub(r"\s+", " ", "".join(out)).strip()
    return shown if len(shown) <= MAX_CHARS else shown[: MAX_CHARS - 1].rstrip() + HIDDEN


def learner_line(traceback: str, source: str) -> int | None:
    """The line of the learner's code the exception passed last (the innermost frame in
    submission.py), when it is a line of ``source``."""
    found = _FRAME.findall(traceback)
    if not found:
        return None
    number = int(found[-1])
    return number if 1 <= number <= source.count("\n") + 1 else None
