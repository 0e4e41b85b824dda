"""Multi-head attention with parallel heads, as in D2L and the Transformer paper."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from . import fused_attention
from .attention import scaled_dot_product_attention, valid_lens_mask
from .errors import lab_error

__all__ = ["MultiHeadAttention", "check_heads"]


def check_heads(num_hiddens: int, num_heads: int) -> int:
    """Return the per-head size d_k, or raise a ValueError a learner can act on."""
    if num_heads < 1:
        raise ValueError(f"num_heads must be at least 1, got {num_heads}")
    if num_hiddens < 1:
        raise ValueError(f"the model size must be positive, got {num_hiddens}")
    if num_hiddens % num_heads:
        raise lab_error("heads_not_divisor", d_model=num_hiddens, heads=num_heads)
    return num_hiddens // num_heads


class MultiHeadAttention(nn.Module):
    """h heads of scaled dot-product attention computed as one batched op.

    Queries, keys and values may have their own feature sizes (D2L's ``query_size``,
    ``key_size``, ``value_size``); each is projected to ``num_hiddens`` and split into
    ``num_heads`` heads of size ``num_hiddens // num_heads``. ``forward`` returns the
    per-head weights ``(B, h, n, m)`` when ``need_weights=True``.

    ``fused=True`` (the default) lets torch's fused kernels (fused_attention.py) do the
    same maths faster when the weights are not asked for; ``fused=False`` always runs the
    readable lesson path below. Both give the same outputs and gradients.
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
        fused: bool = True,
    ) -> None:
        super().__init__()
        self.d_k = check_heads(num_hiddens, num_heads)
        self.num_hiddens, self.num_heads, self.dropout = num_hiddens, num_heads, dropout
        self.fused = fused
        self.W_q = nn.Linear(query_size or num_hiddens, num_hiddens, bias=bias)
        self.W_k = nn.Linear(key_size or num_hiddens, num_hiddens, bias=bias)
        self.W_v = nn.Linear(value_size or num_hiddens, num_hiddens, bias=bias)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=bias)
        self.attention_weights: Tensor | None = None

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
        keep = self._keep(queries, keys, mask, valid_lens)  # broadcasts to (B, h, n, m), or None
        if self.fused and fused_attention.whole_layer_fits(self, queries, keys, values, keep,
                                                           need_weights):
            out, weights = fused_attention.whole_layer(self, queries, need_weights)  # one kernel
            if weights is not None:
                self.attention_weights = weights.detach()
            return out, weights
        b, n = queries.shape[:2]
        # 1. project: each input to num_hiddens features
        if self.fused:
            q, k, v = fused_attention.project_qkv(self, queries, keys, values)
        else:
            q, k, v = self.W_q(queries), self.W_k(keys), self.W_v(values)  # (B, n|m, H)
        # 2. split: H features into h heads of d_k
        q, k, v = self._split(q), self._split(k), self._split(v)  # (B, h, n|m, d_k)
        # 3. scaled dot-product attention, every head at once
        p = self.dropout if self.training else 0.0
        if self.fused and not need_weights:
            out, weights = fused_attention.sdpa(q, k, v, keep, p), None  # (B, h, n, d_k)
        else:
            out, weights = scaled_dot_product_attention(q, k, v, mask=keep, dropout_p=p,
                                                        training=self.training)
            self.attention_weights = weights.detach()  # (B, h, n, m), before dropout
        # 4. merge: heads back side by side
        out = out.transpose(1, 2).reshape(b, n, self.num_hiddens)  # (B, n, H)
        # 5. project the merged heads
        return self.W_o(out), weights if need_weights else None

    def _split(self, x: Tensor) -> Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.num_heads, self.d_k).transpose(1, 2)  # (B, h, n, d_k)

    @staticmethod
    def _keep(queries: Tensor, keys: Tensor, mask: Tensor | None,
              valid_lens: Tensor | None) -> Tensor | None:
        """The keys each query may see, True = may attend, shared by the heads (or None)."""
        n, m = queries.shape[1], keys.shape[1]
        keep = None
        if valid_lens is not None:
            keep = valid_lens_mask(valid_lens.to(queries.device), n, m)[:, None]  # (B, 1, n, m)
        if mask is not None:
            if mask.dtype != torch.bool:
                raise TypeError(f"mask must be boolean (True = may attend), got {mask.dtype}")
            if mask.dim() == 3:
                mask = mask[:, None]  # (B, 1, n, m): the same mask for every head
            keep = mask if keep is None else keep & mask
        return keep

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
