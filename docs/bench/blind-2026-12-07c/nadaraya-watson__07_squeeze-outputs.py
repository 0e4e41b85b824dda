import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """Return (pred (n,), attention (n, m)) of Gaussian-kernel attention pooling."""
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("x_keys and y_values must have the same length")
    q = x_query.unsqueeze(-1)      # (n, 1)
    k = x_keys.unsqueeze(0)        # (1, m)
    attention = torch.softmax(-0.5 * ((q - k) * w) ** 2, dim=-1)
    pred = torch.bmm(attention.unsqueeze(0), y_values.reshape(1, -1, 1))
    return pred.squeeze(), attention.squeeze()
