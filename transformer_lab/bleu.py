"""BLEU scores: D2L's per-sentence formula and sacrebleu's standard corpus BLEU.

Both take text that is already tokenised the way the translation task prints it:
lower-case words separated by single spaces, punctuation split off (`il est calme .`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def d2l_bleu(pred_seq: str, label_seq: str, k: int = 2) -> float:
    """D2L's BLEU of one prediction against one reference, in [0, 1].

        BLEU = exp(min(0, 1 - len_label / len_pred)) * prod_{n=1..k} p_n ** (0.5 ** n)

    where p_n is the clipped share of the prediction's n-grams found in the reference.
    The brevity penalty punishes short predictions. The exponent 0.5 ** n shrinks as n
    grows, so at equal precision a longer n-gram's factor is closer to 1: D2L's way of
    rewarding long matches, which are harder to get.

    Two cases where D2L's own code fails are defined here:
    - an empty prediction scores 0.0 (D2L would divide by zero);
    - a prediction shorter than k uses only n = 1..len(pred): it has no n-grams for larger n,
      and D2L would divide by zero. Its brevity penalty still applies.
    Tokens are split on any whitespace (D2L splits on single spaces; the same for clean text).
    """
    if not isinstance(pred_seq, str) or not isinstance(label_seq, str):
        raise TypeError("d2l_bleu compares two strings: the prediction and the reference.")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k (the longest n-gram) must be a positive integer, got {k!r}.")
    pred, label = pred_seq.split(), label_seq.split()
    if not label:
        raise ValueError("the reference sentence is empty; BLEU needs a reference to compare to.")
    if not pred:
        return 0.0
    score = math.exp(min(0.0, 1.0 - len(label) / len(pred)))
    for n in range(1, min(k, len(pred)) + 1):
        label_counts = _ngrams(label, n)
        pred_counts = _ngrams(pred, n)
        # clipped matches: an n-gram counts at most as often as it occurs in the reference
        matches = sum(min(c, label_counts[g]) for g, c in pred_counts.items())
        score *= (matches / (len(pred) - n + 1)) ** (0.5**n)
    return score


def corpus_bleu(preds: Sequence[str], refs: Sequence[str], effective_order: bool = False) -> float:
    """Standard corpus BLEU-4 (0-100) computed by sacrebleu, one reference per prediction.

    sacrebleu's own tokeniser is switched off (`tokenize="none"`): our sentences are already
    split into words and punctuation, and BLEU should count the same tokens the model emits
    (`j'ai` stays one token). Standard BLEU-4 needs 4-grams somewhere in the corpus: a corpus
    made only of sentences shorter than 4 tokens scores 0 even when perfect. Pass
    `effective_order=True` to skip the n-gram orders the corpus does not have (useful for a
    handful of very short sentences; not comparable with published BLEU).
    """
    import sacrebleu  # deferred: importing sacrebleu costs time that only BLEU users pay

    if isinstance(preds, str) or isinstance(refs, str):
        raise TypeError("corpus_bleu takes lists of sentences, not a single string.")
    preds, refs = list(preds), list(refs)
    if len(preds) != len(refs):
        raise ValueError(
            f"corpus_bleu needs one reference per prediction, got {len(preds)} predictions "
            f"and {len(refs)} references."
        )
    if not preds:
        raise ValueError("corpus_bleu needs at least one sentence.")
    for s in preds + refs:
        if not isinstance(s, str):
            raise TypeError(f"every prediction and reference must be a string, got {s!r}.")
    # force=True: our text is tokenised on purpose, so sacrebleu's "forgot to detokenize"
    # warning (printed for 100+ lines ending in " .") would only be noise
    metric = sacrebleu.metrics.BLEU(tokenize="none", effective_order=effective_order, force=True)
    return float(metric.corpus_score(preds, [refs]).score)
