"""Look-alike letters from Unicode's own data (UTS #39), for comparing learner names.

Two rules, both from Unicode Technical Standard #39 (Unicode Security Mechanisms):

- **Skeleton.** confusables.txt pairs characters that look alike (``ɑ`` and ``a``, ``Ь`` and
  ``b``, ``ꭺ`` and ``ᴀ``...). Its prototypes are not always ASCII (``ᴀ`` is one) and it does not
  fold case, so a plain UTS #39 skeleton still lets ``ᴀlice`` pass for ``alice``. Here each
  character maps to the ASCII letter or digit it is joined to by the fewest look-alike or
  case steps (``ᴀ`` - ``ꭺ`` - ``Ꭺ`` - ``A``), never passing through another ASCII character,
  so ``r`` and ``t`` stay apart even though each has a look-alike that resembles the other.
- **Mixed script.** One word may not mix letters of several scripts (``aլice``: Latin and
  Armenian), except the combinations UTS #39 section 5.2 allows ("highly restrictive"): Latin
  with Han and Japanese kana, with Han and Bopomofo, or with Han and Hangul. Whole words in
  another script (``Ольга``, ``张伟``) are fine.

The data comes from the pinned ``confusable-homoglyphs`` package (requirements.txt), which
ships confusables.txt and Scripts.txt from https://www.unicode.org/Public/security/ and
https://www.unicode.org/Public/UNIDATA/ as JSON. Plain Python; loaded once, on first use.
"""

from __future__ import annotations

import string
import unicodedata
from collections import deque
from functools import lru_cache

# Scripts that may share a word with Latin (UTS #39 5.2, "highly restrictive").
_ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
_NO_SCRIPT = frozenset({"COMMON", "INHERITED", "Unknown"})
_BIDI_MARKS = "\u200e\u200f"  # confusables.json wraps right-to-left characters in these


def _case_variants(ch: str) -> set[str]:
    return {v for v in (ch.lower(), ch.upper(), ch.casefold()) if len(v) == 1 and v != ch}


@lru_cache(maxsize=1)
def ascii_map() -> dict[str, str]:
    """Every character that looks like an ASCII letter or digit -> that ASCII character
    (lower case). ASCII characters themselves are not in the map."""
    from confusable_homoglyphs import utils

    data = utils.load("confusables.json")
    edges: dict[str, set[str]] = {}
    for key, items in data.items():
        for item in items:
            other = item["c"].strip(_BIDI_MARKS)
            if len(key) == 1 and len(other) == 1 and key != other:
                edges.setdefault(key, set()).add(other)
                edges.setdefault(other, set()).add(key)
    for ch in list(edges):
        for v in _case_variants(ch):
            edges[ch].add(v)
            edges.setdefault(v, set()).add(ch)
    out: dict[str, str] = {}
    queue: deque[tuple[str, str]] = deque()
    for src in string.ascii_lowercase + string.digits + string.ascii_uppercase:
        queue.append((src, src.lower()))
    seen = set(string.ascii_letters + string.digits)
    while queue:  # breadth first: the nearest ASCII character wins, ties by ASCII order
        ch, target = queue.popleft()
        for nxt in sorted(edges.get(ch, ())):
            if nxt in seen or nxt.isascii():
                continue
            seen.add(nxt)
            out[nxt] = target
            queue.append((nxt, target))
    return out


def skeleton(text: str) -> str:
    """``text`` with every look-alike of an ASCII letter or digit replaced by it (case folded).

    ``skeleton("ᴀlice") == skeleton("ɑlice") == "alice"``; letters that resemble no ASCII
    character (``张``, most of ``Ольга``) stay as they are.
    """
    table = ascii_map()
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(table.get(ch, ch) for ch in folded)


def script_of(ch: str) -> str:
    """The Unicode script of one character (``LATIN``, ``CYRILLIC``, ``COMMON``...)."""
    from confusable_homoglyphs import categories

    return categories.alias(ch)


def mixed_script_word(text: str) -> str | None:
    """The first word of ``text`` that mixes scripts in a way UTS #39 does not allow, or None."""
    for word in text.split():
        scripts = {script_of(ch) for ch in word if unicodedata.category(ch)[0] == "L"}
        scripts -= _NO_SCRIPT
        if len(scripts) > 1 and not any(scripts <= mix for mix in _ALLOWED_MIXES):
            return word
    return None
