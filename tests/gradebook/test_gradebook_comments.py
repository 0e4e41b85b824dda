"""A teacher's comments to a learner (issue 25, item 8), on SQLite and PostgreSQL: stored
clean, newest first, bounded per learner, refused when empty or too long."""

from __future__ import annotations

import pytest

from gradebook import comments as cm


def test_comments_are_kept_clean_newest_first(book):
    book.add_comment("g:ada", "manual-attention", "  Divide by √d\x00 before the softmax.\r\nok ",
                     "password from 10.0.0.1")
    book.add_comment("g:ada", "", "Good work today.", "hf:teacher")
    book.add_comment("g:bob", "", "Bob's", "hf:teacher")
    got = book.comments("g:ada")
    assert [c.text for c in got] == ["Good work today.", "Divide by √d before the softmax.\nok"]
    assert got[1].exercise == "manual-attention" and got[0].exercise == ""
    assert book.comments(None) == [] and [c.text for c in book.comments("g:bob")] == ["Bob's"]


def test_comments_are_bounded(book, monkeypatch):
    monkeypatch.setattr(cm, "MAX_KEPT", 3)
    for i in range(6):
        book.add_comment("g:ada", "", f"note {i}", "t")
    assert [c.text for c in book.comments("g:ada")] == ["note 5", "note 4", "note 3"]
    for bad in ("", "   ", "\x00", "x" * (cm.MAX_CHARS + 1), None):
        with pytest.raises(ValueError):
            book.add_comment("g:ada", "", bad, "t")
    with pytest.raises(ValueError):
        book.add_comment("", "", "to nobody", "t")


def test_invisible_format_characters_are_dropped(book):
    """Red team, 2026-12-07: a right-to-left override (U+202E) and zero-width spaces were kept,
    so a note could read otherwise than it was written."""
    book.add_comment("g:ada", "", "score\u202e21/6\u200b ok\ufeff", "t")
    assert book.comments("g:ada")[0].text == "score21/6 ok"
