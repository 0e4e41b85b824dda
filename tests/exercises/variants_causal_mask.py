"""Learner-style submissions for causal-mask, unlike the mistake files."""

BASE = '''
import math
import torch


def causal_mask(n):
    if n < 1:
        raise ValueError("n must be >= 1")
    i = torch.arange(n)
    return MASK


def causal_attention(Q, K, V):
    n = Q.size(-2)
    if K.size(-2) != n or V.size(-2) != n or K.size(-1) != Q.size(-1):
        raise ValueError("Q, K, V must share n, and Q, K must share d")
    s = torch.matmul(Q, K.transpose(-1, -2)) SCALE
    allowed = causal_mask(n)
    BODY
    return w @ V, w
'''

DEFAULTS = {
    "MASK": "i.view(-1, 1) >= i.view(1, -1)",
    "SCALE": "/ math.sqrt(Q.size(-1))",
    "BODY": "w = torch.softmax(s.masked_fill(~allowed, float('-inf')), dim=-1)",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("comparison of indices, -inf", None, src()),
    ("tril of ones, torch.where with -1e9", None, src(
        MASK="torch.tril(torch.ones(n, n)).bool()",
        BODY="w = torch.softmax(torch.where(allowed, s, torch.tensor(-1e9, dtype=s.dtype)), -1)")),
    ("inverted mask filled with -1e9", "inverted-mask",
     src(MASK="torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)",
         BODY="w = torch.softmax(s.masked_fill(allowed, -1e9), dim=-1)")),
    ("mask True above the diagonal, where(allowed, -inf)", "inverted-mask",
     src(MASK="i.view(1, -1) > i.view(-1, 1)",
         BODY="w = torch.softmax(torch.where(allowed, torch.full_like(s, float('-inf')), s), -1)")),
    ("j >= i instead of j <= i", "upper-triangle", src(MASK="i.view(1, -1) >= i.view(-1, 1)")),
    ("triu of ones", "upper-triangle", src(MASK="torch.ones(n, n).triu() > 0")),
    ("strictly lower (j < i), -1e9", "diagonal-excluded",
     src(MASK="i.view(1, -1) < i.view(-1, 1)",
         BODY="w = torch.softmax(s.masked_fill(~allowed, -1e9), dim=-1)")),
    ("tril(-1), -1e4", "diagonal-excluded",
     src(MASK="torch.ones(n, n).tril(-1).bool()",
         BODY="w = torch.softmax(s.masked_fill(~allowed, -1e4), dim=-1)")),
    ("softmax then multiply by the mask", "mask-after-softmax",
     src(BODY="w = torch.softmax(s, dim=-1) * allowed")),
    ("softmax then where(allowed, w, 0)", "mask-after-softmax",
     src(BODY="w = s.softmax(-1)\n    w = torch.where(allowed, w, torch.zeros_like(w))")),
    ("no scale", "no-scale", src(SCALE="")),
    ("scale of 1 written out", "no-scale", src(SCALE="* 1.0")),
    ("returns numpy", "wrong-return-type", src().replace("return w @ V, w", "return (w @ V).numpy(), w.numpy()")),
    ("mask as 0/1 floats", "wrong-return-type", src(
        MASK="torch.tril(torch.ones(n, n))", BODY="w = torch.softmax(s.masked_fill(allowed == 0, float('-inf')), -1)")),
]

VARIANTS += [
    ("Q divided in place", "changes-input", src(SCALE="").replace(
        "    allowed = causal_mask(n)\n", "    allowed = causal_mask(n)\n").replace(
        "    s = torch.matmul(Q, K.transpose(-1, -2)) ", "    Q.div_(math.sqrt(Q.size(-1)))\n    s = torch.matmul(Q, K.transpose(-1, -2)) ")),
    ("V centred in place", "changes-input", src().replace("    return w @ V, w", "    V -= V.mean()\n    return w @ V, w")),
]

VARIANTS += [
    ("float32 inputs computed and returned in float64", "wrong-return-type", src().replace(
        "    n = Q.size(-2)\n", "    Q, K, V = Q.to(torch.float64), K.to(torch.float64), V.to(torch.float64)\n"
        "    n = Q.size(-2)\n")),
]
