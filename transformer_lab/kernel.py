"""Nadaraya–Watson kernel regression: attention pooling on a 1-D toy regression problem."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch
from torch import Tensor, nn

__all__ = [
    "KernelData",
    "KernelFit",
    "NWKernelRegression",
    "average_pooling",
    "fit_kernel_regression",
    "gaussian_attention",
    "leave_one_out",
    "make_kernel_data",
    "nadaraya_watson",
    "true_function",
]


def true_function(x: Tensor) -> Tensor:
    """The noiseless target of the D2L toy problem: f(x) = 2 sin x + x^0.8."""
    return 2 * torch.sin(x) + x**0.8


@dataclass
class KernelData:
    """Training points (sorted), test grid and the noiseless truth on that grid."""

    x_train: Tensor  # (n_train,)
    y_train: Tensor  # (n_train,)
    x_test: Tensor  # (n_test,)
    y_truth: Tensor  # (n_test,)


def make_kernel_data(n_train: int = 50, noise_std: float = 0.5, seed: int = 0) -> KernelData:
    """D2L's toy data: x ~ U[0, 5) sorted, y = 2 sin x + x^0.8 + N(0, noise_std²); x_test = 0, 0.1, ..., 4.9."""
    if not isinstance(n_train, int) or n_train < 2:
        raise ValueError(f"n_train must be an integer of at least 2, got {n_train!r}")
    if noise_std < 0:
        raise ValueError(f"noise_std must be >= 0, got {noise_std}")
    gen = torch.Generator().manual_seed(seed)
    x_train, _ = torch.sort(torch.rand(n_train, generator=gen) * 5)
    y_train = true_function(x_train) + noise_std * torch.randn(n_train, generator=gen)
    x_test = torch.arange(0, 5, 0.1)
    return KernelData(x_train, y_train, x_test, true_function(x_test))


def _as_1d(name: str, x) -> Tensor:
    """Turn a list/array/tensor into a non-empty 1-D float tensor, or raise a clear error."""
    t = torch.as_tensor(x, dtype=torch.get_default_dtype()) if not isinstance(x, Tensor) else x
    if not t.is_floating_point():
        t = t.to(torch.get_default_dtype())
    if t.dim() != 1:
        raise ValueError(f"{name} must be a 1-D sequence of numbers, got shape {tuple(t.shape)}")
    if t.numel() == 0:
        raise ValueError(f"{name} is empty; give at least one point")
    return t


def gaussian_attention(x_query: Tensor, x_keys: Tensor, w: float | Tensor = 1.0) -> Tensor:
    """Attention weights softmax(-½((x - x_i) w)²) of every query over every key: (n_q, n_k)."""
    x_query, x_keys = _as_1d("x_query", x_query), _as_1d("x_keys", x_keys)
    if not isinstance(w, Tensor) and not math.isfinite(float(w)):
        raise ValueError(f"the kernel width w must be a finite number, got {w}")
    diff = (x_query[:, None] - x_keys[None, :]) * w  # (n_q, n_k)
    return torch.softmax(-0.5 * diff**2, dim=-1)  # (n_q, n_k), rows sum to 1


def nadaraya_watson(
    x_query: Tensor, x_keys: Tensor, y_values: Tensor, w: float | Tensor = 1.0
) -> tuple[Tensor, Tensor]:
    """Non-parametric attention pooling; returns (predictions (n_q,), attention (n_q, n_k))."""
    x_keys, y_values = _as_1d("x_keys", x_keys), _as_1d("y_values", y_values)
    if x_keys.numel() != y_values.numel():
        raise ValueError(
            f"x_keys and y_values must pair up one to one: got {x_keys.numel()} keys "
            f"and {y_values.numel()} values"
        )
    attn = gaussian_attention(x_query, x_keys, w)  # (n_q, n_k)
    return attn @ y_values, attn  # (n_q,), (n_q, n_k)


def average_pooling(x_query: Tensor, y_values: Tensor) -> Tensor:
    """The baseline that ignores the inputs: every prediction is mean(y)."""
    x_query, y_values = _as_1d("x_query", x_query), _as_1d("y_values", y_values)
    return y_values.mean().expand(x_query.numel()).clone()


def leave_one_out(x_train: Tensor, y_train: Tensor) -> tuple[Tensor, Tensor]:
    """Keys and values for training: row i holds all training points except point i.

    Without this, each training query would find itself as a key at distance 0, and a large w
    would simply memorise y_i (zero training loss, a useless model).
    """
    x_train, y_train = _as_1d("x_train", x_train), _as_1d("y_train", y_train)
    n = x_train.numel()
    if n < 2 or y_train.numel() != n:
        raise ValueError("leave-one-out needs at least 2 training points and one y per x")
    keep = ~torch.eye(n, dtype=torch.bool)  # (n, n), False on the diagonal
    keys = x_train.expand(n, n)[keep].reshape(n, n - 1)  # (n, n-1)
    values = y_train.expand(n, n)[keep].reshape(n, n - 1)  # (n, n-1)
    return keys, values


class NWKernelRegression(nn.Module):
    """Parametric Nadaraya–Watson regression: a Gaussian kernel with one learnable width w."""

    def __init__(self, w_init: float = 1.0):
        super().__init__()
        self.w = nn.Parameter(torch.tensor([float(w_init)]))
        self.attention_weights: Tensor | None = None  # (n_q, n_k) of the last forward

    def forward(self, queries: Tensor, keys: Tensor, values: Tensor) -> Tensor:
        """queries (n_q,); keys and values either (n_k,) shared by all queries or (n_q, n_k)."""
        if queries.dim() != 1:
            raise ValueError(f"queries must be 1-D (n_q,), got shape {tuple(queries.shape)}")
        n_q = queries.numel()
        if keys.dim() == 1:
            keys = keys.expand(n_q, -1)  # (n_q, n_k)
        if values.dim() == 1:
            values = values.expand(n_q, -1)  # (n_q, n_k)
        if keys.shape != values.shape or keys.shape[0] != n_q:
            raise ValueError(
                f"keys {tuple(keys.shape)} and values {tuple(values.shape)} must both be "
                f"(n_k,) or ({n_q}, n_k) for {n_q} queries"
            )
        diff = (queries[:, None] - keys) * self.w  # (n_q, n_k)
        attn = torch.softmax(-0.5 * diff**2, dim=-1)  # (n_q, n_k)
        self.attention_weights = attn.detach()
        return (attn * values).sum(dim=-1)  # (n_q,)


@dataclass
class KernelFit:
    """Result of fit_kernel_regression: the model, the data and one history row per step."""

    model: NWKernelRegression
    data: KernelData
    history: list[dict] = field(default_factory=list)  # {"step", "loss", "w"}


def fit_kernel_regression(
    steps: int = 5,
    lr: float = 0.5,
    seed: int = 0,
    data: KernelData | None = None,
    w_init: float | None = None,
) -> KernelFit:
    """Train w by full-batch SGD on leave-one-out keys, as D2L does (5 steps, lr 0.5).

    The optimised objective is D2L's sum of squared errors; the history reports the mean
    squared error per training point (comparable across data sizes) and w after each step.
    Row 0 is the state before training. ``w_init=None`` draws w from U[0, 1) like D2L.
    """
    if not isinstance(steps, int) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    if not lr > 0:
        raise ValueError(f"the learning rate must be positive, got {lr}")
    data = data if data is not None else make_kernel_data(seed=seed)
    if w_init is None:
        w_init = float(torch.rand(1, generator=torch.Generator().manual_seed(seed)))
    model = NWKernelRegression(w_init)
    keys, values = leave_one_out(data.x_train, data.y_train)  # (n, n-1) each
    opt = torch.optim.SGD(model.parameters(), lr=lr)

    def record(step: int, sse: Tensor) -> None:
        mse = float(sse.detach()) / data.x_train.numel()
        fit.history.append({"step": step, "loss": mse, "w": float(model.w.detach())})

    fit = KernelFit(model, data)
    for step in range(steps + 1):
        sse = ((model(data.x_train, keys, values) - data.y_train) ** 2).sum()
        record(step, sse)
        if step == steps:
            break
        opt.zero_grad()
        sse.backward()
        opt.step()
    return fit
