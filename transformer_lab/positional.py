"""Positional encodings: sinusoidal (the paper's), learned, and none."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .configs import PE_KINDS
from .errors import lab_error

__all__ = [
    "PE_KINDS",
    "LearnedPositionalEncoding",
    "NoPositionalEncoding",
    "SinusoidalPositionalEncoding",
    "make_positional_encoding",
    "sinusoidal_table",
]


def sinusoidal_table(max_len: int, d_model: int, base: float = 10000.0) -> Tensor:
    """P (max_len, d_model): P[pos, 2i] = sin(pos / base^(2i/d)), P[pos, 2i+1] = cos(same)."""
    if max_len < 1:
        raise ValueError(f"max_len must be at least 1, got {max_len}")
    if d_model < 2 or d_model % 2:
        raise lab_error("sinusoidal_table_odd", d_model=d_model)
    pos = torch.arange(max_len, dtype=torch.float64)[:, None]  # (T, 1)
    freq = base ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)  # (d/2,)
    angles = pos * freq  # (T, d/2)
    table = torch.empty(max_len, d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table.float()


def _check_input(x: Tensor, d_model: int, max_len: int) -> None:
    if x.dim() != 3:
        raise ValueError(f"expected (batch, length, d_model) input, got shape {tuple(x.shape)}")
    if x.shape[-1] != d_model:
        raise ValueError(f"input has {x.shape[-1]} features, the encoding was built for {d_model}")
    if x.shape[1] > max_len:
        raise ValueError(
            f"sequence length {x.shape[1]} exceeds the encoding's max_len={max_len}"
        )


class SinusoidalPositionalEncoding(nn.Module):
    """Adds the fixed sinusoidal table, then dropout."""

    def __init__(self, d_model: int, max_len: int = 512, dropout: float = 0.0) -> None:
        super().__init__()
        self.d_model, self.max_len = d_model, max_len
        self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, self.d_model, self.max_len)
        return self.dropout(x + self.table[: x.shape[1]].to(x.dtype))  # (B, T, d)


class LearnedPositionalEncoding(nn.Module):
    """Adds a trained embedding per position (as BERT/GPT do), then dropout."""

    def __init__(self, d_model: int, max_len: int = 512, dropout: float = 0.0) -> None:
        super().__init__()
        if d_model < 1 or max_len < 1:
            raise ValueError("d_model and max_len must be positive")
        self.d_model, self.max_len = d_model, max_len
        self.embedding = nn.Embedding(max_len, d_model)
        nn.init.normal_(self.embedding.weight, std=0.02)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, self.d_model, self.max_len)
        pos = torch.arange(x.shape[1], device=x.device)
        return self.dropout(x + self.embedding(pos))  # (B, T, d)


class NoPositionalEncoding(nn.Module):
    """No position information: self-attention then cannot tell word order apart."""

    def __init__(self, d_model: int, max_len: int = 512, dropout: float = 0.0) -> None:
        super().__init__()
        self.d_model, self.max_len = d_model, max_len
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        _check_input(x, self.d_model, self.max_len)
        return self.dropout(x)


def make_positional_encoding(
    kind: str, d_model: int, max_len: int = 512, dropout: float = 0.0
) -> nn.Module:
    """Build the encoding named ``kind``: "sinusoidal", "learned" or "none"."""
    classes = {
        "sinusoidal": SinusoidalPositionalEncoding,
        "learned": LearnedPositionalEncoding,
        "none": NoPositionalEncoding,
    }
    if kind not in classes:
        raise lab_error("unknown_choice", what="positional encoding", value=kind,
                        choices=", ".join(PE_KINDS))
    return classes[kind](d_model, max_len=max_len, dropout=dropout)
