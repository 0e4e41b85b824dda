"""Fused attention kernels: the maths of MultiHeadAttention's readable path, run by torch's native code.

Everything here is a speed-up only. ``MultiHeadAttention(fused=True)`` (the default) uses
these helpers; ``fused=False`` runs nothing from this module, only the lesson's code
(``attention.scaled_dot_product_attention``). tests/transformer_lab/test_fused_attention.py
checks that both paths give the same outputs and gradients, masks included.

Three kernels, from the smallest to the largest piece of the layer they replace:

- ``project_qkv``: self-attention's three projections as one packed matmul (as
  ``torch.nn.MultiheadAttention`` stores them).
- ``sdpa``: softmax(q kᵀ/√d_k) v in one call (``F.scaled_dot_product_attention``), which
  never builds the weights (so it cannot return them).
- ``whole_layer``: projections, attention and output projection in one native call
  (``torch._native_multi_head_attention``, the kernel ``nn.MultiheadAttention`` runs at
  inference, weights included), when ``whole_layer_fits``: unmasked self-attention in eval
  mode without autograd.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

# The helpers take the MultiHeadAttention (its W_q, W_k, W_v, W_o, num_hiddens, num_heads) as
# a plain nn.Module: multihead.py imports this module, so importing it back would be a cycle.
MultiHeadAttention = nn.Module

__all__ = ["project_qkv", "sdpa", "whole_layer", "whole_layer_fits"]


def project_qkv(mha: MultiHeadAttention, queries: Tensor, keys: Tensor,
                values: Tensor) -> tuple[Tensor, Tensor, Tensor]:
    """W_q queries, W_k keys, W_v values: (B, n, H), (B, m, H), (B, m, H).

    For self-attention (one input, equal sizes) the three matmuls become one packed matmul,
    which saves two kernel launches and their Python overhead per layer; for cross-attention
    (keys and values both the encoder's output) the key and value matmuls become one.
    """
    same_size = mha.W_q.in_features == mha.W_k.in_features == mha.W_v.in_features
    if keys is values and mha.W_k.in_features == mha.W_v.in_features and queries is not keys:
        k, v = _packed(keys, (mha.W_k, mha.W_v)).chunk(2, dim=-1)  # 2 × (B, m, H)
        return mha.W_q(queries), k, v
    if not (queries is keys and keys is values and same_size):
        return mha.W_q(queries), mha.W_k(keys), mha.W_v(values)
    q, k, v = _packed(queries, (mha.W_q, mha.W_k, mha.W_v)).chunk(3, dim=-1)  # 3 × (B, n, H)
    return q, k, v


def _packed(x: Tensor, layers: tuple[nn.Linear, ...]) -> Tensor:
    """``x`` through several linear layers at once: (B, n, in) → (B, n, sum of outs)."""
    weight = torch.cat([lin.weight for lin in layers])
    bias = None if layers[0].bias is None else torch.cat([lin.bias for lin in layers])
    return F.linear(x, weight, bias)


def sdpa(q: Tensor, k: Tensor, v: Tensor, keep: Tensor | None, dropout_p: float) -> Tensor:
    """q (B, h, n, d_k), k and v (B, h, m, d_k), keep broadcastable to (B, h, n, m) → (B, h, n, d_k)."""
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep, dropout_p=dropout_p)


# From this many queries on, an eval pass that needs no weights is faster as projections +
# sdpa (which never builds the n x n matrix) than as the whole-layer kernel (which does).
# Measured here, 1 thread, CPU ms, H=128 / 8 heads: n=64 0.96x, 128 0.80x, 256 0.66x,
# 1024 0.39x (H=64 / 4 heads: 1.01x, 0.96x, 0.84x, 0.36x); outputs within 1e-7.
LONG_SEQUENCE = 128


def whole_layer_fits(mha: MultiHeadAttention, queries: Tensor, keys: Tensor, values: Tensor,
                     keep: Tensor | None, need_weights: bool = True) -> bool:
    """Unmasked self-attention in eval mode without autograd: the native inference kernel fits.

    With weights asked for it always does: the kernel returns the per-head weights too (which
    is how ``nn.MultiheadAttention(need_weights=True)`` is fast at inference). Without, only
    below ``LONG_SEQUENCE`` queries: longer passes take the split path and its sdpa call.
    """
    return (
        keep is None and not mha.training
        and (need_weights or queries.shape[-2] < LONG_SEQUENCE)
        and queries is keys and keys is values and mha.W_q.bias is not None
        and mha.W_q.in_features == mha.num_hiddens
        and not (torch.is_grad_enabled() and (queries.requires_grad or any(
            p.requires_grad for p in mha.parameters())))
    )


def whole_layer(mha: MultiHeadAttention, x: Tensor,
                need_weights: bool = False) -> tuple[Tensor, Tensor | None]:
    """x (B, n, H) → W_o · attention(W_q x, W_k x, W_v x) (B, n, H) and, if asked, the
    per-head weights (B, h, n, n), in one native call."""
    weight = torch.cat([mha.W_q.weight, mha.W_k.weight, mha.W_v.weight])  # (3H, H)
    bias = torch.cat([mha.W_q.bias, mha.W_k.bias, mha.W_v.bias])  # (3H,)
    # Positional arguments of the private op (torch 2.13): query, key, value, embed_dim,
    # num_heads, qkv weight, qkv bias, out weight, out bias, mask, need_weights,
    # average_attn_weights, mask_type.
    out, weights = torch._native_multi_head_attention(
        x, x, x, mha.num_hiddens, mha.num_heads, weight, bias,
        mha.W_o.weight, mha.W_o.bias, None, need_weights, False, None,
    )
    return out, weights if need_weights else None  # (B, n, H), (B, h, n, n)
