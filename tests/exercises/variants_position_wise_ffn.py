"""Learner-style submissions for the position-wise FFN, unlike the mistake files."""

BASE = '''
import torch
import torch.nn.functional as F


def position_wise_ffn(X, W1, b1, W2, b2):
    h = FIRST
    h = ACT
    out = SECOND
    return RESULT
'''

DEFAULTS = {
    "FIRST": "torch.einsum('bnd,df->bnf', X, W1) + b1",
    "ACT": "F.relu(h)",
    "SECOND": "torch.matmul(h, W2) + b2",
    "RESULT": "out",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("einsum, F.relu, matmul", None, src()),
    ("F.linear with the transposed weights, clamp", None, src(
        FIRST="F.linear(X, W1.T, b1)", ACT="h.clamp(min=0)", SECOND="F.linear(h, W2.T, b2)")),
    ("flattened positions, torch.maximum", None, src(
        FIRST="(X.reshape(-1, X.shape[-1]) @ W1 + b1)", ACT="torch.maximum(h, torch.zeros_like(h))",
        SECOND="(h @ W2 + b2).reshape(X.shape)")),
    ("in-place relu on the hidden layer", None, src(ACT="h.relu_()")),
    ("activation line dropped", "no-activation", src(ACT="h")),
    ("identity where the ReLU goes, F.linear", "no-activation", src(
        FIRST="F.linear(X, W1.T, b1)", ACT="h * 1.0")),
    ("relu on the result", "relu-on-output", src(RESULT="torch.relu(out)")),
    ("clamp on the result", "relu-on-output", src(RESULT="out.clamp(min=0)")),
    ("b1 added after F.relu", "bias-after-relu", src(
        FIRST="torch.einsum('bnd,df->bnf', X, W1)", ACT="F.relu(h) + b1")),
    ("b1 added after clamp, matmul", "bias-after-relu", src(
        FIRST="X @ W1", ACT="h.clamp(min=0)\n    h = h + b1")),
    ("F.gelu", "gelu-instead-of-relu", src(ACT="F.gelu(h)")),
    ("nn.GELU module", "gelu-instead-of-relu", src(ACT="torch.nn.GELU()(h)")),
    ("b2 never added", "no-output-bias", src(SECOND="torch.matmul(h, W2)")),
    ("F.linear without b2", "no-output-bias", src(SECOND="F.linear(h, W2.T)")),
    ("result returned as numpy", "wrong-return-type", src(RESULT="out.numpy()")),
    ("result always float32", "wrong-return-type", src(RESULT="out.float()")),
    ("X clamped in place", "changes-input", src(FIRST="torch.einsum('bnd,df->bnf', X.clamp_(min=-1), W1) + b1")),
    ("b2 accumulated in place", "changes-input", src(SECOND="torch.matmul(h, W2) + b2.add_(0.5) - 0.5")),
]
