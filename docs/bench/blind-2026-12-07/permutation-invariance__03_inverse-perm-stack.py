import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm).long()
    inverse = torch.argsort(perm)            # undo the shuffle instead of applying it twice
    y = layer(x)
    y_shuffled = layer(x[:, perm])
    if isinstance(y, tuple):
        y = y[0]
    if isinstance(y_shuffled, tuple):
        y_shuffled = y_shuffled[0]
    # un-shuffling the output of the shuffled input must give back the plain output
    return bool(torch.allclose(y_shuffled[:, inverse], y, atol=atol, rtol=0.0))


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2:
        raise ValueError("sinusoidal encoding needs an even d_model")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    inv_freq = 10000.0 ** (-torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = pos * inv_freq                                  # (seq_len, d_model/2)
    # stack (sin, cos) on a new last axis and flatten: sin0 cos0 sin1 cos1 ...
    table = torch.stack((angles.sin(), angles.cos()), dim=-1).reshape(seq_len, d_model)
    return table.to(torch.float32)
