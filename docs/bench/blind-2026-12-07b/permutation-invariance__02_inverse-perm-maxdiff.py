
import torch


def _main_output(result):
    # nn.MultiheadAttention / SimpleSelfAttention return (output, weights)
    return result[0] if isinstance(result, (tuple, list)) else result


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    perm = torch.as_tensor(perm, dtype=torch.long)
    inverse = torch.argsort(perm)
    with torch.no_grad():
        y = _main_output(layer(x))
        y_shuffled = _main_output(layer(x[:, perm]))
    # undo the shuffle on the second output instead of shuffling the first one
    y_back = y_shuffled[:, inverse]
    if y_back.shape != y.shape:
        return False
    return (y_back - y).abs().max().item() <= atol


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2:
        raise ValueError("sinusoidal_positional_encoding needs an even d_model "
                         f"(sin/cos pairs), got d_model={d_model}")
    P = torch.empty(seq_len, d_model, dtype=torch.float64)
    for pos in range(seq_len):
        for i in range(d_model // 2):
            angle = torch.tensor(pos / 10000 ** (2 * i / d_model), dtype=torch.float64)
            P[pos, 2 * i] = torch.sin(angle)
            P[pos, 2 * i + 1] = torch.cos(angle)
    return P.to(torch.float32)
