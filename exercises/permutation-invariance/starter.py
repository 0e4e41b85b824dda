
import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    # TODO: run the layer on x and on the permuted x (take the first item if it returns a
    # tuple), put both outputs in the same order, then compare with a tolerance.
    return False


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    # TODO: check d_model, build positions (seq_len, 1) and frequencies 1 / 10000^(2i/d_model)
    return torch.zeros(seq_len, d_model)
