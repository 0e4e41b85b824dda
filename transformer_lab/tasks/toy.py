"""Generated toy sequence tasks (copy, reverse, sort) with vectorised batch sampling.

Encoding, for a row whose symbols are x_1 .. x_n (min_len <= n <= max_len):

    src     = x_1 .. x_n <eos>  then <pad> up to width max_len + 1,   src_lens = n + 1
    tgt_out = y_1 .. y_n <eos>  then <pad> up to width max_len + 1,   tgt_lens = n + 1
    tgt_in  = <bos> y_1 .. y_n  then <pad> (same valid length as tgt_out)

where y is x itself (copy), x reversed (reverse) or x sorted by id (sort). Symbol i
(0 <= i < vocab_size) has id 4 + i; its token is a digit for vocab_size <= 10, a letter
for vocab_size <= 26, otherwise `s` plus a zero-padded number.

Every batch has the fixed width max_len + 1, so shapes never change between steps.
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from ..errors import lab_error
from .batch import Batch, lengths_mask, shift_right
from .vocab import EOS, PAD, RESERVED, Vocab, decode_ids

KINDS = ("copy", "reverse", "sort")
MAX_LEN = 256  # longer toy sequences are no longer "toy" on 2 CPU cores
MAX_VOCAB = 1000
FIRST_SYMBOL = len(RESERVED)  # id of symbol 0


def _check_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}.")


def heldout_seed(seed: int) -> int:
    """The fixed seed of the held-out stream: derived from `seed` but never equal to it."""
    return (seed * 2654435761 + 0x5EED_4E1D) % (2**63 - 1) or 1


def symbol_names(vocab_size: int) -> list[str]:
    """Readable token names of the symbols: digits, then letters, then `s000`, `s001`, ..."""
    if vocab_size <= 10:
        return [str(i) for i in range(vocab_size)]
    if vocab_size <= 26:
        return list(string.ascii_lowercase[:vocab_size])
    width = len(str(vocab_size - 1))
    return [f"s{i:0{width}d}" for i in range(vocab_size)]


@dataclass
class ToyTaskConfig:
    """Which toy task, and the range of sequence lengths and symbols it draws from."""

    kind: str = "reverse"  # "copy" | "reverse" | "sort"
    min_len: int = 8
    max_len: int = 12
    vocab_size: int = 10  # number of symbols, not counting the 4 reserved tokens
    seed: int = 0  # seed of the task's own training stream (held-out uses another one)

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise lab_error("toy_unknown_kind", value=self.kind, choices=list(KINDS))
        for name in ("min_len", "max_len", "vocab_size", "seed"):
            _check_int(name, getattr(self, name))
        if self.min_len < 1:
            raise ValueError(f"min_len must be at least 1, got {self.min_len}.")
        if self.min_len > self.max_len:
            raise ValueError(
                f"min_len ({self.min_len}) must not be larger than max_len ({self.max_len})."
            )
        if self.max_len > MAX_LEN:
            raise ValueError(f"max_len is limited to {MAX_LEN} for toy tasks, got {self.max_len}.")
        if not 2 <= self.vocab_size <= MAX_VOCAB:
            raise ValueError(
                f"vocab_size must be between 2 and {MAX_VOCAB} symbols, got {self.vocab_size}."
            )
        if self.seed < 0:
            raise ValueError(f"seed must be 0 or more, got {self.seed}.")


class ToyTask:
    """A copy / reverse / sort task that samples whole batches with a few tensor ops."""

    def __init__(self, cfg: ToyTaskConfig | None = None) -> None:
        self.cfg = cfg if cfg is not None else ToyTaskConfig()
        if not isinstance(self.cfg, ToyTaskConfig):
            raise TypeError(f"ToyTask expects a ToyTaskConfig, got {type(self.cfg).__name__}.")
        self.vocab = Vocab.from_ordered(symbol_names(self.cfg.vocab_size))
        self.width = self.cfg.max_len + 1  # room for the longest row plus <eos>
        self.generator = torch.Generator().manual_seed(self.cfg.seed)

    @property
    def kind(self) -> str:
        return self.cfg.kind

    def _answer(self, sym: torch.Tensor, lens: torch.Tensor, valid: torch.Tensor) -> torch.Tensor:
        """Target symbols for rows `sym` (B, L), zero past each row's length."""
        if self.cfg.kind == "copy":
            return sym
        if self.cfg.kind == "reverse":
            steps = torch.arange(sym.shape[1])  # (L,)
            idx = (lens[:, None] - 1 - steps[None, :]).clamp(min=0)  # (B, L): n-1, n-2, .., 0, 0..
            return sym.gather(1, idx).masked_fill(~valid, PAD)
        # sort: push padding past every symbol so it sorts to the end, then blank it again
        big = FIRST_SYMBOL + self.cfg.vocab_size
        return sym.masked_fill(~valid, big).sort(dim=1).values.masked_fill(~valid, PAD)

    def _assemble(self, sym: torch.Tensor, lens: torch.Tensor) -> Batch:
        """Batch from symbol rows `sym` (B, L) padded with 0 and their lengths `lens` (B,)."""
        valid = lengths_mask(lens, sym.shape[1])  # (B, L)
        answer = self._answer(sym, lens, valid)  # (B, L)
        pad_to = self.width - sym.shape[1]
        eos_at = lens[:, None]  # (B, 1): <eos> goes right after the last symbol
        src = F.pad(sym, (0, pad_to)).scatter_(1, eos_at, EOS)  # (B, W)
        tgt_out = F.pad(answer, (0, pad_to)).scatter_(1, eos_at, EOS)  # (B, W)
        tgt_lens = lens + 1
        return Batch(src, lens + 1, shift_right(tgt_out, tgt_lens), tgt_out, tgt_lens)

    def sample(self, batch_size: int, generator: torch.Generator | None = None) -> Batch:
        """A random batch; draws from `generator`, or from the task's own seeded stream."""
        _check_int("batch_size", batch_size)
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}.")
        g = self.generator if generator is None else generator
        if not isinstance(g, torch.Generator):
            raise TypeError(f"generator must be a torch.Generator, got {type(g).__name__}.")
        c = self.cfg
        lens = torch.randint(c.min_len, c.max_len + 1, (batch_size,), generator=g)  # (B,)
        sym = torch.randint(
            FIRST_SYMBOL, FIRST_SYMBOL + c.vocab_size, (batch_size, c.max_len), generator=g
        )  # (B, L)
        sym = sym.masked_fill(~lengths_mask(lens, c.max_len), PAD)
        return self._assemble(sym, lens)

    def heldout(self, n: int = 1000) -> Batch:
        """A fixed evaluation batch drawn from its own seed (see `heldout_seed`).

        It never touches the training stream, so calling it does not change what `sample`
        returns next. The rows come from a different random stream than training, but with
        short lengths and few symbols a held-out row can still equal some training row.
        """
        return self.sample(n, torch.Generator().manual_seed(heldout_seed(self.cfg.seed)))

    def expected(self, tokens: list[str]) -> list[str]:
        """The correct answer for a list of symbol tokens (for display next to a model's)."""
        src, lens = self.encode_source(" ".join(tokens))
        sym = src[:, : int(lens[0]) - 1]  # (1, n) without <eos>
        answer = self._answer(sym, lens - 1, torch.ones_like(sym, dtype=torch.bool))
        return self.vocab.to_tokens(answer[0])

    def encode_source(self, text: str) -> tuple[torch.Tensor, torch.Tensor]:
        """`"3 1 4"` -> (src (1, W), src_lens (1,)) with W = max(max_len, n) + 1."""
        if not isinstance(text, str):
            raise TypeError(f"the input must be a string of symbols, got {type(text).__name__}.")
        tokens = text.split()
        if not tokens:
            raise ValueError("the input is empty: type some symbols separated by spaces.")
        if len(tokens) > MAX_LEN:
            raise ValueError(f"the input has {len(tokens)} symbols; at most {MAX_LEN} are allowed.")
        unknown = sorted({t for t in tokens if t not in self.vocab or t in RESERVED})
        if unknown:
            allowed = " ".join(self.vocab.itos[FIRST_SYMBOL:])
            raise lab_error("toy_unknown_symbols", symbols=unknown, allowed=allowed)
        width = max(self.cfg.max_len, len(tokens)) + 1
        src = torch.zeros(1, width, dtype=torch.long)  # (1, W)
        src[0, : len(tokens)] = torch.tensor(self.vocab.lookup(tokens))
        src[0, len(tokens)] = EOS
        return src, torch.tensor([len(tokens) + 1])

    def decode_target(self, ids: torch.Tensor | list[int]) -> str:
        """Symbols of a predicted id row, up to the first `<eos>`, joined by spaces."""
        return decode_ids(self.vocab, ids)

