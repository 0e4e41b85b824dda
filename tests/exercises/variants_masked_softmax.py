"""Learner-style submissions for masked-softmax, unlike the mistake files."""

BASE = '''
import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be (batch, queries, keys)")
    B, n, m = X.shape
    if valid_lens is None:
        return SOFTMAX(X)
    L = valid_lens
    if L.dim() == 1:
        if L.shape[0] != B:
            raise ValueError("one length per batch row")
        L = L.repeat_interleave(n).reshape(B, n)
    elif L.shape != (B, n):
        raise ValueError("2-D valid_lens must be (B, n)")
    ROWLEN
    idx = torch.arange(m, device=X.device)
    visible = idx.view(1, 1, m) COMPARE L.unsqueeze(-1)
    BODY


def SOFTMAX(Z):
    DEF
'''

DEFAULTS = {
    "ROWLEN": "",
    "COMPARE": "<",
    "BODY": "return SOFTMAX(torch.where(visible, X, torch.full_like(X, -1e9)))",
    "DEF": "return torch.softmax(Z, dim=-1)",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text.replace("SOFTMAX", "soft")


VARIANTS = [
    ("torch.where with -1e9", None, src()),
    ("masked_fill with -1e6 on a clone", None,
     src(BODY="Y = X.clone()\n    Y[~visible] = -1e6\n    return soft(Y)")),
    # -inf is right for every length >= 1, but a query with valid length 0 gets 0/0 = NaN
    ("masked_fill with -inf on a clone", "length-zero-nan",
     src(BODY="Y = X.clone()\n    Y[~visible] = float('-inf')\n    return soft(Y)")),
    ("stable exp, hidden terms zeroed", "length-zero-nan",
     src(BODY="e = torch.exp(X - X.amax(-1, keepdim=True)) * visible\n    return e / e.sum(-1, keepdim=True)")),
    ("fill with -1 (an ordinary score)", "zero-fill",
     src(BODY="return soft(torch.where(visible, X, torch.full_like(X, -1.0)))")),
    ("multiply the scores by the mask", "zero-fill", src(BODY="return soft(X * visible)")),
    ("<= instead of <", "off-by-one", src(COMPARE="<=")),
    ("lengths plus one", "off-by-one", src(ROWLEN="L = L + 1")),
    ("2-D lengths: first column for the whole row", "lens-2d-as-1d",
     src(ROWLEN="L = L[:, :1].expand(B, n)")),
    ("2-D lengths: row maximum... of the first query", "lens-2d-as-1d",
     src(ROWLEN="L = torch.stack([L[b, 0].repeat(n) for b in range(B)])")),
    ("1-D lengths tiled with repeat", "lens-wrong-rows",
     src().replace("L.repeat_interleave(n).reshape(B, n)", "L.repeat(n).reshape(B, n)")),
    ("1-D lengths: a comprehension over the queries, tiling", "lens-wrong-rows",
     src().replace("L.repeat_interleave(n).reshape(B, n)",
                   "torch.stack([L[(b * n + q) % B] for b in range(B) for q in range(n)]).reshape(B, n)")),
    ("lengths against the query index", "lens-on-queries",
     src(BODY="rows = torch.arange(n).view(1, n, 1) < L.unsqueeze(-1)\n    "
              "return soft(X.masked_fill(~rows, -1e6))")),
    ("row mask from arange(n), expanded", "lens-on-queries",
     src(BODY="keep = (torch.arange(n)[None, :] < L).unsqueeze(-1).expand(B, n, m)\n    "
              "return soft(torch.where(keep, X, torch.tensor(-1e9)))")),
    ("softmax over dim 1", "wrong-axis", src(DEF="return torch.softmax(Z, dim=1)")),
    ("softmax over dim -2 via F", "wrong-axis",
     src(DEF="import torch.nn.functional as F\n    return F.softmax(Z, dim=-2)")),
    ("softmax first, then multiply by the mask", "mask-after-softmax",
     src(BODY="return soft(X) * visible")),
    ("softmax first, then zero with where", "mask-after-softmax",
     src(BODY="w = soft(X)\n    return torch.where(visible, w, torch.zeros_like(w))")),
    ("exp / sum without the max", "overflowing-softmax",
     src(DEF="e = torch.exp(Z)\n    return e / e.sum(-1, keepdim=True)")),
    ("exp of the masked scores, normalised", "overflowing-softmax",
     src(DEF="e = Z.exp()\n    return e / torch.sum(e, dim=2, keepdim=True)")),
    ("the whole tensor's maximum subtracted", "global-max-shift",
     src(DEF="e = torch.exp(Z - Z.max())\n    return e / e.sum(-1, keepdim=True)")),
    ("amax over every axis, then exp", "global-max-shift",
     src(DEF="e = (Z - torch.amax(Z)).exp()\n    return e / torch.sum(e, dim=2, keepdim=True)")),
    ("writes -1e6 into the caller's X", "changes-input",
     src(BODY="X[~visible] = -1e6\n    return soft(X)")),
    ("masked_fill_ on X", "changes-input", src(BODY="return soft(X.masked_fill_(~visible, -1e6))")),
    ("returns numpy", "wrong-return-type", src(BODY=(
        "return soft(torch.where(visible, X, torch.full_like(X, -1e9))).numpy()"),
        DEF="return torch.softmax(Z, dim=-1)").replace(
        "return soft(X)\n", "return soft(X).numpy()\n")),
    ("always float32", "wrong-return-type", src(DEF="return torch.softmax(Z.float(), dim=-1)")),
]
