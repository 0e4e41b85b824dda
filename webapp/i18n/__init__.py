"""The message catalogue: every learner-facing string of the app, in English and Simplified Chinese.

The keys live in parts (``text``: pages and exercises, ``text_lab``: the playground's
captions and statuses, ``gradebook_text``: who is submitting, Progress, Instructor,
``report_text``: what services and views say at request time, ``text_queue``: the training
queue, ``text_class_list``: the teacher's class list and joining it, ``text_train`` / ``text_play``: Train and the explorers, ``text_errors``: learner input
errors by key, ``text_frontend``: what Gradio's and Plotly's frontends write in English
themselves), merged here once; no module adds keys to another at import time. An input
error carries a key and fields (transformer_lab.message.LabError): ``error_text`` renders it
in a language, ``input_error`` raises one of the app's own.
No other module under webapp/ writes Chinese itself (tests/webapp/test_i18n_text.py). ``tr``
formats a key for one request's language on the server; the pages hand the same tables to
``gr.I18n`` for static labels.
No gradio here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transformer_lab.message import LabError, Message
from webapp.i18n import (
    gradebook_text,
    report_text,
    text,
    text_class_list,
    text_errors,
    text_frontend,
    text_lab,
    text_links,
    text_play,
    text_queue,
    text_train,
)

PARTS = {"text": (text.EN, text.ZH), "text_lab": (text_lab.EN_LAB, text_lab.ZH_LAB),
         "gradebook_text": (gradebook_text.EN, gradebook_text.ZH),
         "report_text": (report_text.EN, report_text.ZH),
         "text_train": (text_train.EN, text_train.ZH), "text_play": (text_play.EN, text_play.ZH),
         "text_queue": (text_queue.EN, text_queue.ZH),
         "text_links": (text_links.EN, text_links.ZH),
         "text_class_list": (text_class_list.EN, text_class_list.ZH),
         "text_errors": (text_errors.EN, text_errors.ZH),
         "text_frontend": (text_frontend.EN, text_frontend.ZH)}


def _merge(index: int) -> dict[str, str]:
    merged: dict[str, str] = {}
    for name, tables in PARTS.items():
        clash = merged.keys() & tables[index].keys()
        if clash:  # one key, one meaning: a second definition would silently win or lose
            raise ValueError(f"i18n keys defined twice (again in {name}): {sorted(clash)}")
        merged.update(tables[index])
    return merged


EN: dict[str, str] = _merge(0)
ZH: dict[str, str] = _merge(1)
# The languages a learner may pick, each named in itself (an endonym reads the same on every page)
LANGUAGES: tuple[tuple[str, str], ...] = (("English", "en"), ("中文", "zh"))


def lang_of(request: Any) -> str:
    """'zh' when a request's browser puts Chinese first (Accept-Language), else 'en'."""
    headers = getattr(request, "headers", None) or {}
    first = (headers.get("accept-language", "") or "").split(",")[0].strip().lower()
    return "zh" if first.startswith("zh") else "en"


def tr(key: str, lang: str, **fields: object) -> str:
    """``key``'s text in ``lang`` ('zh' or else English), formatted with ``fields``; an English
    fallback for a key that has no Chinese yet (tests require every key in both)."""
    text_ = (ZH if lang == "zh" else EN).get(key) or EN[key]
    return text_.format(**fields) if fields else text_


def message(key: str, **fields: object) -> Message:
    """``key`` in both languages as a Message, the type the library's figure labels and the
    grader's feedback use too."""
    return Message(tr(key, "en", **fields), tr(key, "zh", **fields))


def both(key: str, **fields: object) -> dict[str, str]:
    """``key`` in both languages in the wire form: ``message(key).as_dict()``, the
    ``{"en", "zh"}`` dict the grader's reports and refusals use (grader.report.render shows one
    or both)."""
    return message(key, **fields).as_dict()


class Term:
    """A field value of an input error that names something (a box such as "learning rate", an
    attention kind): each language's word comes from the catalogue key ``term.<name>``, never
    from the English. Several names make a list (", " in English, "、" in Chinese)."""

    __slots__ = ("names",)

    def __init__(self, *names: str) -> None:
        self.names = names

    def text(self, lang: str) -> str:
        """The name(s) in ``lang``."""
        return ("、" if lang == "zh" else ", ").join(tr(f"term.{n}", lang) for n in self.names)

    def __str__(self) -> str:
        return self.text("en")

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Term{self.names!r}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and other.names == self.names

    def __hash__(self) -> int:
        return hash(self.names)


def error_text(key: str, lang: str, fields: Mapping[str, object]) -> str | None:
    """The input error ``key`` in ``lang`` with its ``fields`` (Terms in that language too);
    None for a key the catalogue lacks (tests require every raised key in both languages)."""
    if f"error.{key}" not in EN:
        return None
    shown = {name: v.text(lang) if isinstance(v, Term) else v for name, v in fields.items()}
    return tr(f"error.{key}", lang, **shown)


def input_error(key: str, **fields: object) -> LabError:
    """The app's input error ``key`` (``error.<key>`` in the catalogue) with ``fields``, ready
    to raise: ``str()`` is its English text, and a page renders it in its own language."""
    english = error_text(key, "en", fields)
    if english is None:
        raise KeyError(f"no input error error.{key} in the catalogue")
    return LabError(english, key=key, fields=fields)
