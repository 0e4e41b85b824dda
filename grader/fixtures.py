"""Trusted helper objects (layers) that cases build inside the sandbox to hand to learner code."""

from __future__ import annotations

import torch
from torch import nn


class TokenLinear(nn.Module):
    """A per-token linear map: permuting tokens permutes its outputs (equivariant)."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor) -> None:
        super().__init__()
        self.weight = nn.Parameter(weight.clone(), requires_grad=False)
        self.bias = nn.Parameter(bias.clone(), requires_grad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, T, D) -> (B, T, D')
        return x @ self.weight.T + self.bias


class SelfAttention(nn.Module):
    """Self-attention without positions; returns (output, weights) like nn.MultiheadAttention."""

    def __init__(self, in_proj_weight: torch.Tensor, out_proj_weight: torch.Tensor,
                 num_heads: int = 1, causal: bool = False) -> None:
        super().__init__()
        embed_dim = out_proj_weight.shape[0]
        self.mha = nn.MultiheadAttention(embed_dim, num_heads, bias=False, batch_first=True)
        self.mha.to(in_proj_weight.dtype)
        with torch.no_grad():
            self.mha.in_proj_weight.copy_(in_proj_weight)
            self.mha.out_proj.weight.copy_(out_proj_weight)
        self.causal = causal

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        mask = None
        if self.causal:
            t = x.shape[1]
            # True = blocked for nn.MultiheadAttention's boolean attn_mask
            mask = torch.triu(torch.ones(t, t, dtype=torch.bool), diagonal=1)
        out, weights = self.mha(x, x, x, attn_mask=mask, need_weights=True)
        return out, weights


class AddPositions(nn.Module):
    """Adds a fixed per-position signal: outputs depend on order (not equivariant)."""

    def __init__(self, scale: float = 1.0) -> None:
        super().__init__()
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(x.shape[1], dtype=x.dtype).view(1, -1, 1)  # (1, T, 1)
        return x + self.scale * torch.sin(pos + 1.0)


class CumulativeSum(nn.Module):
    """A running sum over the sequence: order-dependent."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.cumsum(dim=1)


class SequenceMean(nn.Module):
    """Every token gets the sequence mean: permutation invariant, hence also equivariant."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.mean(dim=1, keepdim=True).expand_as(x)


class NearlyEquivariant(nn.Module):
    """Per-token linear map plus a tiny position-dependent offset: equal only within a tolerance."""

    def __init__(self, weight: torch.Tensor, eps: float = 1e-7) -> None:
        super().__init__()
        self.weight = nn.Parameter(weight.clone(), requires_grad=False)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(x.shape[1], dtype=x.dtype).view(1, -1, 1)  # (1, T, 1)
        return x @ self.weight.T + self.eps * pos


_BUILDERS = {
    "nearly_equivariant": NearlyEquivariant,
    "token_linear": TokenLinear,
    "self_attention": SelfAttention,
    "add_positions": AddPositions,
    "cumulative_sum": CumulativeSum,
    "sequence_mean": SequenceMean,
}


def build(name: str, **kwargs) -> nn.Module:
    """Build the named fixture in eval mode."""
    if name not in _BUILDERS:
        raise ValueError(f"internal: unknown fixture {name!r}")
    return _BUILDERS[name](**kwargs).eval()
