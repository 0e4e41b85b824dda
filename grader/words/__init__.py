"""The grader's catalogue (issue 23): every sentence its feedback says, keyed, in English and
Simplified Chinese, and the one helper that renders a key with its fields.

Checks and observers decide *what happened* (a key and the numbers they measured, a
``Finding``); the words are looked up here, at the edge, so a sentence has one home and
rewording it changes one line. Each module holds ``EN`` and ``ZH`` with the same keys and the
same ``{fields}`` (tests/grader/test_words_catalogue.py): refusals of what a learner sent, how a
run ended, what a check found, stage findings on plain values and on weights. It imports only
its own modules, so every part of the grader (the gradebook too) may use it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from grader.words import checks, findings, refusals, runs, stages

LANGS = ("en", "zh")
MODULES = (refusals, runs, checks, findings, stages)
EN: dict[str, str] = {k: v for m in MODULES for k, v in m.EN.items()}
ZH: dict[str, str] = {k: v for m in MODULES for k, v in m.ZH.items()}
_BY_LANG = {"en": EN, "zh": ZH}


@dataclass(frozen=True)
class Finding:
    """What a check or an observer found: a catalogue key and the numbers and names it
    measured, rendered into words only when a report is written (``text``)."""

    code: str
    fields: dict[str, Any] = field(default_factory=dict)

    def text(self) -> dict[str, str]:
        """The finding in both languages, the ``{"en", "zh"}`` form every report keeps."""
        return say(self.code, **self.fields)

    def __iter__(self) -> Iterator[str]:
        """A finding unpacks as its (English, Chinese) pair, the form observers returned before
        issue 23 (``en, zh = finding``)."""
        text = self.text()
        return iter((text["en"], text["zh"]))

    def __getitem__(self, index: int) -> str:
        return tuple(self)[index]


def _field(value: Any, lang: str) -> Any:
    """A field in ``lang``: a Finding or a bilingual ``{"en", "zh"}`` text gives its own half."""
    if isinstance(value, Finding):
        return value.text()[lang]
    if isinstance(value, dict) and value.keys() == {"en", "zh"}:
        return value[lang]
    return value


def say(key: str, **fields: Any) -> dict[str, str]:
    """The sentence under ``key`` in English and Chinese, its ``{fields}`` filled in (a field may
    itself be a Finding or a bilingual text: each language gets its own half)."""
    return {lang: _BY_LANG[lang][key].format(**{k: _field(v, lang) for k, v in fields.items()})
            for lang in LANGS}


def joined(sep: str, parts: list[dict[str, str] | str]) -> dict[str, str]:
    """``parts`` joined by the separator stored under ``sep`` in each language (a part is a
    bilingual text, or a plain string such as a quoted name, the same in both)."""
    return {lang: _BY_LANG[lang][sep].join(p if isinstance(p, str) else p[lang] for p in parts)
            for lang in LANGS}


NOTHING: dict[str, str] = {"en": "", "zh": ""}  # a part a sentence leaves out, in both languages
