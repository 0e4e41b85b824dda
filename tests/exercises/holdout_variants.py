"""A held-out set: learner-style variants written after the diagnosis was built and measured
once, never tuned against (scripts/measure_diagnosis.py --holdout). Not asserted by the test
suite on purpose: it estimates how the naming generalises, it is not a target."""

import variants_additive_attention as add
import variants_causal_mask as causal
import variants_manual_attention as manual
import variants_masked_softmax as msm
import variants_multi_head_attention as mha
import variants_nadaraya_watson as nw
import variants_permutation_invariance as perm
import variants_positional_table as table

HOLDOUT = [
    ("multi-head-attention", "bmm over (B*h) with 1/sqrt(E)", "scale-by-embed-dim",
     mha.einsum(SCALE="/ (self.h * self.head_dim) ** 0.5")),
    ("multi-head-attention", "mask.logical_not() filled, -1e4, inverted", "mask-inverted",
     mha.loop(MASK="s.masked_fill(m.logical_not().logical_not(), -1e4)")),
    ("multi-head-attention", "nn.Softmax(dim=-2) module", "softmax-wrong-axis",
     mha.einsum(SOFTMAX="nn.Softmax(dim=-2)(att)")),
    ("multi-head-attention", "@torch.no_grad() on forward", "leaves-the-graph",
     mha.einsum().replace("    def forward(self, x, mask=None):", "    @torch.no_grad()\n    def forward(self, x, mask=None):")),
    ("causal-mask", "mask == 1 filled with -1e30", "inverted-mask",
     causal.src(BODY="w = torch.softmax(s.masked_fill(allowed == 1, -1e30), dim=-1)")),
    # Written as "correct", measured once: it is not. With large scores a future key takes all
    # of the softmax, the allowed weights underflow to 0 and the renormalisation divides 0 by 0
    # (NaN). It loses the large-scores case, rightly; no known mistake names it. (Under fresh
    # inputs one draw in a few did not underflow; the large case now makes future keys win.)
    ("causal-mask", "softmax, multiply by mask, renormalise", "not-full",
     causal.src(BODY="w = torch.softmax(s, -1) * allowed\n    w = w / w.sum(-1, keepdim=True)")),
    ("masked-softmax", "hide when j > L", "off-by-one", msm.src().replace(
        "visible = idx.view(1, 1, m) < L.unsqueeze(-1)", "visible = ~(idx.view(1, 1, m) > L.unsqueeze(-1))")),
    ("masked-softmax", "X * mask + (1 - mask) * 0", "zero-fill",
     msm.src(BODY="v = visible.to(X.dtype)\n    return soft(X * v + (1 - v) * 0.0)")),
    ("positional-table", "arange(max_len) + 1", "positions-from-one", '''
import math
import torch


def positional_encoding(max_len, d_model):
    if max_len < 1 or d_model < 2 or d_model % 2:
        raise ValueError("bad size")
    pos = (torch.arange(max_len, dtype=torch.float64) + 1)[:, None]
    div = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(max_len, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe.float()


def add_positions(X):
    return X * math.sqrt(X.size(-1)) + positional_encoding(X.size(1), X.size(-1)).to(X.dtype)
'''),
    ("permutation-invariance", "inverse by scatter_", "inverse-permutation", perm.src(COMPARE=(
        "bool(torch.allclose(b, a[:, torch.empty_like(p).scatter_(0, p, torch.arange(len(p)))], atol=atol))"))),
    ("permutation-invariance", "max difference == 0", "no-tolerance",
     perm.src(COMPARE="(b - a[:, p]).abs().max().item() == 0")),
    ("manual-attention", "0 * mask added", "mask-ignored",
     manual.src(MASK="s = s + 0 * mask")),
    ("manual-attention", "exp over sum with [..., None]", "naive-softmax",
     manual.src(SOFTMAX="torch.exp(s) / torch.exp(s).sum(-1)[..., None]")),
    ("nadaraya-watson", "softmax of +square", "sign-error",
     nw.src(LOGITS="0.5 * torch.square(d * w)")),
    ("additive-attention", "F.softmax(s, 1)", "softmax-over-queries",
     add.src(AXIS="1").replace("torch.softmax(s, dim=1)", "torch.nn.functional.softmax(s, 1)")),
    ("positional-table", "table built then X.add_ in place", "changes-input",
     table.src(ADD="X.mul_(d ** 0.5).add_(positional_encoding(T, d).to(X.dtype))\n    return X")),
]
