"""The encoder–decoder Transformer of "Attention Is All You Need", sized for toy tasks."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor, nn

from .attention import causal_mask
from .configs import TransformerConfig
from .multihead import MultiHeadAttention
from .positional import make_positional_encoding
from .speedups import DecoderCache, pad_for_fast_softmax

__all__ = [
    "DecoderLayer",
    "EncoderLayer",
    "EncoderState",
    "PositionWiseFFN",
    "Transformer",
    "TransformerConfig",
    "check_lengths",
    "check_tokens",
]


def check_tokens(name: str, ids: Tensor, vocab_size: int, max_len: int | None = None) -> None:
    """Raise a clear error unless ``ids`` is a non-empty (B, T) integer batch of valid ids."""
    if not isinstance(ids, Tensor):
        raise TypeError(f"{name} must be a torch tensor of token ids, got {type(ids).__name__}")
    if ids.is_floating_point() or ids.is_complex() or ids.dtype == torch.bool:
        raise TypeError(f"{name} must hold integer token ids, got dtype {ids.dtype}")
    if ids.dim() != 2:
        raise ValueError(f"{name} must have shape (batch, length), got {tuple(ids.shape)}")
    if ids.shape[0] == 0 or ids.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {tuple(ids.shape)}): give at least one token")
    if max_len is not None and ids.shape[1] > max_len:
        raise ValueError(f"{name} has length {ids.shape[1]}, longer than the model's "
                         f"max_len={max_len}")
    lo, hi = int(ids.min()), int(ids.max())
    if lo < 0 or hi >= vocab_size:
        bad = hi if hi >= vocab_size else lo
        raise ValueError(
            f"{name} contains token id {bad}, outside the vocabulary of size {vocab_size} "
            f"(valid ids are 0..{vocab_size - 1})"
        )


def check_lengths(lens: Tensor, batch: int, length: int, name: str = "src_lens") -> Tensor:
    """Raise unless ``lens`` is (batch,) integers in [1, length]; return it as int64."""
    lens = torch.as_tensor(lens)
    if lens.dim() != 1 or lens.shape[0] != batch:
        raise ValueError(f"{name} must have one length per batch row: shape ({batch},), "
                         f"got {tuple(lens.shape)}")
    if lens.is_floating_point():
        raise TypeError(f"{name} must hold integer lengths, got dtype {lens.dtype}")
    if int(lens.min()) < 1 or int(lens.max()) > length:
        raise ValueError(
            f"{name} must lie in [1, {length}] (an empty sequence cannot be attended to), "
            f"got values from {int(lens.min())} to {int(lens.max())}"
        )
    return lens.long()


class PositionWiseFFN(nn.Module):
    """max(0, x W1 + b1) W2 + b2, applied to every position on its own."""

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        return self.linear2(self.dropout(torch.relu(self.linear1(x))))  # (B, T, d)


Sublayer = Callable[[Tensor], tuple[Tensor, Tensor | None]]


def residual(x: Tensor, sublayer: Sublayer, norm: nn.Module, drop: nn.Module,
             norm_first: bool) -> tuple[Tensor, Tensor | None]:
    """The residual rule, written once: post-LN ``norm(x + drop(f(x)))`` (the paper's Add &
    Norm) or pre-LN ``x + drop(f(norm(x)))``. ``sublayer`` maps its input to (output, its
    attention weights or None); the weights are passed through."""
    if norm_first:
        out, w = sublayer(norm(x))
        return x + drop(out), w
    out, w = sublayer(x)
    return norm(x + drop(out)), w


class EncoderLayer(nn.Module):
    """Self-attention then FFN, each as Add & Norm (post-LN) or x + f(LN(x)) (pre-LN)."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        self.norm_first = cfg.norm_first
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.heads, cfg.dropout)
        self.ffn = PositionWiseFFN(cfg.d_model, cfg.d_ff, cfg.dropout)
        self.norm1, self.norm2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.dropout1, self.dropout2 = nn.Dropout(cfg.dropout), nn.Dropout(cfg.dropout)

    def forward(
        self, x: Tensor, src_keep: Tensor | None, need_weights: bool = False
    ) -> tuple[Tensor, Tensor | None]:
        """x (B, S, d); src_keep (B, 1, 1, S) True for real keys → (B, S, d), (B, h, S, S)."""
        pre = self.norm_first
        x, w = residual(x, lambda h: self.self_attn(h, h, h, mask=src_keep, need_weights=need_weights),
                        self.norm1, self.dropout1, pre)
        x, _ = residual(x, lambda h: (self.ffn(h), None), self.norm2, self.dropout2, pre)
        return x, w


@dataclass
class EncoderState:
    """What the decoder needs from the encoder: its output and the source key mask."""

    memory: Tensor  # (B, S', d), S' >= S after pad_for_fast_softmax
    src_keep: Tensor  # (B, 1, 1, S'), True for real (non-pad) source tokens
    src_lens: Tensor  # (B,)
    src_width: int  # S, the width of the caller's src
    cache: DecoderCache | None = None  # filled by decode_step under no_grad (speedups.py)


class DecoderLayer(nn.Module):
    """Causal self-attention, cross-attention to the encoder output, then FFN."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        self.norm_first = cfg.norm_first
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.heads, cfg.dropout)
        self.cross_attn = MultiHeadAttention(cfg.d_model, cfg.heads, cfg.dropout)
        self.ffn = PositionWiseFFN(cfg.d_model, cfg.d_ff, cfg.dropout)
        self.norm1, self.norm2, self.norm3 = (nn.LayerNorm(cfg.d_model) for _ in range(3))
        self.dropout1, self.dropout2, self.dropout3 = (nn.Dropout(cfg.dropout) for _ in range(3))

    def forward(
        self, x: Tensor, enc: EncoderState, tgt_keep: Tensor, need_weights: bool = False,
        prefix: Tensor | None = None,
    ) -> tuple[Tensor, Tensor | None, Tensor | None]:
        """x (B, T, d) → (B, T, d), self weights (B, h, T, T), cross weights (B, h, T, S').

        ``tgt_keep`` (T, T) is the causal mask. With the decoder cache (speedups.py) x is only
        the newest position (B, 1, d), ``prefix`` (B, W, d) holds this layer's inputs at every
        position so far, the self-attention's keys and values, and tgt_keep is (1, W).
        """
        pre = self.norm_first

        def self_attention(h: Tensor) -> tuple[Tensor, Tensor | None]:
            # keys and values: the positions so far, as the sublayer sees its input (normed or not)
            kv = h if prefix is None else (self.norm1(prefix) if pre else prefix)  # (B, T|W, d)
            return self.self_attn(h, kv, kv, mask=tgt_keep, need_weights=need_weights)

        # 1. masked self-attention: each position sees itself and the positions before it
        x, w_self = residual(x, self_attention, self.norm1, self.dropout1, pre)
        # 2. cross-attention: queries from the decoder, keys and values from the encoder output
        x, w_cross = residual(x, lambda q: self.cross_attn(q, enc.memory, enc.memory,
                                                           mask=enc.src_keep,
                                                           need_weights=need_weights),
                              self.norm2, self.dropout2, pre)
        # 3. the position-wise feed-forward network
        x, _ = residual(x, lambda h: (self.ffn(h), None), self.norm3, self.dropout3, pre)
        return x, w_self, w_cross


class Transformer(nn.Module):
    """Encoder–decoder Transformer following the seq2seq model protocol of docs/library.md."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        cfg.validate()
        self.cfg = cfg
        d = cfg.d_model
        self.src_embed = nn.Embedding(cfg.src_vocab, d)
        self.tgt_embed = self.src_embed if cfg.share_embeddings else nn.Embedding(cfg.tgt_vocab, d)
        for emb in {id(self.src_embed): self.src_embed, id(self.tgt_embed): self.tgt_embed}.values():
            # std 1/√d, so that after the √d scaling tokens have unit-size entries, like the PE.
            nn.init.normal_(emb.weight, std=d**-0.5)
        self.src_pe = make_positional_encoding(cfg.pe, d, cfg.max_len, cfg.dropout)
        self.tgt_pe = make_positional_encoding(cfg.pe, d, cfg.max_len, cfg.dropout)
        self.encoder = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.layers))
        self.decoder = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.layers))
        # Pre-LN leaves the residual stream un-normalised, so it needs a last LayerNorm.
        self.enc_norm = nn.LayerNorm(d) if cfg.norm_first else nn.Identity()
        self.dec_norm = nn.LayerNorm(d) if cfg.norm_first else nn.Identity()
        self.out = nn.Linear(d, cfg.tgt_vocab)
        if cfg.tie_output:
            self.out.weight = self.tgt_embed.weight
        self.scale = math.sqrt(d)

    def num_parameters(self) -> int:
        """Number of trainable parameters (shared tensors counted once)."""
        return sum(p.numel() for p in self.parameters() if p.requires_grad)

    # ---- encoder -----------------------------------------------------------------------
    def _encode(self, src: Tensor, src_lens: Tensor, need_weights: bool):
        check_tokens("src", src, self.cfg.src_vocab, self.cfg.max_len)
        b, s = src.shape
        src_lens = check_lengths(src_lens, b, s).to(src.device)
        src = pad_for_fast_softmax(src, self.cfg.pad_id, self.cfg.max_len)  # (B, S')
        # Built once per forward and shared by every encoder layer and every cross-attention.
        src_keep = (torch.arange(src.shape[1], device=src.device) < src_lens[:, None])
        src_keep = src_keep[:, None, None, :]  # (B, 1, 1, S')
        x = self.src_pe(self.src_embed(src) * self.scale)  # (B, S', d)
        maps = []
        for layer in self.encoder:
            x, w = layer(x, src_keep, need_weights)
            maps.append(w[:, :, :s, :s] if w is not None else None)  # (B, h, S, S)
        return EncoderState(self.enc_norm(x), src_keep, src_lens, s), maps

    def encode(self, src: Tensor, src_lens: Tensor) -> EncoderState:
        """src (B, S) ids, src_lens (B,) → the state that decode_step consumes."""
        return self._encode(src, src_lens, need_weights=False)[0]

    # ---- decoder -----------------------------------------------------------------------
    def _decode(self, tgt: Tensor, state: EncoderState, need_weights: bool = False,
                step: bool = False) -> tuple[Tensor, list, list]:
        """Run the decoder stack on tgt (B, T) → output (B, T, d), self maps, cross maps.

        need_weights: every layer's maps (B, h, T, T) and (B, h, T, S). step: one decoding
        step: the last layer's maps come back, and under no_grad the state's DecoderCache is
        used (when tgt extends the cached prefix by one token, only its newest position runs,
        and everything comes back for that position only) or started.
        """
        check_tokens("tgt_in", tgt, self.cfg.tgt_vocab, self.cfg.max_len)
        if tgt.shape[0] != state.memory.shape[0]:
            raise ValueError(
                f"target batch {tgt.shape[0]} does not match source batch {state.memory.shape[0]}"
            )
        t, s = tgt.shape[1], state.src_width
        cache = state.cache if step and state.cache is not None else None
        if cache is not None and not cache.continues(tgt):
            cache = None  # a new or reordered prefix (beam search): recompute in full
        padded = pad_for_fast_softmax(tgt, self.cfg.pad_id, self.cfg.max_len)  # (B, T')
        x = self.tgt_pe(self.tgt_embed(padded) * self.scale)  # (B, T', d)
        if cache is None:
            # The causal mask alone suffices: target padding sits at the end, so a real
            # position never sees a pad key, and the loss ignores outputs at pad positions.
            tgt_keep = causal_mask(padded.shape[1], device=tgt.device)  # (T', T')
        else:
            x, tgt_keep = x[:, t - 1 : t], cache.extend(tgt)  # (B, 1, d), (1, W)
        self_maps, cross_maps, inputs = [], [], []
        last = len(self.decoder) - 1
        for i, layer in enumerate(self.decoder):
            inputs.append(x)
            prefix = cache.write(i, x) if cache is not None else None  # (B, W, d)
            x, w_self, w_cross = layer(x, state, tgt_keep, need_weights or (step and i == last),
                                       prefix)
            self_maps.append(w_self[:, :, :t, :t] if w_self is not None else None)
            cross_maps.append(w_cross[:, :, :t, :s] if w_cross is not None else None)
        if step and cache is None:
            state.cache = None if torch.is_grad_enabled() else DecoderCache(tgt, inputs)
        return self.dec_norm(x[:, :t]), self_maps, cross_maps  # (B, T, d) or (B, 1, d)

    def forward(self, src: Tensor, src_lens: Tensor, tgt_in: Tensor) -> Tensor:
        """Teacher forcing: src (B, S), src_lens (B,), tgt_in (B, T) → logits (B, T, V)."""
        state = self.encode(src, src_lens)
        return self.out(self._decode(tgt_in, state)[0])

    def decode_step(self, tgt_prefix: Tensor, state: EncoderState) -> tuple[Tensor, Tensor]:
        """tgt_prefix (B, t) → logits (B, V) for the next token, last-layer cross-attn (B, h, S).

        Under no_grad the state caches the decoder's layer inputs: when the next call's prefix
        extends the cached one by a token, only the new position is computed. Any other prefix
        (e.g. beam search reordering rows) is detected and recomputed in full.
        """
        x, _, cross = self._decode(tgt_prefix, state, step=True)
        return self.out(x[:, -1]), cross[-1][:, :, -1]  # (B, V), (B, h, S)

    @torch.no_grad()
    def attention_maps(self, src: Tensor, src_lens: Tensor, tgt_in: Tensor) -> dict[str, list]:
        """Every layer's attention weights, in eval mode (dropout off), under no_grad.

        Returns {"encoder_self": [(B, h, S, S)] * L, "decoder_self": [(B, h, T, T)] * L,
        "cross": [(B, h, T, S)] * L}; the module's train/eval mode is restored afterwards.
        """
        was_training = self.training
        self.eval()
        try:
            state, enc_maps = self._encode(src, src_lens, need_weights=True)
            _, self_maps, cross_maps = self._decode(tgt_in, state, need_weights=True)
        finally:
            self.train(was_training)
        return {"encoder_self": enc_maps, "decoder_self": self_maps, "cross": cross_maps}
