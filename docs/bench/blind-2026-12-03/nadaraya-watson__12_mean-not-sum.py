import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("inputs must be 1-D")
    if x_keys.shape[0] != y_values.shape[0]:
        raise ValueError("one y per x")
    d = x_query[:, None] - x_keys[None, :]
    attention = torch.softmax(-0.5 * (d * w) ** 2, dim=-1)
    # weighted average of the y values
    pred = (attention * y_values[None, :]).mean(dim=-1)
    return pred, attention
