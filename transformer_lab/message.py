"""One learner-facing text in English and Simplified Chinese: the type the library's figure
labels, the grader's feedback and the app's catalogue (webapp.i18n) share.

It lives in the library because the library is the one package the others may import: the
grader imports neither webapp nor gradio, and this module imports nothing at all (no torch,
no numpy), so importing it costs the grader nothing. On the wire (Gradescope JSON, gradebook
rows, API answers) a message stays the plain ``{"en": ..., "zh": ...}`` dict of ``as_dict``.

A :class:`Refusal` (why nothing was done: a reason code and such a message) lives here for the
same reason: the grader's input checks, the gradebook's, the web app's admission desk and its
Train line all refuse with it, and :class:`Refused` raises it where a stack must unwind.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

LANGS = ("en", "zh")


@dataclass(frozen=True)
class Message:
    """A text in both languages; ``text(lang)`` picks one."""

    en: str
    zh: str

    def __post_init__(self) -> None:
        for lang in LANGS:
            if not isinstance(getattr(self, lang), str):
                raise TypeError(f"Message.{lang} must be a string, got {type(getattr(self, lang)).__name__}")

    def text(self, lang: str) -> str:
        """The text in ``lang``: 'zh' gives Chinese, anything else English (as webapp.i18n.tr and
        grader.report.render pick); an empty Chinese text falls back to the English one."""
        return (self.zh or self.en) if lang == "zh" else self.en

    def format(self, **fields: object) -> Message:
        """Both texts with the same ``{fields}`` filled in (str.format)."""
        return Message(self.en.format(**fields), self.zh.format(**fields))

    def as_dict(self) -> dict[str, str]:
        """The wire form every report and gradebook row already uses: ``{"en": ..., "zh": ...}``."""
        return {"en": self.en, "zh": self.zh}

    @classmethod
    def of(cls, pair: Mapping[str, str]) -> Message:
        """A message from its wire form (a missing language reads as empty)."""
        return cls(str(pair.get("en", "")), str(pair.get("zh", "")))


class LabError(ValueError):
    """A learner's input error, in one of two forms the app renders in the page's language:

    * ``LabError(Message)``: the raiser already holds the text in both languages: ``text`` (the
      Message) and ``message``, its wire dict;
    * ``LabError.keyed(key, template, **fields)``: a key naming the error, its ``fields``, and
      its English template. The library holds no other language: the app's catalogue
      (webapp.i18n) keeps every language's template under ``error.<key>`` and fills in the same
      fields at the edge, so no pattern ever turns an English sentence back into data.

    ``str()`` is the English text either way, so code that catches ValueError reads the same
    sentence as before. ``key`` is None and ``fields`` empty for an unkeyed error; ``text`` and
    ``message`` are None for a keyed one. The default exception pickling keeps all four.
    """

    def __init__(self, text: Message | str, *, key: str | None = None,
                 fields: Mapping[str, object] | None = None) -> None:
        bilingual = text if isinstance(text, Message) else None
        super().__init__(bilingual.en if bilingual else str(text))
        self.text: Message | None = bilingual
        self.message: dict[str, str] | None = bilingual.as_dict() if bilingual else None
        self.key = key
        self.fields: dict[str, object] = dict(fields or {})

    @classmethod
    def keyed(cls, key: str, template: str, **fields: object) -> LabError:
        """The error ``key`` with ``fields``; ``str()`` is ``template`` filled in (str.format)."""
        return cls(template.format(**fields), key=key, fields=fields)


@dataclass(frozen=True)
class Refusal:
    """Why nothing was done for a request, in the one form every layer uses: a short ``reason``
    code for machines, the ``message`` in both languages (the wire dict), the seconds after
    which a retry may help, and the exercise it concerned, if any. The grader's input checks,
    the gradebook's, the serving wing's admission desk and the Train line all refuse with it."""

    reason: str
    message: dict[str, str]
    retry_after_s: float | None = None
    exercise_id: str | None = None

    def text(self, lang: str = "both") -> str:
        """``lang``'s sentence ('zh' or 'en'), or both on two lines ('both')."""
        if lang == "both":
            return "\n".join(p for p in (self.message.get("en", ""), self.message.get("zh", ""))
                             if p)
        return self.message.get(lang) or self.message.get("en", "")

    def about(self, exercise_id: object) -> Refusal:
        """The refusal as an answer about ``exercise_id`` (kept only when it is a string), its
        retry time rounded up to whole seconds (at least 1)."""
        retry = self.retry_after_s
        return Refusal(self.reason, self.message,
                       None if retry is None else max(1, math.ceil(retry)),
                       exercise_id if isinstance(exercise_id, str) else None)


class Refused(ValueError):
    """A :class:`Refusal` raised through a call stack: ``Refused(reason, en, zh)`` or
    ``Refused(refusal)``. ``refusal``, ``reason`` and ``message`` read it back; ``str()`` gives
    both languages, one per line."""

    def __init__(self, refusal: Refusal | str, en: str = "", zh: str = "",
                 retry_after_s: float | None = None) -> None:
        if not isinstance(refusal, Refusal):
            refusal = Refusal(refusal, {"en": en, "zh": zh}, retry_after_s)
        super().__init__(refusal.text("both"))
        self.refusal = refusal

    @property
    def reason(self) -> str:
        return self.refusal.reason

    @property
    def message(self) -> dict[str, str]:
        return self.refusal.message

    def __reduce__(self):  # pickles as itself (the default would call __init__ with the text)
        return (type(self), (self.refusal,))
