"""Attention scoring: masks, masked softmax, scaled dot-product and additive attention."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = [
    "AdditiveAttention",
    "DotProductAttention",
    "causal_mask",
    "key_padding_mask",
    "masked_softmax",
    "scaled_dot_product_attention",
    "valid_lens_mask",
]


def _check_lengths(valid_lens: Tensor, batch: int, n: int, m: int) -> Tensor:
    """Validate D2L-style valid lengths: 1-D (B,) or 2-D (B, n), values in [0, m]."""
    valid_lens = torch.as_tensor(valid_lens)
    if valid_lens.dim() == 1:
        if valid_lens.shape[0] != batch:
            raise ValueError(
                f"valid_lens has {valid_lens.shape[0]} entries but the batch has {batch} rows"
            )
    elif valid_lens.dim() == 2:
        if tuple(valid_lens.shape) != (batch, n):
            raise ValueError(
                f"2-D valid_lens must have shape (batch, queries) = ({batch}, {n}), "
                f"got {tuple(valid_lens.shape)}"
            )
    else:
        raise ValueError(f"valid_lens must be 1-D or 2-D, got {valid_lens.dim()}-D")
    if valid_lens.numel() and (valid_lens.min() < 0 or valid_lens.max() > m):
        raise ValueError(f"valid_lens must lie in [0, {m}] (the number of keys)")
    return valid_lens


def valid_lens_mask(valid_lens: Tensor, n: int, m: int) -> Tensor:
    """Boolean mask (B, n, m), True where key j < valid length of (row, query).

    ``valid_lens`` is 1-D (one length per batch row, shared by all its queries) or
    2-D (one length per query), exactly as in D2L's ``masked_softmax``.
    """
    lens = torch.as_tensor(valid_lens)
    batch = lens.shape[0] if lens.dim() else 0
    lens = _check_lengths(lens, batch, n, m)
    if lens.dim() == 1:
        lens = lens[:, None].expand(-1, n)  # (B, n)
    keys = torch.arange(m, device=lens.device)  # (m,)
    return keys[None, None, :] < lens[:, :, None]  # (B, n, m)


def causal_mask(n: int, device: torch.device | str | None = None) -> Tensor:
    """Boolean (n, n) mask, True on and below the diagonal: query i may see keys 0..i."""
    if n < 1:
        raise ValueError(f"a causal mask needs at least one position, got n={n}")
    return torch.ones(n, n, dtype=torch.bool, device=device).tril()


def key_padding_mask(lengths: Tensor, m: int) -> Tensor:
    """Boolean (B, 1, m) mask hiding padded keys: True for key j < lengths[b]."""
    lengths = torch.as_tensor(lengths)
    if lengths.dim() != 1:
        raise ValueError(f"lengths must be 1-D (one per batch row), got shape {tuple(lengths.shape)}")
    if lengths.numel() and (lengths.min() < 0 or lengths.max() > m):
        raise ValueError(f"lengths must lie in [0, {m}]")
    keys = torch.arange(m, device=lengths.device)
    return (keys[None, :] < lengths[:, None])[:, None, :]  # (B, 1, m)


def _as_bool_mask(mask: Tensor) -> Tensor:
    if mask.dtype != torch.bool:
        raise TypeError(
            f"mask must be a boolean tensor (True = may attend), got dtype {mask.dtype}"
        )
    return mask


def masked_softmax(
    scores: Tensor, valid_lens: Tensor | None = None, mask: Tensor | None = None,
    *, inplace: bool = False,
) -> Tensor:
    """Softmax over the last axis of ``scores`` (..., n, m), ignoring hidden keys.

    ``valid_lens`` follows D2L (1-D per batch row or 2-D per query; batch is the first
    axis of ``scores``; any axes between batch and (n, m), such as heads, share it).
    ``mask`` is boolean, True = may attend, broadcastable to ``scores``. Hidden keys are
    filled with the dtype's lowest value before softmax, so they get weight exactly 0;
    a query whose keys are all hidden gets uniform weights (as D2L's -1e6 fill gives).
    ``inplace=True`` fills ``scores`` itself instead of a copy: for scores no one else
    reads (saves one pass over n·m numbers and their memory).
    """
    if scores.dim() < 2:
        raise ValueError(f"scores must have shape (..., queries, keys), got {tuple(scores.shape)}")
    n, m = scores.shape[-2:]
    keep = None
    if valid_lens is not None:
        if scores.dim() < 3:
            raise ValueError("valid_lens needs scores with a batch axis: (B, ..., n, m)")
        lens_mask = valid_lens_mask(valid_lens.to(scores.device), n, m)  # (B, n, m)
        if lens_mask.shape[0] != scores.shape[0]:
            raise ValueError(
                f"valid_lens has {lens_mask.shape[0]} rows but scores have batch {scores.shape[0]}"
            )
        extra = scores.dim() - 3
        keep = lens_mask.reshape(lens_mask.shape[0], *([1] * extra), n, m)
    if mask is not None:
        mask = _as_bool_mask(mask).to(scores.device)
        try:
            torch.broadcast_shapes(mask.shape, scores.shape)
        except RuntimeError as err:
            raise ValueError(
                f"mask of shape {tuple(mask.shape)} does not broadcast to scores "
                f"{tuple(scores.shape)}"
            ) from err
        keep = mask if keep is None else keep & mask
    if keep is None:
        return F.softmax(scores, dim=-1)
    lowest = torch.finfo(scores.dtype).min
    filled = scores.masked_fill_(~keep, lowest) if inplace else scores.masked_fill(~keep, lowest)
    return F.softmax(filled, dim=-1)


def scaled_dot_product_attention(
    q: Tensor,
    k: Tensor,
    v: Tensor,
    mask: Tensor | None = None,
    valid_lens: Tensor | None = None,
    dropout_p: float = 0.0,
    training: bool = False,
) -> tuple[Tensor, Tensor]:
    """softmax(q kᵀ / √d) v with its weights: q (..., n, d), k (..., m, d), v (..., m, d_v).

    Returns ``(output (..., n, d_v), weights (..., n, m))``. Dropout (only when
    ``training``) is applied to the weights used for the output; the returned weights
    are the softmax itself, so each row sums to 1.
    """
    if q.dim() < 2 or k.dim() < 2 or v.dim() < 2:
        raise ValueError("q, k and v must have shape (..., length, features)")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"queries and keys need the same feature size, got {q.shape[-1]} and {k.shape[-1]}"
        )
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(
            f"keys and values need the same length, got {k.shape[-2]} and {v.shape[-2]}"
        )
    if q.shape[-2] == 0 or k.shape[-2] == 0:
        raise ValueError("attention needs at least one query and one key (got an empty sequence)")
    d = q.shape[-1]
    bias = _padding_bias(q, k, mask) if valid_lens is None else None
    if bias is not None:  # key padding: the mask rides in the matmul, as torch's own MHA does
        lead, n, m = q.shape[:-2], q.shape[-2], k.shape[-2]
        scores = torch.baddbmm(bias, (q / math.sqrt(d)).reshape(-1, n, d),
                               k.transpose(-2, -1).reshape(-1, d, m)).view(*lead, n, m)
        weights = F.softmax(scores, dim=-1)
        dropped = F.dropout(weights, p=dropout_p, training=training) if dropout_p > 0 else weights
        return dropped @ v, weights
    # (q / √d) kᵀ = q kᵀ / √d: scaling the n·d queries costs less than the n·m scores.
    scores = (q / math.sqrt(d)) @ k.transpose(-2, -1)  # (..., n, m)
    # In place: the scores are new, and the matmul's backward needs q and k, not them.
    weights = masked_softmax(scores, valid_lens=valid_lens, mask=mask, inplace=True)
    dropped = F.dropout(weights, p=dropout_p, training=training) if dropout_p > 0 else weights
    return dropped @ v, weights  # (..., n, d_v), (..., n, m)


def _padding_bias(q: Tensor, k: Tensor, mask: Tensor | None) -> Tensor | None:
    """A key-padding mask (..., 1, m), True = may attend, as an additive bias (B·h, 1, m) for
    baddbmm: 0 where a key is seen, half the dtype's lowest where it is hidden (added to a
    finite score it stays finite, and its weight is exactly 0). None when the mask is not of
    that kind, or hides every key of some row (then masked_softmax fills the scores, and such a
    row gets uniform weights and passes no gradient to q and k).

    Filling the (n, m) scores cost a pass over them in the forward and another in the
    backward; at n = 1024 with key padding the weights path took 1.24x torch's time (issue 27).
    """
    if (mask is None or mask.dtype != torch.bool or mask.dim() < 2 or q.dim() < 3
            or mask.shape[-2] != 1 or mask.shape[-1] != k.shape[-2]
            or q.shape[:-2] != k.shape[:-2]):
        return None
    lead = q.shape[:-2]
    try:
        if torch.broadcast_shapes(mask.shape[:-2], lead) != lead:
            return None
    except RuntimeError:
        return None
    if not bool(mask.any(dim=-1).all()):  # a query that sees no key: its weights are uniform
        return None  # by the fill's constant; through a bias they would pass a gradient on
    lowest = torch.finfo(q.dtype).min / 2
    bias = torch.zeros(mask.shape, dtype=q.dtype, device=q.device).masked_fill_(
        ~mask.to(q.device), lowest)
    return bias.expand(*lead, 1, mask.shape[-1]).reshape(-1, 1, mask.shape[-1])  # (B·h, 1, m)


class DotProductAttention(nn.Module):
    """Scaled dot-product attention with dropout on the weights (no parameters)."""

    def __init__(self, dropout: float = 0.0) -> None:
        super().__init__()
        self.dropout = dropout
        self.attention_weights: Tensor | None = None

    def forward(
        self,
        queries: Tensor,
        keys: Tensor,
        values: Tensor,
        valid_lens: Tensor | None = None,
        mask: Tensor | None = None,
    ) -> tuple[Tensor, Tensor]:
        out, weights = scaled_dot_product_attention(
            queries, keys, values, mask, valid_lens, self.dropout, self.training
        )
        self.attention_weights = weights.detach()
        return out, weights


class AdditiveAttention(nn.Module):
    """Additive (Bahdanau) scoring: a(q, k) = w_vᵀ tanh(W_q q + W_k k).

    Queries and keys may have different sizes and lengths; q (B, n, query_size),
    k (B, m, key_size), v (B, m, d_v) → output (B, n, d_v), weights (B, n, m).
    """

    def __init__(
        self, query_size: int, key_size: int, num_hiddens: int, dropout: float = 0.0
    ) -> None:
        super().__init__()
        for name, value in (("query_size", query_size), ("key_size", key_size),
                            ("num_hiddens", num_hiddens)):
            if value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value}")
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.attention_weights: Tensor | None = None

    def forward(
        self,
        queries: Tensor,
        keys: Tensor,
        values: Tensor,
        valid_lens: Tensor | None = None,
        mask: Tensor | None = None,
    ) -> tuple[Tensor, Tensor]:
        if queries.dim() != 3 or keys.dim() != 3 or values.dim() != 3:
            raise ValueError("additive attention expects (batch, length, features) tensors")
        if queries.shape[-1] != self.W_q.in_features:
            raise ValueError(
                f"queries have {queries.shape[-1]} features, the layer expects "
                f"query_size={self.W_q.in_features}"
            )
        if keys.shape[-1] != self.W_k.in_features:
            raise ValueError(
                f"keys have {keys.shape[-1]} features, the layer expects "
                f"key_size={self.W_k.in_features}"
            )
        if keys.shape[1] != values.shape[1]:
            raise ValueError("keys and values need the same length")
        if queries.shape[1] == 0 or keys.shape[1] == 0:
            raise ValueError("attention needs at least one query and one key (got an empty sequence)")
        q, k = self.W_q(queries), self.W_k(keys)  # (B, n, H), (B, m, H)
        features = torch.tanh(q.unsqueeze(2) + k.unsqueeze(1))  # (B, n, m, H)
        scores = self.w_v(features).squeeze(-1)  # (B, n, m)
        weights = masked_softmax(scores, valid_lens=valid_lens, mask=mask)
        self.attention_weights = weights.detach()
        return self.dropout(weights) @ values, weights  # (B, n, d_v), (B, n, m)
