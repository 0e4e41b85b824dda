"""The encoder–decoder Transformer of "Attention Is All You Need", sized for toy tasks."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import causal_mask
from .multihead import MultiHeadAttention, check_heads
from .positional import PE_KINDS, make_positional_encoding

__all__ = [
    "DecoderCache",
    "DecoderLayer",
    "EncoderLayer",
    "EncoderState",
    "PositionWiseFFN",
    "Transformer",
    "TransformerConfig",
    "check_lengths",
    "check_tokens",
]


MIN_ATTN_LEN = 16  # see pad_for_fast_softmax


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
class TransformerConfig:
    """Sizes and switches of the Transformer; the defaults suit the toy tasks on a CPU."""

    src_vocab: int
    tgt_vocab: int
    d_model: int = 32
    heads: int = 4
    layers: int = 2  # encoder layers = decoder layers
    d_ff: int = 64  # paper: 4 * d_model; 2 * d_model keeps the toy model small and quick
    dropout: float = 0.0
    pe: str = "sinusoidal"  # "sinusoidal" | "learned" | "none"
    max_len: int = 256
    norm_first: bool = False  # False: post-LN Add & Norm (the paper); True: pre-LN
    pad_id: int = 0
    share_embeddings: bool = False  # one embedding table for source and target (same vocab)
    tie_output: bool = False  # output projection reuses the target embedding matrix

    def validate(self) -> None:
        """Raise ValueError naming the bad field, before any tensor is built."""
        for name in ("src_vocab", "tgt_vocab", "d_model", "heads", "layers", "d_ff", "max_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        check_heads(self.d_model, self.heads)
        if self.pe not in PE_KINDS:
            raise ValueError(f"unknown pe {self.pe!r}; choose one of {', '.join(PE_KINDS)}")
        if self.pe == "sinusoidal" and self.d_model % 2:
            raise ValueError(
                f"sinusoidal positional encoding pairs sines with cosines, so d_model must be "
                f"even; got d_model={self.d_model} (use an even size or pe='learned')"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must lie in [0, 1), got {self.dropout}")
        if not 0 <= self.pad_id < min(self.src_vocab, self.tgt_vocab):
            raise ValueError(f"pad_id={self.pad_id} is not a valid id in both vocabularies")
        if self.share_embeddings and self.src_vocab != self.tgt_vocab:
            raise ValueError(
                f"share_embeddings needs one vocabulary for both sides, got "
                f"src_vocab={self.src_vocab} and tgt_vocab={self.tgt_vocab}"
            )


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
        if self.norm_first:
            h = self.norm1(x)
            a, w = self.self_attn(h, h, h, mask=src_keep, need_weights=need_weights)
            x = x + self.dropout1(a)
            return x + self.dropout2(self.ffn(self.norm2(x))), w
        a, w = self.self_attn(x, x, x, mask=src_keep, need_weights=need_weights)
        x = self.norm1(x + self.dropout1(a))
        return self.norm2(x + self.dropout2(self.ffn(x))), w


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
        self,
        x: Tensor,
        memory: Tensor,
        tgt_keep: Tensor,
        src_keep: Tensor | None,
        need_weights: bool = False,
        cross_query: int | None = None,
        self_kv: Tensor | None = None,
    ) -> tuple[Tensor, Tensor | None, Tensor | None]:
        """x (B, T, d), memory (B, S, d) → (B, T, d), self (B, h, T, T), cross (B, h, T, S).

        With ``cross_query=i`` (and need_weights False) everything runs fused and only the
        cross-attention of query i comes back, (B, h, 1, S): what one decoding step needs.
        ``self_kv`` (B, W, d) replaces x as the self-attention keys/values (the layer inputs
        of the whole prefix when x is only the newest position).
        """
        pre = self.norm_first
        h = self.norm1(x) if pre else x
        kv = h if self_kv is None else (self.norm1(self_kv) if pre else self_kv)
        a, w_self = self.self_attn(h, kv, kv, mask=tgt_keep, need_weights=need_weights)
        x = x + self.dropout1(a) if pre else self.norm1(x + self.dropout1(a))
        # Queries come from the decoder, keys and values from the encoder output.
        q = self.norm2(x) if pre else x  # (B, T, d)
        c, w_cross = self.cross_attn(q, memory, memory, mask=src_keep, need_weights=need_weights)
        if cross_query is not None and w_cross is None:
            _, w_cross = self.cross_attn(q[:, cross_query : cross_query + 1], memory, memory,
                                         mask=src_keep, need_weights=True)  # (B, h, 1, S)
        x = x + self.dropout2(c) if pre else self.norm2(x + self.dropout2(c))
        f = self.ffn(self.norm3(x) if pre else x)
        x = x + self.dropout3(f) if pre else self.norm3(x + self.dropout3(f))
        return x, w_self, w_cross


@dataclass
class EncoderState:
    """What the decoder needs from the encoder: its output and the source key mask."""

    memory: Tensor  # (B, S', d), S' >= S after padding to MIN_ATTN_LEN
    src_keep: Tensor  # (B, 1, 1, S'), True for real (non-pad) source tokens
    src_lens: Tensor  # (B,)
    src_width: int  # S, the width of the caller's src
    cache: DecoderCache | None = None  # filled by decode_step under no_grad


@dataclass
class DecoderCache:
    """The decoder cache: each decoder layer's inputs for the prefix decoded so far. A speed-up only.

    Why it is exact: the decoder is causal, so its outputs at earlier positions cannot change
    when a token is appended; the next decode_step only has to run the newest position, with
    the cached inputs as its self-attention keys and values. Why layer inputs and not keys and
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

    def make_room(self, t: int) -> int:
        """Grow the buffers (by MIN_ATTN_LEN positions at a time) to hold t; return their width W."""
        if self.inputs[0].shape[1] < t:
            self.inputs = [F.pad(buf, (0, 0, 0, MIN_ATTN_LEN)) for buf in self.inputs]
        return self.inputs[0].shape[1]


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
    def _decode(self, tgt: Tensor, state: EncoderState, need_weights: bool, last_cross=False):
        """Run the decoder stack on tgt (B, T) → (B, T, d), self maps, cross maps, layer inputs.

        need_weights: every layer's weights; last_cross: only the last layer's cross-attention
        of the last query (B, h, 1, S), for one decoding step.
        """
        check_tokens("tgt_in", tgt, self.cfg.tgt_vocab, self.cfg.max_len)
        if tgt.shape[0] != state.memory.shape[0]:
            raise ValueError(
                f"target batch {tgt.shape[0]} does not match source batch {state.memory.shape[0]}"
            )
        t, s = tgt.shape[1], state.src_width
        tgt = pad_for_fast_softmax(tgt, self.cfg.pad_id, self.cfg.max_len)  # (B, T')
        # The causal mask alone suffices: target padding sits at the end, so a real position
        # never sees a pad key, and the loss ignores outputs at pad positions.
        tgt_keep = causal_mask(tgt.shape[1], device=tgt.device)  # (T', T')
        x = self.tgt_pe(self.tgt_embed(tgt) * self.scale)  # (B, T', d)
        self_maps, cross_maps, inputs = [], [], []
        last = len(self.decoder) - 1
        for i, layer in enumerate(self.decoder):
            inputs.append(x)
            probe = t - 1 if (last_cross and i == last) else None
            x, w_self, w_cross = layer(x, state.memory, tgt_keep, state.src_keep,
                                       need_weights, cross_query=probe)
            self_maps.append(w_self[:, :, :t, :t] if w_self is not None else None)
            cross_maps.append(w_cross[:, :, :t, :s] if w_cross is not None else None)
        return self.dec_norm(x[:, :t]), self_maps, cross_maps, inputs  # (B, T, d), ...

    def forward(self, src: Tensor, src_lens: Tensor, tgt_in: Tensor) -> Tensor:
        """Teacher forcing: src (B, S), src_lens (B,), tgt_in (B, T) → logits (B, T, V)."""
        state = self.encode(src, src_lens)
        return self.out(self._decode(tgt_in, state, need_weights=False)[0])

    def decode_step(self, tgt_prefix: Tensor, state: EncoderState) -> tuple[Tensor, Tensor]:
        """tgt_prefix (B, t) → logits (B, V) for the next token, last-layer cross-attn (B, h, S).

        Under no_grad the state caches the decoder's layer inputs: when the next call's prefix
        extends the cached one by a token, only the new position is computed. Any other prefix
        (e.g. beam search reordering rows) is detected and recomputed in full.
        """
        cache = state.cache
        if cache is not None and cache.continues(tgt_prefix):
            return self._extend(tgt_prefix, state, cache)
        x, _, cross, inputs = self._decode(tgt_prefix, state, need_weights=False, last_cross=True)
        state.cache = None if torch.is_grad_enabled() else DecoderCache(tgt_prefix, inputs)
        return self.out(x[:, -1]), cross[-1][:, :, 0]  # (B, V), (B, h, S)

    def _extend(self, prefix: Tensor, state: EncoderState, cache: DecoderCache):
        """Run only the newest position of ``prefix`` (B, t) through the decoder, using cache."""
        check_tokens("tgt_prefix", prefix, self.cfg.tgt_vocab, self.cfg.max_len)
        t = prefix.shape[1]
        padded = pad_for_fast_softmax(prefix, self.cfg.pad_id, self.cfg.max_len)
        x = self.tgt_pe(self.tgt_embed(padded) * self.scale)[:, t - 1 : t]  # (B, 1, d)
        width = cache.make_room(t)
        keep = (torch.arange(width, device=prefix.device) < t)[None, :]  # (1, W): keys 0..t-1
        last = len(self.decoder) - 1
        for i, layer in enumerate(self.decoder):
            cache.inputs[i][:, t - 1] = x[:, 0]
            x, _, cross = layer(x, state.memory, keep, state.src_keep, False,
                                cross_query=0 if i == last else None, self_kv=cache.inputs[i])
        cache.tokens = prefix
        return self.out(self.dec_norm(x[:, 0])), cross[:, :, 0, : state.src_width]

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
            _, self_maps, cross_maps, _ = self._decode(tgt_in, state, need_weights=True)
        finally:
            self.train(was_training)
        return {"encoder_self": enc_maps, "decoder_self": self_maps, "cross": cross_maps}
