"""English->French translation task: D2L preprocessing, vocabularies, a fixed split, batches."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import torch

from ..errors import lab_error
from .batch import Batch, shift_right
from .tatoeba import BUNDLED_CORPUS, read_pairs
from .vocab import EOS, PAD, Vocab, decode_ids

# D2L's four evaluation sentences and their references, after preprocessing. They are
# always kept in the training split so a trained model can be checked on them.
D2L_EXAMPLES: list[tuple[str, str]] = [
    ("go .", "va !"),
    ("i lost .", "j'ai perdu ."),
    ("he's calm .", "il est calme ."),
    ("i'm home .", "je suis chez moi ."),
]
_PINNED = {en for en, _ in D2L_EXAMPLES}


def preprocess(text: str) -> str:
    """D2L's cleaning: no-break spaces become spaces, lower-case, and a space goes before
    `, . ! ?` unless one is already there. Runs of whitespace are then collapsed to one
    space (D2L leaves them, which would make empty tokens)."""
    if not isinstance(text, str):
        raise TypeError(f"expected a sentence (str), got {type(text).__name__}.")
    text = text.replace("\u202f", " ").replace("\xa0", " ").lower()
    out = []
    for i, ch in enumerate(text):
        if i > 0 and ch in ",.!?" and text[i - 1] != " ":
            out.append(" ")
        out.append(ch)
    return " ".join("".join(out).split())


END_MARKS = (".", "!", "?")


def normalise(text: str) -> str:
    """A sentence as the corpus writes one: `preprocess`, then a final " ." when it ends in no
    `.`, `!` or `?` (every corpus sentence does: without it "I love you" is no sentence the
    model has seen and greedy decoding runs on)."""
    clean = preprocess(text)
    if clean and not clean.endswith(END_MARKS):
        clean += " ."
    return clean


def tokenize(text: str) -> list[str]:
    """Word-level tokens of a sentence after `preprocess` (`"I'm home."` -> `["i'm", "home", "."]`)."""
    return preprocess(text).split()


def _in_heldout(english: str, fraction: float, seed: int) -> bool:
    """Stable split: a hash of the sentence decides, so it is the same on every machine,
    every run and every Python, and all translations of one English sentence stay together."""
    digest = hashlib.sha1(f"{seed}\t{english}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction


@dataclass
class TranslationConfig:
    """Corpus, sequence length and split of the EN->FR task."""

    num_steps: int = 10  # tokens per sentence incl. <eos>; longer ones are cut (as in D2L)
    min_freq: int = 1  # rarer tokens read as <unk>
    heldout_fraction: float = 0.1  # share of English sentences kept out of training
    split_seed: int = 0
    seed: int = 0  # seed of the task's own sampling stream
    path: str | None = None  # a TSV of english<TAB>french lines; None = the bundled corpus
    max_pairs: int | None = None  # read only the first max_pairs lines of the file

    def __post_init__(self) -> None:
        for name in ("num_steps", "min_freq", "split_seed", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an integer, got {value!r}.")
        if self.num_steps < 2:
            raise ValueError(f"num_steps must be at least 2 (a word and <eos>), got {self.num_steps}.")
        if self.min_freq < 0:
            raise ValueError(f"min_freq must be 0 or more, got {self.min_freq}.")
        if not isinstance(self.heldout_fraction, (int, float)) or not 0 <= self.heldout_fraction < 1:
            raise ValueError(
                f"heldout_fraction must be a number in [0, 1), got {self.heldout_fraction!r}."
            )


class TranslationTask:
    """EN->FR pairs split into `.train` / `.heldout`, with vocabularies built on `.train` only.

    `.train` and `.heldout` hold preprocessed (english, french) strings, which are also
    the references BLEU should compare against; `.train_raw` / `.heldout_raw` keep the
    original text. Held-out words missing from training read as `<unk>`, as they would
    for a learner's own sentence.
    """

    def __init__(self, cfg: TranslationConfig | None = None, pairs: list[tuple[str, str]] | None = None):
        self.cfg = cfg if cfg is not None else TranslationConfig()
        if not isinstance(self.cfg, TranslationConfig):
            raise TypeError(f"expected a TranslationConfig, got {type(self.cfg).__name__}.")
        if pairs is None:
            pairs = read_pairs(self.cfg.path or BUNDLED_CORPUS, max_pairs=self.cfg.max_pairs)
        self.train_raw: list[tuple[str, str]] = []
        self.heldout_raw: list[tuple[str, str]] = []
        self.train: list[tuple[str, str]] = []
        self.heldout: list[tuple[str, str]] = []
        for pair in pairs:
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise ValueError(f"each pair must be (english, french), got {pair!r}.")
            en, fr = preprocess(pair[0]), preprocess(pair[1])
            if not en or not fr:
                raise ValueError(f"empty sentence in pair {tuple(pair)!r}.")
            held = en not in _PINNED and _in_heldout(
                en, self.cfg.heldout_fraction, self.cfg.split_seed
            )
            (self.heldout if held else self.train).append((en, fr))
            (self.heldout_raw if held else self.train_raw).append(tuple(pair))
        if not self.train:
            raise ValueError("no training pairs: the corpus is empty or all held out.")
        self.src_vocab = Vocab([en.split() for en, _ in self.train], min_freq=self.cfg.min_freq)
        self.tgt_vocab = Vocab([fr.split() for _, fr in self.train], min_freq=self.cfg.min_freq)
        self._train = self._encode(self.train)
        self._heldout = self._encode(self.heldout) if self.heldout else None
        self.generator = torch.Generator().manual_seed(self.cfg.seed)

    def _ids(self, sentence: str, vocab: Vocab) -> tuple[list[int], int]:
        """Token ids + <eos>, cut to num_steps (the <eos> is lost if cut), padded with 0."""
        n = self.cfg.num_steps
        ids = (vocab.lookup(sentence.split()) + [EOS])[:n]
        return ids + [PAD] * (n - len(ids)), len(ids)

    def _encode(self, pairs: list[tuple[str, str]]) -> Batch:
        src, src_lens = zip(*(self._ids(en, self.src_vocab) for en, _ in pairs), strict=True)
        tgt, tgt_lens = zip(*(self._ids(fr, self.tgt_vocab) for _, fr in pairs), strict=True)
        tgt_out = torch.tensor(tgt)  # (N, T)
        tgt_lens = torch.tensor(tgt_lens)  # (N,)
        return Batch(
            torch.tensor(src), torch.tensor(src_lens), shift_right(tgt_out, tgt_lens),
            tgt_out, tgt_lens,
        )

    def sample(self, batch_size: int, generator: torch.Generator | None = None) -> Batch:
        """`batch_size` training pairs drawn with replacement (one tensor index, no loop)."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}.")
        g = self.generator if generator is None else generator
        if not isinstance(g, torch.Generator):
            raise TypeError(f"generator must be a torch.Generator, got {type(g).__name__}.")
        idx = torch.randint(0, len(self.train), (batch_size,), generator=g)  # (B,)
        return self._train[idx]

    def all_train_batches(
        self, batch_size: int, generator: torch.Generator | None = None
    ) -> list[Batch]:
        """One epoch: every training pair once, in order, or shuffled by `generator`."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}.")
        n = len(self.train)
        order = torch.arange(n) if generator is None else torch.randperm(n, generator=generator)
        return [self._train[order[i : i + batch_size]] for i in range(0, n, batch_size)]

    def encode_pairs(self, pairs: list[tuple[str, str]]) -> Batch:
        """Any preprocessed (english, french) pairs as one batch, encoded like training pairs."""
        if not pairs:
            raise ValueError("no sentence pairs to encode.")
        return self._encode(list(pairs))

    def heldout_batch(self) -> Batch:
        """All held-out pairs as one batch (same encoding as training batches)."""
        if self._heldout is None:
            raise ValueError("this task has no held-out pairs (heldout_fraction is 0).")
        return self._heldout

    def encode_source(self, sentence: str) -> tuple[torch.Tensor, torch.Tensor]:
        """An English sentence -> (src (1, num_steps), src_lens (1,)), like the training data."""
        tokens = normalise(sentence).split()
        if not tokens:
            raise lab_error("sentence_empty")
        ids, n = self._ids(" ".join(tokens), self.src_vocab)
        return torch.tensor([ids]), torch.tensor([n])

    def unknown_words(self, sentence: str) -> list[str]:
        """Tokens of `sentence` the model never saw in training (they become `<unk>`)."""
        return list(dict.fromkeys(t for t in normalise(sentence).split() if t not in self.src_vocab))

    def decode_target(self, ids: torch.Tensor | list[int]) -> str:
        """French tokens of a predicted id row up to the first `<eos>`, joined by spaces."""
        return decode_ids(self.tgt_vocab, ids)

    def __repr__(self) -> str:
        return (
            f"TranslationTask(train={len(self.train)}, heldout={len(self.heldout)}, "
            f"src_vocab={len(self.src_vocab)}, tgt_vocab={len(self.tgt_vocab)}, "
            f"num_steps={self.cfg.num_steps})"
        )

