"""Held-out translation scores: computed on sentences never trained on, against sacrebleu itself."""

from __future__ import annotations

import math

import sacrebleu

from transformer_lab.experiments import PRESETS, build_model, task_parts, train_config
from transformer_lab.heldout import (
    heldout_report,
    in_vocab_heldout,
    translate_sentences,
    vocab_share,
)
from transformer_lab.tasks.translation import TranslationConfig, TranslationTask
from transformer_lab.train import train


def tiny_translation_run(steps: int = 30):
    s = {**PRESETS["translate"], "d_model": 16, "heads": 2, "d_ff": 32, "steps": steps,
         "eval_every": steps, "seed": 0, "device": "cpu"}
    task, vs, vt, objective = task_parts("translate", s)
    model = build_model(vs, vt, s)
    train(model, objective, train_config(s))
    return model, task


def test_report_scores_only_unseen_sentences_and_matches_sacrebleu():
    model, task = tiny_translation_run()
    report = heldout_report(model, task)
    trained = {en for en, _ in task.train}
    assert task.heldout and not trained & {en for en, _ in task.heldout}  # never trained on
    assert report["all"]["n"] == len(task.heldout) == report["heldout_sentences"]
    preds = translate_sentences(model, task, [en for en, _ in task.heldout])
    refs = [fr for _, fr in task.heldout]
    # sacrebleu called directly (no tokenisation: the text is already split into words)
    expected = sacrebleu.metrics.BLEU(tokenize="none", force=True).corpus_score(preds, [refs]).score
    assert math.isclose(report["all"]["bleu"], round(expected, 2))
    exact = sum(p == r for p, r in zip(preds, refs, strict=True)) / len(refs)
    assert math.isclose(report["all"]["exact_match"], round(exact, 4))
    # in-vocabulary examples only: no held-out example shown has an unknown word
    assert report["examples"] and all(not task.unknown_words(e["en"]) for e in report["examples"])
    assert report["in_vocab"]["n"] == report["in_vocab_sentences"] <= report["all"]["n"]


def test_vocab_share_and_in_vocab_split_on_a_small_corpus():
    pairs = [("the cat sleeps .", "le chat dort ."), ("the dog sleeps .", "le chien dort ."),
             ("a cat runs .", "un chat court ."), ("a bird flies .", "un oiseau vole ."),
             ("the bird runs .", "l'oiseau court ."), ("go .", "va !")]
    # split seed 4 holds out "the dog sleeps ." and "the bird runs ." (worked out by hand:
    # "dog" is the only word never seen in training)
    task = TranslationTask(TranslationConfig(heldout_fraction=0.5, split_seed=4), pairs=pairs)
    assert [en for en, _ in task.heldout] == ["the dog sleeps .", "the bird runs ."]
    assert vocab_share(task, [en for en, _ in task.heldout]) == 7 / 8
    assert in_vocab_heldout(task) == [("the bird runs .", "l'oiseau court .")]


def test_cli_json_carries_the_heldout_report(capsys):
    import json

    from transformer_lab.cli import main

    assert main(["train", "--task", "translate", "--steps", "3", "--d-model", "16", "--heads", "2",
                 "--d-ff", "32", "--no-progress", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    h = out["heldout"]
    assert {"all", "in_vocab", "vocab_share", "in_vocab_sentences", "examples"} <= set(h)
    assert 0 <= h["all"]["bleu"] <= 100 and 0 <= h["all"]["bleu_d2l"] <= 1
    assert 0.5 < h["vocab_share"] <= 1 and out["bleu_heldout"] == h["all"]["bleu"]


def test_translate_sentences_keeps_the_models_mode():
    model, task = tiny_translation_run(steps=2)
    model.train()
    translate_sentences(model, task, ["i lost ."])
    assert model.training
