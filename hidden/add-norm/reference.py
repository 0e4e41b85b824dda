"""Reference solution for add-norm: post-LN residual block, LayerNorm(X + Dropout(Y))."""

from torch import nn


class AddNorm(nn.Module):
    """Residual connection then layer normalisation, as in the original Transformer (post-LN)."""

    def __init__(self, normalized_shape, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)  # on the sublayer's output only; off in eval mode
        self.ln = nn.LayerNorm(normalized_shape)  # over each token's d features, eps 1e-5

    def forward(self, X, Y):
        # X: the sublayer's input (B, T, d); Y: the sublayer's output (B, T, d)
        Z = X + self.dropout(Y)  # (B, T, d), a new tensor: X and Y stay as they were
        return self.ln(Z)  # (B, T, d): each token's features to mean 0, variance 1, then weight, bias
