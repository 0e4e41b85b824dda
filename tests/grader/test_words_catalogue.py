"""The grader's catalogue (grader/words/, issue 23): every key in both languages with the same
fields, no key written twice, and rendering by key gives each language its own half."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from grader import words
from grader.words import Finding, joined, say

ROOT = Path(__file__).resolve().parents[2]


def _fields(template: str) -> set[str]:
    return {name for _text, name, _spec, _conv in string.Formatter().parse(template) if name is not None}


@pytest.mark.parametrize("module", words.MODULES, ids=lambda m: m.__name__)
def test_every_key_has_both_languages_and_the_same_fields(module):
    assert module.EN.keys() == module.ZH.keys()
    for key, en in module.EN.items():
        assert isinstance(en, str) and isinstance(module.ZH[key], str), key
        assert _fields(en) == _fields(module.ZH[key]), key


def test_no_key_is_written_in_two_modules():
    assert len(words.EN) == sum(len(m.EN) for m in words.MODULES)
    assert words.EN.keys() == words.ZH.keys()


def test_every_key_is_said_somewhere_in_the_grader():
    # the grader and its gradebook (a package of its own since issue 24, which says the
    # catalogue's input and name refusals)
    source = "\n".join(p.read_text(encoding="utf-8") for top in ("grader", "gradebook")
                       for p in (ROOT / top).rglob("*.py") if "words" not in p.parts)
    unused = [k for k in words.EN if f'"{k}"' not in source]
    assert not unused, f"keys nobody says: {unused}"


def test_say_fills_each_language_and_takes_bilingual_fields():
    clear = say("notebook.clear")
    both = say("notebook.too_complex", containers=7, limit=5, clear=clear)
    assert both["en"] == f"This notebook holds 7 JSON lists and objects; the limit is 5. {clear['en']}"
    assert both["zh"] == f"该笔记本包含 7 个 JSON 列表和对象，上限为 5 个。{clear['zh']}"
    assert Finding("notebook.too_complex", {"containers": 7, "limit": 5, "clear": clear}).text() == both
    assert say("name.imitation", base="bob")["en"].startswith("The name 'bob' belongs")


def test_joined_uses_each_languages_separator():
    assert joined("sep.list", [{"en": "a", "zh": "甲"}, "`b`"]) == {"en": "a, `b`", "zh": "甲、`b`"}


def test_a_finding_unpacks_as_its_english_and_chinese_pair():
    found = Finding("values.factor", {"c": 0.5})
    en, zh = found
    assert (en, zh) == (found.text()["en"], found.text()["zh"]) == (found[0], found[1])
    assert en == "every entry is about 0.5 times the right one."


def test_modules_stay_small():
    for module in words.MODULES:
        lines = Path(module.__file__).read_text(encoding="utf-8").count("\n")
        assert lines <= 350, (module.__name__, lines)
