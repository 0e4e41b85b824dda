"""Learner-style submissions for multi-head-attention, written unlike the mistake files.

Each entry: (label, expected, source). ``expected`` is None for a correct submission (full
marks), else the mistake (or probe finding) the report must name, and name alone.
"""

BASE_EINSUM = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SimpleMultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be a multiple of num_heads")
        self.h = num_heads
        self.head_dim = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def heads(self, t):
        b, n, e = t.shape
        return t.reshape(b, n, self.h, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x, mask=None):
        b, n, e = x.shape
        q, k, v = self.heads(self.query(x)), self.heads(self.key(x)), self.heads(self.value(x))
        att = torch.einsum("bhqd,bhkd->bhqk", q, k) SCALE
        if mask is not None:
            MASK
        att = SOFTMAX
        ctx = torch.einsum("bhqk,bhkd->bhqd", att, v)
        ctx = MERGE
        return RETURN
'''

DEFAULTS = {
    "SCALE": "/ math.sqrt(self.head_dim)",
    "MASK": "att = att.masked_fill(mask == False, float('-inf'))",
    "SOFTMAX": "F.softmax(att, dim=-1)",
    "MERGE": "ctx.permute(0, 2, 1, 3).reshape(b, n, e)",
    "RETURN": "self.out_proj(ctx), att",
}


def einsum(**changes: str) -> str:
    src = BASE_EINSUM
    for key, value in {**DEFAULTS, **changes}.items():
        src = src.replace(key, value)
    return src


BASE_LOOP = '''
import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    """One head at a time, the way the lesson's single-head module is written."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        CHECK
        self.num_heads = num_heads
        self.d_k = embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        Q, K, V = self.query(x), self.key(x), self.value(x)
        outs, ws = [], []
        for i in range(self.num_heads):
            sl = slice(i * self.d_k, (i + 1) * self.d_k)
            q, k, v = Q[..., sl], K[..., sl], V[..., sl]
            s = q @ k.transpose(1, 2) SCALE
            if mask is not None:
                m = mask if mask.dim() < 4 else mask[:, 0]
                s = MASK
            w = SOFTMAX
            outs.append(w @ v)
            ws.append(w)
        weights = torch.stack(ws, dim=1)
        return FINISH
'''

LOOP_DEFAULTS = {
    "CHECK": "if embed_dim % num_heads:\n            raise ValueError('embed_dim % num_heads != 0')",
    "SCALE": "* self.d_k ** -0.5",
    "MASK": "s.masked_fill(~m, float('-inf'))",
    "SOFTMAX": "torch.softmax(s, dim=-1)",
    "FINISH": "self.out_proj(torch.cat(outs, dim=-1)), weights",
}


def loop(**changes: str) -> str:
    src = BASE_LOOP
    for key, value in {**LOOP_DEFAULTS, **changes}.items():
        src = src.replace(key, value)
    return src


INPLACE_SOFTMAX = {
    "SOFTMAX": "att - att.amax(-1, keepdim=True)\n        att.exp_()\n        att /= att.sum(-1, keepdim=True)\n        att = att"}

VARIANTS = [
    ("einsum, correct", None, einsum()),
    ("loop over heads, correct", None, loop()),
    ("einsum, no scale", "no-scale", einsum(SCALE="")),
    ("loop, no scale", "no-scale", loop(SCALE="")),
    ("einsum, 1/sqrt(E)", "scale-by-embed-dim", einsum(SCALE="/ math.sqrt(e)")),
    ("loop, 1/sqrt(E)", "scale-by-embed-dim", loop(SCALE="/ x.shape[-1] ** 0.5")),
    ("einsum, 1/d_k", "scale-by-d-k", einsum(SCALE="/ self.head_dim")),
    ("loop, 1/d_k", "scale-by-d-k", loop(SCALE="* (1.0 / self.d_k)")),
    ("einsum, heads split by a plain reshape", "split-without-transpose",
     einsum().replace("t.reshape(b, n, self.h, self.head_dim).permute(0, 2, 1, 3)",
                      "t.reshape(b, self.h, n, self.head_dim)")),
    ("einsum, heads split by view(B, h, -1, d)", "split-without-transpose",
     einsum().replace("t.reshape(b, n, self.h, self.head_dim).permute(0, 2, 1, 3)",
                      "t.contiguous().view(b, self.h, -1, self.head_dim)")),
    ("einsum, merged without moving heads back", "merge-without-transpose",
     einsum(MERGE="ctx.reshape(b, n, e)")),
    ("einsum, merged with contiguous().view", "merge-without-transpose",
     einsum(MERGE="ctx.contiguous().view(b, n, -1)")),
    ("einsum, no out_proj", "no-output-projection", einsum(RETURN="ctx, att")),
    ("loop, concatenated heads returned", "no-output-projection",
     loop(FINISH="torch.cat(outs, dim=-1), weights")),
    ("q_proj/k_proj/v_proj/o_proj names", "wrong-attribute-names",
     einsum().replace("self.query", "self.q_proj").replace("self.key", "self.k_proj")
     .replace("self.value", "self.v_proj").replace("self.out_proj", "self.o_proj")),
    ("W_q/W_k/W_v/W_o names", "wrong-attribute-names",
     loop().replace("self.query", "self.W_q").replace("self.key", "self.W_k")
     .replace("self.value", "self.W_v").replace("self.out_proj", "self.W_o")),
    ("mask inverted, -inf", "mask-inverted",
     einsum(MASK="att = att.masked_fill(mask, float('-inf'))")),
    ("mask inverted, filled with -1e9", "mask-inverted",
     loop(MASK="s.masked_fill(m, -1e9)")),
    ("einsum, heads split by view(b, n, d, h)", "split-strided", einsum().replace(
        "t.reshape(b, n, self.h, self.head_dim).permute(0, 2, 1, 3)",
        "t.view(b, n, self.head_dim, self.h).permute(0, 3, 1, 2)")),
    ("loop, head i takes every h-th feature", "split-strided", loop().replace(
        "sl = slice(i * self.d_k, (i + 1) * self.d_k)", "sl = slice(i, None, self.num_heads)")),
    ("loop, head i starts at feature i", "split-overlapping", loop().replace(
        "sl = slice(i * self.d_k, (i + 1) * self.d_k)", "sl = slice(i, i + self.d_k)")),
    ("einsum, slices at offset i stacked", "split-overlapping", einsum().replace(
        "return t.reshape(b, n, self.h, self.head_dim).permute(0, 2, 1, 3)",
        "return torch.stack([t[:, :, i:i + self.head_dim] for i in range(self.h)], 1)")),
    ("einsum, K times Q transposed", "scores-transposed", einsum().replace(
        '"bhqd,bhkd->bhqk", q, k', '"bhqd,bhkd->bhqk", k, q')),
    ("loop, k @ q.T", "scores-transposed", loop().replace(
        "s = q @ k.transpose(1, 2)", "s = k @ q.transpose(1, 2)")),
    ("softmax over the queries (dim=-2)", "softmax-wrong-axis", einsum(SOFTMAX="att.softmax(dim=-2)")),
    ("softmax over dim=1 in the loop", "softmax-wrong-axis", loop(SOFTMAX="torch.softmax(s, dim=1)")),
    ("assert instead of ValueError", "no-divisibility-check",
     loop(CHECK="assert embed_dim % num_heads == 0, 'embed_dim must divide'")),
    ("no check at all", "no-divisibility-check", loop(CHECK="pass")),
    ("weights averaged with mean", "weights-averaged", einsum(RETURN="self.out_proj(ctx), att.mean(dim=1)")),
    ("weights averaged with sum / h", "weights-averaged",
     loop(FINISH="self.out_proj(torch.cat(outs, dim=-1)), weights.sum(1) / self.num_heads")),
    ("hand-written softmax with exp_ and /=", "breaks-backward", einsum(**INPLACE_SOFTMAX)),
    ("exp then in-place division in the loop", "breaks-backward",
     loop(SOFTMAX="s.exp()\n            w /= w.sum(dim=-1, keepdim=True)")),
    ("forward returns numpy arrays", "wrong-return-type",
     einsum(RETURN="self.out_proj(ctx).detach().numpy(), att.detach().numpy()")),
    ("float32 softmax inside a float64 module", "wrong-return-type",
     einsum(SOFTMAX="F.softmax(att, dim=-1, dtype=torch.float32)",
            MERGE="ctx.to(x.dtype).permute(0, 2, 1, 3).reshape(b, n, e)")
     .replace('torch.einsum("bhqk,bhkd->bhqd", att, v)', 'torch.einsum("bhqk,bhkd->bhqd", att.to(v.dtype), v)')),
    ("keys computed under no_grad", "leaves-the-graph",
     einsum().replace("self.heads(self.key(x))", "self.heads(self.key(x).detach())")),
    ("values through .data", "leaves-the-graph",
     loop().replace("Q, K, V = self.query(x), self.key(x), self.value(x)",
                    "Q, K, V = self.query(x), self.key(x), self.value(x).data")),
]

VARIANTS += [
    ("x normalised in place", "changes-input", einsum().replace(
        "        b, n, e = x.shape\n        q, k, v", "        b, n, e = x.shape\n        x.mul_(1.0001)\n        q, k, v")),
    ("x += positions", "changes-input", einsum().replace(
        "        b, n, e = x.shape\n        q, k, v", "        b, n, e = x.shape\n        x += 1e-3\n        q, k, v")),
]
