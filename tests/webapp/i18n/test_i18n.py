"""The message catalogue (webapp.i18n): one table per language, every key in both, no clashes."""

from __future__ import annotations

import string
import subprocess
import sys

import pytest

from webapp import i18n


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_exists_in_both_languages_with_the_same_fields():
    assert set(i18n.EN) == set(i18n.ZH), sorted(set(i18n.EN) ^ set(i18n.ZH))
    for key, en in i18n.EN.items():
        assert _fields(en) == _fields(i18n.ZH[key]), key  # a zh text must fill the same blanks


def test_tr_formats_in_the_requested_language():
    key = next(k for k, v in i18n.EN.items() if _fields(v) == {"name"})
    assert "Ada" in i18n.tr(key, "en", name="Ada") and "Ada" in i18n.tr(key, "zh", name="Ada")
    assert i18n.tr(key, "zh", name="Ada") != i18n.tr(key, "en", name="Ada")


def test_a_key_defined_in_two_parts_is_refused(monkeypatch):
    clash = {**i18n.PARTS, "extra": ({"tab.basics": "again"}, {"tab.basics": "又一次"})}
    monkeypatch.setattr(i18n, "PARTS", clash)
    with pytest.raises(ValueError, match="tab.basics"):
        i18n._merge(0)


def test_the_catalogue_loads_without_gradio():
    code = "import sys, webapp.i18n, webapp.views.report_view; print('gradio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
