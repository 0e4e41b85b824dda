"""Issue 26, item 3: "I love you" without its final period read as no sentence of the corpus
(every one ends in " ."), and the alignment decoded with a shorter limit than the translation
(6 words drawn for 11 translated). Now the input is read as the corpus writes sentences, the
page says so, and the alignment shows the translation's own words."""

from __future__ import annotations

import pytest

from transformer_lab.tasks.translation import normalise


@pytest.mark.parametrize("typed, read", [
    ("I love you", "i love you ."), ("i love you .", "i love you ."), ("Hello!", "hello !"),
    ("  Are you   OK?", "are you ok ?"), ("Go.", "go ."), ("", "")])
def test_a_sentence_is_read_as_the_corpus_writes_one(typed, read):
    assert normalise(typed) == read


@pytest.fixture(scope="module")
def run():
    from webapp.train import training

    s = training.page_config("translate", heads=2, d_model=16, layers=1, d_ff=32, steps=5)
    r = training.new_run(s)
    for msg in training.stream(r):
        training.apply(r, msg)
    return r


def test_a_missing_period_is_added_and_said_and_the_alignment_has_the_translations_words(run):
    from webapp.train import training

    bare, full = training.translate(run, "I lost"), training.translate(run, "i lost .")
    assert bare["read_as"] == full["read_as"] == "i lost ." and bare["normalised"]
    assert not full["normalised"] and bare["translation"] == full["translation"]
    assert bare["reference"] == full["reference"] == "j'ai perdu ."
    for out in (bare, full):
        words = out["translation"].split()
        shown = [t for t in out["output_tokens"] if t != "<eos>"]
        assert shown[: len(words)] == words and len(shown) == len(words), (shown, words)
        assert out["cross"].shape[-2] == len(out["output_tokens"])


def test_the_page_says_how_it_read_the_sentence_in_both_languages():
    from webapp.i18n import tr

    assert "`i love you .`" in tr("train.read_as", "en", sentence="i love you .")
    assert "按训练句子的写法读入" in tr("train.read_as", "zh", sentence="i love you .")


def test_a_pasted_page_is_refused_with_its_length_not_translated_and_echoed(run):
    """The chromium walk: 5,000 characters were translated ("bonjour .") and echoed back whole."""
    from transformer_lab.errors import LabError
    from webapp.i18n import error_text
    from webapp.train import training

    with pytest.raises(LabError) as err:
        training.translate(run, "tom is calm . " * 400)
    assert err.value.key == "translate_sentence_long" and err.value.fields["got"] == 5600
    assert "200" in error_text(err.value.key, "en", err.value.fields)
    assert "200" in error_text(err.value.key, "zh", err.value.fields)
    assert training.translate(run, "tom is calm .")["translation"]  # a sentence still is
