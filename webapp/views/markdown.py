"""Text shown inside the app's Markdown as just itself (no gradio).

A name (a class-list name, a learner's label) is letters, digits and a little punctuation; in
Markdown ``_a_`` turns italic and ``www.example.com`` into a link. Every ASCII punctuation
character is backslash-escaped, which CommonMark allows for each of them.
"""

from __future__ import annotations

import re
import string

_ESCAPES = str.maketrans({ch: "\\" + ch for ch in string.punctuation})


def md_literal(text: str) -> str:
    """``text`` as Markdown that renders exactly ``text``."""
    return str(text).translate(_ESCAPES)


# A line break inside a paragraph renders as a space; between two Chinese characters (or
# full-width punctuation) that space reads as a typo (chromium walk: two words of one phrase).
_CJK_BREAK = re.compile(r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])\n(?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])")


def joined_cjk_lines(text: str) -> str:
    """``text`` with each soft line break between two Chinese characters removed, outside
    fenced code blocks (a statement's source wraps its lines; the page should not show it)."""
    parts = re.split(r"(^```.*?^```[^\n]*$)", text, flags=re.M | re.S)
    return "".join(part if part.startswith("```") else _CJK_BREAK.sub("", part) for part in parts)
