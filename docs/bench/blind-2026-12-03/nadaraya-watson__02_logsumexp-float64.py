import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    for name, t in (("x_query", x_query), ("x_keys", x_keys), ("y_values", y_values)):
        if t.ndim != 1:
            raise ValueError(f"{name} must be 1-D, got shape {tuple(t.shape)}")
    if len(x_keys) != len(y_values):
        raise ValueError(f"{len(x_keys)} keys but {len(y_values)} values")
    dtype = x_query.dtype
    # work in float64, go back at the end
    xq = x_query.double().unsqueeze(-1)       # (n, 1)
    xk = x_keys.double().unsqueeze(0)         # (1, m)
    w64 = torch.as_tensor(w, dtype=torch.float64)
    logits = -0.5 * ((xq - xk) * w64) ** 2    # (n, m)
    log_attn = logits - torch.logsumexp(logits, dim=-1, keepdim=True)
    attn = log_attn.exp()
    pred = (attn * y_values.double().unsqueeze(0)).sum(dim=-1)
    return pred.to(dtype), attn.to(dtype)
