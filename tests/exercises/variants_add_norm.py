"""Learner-style submissions for add-norm, written unlike the mistake files.

Each entry: (label, expected, source). ``expected`` is None for a correct submission (full
marks), else the mistake the report must name, and name alone.
"""

BASE = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class AddNorm(nn.Module):
    def __init__(self, normalized_shape, dropout):
        super().__init__()
        self.p = dropout
        self.drop = nn.Dropout(dropout)
        self.ln = NORM

    def forward(self, X, Y):
        BODY
'''

DEFAULTS = {"NORM": "nn.LayerNorm(normalized_shape)", "BODY": "return self.ln(X + self.drop(Y))"}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


def body(*lines: str) -> str:
    """Several lines of ``forward``, indented as its body."""
    return "\n        ".join(lines)


def by_hand(axes: str = "-1", var: str = "((Z - mu) ** 2).mean({a}, keepdim=True)",
            eps: str = " + self.ln.eps", first: str = "Z = X + self.drop(Y)") -> str:
    """LayerNorm written out, with the statistics over ``axes`` and the block's own affine."""
    return body(first, f"mu = Z.mean({axes}, keepdim=True)", f"var = {var.format(a=axes)}",
                f"return (Z - mu) / torch.sqrt(var{eps}) * self.ln.weight + self.ln.bias")


VARIANTS = [
    ("nn.Dropout then nn.LayerNorm, one line", None, src()),
    ("F.dropout(training=self.training), LayerNorm by hand", None, src(BODY=by_hand(
        first="Z = X + F.dropout(Y, p=self.p, training=self.training)"))),
    ("F.layer_norm with the block's weight, torch.add", None, src(BODY=body(
        "Z = torch.add(X, self.drop(Y))",
        "return F.layer_norm(Z, (Z.size(-1),), self.ln.weight, self.ln.bias, self.ln.eps)"))),
    ("dropout only if self.training, var(unbiased=False)", None, src(BODY=body(
        "if self.training:",
        "    Y = F.dropout(Y, self.p)",
        "Z = X + Y",
        "mu = Z.mean(-1, keepdim=True)",
        "return (Z - mu) / (Z.var(-1, unbiased=False, keepdim=True) + 1e-5).sqrt() "
        "* self.ln.weight + self.ln.bias"))),

    ("LayerNorm of the dropped Y", "no-residual", src(BODY="return self.ln(self.drop(Y))")),
    ("dropout, then norm, no X", "no-residual", src(BODY=body(
        "out = self.drop(Y)", "out = self.ln(out)", "return out"))),

    ("sum returned as it is", "no-norm", src(BODY="return X + self.drop(Y)")),
    ("functional dropout, sum returned", "no-norm", src(BODY=body(
        "Z = X + F.dropout(Y, self.p, self.training)", "return Z"))),

    ("X + dropout(LayerNorm(Y))", "pre-ln", src(BODY="return X + self.drop(self.ln(Y))")),
    ("norm Y, drop, add X afterwards", "pre-ln", src(BODY=body(
        "h = self.ln(Y)", "h = self.drop(h)", "return h + X"))),

    ("LayerNorm(X) + dropout(Y)", "norm-on-residual", src(BODY="return self.ln(X) + self.drop(Y)")),
    ("F.layer_norm on X, then Y added", "norm-on-residual", src(BODY=body(
        "normed = F.layer_norm(X, X.shape[-1:], self.ln.weight, self.ln.bias)",
        "return normed + self.drop(Y)"))),

    ("BatchNorm1d on (B, d, T)", "batch-norm", src(
        NORM="nn.BatchNorm1d(normalized_shape)",
        BODY="return self.ln((X + self.drop(Y)).permute(0, 2, 1)).permute(0, 2, 1)")),
    ("BatchNorm1d on the tokens flattened to (B*T, d)", "batch-norm", src(
        NORM="nn.BatchNorm1d(normalized_shape)", BODY=body(
            "Z = X + self.drop(Y)", "B, T, d = Z.shape",
            "return self.ln(Z.reshape(B * T, d)).reshape(B, T, d)"))),

    ("statistics over dim=1 by hand", "norm-over-sequence", src(BODY=by_hand(axes="1"))),
    ("InstanceNorm1d(d, affine=True) on (B, d, T)", "norm-over-sequence", src(
        NORM="nn.InstanceNorm1d(normalized_shape, affine=True)",
        BODY="return self.ln((X + self.drop(Y)).transpose(1, 2)).transpose(1, 2)")),

    ("F.layer_norm over Z.shape[1:], then the block's affine", "norm-whole-sequence", src(BODY=body(
        "Z = X + self.drop(Y)",
        "return F.layer_norm(Z, Z.shape[1:]) * self.ln.weight + self.ln.bias"))),
    ("statistics over dims (-2, -1) by hand", "norm-whole-sequence", src(BODY=by_hand(
        axes="(-2, -1)"))),

    ("torch.var with its default (unbiased)", "unbiased-variance", src(BODY=by_hand(
        var="torch.var(Z, dim={a}, keepdim=True)"))),
    ("std() squared", "unbiased-variance", src(BODY=by_hand(
        var="Z.std({a}, keepdim=True) ** 2"))),

    ("divided by the biased std, no eps", "no-eps", src(BODY=body(
        "Z = X + self.drop(Y)", "mu = Z.mean(-1, keepdim=True)",
        "return (Z - mu) / Z.std(-1, unbiased=False, keepdim=True) * self.ln.weight + self.ln.bias"))),
    ("square root of the mean square, no eps", "no-eps", src(BODY=by_hand(eps=""))),

    ("dropout on the normalised output", "dropout-after-norm", src(
        BODY="return self.drop(self.ln(X + Y))")),
    ("F.dropout after the norm, training=self.training", "dropout-after-norm", src(BODY=body(
        "out = self.ln(X + Y)", "return F.dropout(out, self.p, self.training)"))),

    ("dropout on X + Y", "dropout-on-sum", src(BODY="return self.ln(self.drop(X + Y))")),
    ("F.dropout on the sum", "dropout-on-sum", src(BODY=body(
        "Z = F.dropout(X + Y, p=self.p, training=self.training)", "return self.ln(Z)"))),

    ("F.dropout(Y, p): training defaults to True", "dropout-in-eval", src(
        BODY="return self.ln(X + F.dropout(Y, self.p))")),
    ("F.dropout(..., training=True) written out", "dropout-in-eval", src(BODY=body(
        "dropped = F.dropout(Y, p=self.p, training=True)", "return self.ln(X + dropped)"))),

    ("X += dropout(Y)", "changes-input", src(BODY=body("X += self.drop(Y)", "return self.ln(X)"))),
    ("X.add_(...)", "changes-input", src(BODY="return self.ln(X.add_(self.drop(Y)))")),

    ("returns numpy", "wrong-return-type", src(
        BODY="return self.ln(X + self.drop(Y)).detach().numpy()")),
    ("float32 result from a float64 module", "wrong-return-type", src(
        BODY="return self.ln(X + self.drop(Y)).float()")),
]
