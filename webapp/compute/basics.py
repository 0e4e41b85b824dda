"""Attention basics page: scores, weights and output of one small Q, K, V, step by step."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import Tensor

from transformer_lab.attention import AdditiveAttention, causal_mask, masked_softmax
from transformer_lab.errors import lab_error
from webapp.compute.matrices import LESSON_K, LESSON_Q, LESSON_V, format_matrix, parse_matrix
from webapp.i18n import input_error

__all__ = ["LESSON_K", "LESSON_Q", "LESSON_V", "BasicsResult", "attention_basics", "build_mask",
           "check_valid_len", "random_qkv", "scale_note"]

SCORINGS = ("dot", "additive")
MASKS = ("none", "valid", "causal")
ADDITIVE_HIDDENS = 8  # h of W_q ∈ R^{h×q}: small, the page is about the mechanism


@dataclass
class BasicsResult:
    """Everything the page shows for one Q, K, V (float64 tensors, single example)."""

    scores: Tensor  # (n, m) before masking and softmax
    weights: Tensor  # (n, m), rows sum to 1
    output: Tensor  # (n, d_v)
    shapes: list[tuple[str, tuple[int, ...]]]
    keep: Tensor | None  # (n, m) bool, True = may attend; None = no mask

    @property
    def d(self) -> int:
        """The width of the query rows: the d of the 1/√d scaling (dot-product scoring)."""
        return int(self.shapes[0][1][1])


def scale_note(d: int) -> dict[str, object]:
    """The numbers a caption about 1/√d needs for width ``d``: √d as text and whether it is exact.

    >>> scale_note(4)
    {'d': 4, 'root': '2', 'exact': True}
    """
    root = math.sqrt(d)
    exact = math.isclose(root, round(root))
    return {"d": int(d), "root": str(round(root)) if exact else f"{root:.2f}", "exact": exact}


def random_qkv(n: int = 3, m: int = 3, d: int = 4, d_v: int = 4, seed: int = 0) -> tuple[str, ...]:
    """Random Q (n×d), K (m×d), V (m×d_v) as text, rounded to one decimal so they stay readable."""
    gen = torch.Generator().manual_seed(int(seed))
    mats = [torch.randn(a, b, generator=gen, dtype=torch.float64).round(decimals=1)
            for a, b in ((n, d), (m, d), (m, d_v))]
    return tuple(format_matrix(x, decimals=1) for x in mats)


def check_valid_len(value, m: int) -> int:
    """``value`` as a valid length for ``m`` keys (1 … m), or one ValueError that names that
    range and why, whatever was wrong (empty, not whole, out of range): the limit is the number
    of keys, so the message says so."""
    got = "" if value is None else str(value).strip()
    try:
        number = float(got)
    except ValueError:
        number = math.nan
    if not (number.is_integer() and 1 <= number <= m):
        if not got:
            raise input_error("valid_len_keys_empty", m=m)
        shown = str(int(number)) if number.is_integer() else repr(got)
        raise input_error("valid_len_keys", m=m, got=shown)
    return int(number)


def build_mask(kind: str, n: int, m: int, valid_len: int | None) -> Tensor | None:
    """The (n, m) boolean mask for "none", "valid" (first valid_len keys) or "causal"."""
    if kind not in MASKS:
        raise lab_error("unknown_choice", what="mask", value=kind, choices=", ".join(MASKS))
    if kind == "none":
        return None
    if kind == "causal":
        if n != m:
            raise input_error("causal_square", n=n, m=m)
        return causal_mask(n)  # (n, n)
    valid_len = check_valid_len(valid_len, m)
    return (torch.arange(m) < valid_len).expand(n, m)  # (n, m)


def attention_basics(
    q_text: str,
    k_text: str,
    v_text: str,
    scoring: str = "dot",
    scale: bool = True,
    mask: str = "none",
    valid_len: int | None = None,
    seed: int = 0,
) -> BasicsResult:
    """Parse the three matrices and run one attention step, keeping every intermediate."""
    if scoring not in SCORINGS:
        raise lab_error("unknown_choice", what="scoring", value=scoring, choices=", ".join(SCORINGS))
    q = torch.tensor(parse_matrix(q_text, "Q"), dtype=torch.float64)  # (n, d)
    k = torch.tensor(parse_matrix(k_text, "K"), dtype=torch.float64)  # (m, d_k)
    v = torch.tensor(parse_matrix(v_text, "V"), dtype=torch.float64)  # (m, d_v)
    if k.shape[0] != v.shape[0]:
        raise input_error("kv_rows", k=k.shape[0], v=v.shape[0])
    n, m = q.shape[0], k.shape[0]
    keep = build_mask(mask, n, m, valid_len)
    if scoring == "dot":
        if q.shape[1] != k.shape[1]:
            raise input_error("dot_width", q=q.shape[1], k=k.shape[1])
        scores = q @ k.T  # (n, m)
        if scale:
            scores = scores / math.sqrt(q.shape[1])  # keeps Var(q·k) near 1, softmax unsaturated
    else:
        torch.manual_seed(int(seed))  # the additive layer's W_q, W_k, w_v are random but repeatable
        layer = AdditiveAttention(q.shape[1], k.shape[1], ADDITIVE_HIDDENS).double().eval()
        with torch.no_grad():
            scores = layer.w_v(torch.tanh(layer.W_q(q)[:, None] + layer.W_k(k)[None])).squeeze(-1)
    weights = masked_softmax(scores[None], mask=None if keep is None else keep[None])[0]  # (n, m)
    output = weights @ v  # (n, d_v)
    shapes = [("Q", tuple(q.shape)), ("K", tuple(k.shape)), ("V", tuple(v.shape)),
              ("scores", tuple(scores.shape)), ("weights", tuple(weights.shape)),
              ("output", tuple(output.shape))]
    return BasicsResult(scores.detach(), weights.detach(), output.detach(), shapes, keep)
