"""Token vocabulary: maps tokens to ids with the project's four reserved tokens first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import torch

# The shared id convention of the whole library (docs/library.md): every model, loss and
# decoder relies on these four ids, so they are fixed rather than configurable.
PAD, BOS, EOS, UNK = 0, 1, 2, 3
RESERVED: tuple[str, ...] = ("<pad>", "<bos>", "<eos>", "<unk>")


def _flatten(tokens: Iterable) -> list[str]:
    """Accept a flat list of tokens or a list of token lists (one per sentence), as D2L does."""
    flat: list[str] = []
    for item in tokens:
        if isinstance(item, str):
            flat.append(item)
        elif isinstance(item, (list, tuple)):
            for tok in item:
                if not isinstance(tok, str):
                    raise TypeError(f"Vocab tokens must be strings, got {type(tok).__name__}: {tok!r}.")
                flat.append(tok)
        else:
            raise TypeError(
                "Vocab expects a list of token strings or a list of token lists, "
                f"got an item of type {type(item).__name__}: {item!r}."
            )
    return flat


class Vocab:
    """D2L-style vocabulary.

    Ids 0..3 are always `<pad> <bos> <eos> <unk>`. The other tokens follow, most frequent
    first, ties broken alphabetically so the same corpus always gives the same ids.
    Tokens seen fewer than `min_freq` times are left out and read as `<unk>`.
    """

    def __init__(
        self,
        tokens: Iterable = (),
        min_freq: int = 0,
        reserved: Sequence[str] = RESERVED,
    ) -> None:
        if isinstance(min_freq, bool) or not isinstance(min_freq, int):
            raise TypeError(f"min_freq must be an integer, got {min_freq!r}.")
        if min_freq < 0:
            raise ValueError(f"min_freq must be 0 or more, got {min_freq}.")
        reserved = list(reserved)
        if reserved[: len(RESERVED)] != list(RESERVED):
            raise ValueError(
                f"reserved tokens must start with {list(RESERVED)} (ids 0..3 are shared by the "
                f"whole library), got {reserved}."
            )
        if len(set(reserved)) != len(reserved):
            raise ValueError(f"reserved tokens must be distinct, got {reserved}.")
        counter = Counter(_flatten(tokens))
        self.token_freqs: list[tuple[str, int]] = sorted(
            counter.items(), key=lambda kv: (-kv[1], kv[0])
        )
        self.itos: list[str] = list(reserved)
        taken = set(reserved)
        self.itos += [t for t, f in self.token_freqs if f >= min_freq and t not in taken]
        self.stoi: dict[str, int] = {t: i for i, t in enumerate(self.itos)}

    @classmethod
    def from_ordered(cls, tokens: Sequence[str], reserved: Sequence[str] = RESERVED) -> Vocab:
        """Build a vocabulary whose ids follow `tokens` in the given order (after the reserved ones)."""
        tokens = list(tokens)
        if len(set(tokens)) != len(tokens):
            raise ValueError("from_ordered needs distinct tokens; some are repeated.")
        # Toy tasks need symbol i at id 4 + i; sorting by frequency would not promise that.
        vocab = cls(reserved=reserved)
        for tok in _flatten(tokens):
            if tok in vocab.stoi:
                raise ValueError(f"token {tok!r} is already a reserved token.")
            vocab.stoi[tok] = len(vocab.itos)
            vocab.itos.append(tok)
        vocab.token_freqs = [(t, 1) for t in tokens]
        return vocab

    def __len__(self) -> int:
        return len(self.itos)

    def __contains__(self, token: object) -> bool:
        return token in self.stoi

    def __getitem__(self, tokens: str | Sequence[str]) -> int | list[int]:
        if isinstance(tokens, str):
            return self.stoi.get(tokens, UNK)
        if isinstance(tokens, (list, tuple)):
            return [self[t] for t in tokens]
        raise TypeError(f"look up a token string or a list of them, got {type(tokens).__name__}.")

    def lookup(self, tokens: Sequence[str]) -> list[int]:
        """Ids of a list of tokens; unknown tokens become `<unk>` (id 3)."""
        if isinstance(tokens, str):
            raise TypeError("lookup expects a list of tokens; for one token use vocab[token].")
        return [self.stoi.get(t, UNK) for t in tokens]

    def to_tokens(self, ids: int | Sequence[int] | torch.Tensor) -> str | list[str]:
        """Tokens of one id or of a list / 1-D tensor of ids."""
        if isinstance(ids, torch.Tensor):
            if ids.dim() == 0:
                return self.to_tokens(int(ids))
            if ids.dim() != 1:
                raise ValueError(f"to_tokens takes a 1-D tensor of ids, got shape {tuple(ids.shape)}.")
            ids = ids.tolist()
        if isinstance(ids, int) and not isinstance(ids, bool):
            if not 0 <= ids < len(self.itos):
                raise ValueError(f"id {ids} is outside this vocabulary (0..{len(self.itos) - 1}).")
            return self.itos[ids]
        return [self.to_tokens(int(i)) for i in ids]

    @property
    def unk(self) -> int:
        return UNK

    @property
    def pad(self) -> int:
        return PAD

    @property
    def bos(self) -> int:
        return BOS

    @property
    def eos(self) -> int:
        return EOS

    def __repr__(self) -> str:
        head = ", ".join(self.itos[:8])
        return f"Vocab(size={len(self)}, tokens=[{head}{', ...' if len(self) > 8 else ''}])"


def decode_ids(vocab: Vocab, ids: torch.Tensor | Sequence[int]) -> str:
    """Tokens of `ids` up to the first `<eos>`, skipping `<pad>` and `<bos>`, joined by spaces."""
    if isinstance(ids, torch.Tensor):
        if ids.dim() == 2 and ids.shape[0] == 1:
            ids = ids[0]
        if ids.dim() != 1:
            raise ValueError(f"decode one row of ids at a time, got shape {tuple(ids.shape)}.")
        ids = ids.tolist()
    out: list[str] = []
    for i in ids:
        i = int(i)
        if i == EOS:
            break
        if i in (PAD, BOS):
            continue
        out.append(vocab.to_tokens(i))
    return " ".join(out)
