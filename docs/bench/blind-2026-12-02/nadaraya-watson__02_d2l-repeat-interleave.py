import torch
from torch.nn import functional as F


def nw_predict(x_query, x_keys, y_values, w=1.0):
    for name, t in (("x_query", x_query), ("x_keys", x_keys), ("y_values", y_values)):
        if t.ndim != 1:
            raise ValueError(f"{name} should be 1-D, got shape {tuple(t.shape)}")
    if len(x_keys) != len(y_values):
        raise ValueError("need one y per x")
    n, m = x_query.shape[0], x_keys.shape[0]
    # like D2L: repeat each query m times -> (n, m)
    X_repeat = x_query.repeat_interleave(m).reshape((-1, m))
    if not torch.is_tensor(w):
        w = torch.tensor(w, dtype=x_query.dtype)
    w = w.to(x_query.dtype)
    attention_weights = F.softmax(-((X_repeat - x_keys) * w) ** 2 / 2, dim=1)
    y_hat = torch.bmm(attention_weights.unsqueeze(1), y_values.expand(n, m).unsqueeze(-1)).reshape(-1)
    return y_hat, attention_weights
