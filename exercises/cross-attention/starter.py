"""Starter for the cross-attention exercise: fill in the TODOs (see the statement)."""


def cross_attention(dec, enc, W_q, W_k, W_v, enc_valid_lens=None):
    """Return (output (B, n, d_v), weights (B, n, m)): decoder queries attend to encoder keys."""
    # TODO: import torch and math at the top of the file.
    # TODO: project: queries from dec with W_q; keys and values from enc with W_k and W_v.
    # TODO: scores Q Kᵀ / √d_k of shape (B, n, m), where d_k = W_q.shape[1].
    # TODO: when enc_valid_lens is given, fill the scores of the keys j >= enc_valid_lens[b]
    #       with torch.finfo(scores.dtype).min before the softmax.
    # TODO: weights = softmax over the keys (the last axis); output = weights @ V.
    raise NotImplementedError("cross_attention is not written yet")
