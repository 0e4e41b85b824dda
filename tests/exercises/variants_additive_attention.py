"""Learner-style submissions for additive-attention, unlike the mistake files."""

BASE = '''
import torch


def additive_scores(q, k, W_q, W_k, w_v):
    if W_q.shape[1] != q.shape[-1] or W_k.shape[1] != k.shape[-1]:
        raise ValueError("W_q / W_k do not match the widths of q / k")
    if W_q.shape[0] != W_k.shape[0] or w_v.shape[0] != W_q.shape[0] or w_v.dim() != 1:
        raise ValueError("hidden sizes disagree")
    a = torch.einsum("bnd,hd->bnh", q, QW)
    b = torch.einsum("bmd,hd->bmh", k, KW)
    feat = ACT(a.unsqueeze(2) + b.unsqueeze(1))
    return SCORE


def additive_attention(q, k, v, W_q, W_k, w_v, valid_lens=None):
    s = additive_scores(q, k, W_q, W_k, w_v)
    if valid_lens is not None:
        MASK
    w = torch.softmax(s, dim=AXIS)
    return torch.bmm(w, v), w
'''

DEFAULTS = {
    "QW": "W_q",
    "KW": "W_k",
    "ACT": "torch.tanh",
    "SCORE": "torch.einsum('bnmh,h->bnm', feat, w_v)",
    "MASK": "pos = torch.arange(s.shape[-1]).view(1, 1, -1)\n        s = torch.where(pos < valid_lens.view(-1, 1, 1), s, torch.full_like(s, -1e9))",
    "AXIS": "-1",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("einsum and torch.where", None, src()),
    ("matmul with w_v and masked_fill", None, src(
        SCORE="(feat @ w_v.unsqueeze(-1)).squeeze(-1)",
        MASK="hide = torch.arange(s.size(2))[None, None, :] >= valid_lens[:, None, None]\n        s = s.masked_fill(hide, -1e6)")),
    # -inf instead of the statement's -1e6: right unless a row has valid length 0 (NaN there)
    ("masked_fill with -inf", "length-zero-nan", src(
        SCORE="(feat @ w_v.unsqueeze(-1)).squeeze(-1)",
        MASK="hide = torch.arange(s.size(2))[None, None, :] >= valid_lens[:, None, None]\n        s = s.masked_fill(hide, float('-inf'))")),
    ("padding scores multiplied by the mask (0)", "zero-fill", src(
        MASK="s = s * (torch.arange(s.shape[-1])[None, None, :] < valid_lens[:, None, None])")),
    ("padding scores replaced by zeros_like", "zero-fill", src(
        MASK="pos = torch.arange(s.shape[-1]).view(1, 1, -1)\n        s = torch.where(pos < valid_lens.view(-1, 1, 1), s, torch.zeros_like(s))")),
    ("torch.where with -inf", "length-zero-nan", src(
        MASK="keep = torch.arange(s.shape[-1]).view(1, 1, -1) < valid_lens.view(-1, 1, 1)\n        s = torch.where(keep, s, torch.full_like(s, float('-inf')))")),
    ("no tanh", "no-tanh", src(ACT="")),
    ("identity instead of tanh", "no-tanh", src(ACT="torch.nn.Identity()")),
    ("summed features instead of w_v", "sum-instead-of-wv", src(SCORE="feat.sum(-1)")),
    ("einsum without w_v", "sum-instead-of-wv", src(SCORE="torch.einsum('bnmh->bnm', feat)")),
    ("softmax over dim 1", "softmax-over-queries", src(AXIS="1")),
    ("softmax over dim -2", "softmax-over-queries", src(AXIS="-2")),
    ("valid_lens never used", "ignores-valid-lens", src(MASK="pass")),
    ("mask built but not applied", "ignores-valid-lens",
     src(MASK="hide = torch.arange(s.size(2))[None, None, :] >= valid_lens[:, None, None]")),
    ("W_k on the queries and W_q on the keys", "swapped-weights",
     src(QW="W_k", KW="W_q").replace("if W_q.shape[1] != q.shape[-1] or W_k.shape[1] != k.shape[-1]:",
                                     "if W_q.shape[1] != q.shape[-1] and W_k.shape[1] != k.shape[-1]:")),
    ("swapped when the widths agree", "swapped-weights",
     src(QW="(W_k if q.shape[-1] == k.shape[-1] else W_q)", KW="(W_q if q.shape[-1] == k.shape[-1] else W_k)")),
    ("attention returned as numpy", "wrong-return-type",
     src().replace("return torch.bmm(w, v), w", "return torch.bmm(w, v).numpy(), w.numpy()")),
    ("scores always float32", "wrong-return-type", src(SCORE="torch.einsum('bnmh,h->bnm', feat, w_v).float()")),
]

VARIANTS += [
    ("v scaled in place", "changes-input", src().replace("    return torch.bmm(w, v), w", "    v *= 1.0 + 1e-3\n    return torch.bmm(w, v), w")),
    ("q normalised in place", "changes-input", src().replace(
        "    s = additive_scores(q, k, W_q, W_k, w_v)", "    q.add_(1e-3)\n    s = additive_scores(q, k, W_q, W_k, w_v)")),
]
