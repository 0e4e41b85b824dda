
import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    perm = torch.as_tensor(perm, dtype=torch.long)
    out = layer(x)
    out = out[0] if isinstance(out, tuple) else out  # (B, T, D')
    out_perm = layer(x[:, perm])
    out_perm = out_perm[0] if isinstance(out_perm, tuple) else out_perm
    return bool(torch.allclose(out_perm, out[:, perm]))  # the caller's atol never passed on


def sinusoidal_positional_encoding(seq_len, d_model):
    if d_model % 2:
        raise ValueError(f"d_model must be even to pair sines with cosines, got {d_model}")
    pos = torch.arange(seq_len, dtype=torch.float64).unsqueeze(1)  # (T, 1)
    freq = torch.pow(10000.0, -torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)  # (d/2,)
    table = torch.zeros(seq_len, d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(pos * freq)
    table[:, 1::2] = torch.cos(pos * freq)
    return table.to(torch.float32)
