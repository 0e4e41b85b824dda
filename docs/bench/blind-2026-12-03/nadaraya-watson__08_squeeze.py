import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("one y per x")
    d = x_query.reshape(-1, 1) - x_keys.reshape(1, -1)
    attention = torch.softmax(-0.5 * (d * w) ** 2, dim=-1)
    pred = torch.matmul(attention, y_values.reshape(-1, 1))   # (n, 1)
    return pred.squeeze(), attention.squeeze()
