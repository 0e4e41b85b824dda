import torch


def nw_predict(x_query, x_keys, y_values, w=1.0):
    """返回 (pred (n,), attention (n, m))：高斯核注意力汇聚。"""
    # 输入检查：都必须是一维，键和值一样长
    for name, t in (("x_query", x_query), ("x_keys", x_keys), ("y_values", y_values)):
        if t.ndim != 1:
            raise ValueError(f"{name} 必须是一维张量 (must be 1-D), got shape {tuple(t.shape)}")
    if len(x_keys) != len(y_values):
        raise ValueError("x_keys 和 y_values 长度不同 (one y per x)")

    rows = []
    for xq in x_query:                      # 一个查询一行
        logits = -0.5 * ((xq - x_keys) * w) ** 2
        # 用 logsumexp 归一化，查询离所有键都很远时也不会出现 0/0
        rows.append(torch.exp(logits - torch.logsumexp(logits, dim=0)))
    attention = torch.stack(rows).to(x_query.dtype)      # (n, m)
    pred = (attention * y_values).sum(dim=1)             # (n,)
    return pred, attention
