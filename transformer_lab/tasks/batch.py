"""The `Batch` every task yields and every model trains on, plus the shared target-shifting helper."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from .vocab import BOS, PAD


@dataclass
class Batch:
    """One batch of a sequence-to-sequence task (ids follow `vocab.py`: 0 pad, 1 bos, 2 eos).

    `tgt_in` is `tgt_out` shifted right by one with `<bos>` in front (teacher forcing); both
    have the same valid length `tgt_lens`, and both are 0 past it, so a loss that ignores
    id 0 sees exactly the real target tokens.
    """

    src: torch.Tensor  # (B, S) long, padded with 0
    src_lens: torch.Tensor  # (B,) long, valid lengths of src (incl. <eos>)
    tgt_in: torch.Tensor  # (B, T) long: <bos> y_1 .. y_{T-1}
    tgt_out: torch.Tensor  # (B, T) long: y_1 .. y_T <eos>, padded with 0
    tgt_lens: torch.Tensor  # (B,) long, valid lengths of tgt_out (incl. <eos>)

    def to(self, device: torch.device | str) -> Batch:
        """A copy of the batch on `device` (the original is left where it was)."""
        return Batch(
            src=self.src.to(device),
            src_lens=self.src_lens.to(device),
            tgt_in=self.tgt_in.to(device),
            tgt_out=self.tgt_out.to(device),
            tgt_lens=self.tgt_lens.to(device),
        )

    @property
    def batch_size(self) -> int:
        return self.src.shape[0]

    def __len__(self) -> int:
        return self.src.shape[0]

    def __getitem__(self, index: int | slice | torch.Tensor) -> Batch:
        """Rows of the batch (an int keeps the batch dimension)."""
        if isinstance(index, int):
            index = slice(index, index + 1)
        return Batch(
            self.src[index], self.src_lens[index], self.tgt_in[index],
            self.tgt_out[index], self.tgt_lens[index],
        )


def shift_right(tgt_out: torch.Tensor, tgt_lens: torch.Tensor) -> torch.Tensor:
    """Decoder input for teacher forcing: `<bos>` + tgt_out[:, :-1], zeroed past `tgt_lens`."""
    bos = torch.full_like(tgt_out[:, :1], BOS)  # (B, 1)
    tgt_in = torch.cat([bos, tgt_out[:, :-1]], dim=1)  # (B, T)
    # Without this, a short row would carry its <eos> into tgt_in at position len + 1;
    # harmless for the loss, but zero-padding both tensors alike is easier to reason about.
    positions = torch.arange(tgt_out.shape[1], device=tgt_out.device)  # (T,)
    return tgt_in.masked_fill(positions[None, :] >= tgt_lens[:, None], PAD)


def lengths_mask(lengths: torch.Tensor, width: int) -> torch.Tensor:
    """(B, width) bool, True at positions < length (the valid, non-padding ones)."""
    return torch.arange(width, device=lengths.device)[None, :] < lengths[:, None]
