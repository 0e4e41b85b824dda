"""Wrong submissions whose bug is no known mistake (or two at once): they must lose points
and must never be named as a mistake they do not make."""

import variants_causal_mask as causal
import variants_manual_attention as manual
import variants_masked_softmax as msm
import variants_multi_head_attention as mha

UNKNOWN = [
    ("multi-head-attention", "weights returned transposed", set(),
     mha.einsum(RETURN="self.out_proj(ctx), att.transpose(-1, -2)")),
    ("multi-head-attention", "projections without bias", set(),
     mha.einsum().replace("nn.Linear(embed_dim, embed_dim)", "nn.Linear(embed_dim, embed_dim, bias=False)")),
    ("multi-head-attention", "two mistakes: no scale and an inverted mask", {"no-scale", "mask-inverted"},
     mha.einsum(SCALE="", MASK="att = att.masked_fill(mask, float('-inf'))")),
    ("multi-head-attention", "two mistakes: 1/sqrt(E) and the softmax over the queries",
     {"scale-by-embed-dim", "softmax-wrong-axis"},
     mha.loop(SCALE="/ x.shape[-1] ** 0.5", SOFTMAX="torch.softmax(s, dim=1)")),
    ("causal-mask", "mask applied to the transposed scores", set(),
     causal.src(BODY="w = torch.softmax(s.transpose(-1, -2).masked_fill(~allowed, float('-inf')), dim=-1)")),
    ("causal-mask", "an extra temperature of 2", set(), causal.src(SCALE="/ (2 * math.sqrt(Q.size(-1)))")),
    ("masked-softmax", "lengths minus one", set(), msm.src(ROWLEN="L = L - 1")),
    ("masked-softmax", "log-softmax returned", set(), msm.src(DEF="return torch.log_softmax(Z, dim=-1)")),
    ("manual-attention", "context doubled", set(), manual.src().replace(
        'torch.einsum("...nm,...mv->...nv", w, V)', 'torch.einsum("...nm,...mv->...nv", w, V) * 2')),
]
