"""Multi-head explorer, positional-encoding experiment and attention pooling for the app."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import torch
from torch import Tensor

from transformer_lab.attention import causal_mask
from transformer_lab.kernel import fit_kernel_regression, make_kernel_data, nadaraya_watson
from transformer_lab.multihead import MultiHeadAttention, check_heads
from transformer_lab.positional import sinusoidal_table
from webapp.i18n import Term, input_error

MAX_EMBED = 512
MAX_HEADS = 8  # the grid of heads stays readable up to 8 panels
MAX_TOKENS = 24


def multihead_weights(
    embed_dim: int, heads: int, n: int, mask: str = "none", valid_len: int | None = None,
    seed: int = 0,
) -> Tensor:
    """Per-head self-attention weights (h, n, n) of a random MultiHeadAttention on random tokens."""
    check_heads(embed_dim, heads)
    if embed_dim > MAX_EMBED or heads > MAX_HEADS or not 1 <= n <= MAX_TOKENS:
        raise ValueError(
            f"keep embed_dim ≤ {MAX_EMBED}, heads ≤ {MAX_HEADS} and 1 ≤ tokens ≤ {MAX_TOKENS} "
            f"(got {embed_dim}, {heads}, {n})"
        )
    torch.manual_seed(int(seed))
    layer = MultiHeadAttention(embed_dim, heads).eval()
    x = torch.randn(1, n, embed_dim)  # (B=1, n, E)
    keep = None
    if mask == "causal":
        keep = causal_mask(n)  # (n, n)
    elif mask == "valid":
        if valid_len is None or not 1 <= int(valid_len) <= n:
            raise input_error("valid_len", n=n)
        keep = (torch.arange(n) < int(valid_len)).expand(n, n)  # (n, n)
    elif mask != "none":
        raise input_error("unknown_pick", what="mask", value=mask, choices="none, valid or causal")
    with torch.no_grad():
        _, weights = layer(x, x, x, mask=keep, need_weights=True)  # (1, h, n, n)
    return weights[0]  # (h, n, n)


ORDERS = ("A B C D E", "E D C B A", "A C B E D")  # the three orders of the lesson's exercise 2


ALIKE = 0.15  # heads whose maps differ on less than 15% of their weight look alike


def head_difference(layer_maps: list[Tensor]) -> tuple[float, tuple[float, int, int, int]] | None:
    """How different the heads of each layer attend: the mean over head pairs (within a layer)
    of the total-variation distance between their rows, ½·Σ|p − q| averaged over queries (0:
    the same map, 1: disjoint keys), and the most different pair (distance, layer, a, b), all
    numbered from 1. None when no layer has two heads. Hidden cells (NaN) count as 0 weight."""
    found: list[float] = []
    most: tuple[float, int, int, int] | None = None
    for layer, maps in enumerate(layer_maps, start=1):  # (h, n, m)
        w = torch.nan_to_num(maps.detach().double(), nan=0.0)
        for a in range(w.shape[0]):
            for b in range(a + 1, w.shape[0]):
                tv = 0.5 * float((w[a] - w[b]).abs().sum(-1).mean())
                found.append(tv)
                if most is None or tv > most[0]:
                    most = (tv, layer, a + 1, b + 1)
    if not found or most is None:
        return None
    return sum(found) / len(found), most


def permutation_experiment(d_model: int = 8, seed: int = 0) -> pd.DataFrame:
    """Feed five word vectors in three orders through one self-attention, with and without PE.

    For each order and each word, compare the word's output with its output in the first order.
    Without PE the largest difference is ~0 (each word keeps its vector, the rows are only
    permuted); with PE the same word at another position gets another output.
    """
    if d_model < 2 or d_model % 2 or d_model > 64:
        raise ValueError(f"d_model must be an even number from 2 to 64, got {d_model}")
    torch.manual_seed(int(seed))
    words = dict(zip("ABCDE", torch.randn(5, d_model, dtype=torch.float64), strict=True))
    layer = MultiHeadAttention(d_model, 1).double().eval()  # one head: the lesson's module
    pe = sinusoidal_table(5, d_model).double()  # (5, d)
    rows = []
    base: dict[bool, dict[str, Tensor]] = {}
    for order in ORDERS:
        tokens = order.split()
        x = torch.stack([words[t] for t in tokens])[None]  # (1, 5, d)
        row = {"order": order}
        for with_pe in (False, True):
            inp = x + pe if with_pe else x
            with torch.no_grad():
                out, _ = layer(inp, inp, inp)  # (1, 5, d)
            per_word = {t: out[0, i] for i, t in enumerate(tokens)}
            base.setdefault(with_pe, per_word)
            diff = max(float((per_word[t] - base[with_pe][t]).abs().max()) for t in tokens)
            row["pe" if with_pe else "no_pe"] = diff
        rows.append(row)
    return pd.DataFrame(rows, columns=["order", "no_pe", "pe"])


@dataclass
class PoolingResult:
    """Both pooling variants on the same data, ready for kernel_regression_figure."""

    x_train: Tensor
    y_train: Tensor
    x_test: Tensor
    y_truth: Tensor
    fixed_pred: Tensor  # (n_test,) non-parametric, w fixed
    fixed_attn: Tensor  # (n_test, n_train)
    learned_pred: Tensor
    learned_attn: Tensor
    learned_w: float
    history: pd.DataFrame  # step, loss (MSE per point), w


def attention_pooling(
    n_train: int = 50, noise: float = 0.5, w: float = 1.0, steps: int = 5, lr: float = 0.5,
    seed: int = 0,
) -> PoolingResult:
    """Nadaraya–Watson with a fixed w vs a w learned by SGD (D2L's setting). w multiplies the
    distance in the kernel exp(-((x - x_i) w)^2 / 2): a larger w is a narrower kernel."""
    if not 2 <= n_train <= 500:
        raise input_error("between_plain", name=Term("n_training_points"), low=2, high=500, got=n_train)
    if not 0 <= steps <= 200:
        raise input_error("between_plain", name=Term("steps"), low=0, high=200, got=steps)
    data = make_kernel_data(n_train=int(n_train), noise_std=float(noise), seed=int(seed))
    fixed_pred, fixed_attn = nadaraya_watson(data.x_test, data.x_train, data.y_train, w=float(w))
    fit = fit_kernel_regression(steps=int(steps), lr=float(lr), seed=int(seed), data=data)
    with torch.no_grad():
        learned_pred = fit.model(data.x_test, data.x_train, data.y_train)  # (n_test,)
    return PoolingResult(
        data.x_train, data.y_train, data.x_test, data.y_truth, fixed_pred, fixed_attn,
        learned_pred, fit.model.attention_weights, float(fit.model.w.detach()),
        pd.DataFrame(fit.history),
    )
