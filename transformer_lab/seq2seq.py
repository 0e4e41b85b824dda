"""Bahdanau attention: a GRU encoder–decoder whose context is recomputed at every step."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from .attention import AdditiveAttention
from .transformer import check_lengths, check_tokens

__all__ = ["BahdanauSeq2Seq", "Seq2SeqConfig", "Seq2SeqState"]


@dataclass
class Seq2SeqConfig:
    """D2L's settings: embed 32, hidden 32, 2 GRU layers, dropout 0.1."""

    src_vocab: int
    tgt_vocab: int
    embed_size: int = 32
    num_hiddens: int = 32
    num_layers: int = 2
    dropout: float = 0.1
    pad_id: int = 0

    def validate(self) -> None:
        """Raise ValueError naming the bad field."""
        for name in ("src_vocab", "tgt_vocab", "embed_size", "num_hiddens", "num_layers"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must lie in [0, 1), got {self.dropout}")


@dataclass
class Seq2SeqState:
    """Encoder outputs (keys = values), the source mask and the decoder's first hidden state."""

    enc_outputs: Tensor  # (B, S, H)
    src_keep: Tensor  # (B, 1, S), True for real source tokens
    hidden: Tensor  # (L, B, H), the encoder's final hidden state at each row's true length
    # Filled by decode_step under no_grad: the prefix consumed so far and the hidden state
    # after it, so that a prefix longer by one token costs one GRU step, not a replay.
    cache_tokens: Tensor | None = None  # (B, t)
    cache_hidden: Tensor | None = None  # (L, B, H)


class BahdanauSeq2Seq(nn.Module):
    """GRU encoder + GRU decoder with additive attention; the seq2seq protocol of docs/library.md.

    At decoder step t the query is the previous top-layer hidden state s_{t-1}; keys and
    values are the encoder outputs; the GRU input is [context ; embedding of y_{t-1}].
    """

    def __init__(self, cfg: Seq2SeqConfig) -> None:
        super().__init__()
        cfg.validate()
        self.cfg = cfg
        e, h, n, p = cfg.embed_size, cfg.num_hiddens, cfg.num_layers, cfg.dropout
        self.src_embed = nn.Embedding(cfg.src_vocab, e)
        self.encoder = nn.GRU(e, h, n, dropout=p if n > 1 else 0.0, batch_first=True)
        self.tgt_embed = nn.Embedding(cfg.tgt_vocab, e)
        self.attention = AdditiveAttention(h, h, h, dropout=p)
        self.decoder = nn.GRU(h + e, h, n, dropout=p if n > 1 else 0.0, batch_first=True)
        self.out = nn.Linear(h, cfg.tgt_vocab)

    def num_parameters(self) -> int:
        """Number of trainable parameters."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    def encode(self, src: Tensor, src_lens: Tensor) -> Seq2SeqState:
        """src (B, S), src_lens (B,) → encoder outputs, source mask and initial hidden state."""
        check_tokens("src", src, self.cfg.src_vocab)
        b, s = src.shape
        src_lens = check_lengths(src_lens, b, s)
        x = self.src_embed(src)  # (B, S, E)
        # Packing stops the GRU at each row's true length, so padding cannot leak into the
        # final hidden state that starts the decoder (D2L runs the GRU over the pads too).
        packed = pack_padded_sequence(x, src_lens.cpu(), batch_first=True, enforce_sorted=False)
        out, hidden = self.encoder(packed)  # hidden (L, B, H)
        out, _ = pad_packed_sequence(out, batch_first=True, total_length=s)  # (B, S, H)
        src_keep = (torch.arange(s, device=src.device) < src_lens.to(src.device)[:, None])[:, None]
        return Seq2SeqState(out, src_keep, hidden)

    def _step(self, y_prev: Tensor, hidden: Tensor, state: Seq2SeqState):
        """One decoder step: y_prev (B,) ids, hidden (L, B, H) → (top output, hidden, weights)."""
        query = hidden[-1].unsqueeze(1)  # (B, 1, H): the previous top-layer state s_{t-1}
        context, weights = self.attention(
            query, state.enc_outputs, state.enc_outputs, mask=state.src_keep
        )  # (B, 1, H), (B, 1, S)
        x = torch.cat([context, self.tgt_embed(y_prev).unsqueeze(1)], dim=-1)  # (B, 1, H+E)
        out, hidden = self.decoder(x, hidden)  # (B, 1, H), (L, B, H)
        return out, hidden, weights

    def _decode(self, tgt: Tensor, state: Seq2SeqState):
        """Teacher-forced decoder over tgt (B, T) → outputs (B, T, H), weights (B, T, S), hidden."""
        check_tokens("tgt_in", tgt, self.cfg.tgt_vocab)
        if tgt.shape[0] != state.enc_outputs.shape[0]:
            raise ValueError(
                f"target batch {tgt.shape[0]} does not match source batch "
                f"{state.enc_outputs.shape[0]}"
            )
        hidden, outs, maps = state.hidden, [], []
        for t in range(tgt.shape[1]):  # sequential by nature: the query depends on s_{t-1}
            out, hidden, w = self._step(tgt[:, t], hidden, state)
            outs.append(out)
            maps.append(w)
        return torch.cat(outs, dim=1), torch.cat(maps, dim=1), hidden

    def forward(self, src: Tensor, src_lens: Tensor, tgt_in: Tensor) -> Tensor:
        """Teacher forcing: src (B, S), src_lens (B,), tgt_in (B, T) → logits (B, T, V)."""
        return self.out(self._decode(tgt_in, self.encode(src, src_lens))[0])  # (B, T, V)

    def decode_step(self, tgt_prefix: Tensor, state: Seq2SeqState) -> tuple[Tensor, Tensor]:
        """tgt_prefix (B, t) → logits (B, V) of the next token, cross-attention (B, 1, S).

        Under no_grad, a prefix that extends the previous call's prefix by one token costs a
        single GRU step (the state caches the hidden state); any other prefix, such as beam
        search's reordered rows, is replayed from the encoder state.
        """
        t, cached = tgt_prefix.shape[1], state.cache_tokens
        if (cached is not None and not torch.is_grad_enabled()
                and cached.shape == (tgt_prefix.shape[0], t - 1)
                and torch.equal(cached, tgt_prefix[:, :-1])):
            check_tokens("tgt_prefix", tgt_prefix[:, -1:], self.cfg.tgt_vocab)
            out, hidden, w = self._step(tgt_prefix[:, -1], state.cache_hidden, state)
        else:
            out, w, hidden = self._decode(tgt_prefix, state)
            out, w = out[:, -1:], w[:, -1:]
        if not torch.is_grad_enabled():
            state.cache_tokens, state.cache_hidden = tgt_prefix, hidden
        return self.out(out[:, -1]), w  # (B, V), (B, 1, S)

    @torch.no_grad()
    def attention_maps(self, src: Tensor, src_lens: Tensor, tgt_in: Tensor) -> dict[str, list]:
        """{"cross": [(B, 1, T, S)]} in eval mode (dropout off); the train/eval mode is restored."""
        was_training = self.training
        self.eval()
        try:
            _, maps, _ = self._decode(tgt_in, self.encode(src, src_lens))
        finally:
            self.train(was_training)
        return {"cross": [maps.unsqueeze(1)]}  # (B, 1, T, S)
