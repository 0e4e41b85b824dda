"""Learner-style submissions for positional-table, unlike the mistake files."""

BASE = '''
import math
import numpy as np
import torch


def positional_encoding(max_len, d_model):
    if max_len < 1 or d_model < 2 or d_model % 2:
        raise ValueError("need max_len >= 1 and an even d_model >= 2")
    table = np.zeros((max_len, d_model))
    for p in range(max_len):
        for c in range(0, d_model, 2):
            rate = 1.0 / 10000 ** (EXPONENT)
            table[p, EVEN] = math.sin(POS * rate)
            table[p, ODD] = math.cos(POS * rate)
    return TABLE


def add_positions(X):
    T, d = X.shape[1], X.shape[2]
    ADD
'''

DEFAULTS = {
    "EXPONENT": "c / d_model",
    "EVEN": "c",
    "ODD": "c + 1",
    "POS": "p",
    "TABLE": "torch.from_numpy(table).float()",
    "ADD": "return X * d ** 0.5 + positional_encoding(T, d).to(X.dtype)",
}


def src(**changes: str) -> str:
    text = BASE
    for key, value in {**DEFAULTS, **changes}.items():
        text = text.replace(key, value)
    return text


VARIANTS = [
    ("loops over numpy", None, src()),
    ("unsqueeze and math.sqrt", None, src(
        ADD="P = positional_encoding(T, d).to(dtype=X.dtype).unsqueeze(0)\n    return math.sqrt(d) * X + P")),
    ("cos in the even columns", "sin-cos-swapped", src(EVEN="c + 1", ODD="c")),
    ("swapped by stacking cos first", "sin-cos-swapped",
     src(TABLE="torch.from_numpy(np.stack([table[:, 1::2], table[:, 0::2]], -1).reshape(max_len, d_model)).float()")),
    ("sines in the first half", "halves-not-interleaved",
     src(TABLE="torch.from_numpy(np.concatenate([table[:, 0::2], table[:, 1::2]], 1)).float()")),
    ("halves by hstack", "halves-not-interleaved",
     src(TABLE="torch.tensor(np.hstack((table[:, ::2], table[:, 1::2])), dtype=torch.float32)")),
    ("exponent per column, c+1 for the cosine", "per-column-exponent",
     src().replace("table[p, c + 1] = math.cos(p * rate)",
                   "table[p, c + 1] = math.cos(p / 10000 ** ((c + 1) / d_model))")),
    ("torch version with the column index", "per-column-exponent", '''
import math
import torch


def positional_encoding(max_len, d_model):
    if max_len < 1 or d_model < 2 or d_model % 2:
        raise ValueError("bad size")
    pos = torch.arange(max_len).unsqueeze(1).double()
    col = torch.arange(d_model).double()
    ang = pos / torch.pow(10000.0, col / d_model)
    out = torch.where(col.long() % 2 == 0, torch.sin(ang), torch.cos(ang))
    return out.float()


def add_positions(X):
    return X * math.sqrt(X.shape[-1]) + positional_encoding(X.shape[1], X.shape[-1]).to(X.dtype)
'''),
    ("positions counted from 1", "positions-from-one", src(POS="(p + 1)")),
    ("range(1, max_len + 1)", "positions-from-one",
     src().replace("for p in range(max_len):", "for p in range(1, max_len + 1):")
     .replace("table[p, ", "table[p - 1, ")),
    ("no sqrt(d_model)", "no-sqrt-scale", src(ADD="return X + positional_encoding(T, d).to(X.dtype)")),
    ("scaled by d_model ** 0 ", "no-sqrt-scale",
     src(ADD="P = positional_encoding(T, d)\n    return torch.add(X, P.to(X.dtype)[None])")),
    ("X.mul_ then add_", "changes-input",
     src(ADD="X.mul_(math.sqrt(d))\n    return X.add_(positional_encoding(T, d).to(X.dtype))")),
    ("X *= then X += ", "changes-input",
     src(ADD="X *= math.sqrt(d)\n    X += positional_encoding(T, d).to(X.dtype)\n    return X")),
    ("table left in float64", "wrong-return-type", src(TABLE="torch.from_numpy(table)",
                                                       ADD="return (X * d ** 0.5 + positional_encoding(T, d)).to(X.dtype)")),
    ("table returned as numpy float32", "wrong-return-type", src(
        TABLE="table.astype(np.float32)",
        ADD="return X * d ** 0.5 + torch.from_numpy(positional_encoding(T, d)).to(X.dtype)")),
]
