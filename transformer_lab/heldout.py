"""Held-out translation scores: BLEU (sacrebleu and D2L's), exact match and vocabulary coverage.

Every number here is computed on the task's held-out split: English sentences that never
appear in training (the split is by sentence, see tasks/translation.py). Scores on training
pairs say only that the model memorised them; these say whether it translates.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from .bleu import corpus_bleu, d2l_bleu

__all__ = ["heldout_report", "in_vocab_heldout", "translate_sentences", "vocab_share"]


def translate_sentences(model: torch.nn.Module, task, sentences: Sequence[str],
                        batch_size: int = 256) -> list[str]:
    """Greedy translations of English sentences, as preprocessed French text."""
    from .decode import greedy_decode

    was_training = model.training
    model.eval()
    preds: list[str] = []
    try:
        for i in range(0, len(sentences), batch_size):
            enc = [task.encode_source(s) for s in sentences[i : i + batch_size]]
            src = torch.cat([e[0] for e in enc])  # (B, S)
            lens = torch.cat([e[1] for e in enc])  # (B,)
            device = next(model.parameters()).device
            out = greedy_decode(model, src.to(device), lens.to(device), max_len=task.cfg.num_steps)
            preds += [task.decode_target(row) for row in out.tokens.cpu()]
    finally:
        model.train(was_training)
    return preds


def vocab_share(task, sentences: Sequence[str]) -> float:
    """Share of the words of ``sentences`` that are in the source vocabulary (0–1)."""
    words = [w for s in sentences for w in s.split()]
    if not words:
        return float("nan")
    return sum(w in task.src_vocab for w in words) / len(words)


def in_vocab_heldout(task) -> list[tuple[str, str]]:
    """Held-out (english, french) pairs whose every English word the model saw in training."""
    return [(en, fr) for en, fr in task.heldout if not task.unknown_words(en)]


def _scores(preds: list[str], refs: list[str]) -> dict:
    if not preds:
        nan = float("nan")
        return {"n": 0, "bleu": nan, "bleu_d2l": nan, "exact_match": nan}
    # D2L's BLEU (k=2, 0–1) per sentence, averaged: the lessons' own measure.
    d2l = [d2l_bleu(p, r) for p, r in zip(preds, refs, strict=True)]
    return {"n": len(preds),
            "bleu": round(corpus_bleu(preds, refs), 2),  # sacrebleu BLEU-4, 0–100
            "bleu_d2l": round(sum(d2l) / len(d2l), 4),
            "exact_match": round(sum(p == r for p, r in zip(preds, refs, strict=True)) / len(preds), 4)}


def heldout_report(model: torch.nn.Module, task, n_examples: int = 8) -> dict:
    """Scores on all held-out sentences and on the in-vocabulary ones, plus a few examples.

    Returns {"all": scores, "in_vocab": scores, "vocab_share": share of held-out English
    words in the vocabulary, "in_vocab_sentences": how many held-out sentences have no unknown
    word, "examples": [{"en", "ref", "pred", "unknown"}]} (examples from the in-vocab ones).
    """
    pairs = list(task.heldout)
    if not pairs:
        raise ValueError("this task has no held-out sentences to score (heldout_fraction is 0)")
    known = in_vocab_heldout(task)
    preds = translate_sentences(model, task, [en for en, _ in pairs])
    by_en = dict(zip([en for en, _ in pairs], preds, strict=True))
    known_preds = [by_en[en] for en, _ in known]
    examples = [{"en": en, "ref": fr, "pred": by_en[en]} for en, fr in known[:n_examples]]
    return {
        "all": _scores(preds, [fr for _, fr in pairs]),
        "in_vocab": _scores(known_preds, [fr for _, fr in known]),
        "vocab_share": round(vocab_share(task, [en for en, _ in pairs]), 4),
        "in_vocab_sentences": len(known),
        "heldout_sentences": len(pairs),
        "examples": examples,
    }
