"""Trusted helper objects (layers) that cases build inside the sandbox to hand to learner code.

Every layer is an instance of a class made for this submission: its name, the names of its
tensors and the exact size of its small constants come from the submission's nonce and a
system RNG, so ``type(layer).__name__``, ``vars(layer)`` or an attribute such as ``.causal``
say nothing about whether the layer is equivariant. Only running it does.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

import torch
from torch import nn

from grader.sandbox import probes  # imported here: the sandboxed child cannot read the repository

_SYS = random.SystemRandom()


def _forward(self, x):  # the one forward of every fixture class: (B, T, D) -> (B, T, D')
    return self.__dict__["_f"](x)


def _layer(nonce: str | None, fn: Callable) -> nn.Module:
    """An nn.Module of a fresh class named from the nonce; its behaviour lives in a closure."""
    tag = (nonce or secrets.token_hex(4))[:8]
    cls = type(f"Layer{tag}", (nn.Module,), {"forward": _forward, "__module__": "layers",
                                              "__qualname__": f"Layer{tag}", "__doc__": None})
    layer = cls()
    layer.__dict__["_f"] = fn
    return layer.eval()


def _jitter(value: float) -> float:
    """A constant scaled by a random factor in [0.5, 2]: the answer never depends on it."""
    return value * 2.0 ** _SYS.uniform(-1.0, 1.0)


def token_linear(weight: torch.Tensor, bias: torch.Tensor, nonce: str | None = None) -> nn.Module:
    """A per-token linear map: permuting tokens permutes its outputs (equivariant)."""
    w, b = weight.clone(), bias.clone()
    return _layer(nonce, lambda x: x @ w.T + b)


def self_attention(in_proj_weight: torch.Tensor, out_proj_weight: torch.Tensor, num_heads: int = 1,
                   causal: bool = False, nonce: str | None = None) -> nn.Module:
    """Self-attention without positions; returns (output, weights) like nn.MultiheadAttention."""
    embed_dim = out_proj_weight.shape[0]
    mha = nn.MultiheadAttention(embed_dim, num_heads, bias=False, batch_first=True)
    mha.to(in_proj_weight.dtype)
    with torch.no_grad():
        mha.in_proj_weight.copy_(in_proj_weight)
        mha.out_proj.weight.copy_(out_proj_weight)
    mha.eval()
    if causal:
        def fn(x):
            t = x.shape[1]  # True = blocked for nn.MultiheadAttention's boolean attn_mask
            return mha(x, x, x, attn_mask=torch.triu(torch.ones(t, t, dtype=torch.bool), 1),
                       need_weights=True)
    else:
        def fn(x):
            return mha(x, x, x, need_weights=True)
    return _layer(nonce, fn)


def add_positions(scale: float = 1.0, nonce: str | None = None) -> nn.Module:
    """Adds a fixed per-position signal: outputs depend on order (not equivariant)."""
    scale = _jitter(scale)
    return _layer(nonce, lambda x: x + scale * torch.sin(
        torch.arange(x.shape[1], dtype=x.dtype).view(1, -1, 1) + 1.0))  # (1, T, 1) broadcast


def cumulative_sum(nonce: str | None = None) -> nn.Module:
    """A running sum over the sequence: order-dependent."""
    return _layer(nonce, lambda x: x.cumsum(dim=1))


def sequence_mean(nonce: str | None = None) -> nn.Module:
    """Every token gets the sequence mean: permutation invariant, hence also equivariant."""
    return _layer(nonce, lambda x: x.mean(dim=1, keepdim=True).expand_as(x))


def nearly_equivariant(weight: torch.Tensor, eps: float = 1e-7, nonce: str | None = None) -> nn.Module:
    """Per-token linear map plus a tiny position-dependent offset: equal only within a tolerance."""
    w, eps = weight.clone(), _jitter(eps)
    return _layer(nonce, lambda x: x @ w.T + eps * torch.arange(
        x.shape[1], dtype=x.dtype).view(1, -1, 1))  # (1, T, 1) offset


_BUILDERS = {
    "nearly_equivariant": nearly_equivariant,
    "token_linear": token_linear,
    "self_attention": self_attention,
    "add_positions": add_positions,
    "cumulative_sum": cumulative_sum,
    "sequence_mean": sequence_mean,
}


def build(name: str, **kwargs):
    """Build the named fixture (a layer in eval mode) or run a probe."""
    if name in probes.PROBES:
        kwargs.pop("nonce", None)
        return probes.PROBES[name](**kwargs)
    if name not in _BUILDERS:
        raise ValueError(f"internal: unknown fixture {name!r}")
    return _BUILDERS[name](**kwargs)
