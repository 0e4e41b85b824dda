"""The Transformer's two exact speed-ups: short inputs padded to 16 positions, and the decoder cache.

Neither changes a number the model computes; each only saves time on a CPU. The model in
transformer.py reads like the paper with both of them in place, and switching either off
gives the same logits, attention maps and gradients (tests/transformer_lab/test_speedups.py).

- ``pad_for_fast_softmax``: torch's CPU softmax is ~10x slower per element on rows shorter
  than 16, so ids shorter than ``MIN_ATTN_LEN`` get pad ids appended once per forward.
- ``DecoderCache``: greedy and beam decoding call ``decode_step`` with a prefix one token
  longer each time; the cache keeps each decoder layer's inputs for that prefix, so only the
  newest position has to run (greedy decoding ~2.5x faster).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor

__all__ = ["MIN_ATTN_LEN", "DecoderCache", "pad_for_fast_softmax"]

MIN_ATTN_LEN = 16  # shortest attention row the CPU softmax handles at full speed


def pad_for_fast_softmax(ids: Tensor, pad_id: int, max_len: int) -> Tensor:
    """(B, n) ids → (B, max(n, min(16, max_len))) by appending pad ids. A speed-up only.

    Why: torch 2.13's CPU softmax costs ~10x more per element on rows shorter than 16
    (measured: fused attention over 13 keys took 3x longer than over 16). Attention rows
    are as long as the key sequence, so short inputs are right-padded to 16 positions once
    per forward. Why it changes nothing: the pads are masked keys (source) or future
    positions (target), so no real position sees them, and every output and attention map
    is cut back to the true length.
    """
    extra = min(MIN_ATTN_LEN, max_len) - ids.shape[1]
    return F.pad(ids, (0, extra), value=pad_id) if extra > 0 else ids


@dataclass
class DecoderCache:
    """Each decoder layer's inputs for the prefix decoded so far. A speed-up only.

    Why it is exact: the decoder is causal, so its outputs at earlier positions cannot change
    when a token is appended; the next step only has to run the newest position, with the
    cached inputs as its self-attention keys and values. Why layer inputs and not keys and
    values: every layer projects its own K and V from them, so one buffer per layer serves
    both (and pre-LN layers normalise them first). Only used under no_grad (decoding).
    """

    tokens: Tensor  # (B, t), the prefix these inputs belong to
    inputs: list[Tensor]  # per layer (B, W, d), positions < t filled, W >= t

    def continues(self, prefix: Tensor) -> bool:
        """True when ``prefix`` (B, t) is the cached prefix plus one token (not, e.g., beam
        search's reordered rows), and autograd is off: then only its newest position runs."""
        b, t = prefix.shape
        return (not torch.is_grad_enabled() and self.tokens.shape == (b, t - 1)
                and torch.equal(self.tokens, prefix[:, :-1]))

    def extend(self, prefix: Tensor) -> Tensor:
        """Make room for ``prefix`` (B, t) and return the keys its newest query may see, (1, W).

        The buffers grow by MIN_ATTN_LEN positions at a time, so the attention rows stay at
        least 16 long (see pad_for_fast_softmax) and are reallocated only every 16 tokens.
        """
        t = prefix.shape[1]
        if self.inputs[0].shape[1] < t:
            self.inputs = [F.pad(buf, (0, 0, 0, MIN_ATTN_LEN)) for buf in self.inputs]
        self.tokens = prefix
        width = self.inputs[0].shape[1]
        return (torch.arange(width, device=prefix.device) < t)[None, :]  # (1, W): keys 0..t-1

    def write(self, layer: int, x: Tensor) -> Tensor:
        """Store layer ``layer``'s input x (B, 1, d) at the newest position; return all its
        inputs so far (B, W, d): the keys and values of that layer's self-attention."""
        self.inputs[layer][:, self.tokens.shape[1] - 1] = x[:, 0]
        return self.inputs[layer]
