"""BLEU: D2L's formula against hand computations and a loop-by-loop reference; sacrebleu's corpus BLEU."""

import math
import random
from collections import defaultdict

import pytest

from transformer_lab.bleu import corpus_bleu, d2l_bleu


def d2l_reference(pred_seq: str, label_seq: str, k: int) -> float:
    """D2L's algorithm step by step (valid only when the prediction has at least k tokens)."""
    pred, label = pred_seq.split(" "), label_seq.split(" ")
    score = math.exp(min(0, 1 - len(label) / len(pred)))
    for n in range(1, k + 1):
        matches, label_subs = 0, defaultdict(int)
        for i in range(len(label) - n + 1):
            label_subs[" ".join(label[i : i + n])] += 1
        for i in range(len(pred) - n + 1):
            gram = " ".join(pred[i : i + n])
            if label_subs[gram] > 0:
                matches += 1
                label_subs[gram] -= 1
        score *= math.pow(matches / (len(pred) - n + 1), math.pow(0.5, n))
    return score


def test_lesson_example_by_hand():
    # unigrams: il, est, . match (3 of 4); bigrams: only "il est" (1 of 3); same length: BP = 1
    expected = (3 / 4) ** 0.5 * (1 / 3) ** 0.25
    got = d2l_bleu("il est riche .", "il est calme .")
    assert got == pytest.approx(expected, rel=1e-12)
    assert round(got, 3) == 0.658  # the figure quoted in NOTES.md


def test_perfect_and_disjoint():
    assert d2l_bleu("je suis chez moi .", "je suis chez moi .") == pytest.approx(1.0)
    assert d2l_bleu("bonjour", "va !") == 0.0


def test_brevity_penalty_by_hand():
    # 3 predicted tokens vs 4: BP = exp(1 - 4/3); p1 = 3/3; bigrams "il est", "est ." -> 1 of 2
    expected = math.exp(1 - 4 / 3) * 1.0 * 0.5**0.25
    assert d2l_bleu("il est .", "il est calme .") == pytest.approx(expected)
    # a longer prediction gets no bonus: BP = 1
    assert d2l_bleu("il est calme . .", "il est calme .") == pytest.approx(
        (4 / 5) ** 0.5 * (3 / 4) ** 0.25
    )


def test_matches_are_clipped():
    # "il" occurs once in the reference, so only one of the four counts
    assert d2l_bleu("il il il il", "il est calme .") == 0.0  # no bigram matches
    assert d2l_bleu("il il il il", "il est calme .", k=1) == pytest.approx((1 / 4) ** 0.5)


def test_higher_k_by_hand():
    # trigrams of "il est riche .": "il est riche", "est riche ." -> none match
    assert d2l_bleu("il est riche .", "il est calme .", k=3) == 0.0
    assert d2l_bleu("il est calme ce soir", "il est calme .", k=3) == pytest.approx(
        math.exp(0) * (3 / 5) ** 0.5 * (2 / 4) ** 0.25 * (1 / 3) ** 0.125
    )


def test_agrees_with_d2l_loop_on_random_sentences():
    rng = random.Random(0)
    words = "il est elle a j'ai perdu calme . ! va".split()
    for _ in range(300):
        k = rng.randint(1, 4)
        pred = " ".join(rng.choices(words, k=rng.randint(k, 8)))
        label = " ".join(rng.choices(words, k=rng.randint(1, 8)))
        assert d2l_bleu(pred, label, k) == pytest.approx(d2l_reference(pred, label, k))


def test_prediction_shorter_than_k_uses_the_orders_it_has():
    # D2L would divide by zero for n = 2; here only n = 1 is used, and BP = exp(1 - 2/1)
    assert d2l_bleu("va", "va !") == pytest.approx(math.exp(-1))
    assert d2l_bleu("va !", "va !", k=4) == pytest.approx(1.0)


def test_empty_prediction_scores_zero_and_bad_input_raises():
    assert d2l_bleu("", "va !") == 0.0
    assert d2l_bleu("   ", "va !") == 0.0
    with pytest.raises(ValueError, match="reference sentence is empty"):
        d2l_bleu("va !", "")
    with pytest.raises(ValueError, match="positive integer"):
        d2l_bleu("va !", "va !", k=0)
    with pytest.raises(TypeError, match="two strings"):
        d2l_bleu(["va", "!"], "va !")


def test_corpus_bleu_lesson_example_by_hand():
    # BLEU-4 with sacrebleu's default 'exp' smoothing: a zero count at order n is replaced by
    # 1 / (2^j * total_n), j = how many zero orders so far. p = 3/4, 1/3, 1/(2*2), 1/(4*1).
    expected = 100 * (3 / 4 * 1 / 3 * 1 / 4 * 1 / 4) ** 0.25
    got = corpus_bleu(["il est riche ."], ["il est calme ."])
    assert got == pytest.approx(expected)
    assert round(got, 1) == 35.4  # the figure quoted in NOTES.md
    assert got / 100 != pytest.approx(d2l_bleu("il est riche .", "il est calme ."), abs=0.1)


def test_corpus_bleu_perfect_and_short_corpora():
    refs = ["va !", "j'ai perdu .", "il est calme .", "je suis chez moi ."]
    assert corpus_bleu(refs, refs) == pytest.approx(100.0)
    # standard BLEU-4 needs some 4-gram in the corpus: none here, so even perfect scores 0
    short = ["va !", "j'ai perdu ."]
    assert corpus_bleu(short, short) == 0.0
    assert corpus_bleu(short, short, effective_order=True) == pytest.approx(100.0)


def test_corpus_bleu_keeps_our_tokens():
    # no retokenisation: "j'ai" must match "j'ai", and "j' ai" is a different pair of tokens
    assert corpus_bleu(["j'ai perdu mon chat ."], ["j'ai perdu mon chat ."]) == pytest.approx(100)
    assert corpus_bleu(["j' ai perdu mon chat ."], ["j'ai perdu mon chat ."]) < 100


def test_corpus_bleu_on_many_tokenised_lines_is_quiet(caplog):
    refs = [f"il a {i} ans ." for i in range(150)]
    with caplog.at_level("WARNING"):
        assert corpus_bleu(refs, refs) == pytest.approx(100.0)
    assert "detokenize" not in caplog.text


def test_corpus_bleu_errors():
    with pytest.raises(ValueError, match="one reference per prediction"):
        corpus_bleu(["va !"], ["va !", "salut !"])
    with pytest.raises(ValueError, match="at least one"):
        corpus_bleu([], [])
    with pytest.raises(TypeError, match="lists of sentences"):
        corpus_bleu("va !", "va !")
    with pytest.raises(TypeError, match="must be a string"):
        corpus_bleu([None], ["va !"])
