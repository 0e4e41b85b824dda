"""Text shown inside the app's Markdown as just itself (no gradio).

A name (a class-list name, a learner's label) is letters, digits and a little punctuation; in
Markdown ``_a_`` turns italic and ``www.example.com`` into a link. Every ASCII punctuation
character is backslash-escaped, which CommonMark allows for each of them.
"""

from __future__ import annotations

import string

_ESCAPES = str.maketrans({ch: "\\" + ch for ch in string.punctuation})


def md_literal(text: str) -> str:
    """``text`` as Markdown that renders exactly ``text``."""
    return str(text).translate(_ESCAPES)
