"""Multi-head attention with parallel heads, as in D2L and the Transformer paper."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .attention import masked_softmax, valid_lens_mask

__all__ = ["MultiHeadAttention", "check_heads"]


def check_heads(num_hiddens: int, num_heads: int) -> int:
    """Return the per-head size d_k, or raise a ValueError a learner can act on."""
    if num_heads < 1:
        raise ValueError(f"num_heads must be at least 1, got {num_heads}")
    if num_hiddens < 1:
        raise ValueError(f"the model size must be positive, got {num_hiddens}")
    if num_hiddens % num_heads:
        raise ValueError(
            f"d_model={num_hiddens} is not divisible by heads={num_heads}: each head gets "
            f"d_model / heads features, so pick heads among the divisors of {num_hiddens}"
        )
    return num_hiddens // num_heads


class MultiHeadAttention(nn.Module):
    """h heads of scaled dot-product attention computed as one batched op.

    Queries, keys and values may have their own feature sizes (D2L's ``query_size``,
    ``key_size``, ``value_size``); each is projected to ``num_hiddens`` and split into
    ``num_heads`` heads of size ``num_hiddens // num_heads``. With ``need_weights=False``
    the attention runs on torch's fused ``scaled_dot_product_attention``; with
    ``need_weights=True`` it runs the explicit math and returns the per-head weights
    ``(B, h, n, m)``.
    """

    def __init__(
        self,
        num_hiddens: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        query_size: int | None = None,
        key_size: int | None = None,
        value_size: int | None = None,
    ) -> None:
        super().__init__()
        self.d_k = check_heads(num_hiddens, num_heads)
        self.num_hiddens, self.num_heads, self.dropout = num_hiddens, num_heads, dropout
        self.W_q = nn.Linear(query_size or num_hiddens, num_hiddens, bias=bias)
        self.W_k = nn.Linear(key_size or num_hiddens, num_hiddens, bias=bias)
        self.W_v = nn.Linear(value_size or num_hiddens, num_hiddens, bias=bias)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=bias)
        self.attention_weights: Tensor | None = None

    def _split(self, x: Tensor) -> Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.num_heads, self.d_k).transpose(1, 2)  # (B, h, n, d_k)

    def _project(self, queries: Tensor, keys: Tensor, values: Tensor) -> tuple[Tensor, ...]:
        same_size = self.W_q.in_features == self.W_k.in_features == self.W_v.in_features
        if queries is keys and keys is values and same_size:
            # Self-attention: one packed matmul instead of three, as torch's own MHA does.
            weight = torch.cat([self.W_q.weight, self.W_k.weight, self.W_v.weight])
            bias = None
            if self.W_q.bias is not None:
                bias = torch.cat([self.W_q.bias, self.W_k.bias, self.W_v.bias])
            return F.linear(queries, weight, bias).chunk(3, dim=-1)  # 3 × (B, n, H)
        return self.W_q(queries), self.W_k(keys), self.W_v(values)

    def _check(self, queries: Tensor, keys: Tensor, values: Tensor) -> None:
        for name, x, lin in (("queries", queries, self.W_q), ("keys", keys, self.W_k),
                             ("values", values, self.W_v)):
            if x.dim() != 3:
                raise ValueError(f"{name} must be (batch, length, features), got {tuple(x.shape)}")
            if x.shape[-1] != lin.in_features:
                raise ValueError(
                    f"{name} have {x.shape[-1]} features but this layer expects {lin.in_features}"
                )
            if x.shape[1] == 0:
                raise ValueError(f"{name} are an empty sequence: attention needs length ≥ 1")
        if keys.shape[1] != values.shape[1]:
            raise ValueError(
                f"keys and values need the same length, got {keys.shape[1]} and {values.shape[1]}"
            )
        if not (queries.shape[0] == keys.shape[0] == values.shape[0]):
            raise ValueError("queries, keys and values need the same batch size")

    def forward(
        self,
        queries: Tensor,
        keys: Tensor,
        values: Tensor,
        mask: Tensor | None = None,
        valid_lens: Tensor | None = None,
        need_weights: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """queries (B, n, q), keys (B, m, k), values (B, m, v) → (B, n, H), weights.

        ``mask`` is boolean, True = may attend, shaped (n, m), (B, n, m) or (B, h, n, m).
        ``valid_lens`` is D2L's 1-D (B,) or 2-D (B, n) key lengths, shared by the heads.
        """
        self._check(queries, keys, values)
        if self._inference_fast_path_ok(queries, keys, values, mask, valid_lens, need_weights):
            return self._inference_fast_path(queries), None
        b, n, m = queries.shape[0], queries.shape[1], keys.shape[1]
        keep = None
        if valid_lens is not None:
            keep = valid_lens_mask(valid_lens.to(queries.device), n, m)[:, None]  # (B, 1, n, m)
        if mask is not None:
            if mask.dtype != torch.bool:
                raise TypeError(f"mask must be boolean (True = may attend), got {mask.dtype}")
            if mask.dim() == 3:
                mask = mask[:, None]  # (B, 1, n, m): the same mask for every head
            keep = mask if keep is None else keep & mask
        q, k, v = (self._split(t) for t in self._project(queries, keys, values))
        if need_weights:
            scores = q @ k.transpose(-2, -1) / self.d_k**0.5  # (B, h, n, m)
            weights = masked_softmax(scores, mask=keep)
            dropped = F.dropout(weights, self.dropout, self.training) if self.dropout else weights
            out = dropped @ v  # (B, h, n, d_k)
            self.attention_weights = weights.detach()
        else:
            weights = None
            out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=keep, dropout_p=self.dropout if self.training else 0.0
            )  # (B, h, n, d_k)
        out = out.transpose(1, 2).reshape(b, n, self.num_hiddens)  # (B, n, H)
        return self.W_o(out), weights

    def _inference_fast_path_ok(self, queries, keys, values, mask, valid_lens, need_weights) -> bool:
        """Unmasked self-attention in eval mode without autograd: torch's fused kernel fits."""
        return (
            not need_weights and mask is None and valid_lens is None and not self.training
            and queries is keys and keys is values and self.W_q.bias is not None
            and self.W_q.in_features == self.num_hiddens
            and not (torch.is_grad_enabled() and (queries.requires_grad or any(
                p.requires_grad for p in self.parameters())))
        )

    def _inference_fast_path(self, x: Tensor) -> Tensor:
        # The same kernel torch.nn.MultiheadAttention uses for inference: projections,
        # attention and output projection in one native call (no per-op Python overhead).
        weight = torch.cat([self.W_q.weight, self.W_k.weight, self.W_v.weight])  # (3H, H)
        bias = torch.cat([self.W_q.bias, self.W_k.bias, self.W_v.bias])  # (3H,)
        out, _ = torch._native_multi_head_attention(
            x, x, x, self.num_hiddens, self.num_heads, weight, bias,
            self.W_o.weight, self.W_o.bias, None, False, False, None,
        )
        return out  # (B, n, H)

    @torch.no_grad()
    def load_from_torch(self, mha: nn.MultiheadAttention) -> MultiHeadAttention:
        """Copy the weights of a ``torch.nn.MultiheadAttention`` of the same size."""
        if mha.embed_dim != self.num_hiddens or mha.num_heads != self.num_heads:
            raise ValueError("torch module has a different embed_dim or num_heads")
        if mha._qkv_same_embed_dim:
            wq, wk, wv = mha.in_proj_weight.chunk(3)
        else:
            wq, wk, wv = mha.q_proj_weight, mha.k_proj_weight, mha.v_proj_weight
        for lin, w in ((self.W_q, wq), (self.W_k, wk), (self.W_v, wv)):
            lin.weight.copy_(w)
        if mha.in_proj_bias is not None and self.W_q.bias is not None:
            for lin, bias in zip((self.W_q, self.W_k, self.W_v), mha.in_proj_bias.chunk(3), strict=True):
                lin.bias.copy_(bias)
        self.W_o.weight.copy_(mha.out_proj.weight)
        if self.W_o.bias is not None and mha.out_proj.bias is not None:
            self.W_o.bias.copy_(mha.out_proj.bias)
        return self
