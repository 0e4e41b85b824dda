"""Starter for the masked-softmax exercise: fill in the TODOs (see the statement)."""

import torch


def masked_softmax(X, valid_lens=None):
    """Softmax over the last axis of X (B, n, m); key j of query (b, i) is hidden when
    j >= its valid length (valid_lens: None, (B,) or (B, n))."""
    # TODO: raise ValueError when X is not 3-D.
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    # TODO: turn valid_lens into one length per query, shape (B, n)
    #       (1-D: repeat each row's length for its n queries; 2-D: use it as it is;
    #        anything else: raise ValueError).
    # TODO: build a boolean mask (B, n, m) that is True where the key index is < the length.
    # TODO: fill the hidden scores with -1e6, then take the softmax over the last axis.
    raise NotImplementedError("masked_softmax with valid_lens is not written yet")
