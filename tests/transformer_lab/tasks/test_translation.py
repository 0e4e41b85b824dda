"""EN->FR task: D2L preprocessing, encoding, split and batching, checked by hand."""

import pytest
import torch

from transformer_lab.tasks import (
    BOS,
    D2L_EXAMPLES,
    EOS,
    UNK,
    TranslationConfig,
    TranslationTask,
    preprocess,
    tokenize,
)


@pytest.fixture(scope="module")
def task():
    return TranslationTask()


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("Go.", "go ."),
        ("Va !", "va !"),
        ("Va\u202f!", "va !"),  # Tatoeba's narrow no-break space
        ("Il est calme\xa0!", "il est calme !"),
        ("J'ai perdu.", "j'ai perdu ."),
        ("Hello, world!", "hello , world !"),
        ("Hello,world!", "hello ,world !"),  # D2L only adds a space before punctuation
        ("Who?", "who ?"),
        ("Wait...", "wait . . ."),  # each '.' follows a non-space, as in D2L
        ("  I'm   home. ", "i'm home ."),
        (".", "."),  # the first character never gets a space before it
    ],
)
def test_preprocess_examples(raw, clean):
    assert preprocess(raw) == clean


def test_tokenize_splits_words_and_punctuation():
    assert tokenize("He's calm.") == ["he's", "calm", "."]


def test_d2l_pairs_are_in_train_and_never_held_out(task):
    for pair in D2L_EXAMPLES:
        assert pair in task.train
    held_en = {en for en, _ in task.heldout}
    assert not held_en & {en for en, _ in D2L_EXAMPLES}
    # the pins hold for other split seeds too
    for seed in range(5):
        other = TranslationTask(TranslationConfig(split_seed=seed, heldout_fraction=0.5))
        assert all(p in other.train for p in D2L_EXAMPLES)


def test_split_is_fixed_grouped_by_english_and_about_ten_percent(task):
    again = TranslationTask()
    assert again.train == task.train and again.heldout == task.heldout
    n = len(task.train) + len(task.heldout)
    assert 0.05 < len(task.heldout) / n < 0.15
    assert not {en for en, _ in task.train} & {en for en, _ in task.heldout}
    other = TranslationTask(TranslationConfig(split_seed=1))
    assert other.heldout != task.heldout
    assert len(task.train_raw) == len(task.train)
    assert [preprocess(e) for e, _ in task.train_raw] == [e for e, _ in task.train]


def test_vocabularies_come_from_train_only(task):
    train_words = {w for en, _ in task.train for w in en.split()}
    assert set(task.src_vocab.itos[4:]) == train_words
    assert set(task.tgt_vocab.itos[4:]) == {w for _, fr in task.train for w in fr.split()}


def test_encoded_rows_follow_d2l_layout(task):
    n = task.cfg.num_steps
    batches = task.all_train_batches(len(task.train))
    assert len(batches) == 1
    b = batches[0]
    for i in (0, 7, len(task.train) - 1):
        en, fr = task.train[i]
        src = [task.src_vocab.stoi[w] for w in en.split()] + [EOS]
        tgt = [task.tgt_vocab.stoi[w] for w in fr.split()] + [EOS]
        assert b.src[i].tolist() == src + [0] * (n - len(src))
        assert b.tgt_out[i].tolist() == tgt + [0] * (n - len(tgt))
        assert b.tgt_in[i].tolist() == [BOS] + tgt[:-1] + [0] * (n - len(tgt))
        assert (int(b.src_lens[i]), int(b.tgt_lens[i])) == (len(src), len(tgt))
        assert task.decode_target(b.tgt_out[i]) == fr


def test_long_sentences_are_cut_to_num_steps():
    t = TranslationTask(
        TranslationConfig(num_steps=5, heldout_fraction=0.0),
        pairs=[("a b c d e f g.", "x y."), ("go.", "va !")],
    )
    b = t.all_train_batches(2)[0]
    assert b.src[0].tolist() == t.src_vocab.lookup(["a", "b", "c", "d", "e"])  # <eos> cut off
    assert b.src_lens.tolist() == [5, 3]
    assert b.tgt_out[0].tolist() == t.tgt_vocab.lookup(["x", "y", "."]) + [EOS, 0]


def test_sample_is_deterministic_and_draws_training_rows(task):
    a = task.sample(64, torch.Generator().manual_seed(0))
    b = task.sample(64, torch.Generator().manual_seed(0))
    assert a.src.shape == (64, 10) and torch.equal(a.src, b.src) and torch.equal(a.tgt_in, b.tgt_in)
    everything = task.all_train_batches(len(task.train))[0]
    rows = {tuple(r) for r in torch.cat([everything.src, everything.tgt_out], 1).tolist()}
    assert all(tuple(r) in rows for r in torch.cat([a.src, a.tgt_out], 1).tolist())


def test_all_train_batches_cover_every_pair_once(task):
    full = task.all_train_batches(len(task.train))[0]
    shuffled = task.all_train_batches(64, torch.Generator().manual_seed(0))
    assert [len(b) for b in shuffled[:-1]] == [64] * (len(shuffled) - 1)
    assert sum(len(b) for b in shuffled) == len(task.train)
    got = sorted(map(tuple, torch.cat([b.src for b in shuffled]).tolist()))
    assert got == sorted(map(tuple, full.src.tolist()))
    assert not torch.equal(shuffled[0].src, full.src[:64])  # really shuffled


def test_heldout_batch_matches_heldout_pairs(task):
    hb = task.heldout_batch()
    assert len(hb) == len(task.heldout)
    no_heldout = TranslationTask(TranslationConfig(heldout_fraction=0.0))
    assert no_heldout.heldout == []
    with pytest.raises(ValueError, match="no held-out"):
        no_heldout.heldout_batch()


def test_encode_source_matches_training_encoding(task):
    src, lens = task.encode_source("I lost.")
    i = task.train.index(("i lost .", "j'ai perdu ."))
    row = task.all_train_batches(len(task.train))[0][i]
    assert torch.equal(src, row.src) and torch.equal(lens, row.src_lens)


def test_unknown_words_are_reported_and_become_unk(task):
    assert "zebra" not in task.src_vocab and "xylophone" not in task.src_vocab
    assert task.unknown_words("I lost my Zebra, my zebra, my xylophone.") == ["zebra", "xylophone"]
    assert task.unknown_words("I lost.") == []
    src, _ = task.encode_source("zebra .")
    assert src[0, 0].item() == UNK


def test_empty_or_bad_source_raises_clear_errors(task):
    for text in ["", "   ", "\u202f"]:
        with pytest.raises(ValueError, match="empty"):
            task.encode_source(text)
    with pytest.raises(TypeError, match="sentence"):
        task.encode_source(42)


def test_min_freq_drops_rare_words():
    pairs = [("a b.", "x y."), ("a c.", "x z.")]
    t = TranslationTask(TranslationConfig(min_freq=2, heldout_fraction=0.0), pairs=pairs)
    assert "a" in t.src_vocab and "b" not in t.src_vocab and "." in t.src_vocab


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"num_steps": 1}, ValueError, "num_steps"),
        ({"num_steps": "10"}, TypeError, "integer"),
        ({"heldout_fraction": 1.0}, ValueError, "heldout_fraction"),
        ({"min_freq": -1}, ValueError, "min_freq"),
    ],
)
def test_bad_configs(kwargs, error, message):
    with pytest.raises(error, match=message):
        TranslationConfig(**kwargs)


def test_bad_pairs():
    with pytest.raises(ValueError, match="english, french"):
        TranslationTask(pairs=[("only english",)])
    with pytest.raises(ValueError, match="empty sentence"):
        TranslationTask(pairs=[("go.", "  ")])


def test_task_from_a_tatoeba_style_file(tmp_path):
    path = tmp_path / "fra.txt"
    path.write_text(
        "Go.\tVa\u202f!\tCC-BY 2.0 (France) Attribution: tatoeba.org #1 (a) & #2 (b)\n"
        "I lost.\tJ'ai perdu.\tCC-BY 2.0 (France) Attribution: tatoeba.org #3 (c)\n",
        encoding="utf-8",
    )
    t = TranslationTask(TranslationConfig(path=str(path), heldout_fraction=0.0))
    assert t.train == [("go .", "va !"), ("i lost .", "j'ai perdu .")]
    assert t.train_raw[0] == ("Go.", "Va\u202f!")
    assert TranslationTask(TranslationConfig(path=str(path), max_pairs=1)).train == [("go .", "va !")]
