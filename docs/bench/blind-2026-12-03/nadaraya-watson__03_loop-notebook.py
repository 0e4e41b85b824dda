import math

import torch

# In[1]: 核回归（Nadaraya-Watson），一个查询一个查询地算


def nw_predict(x_query, x_keys, y_values, w=1.0):
    if x_query.dim() != 1 or x_keys.dim() != 1 or y_values.dim() != 1:
        raise ValueError("输入必须都是一维张量")
    if x_keys.numel() != y_values.numel():
        raise ValueError("x_keys 与 y_values 长度不同")
    w = float(w)
    rows = []
    for xq in x_query:
        s = -0.5 * ((xq - x_keys) * w) ** 2       # (m,)
        s = s - s.max()                           # 防止 exp 下溢成全 0
        e = torch.exp(s)
        rows.append(e / e.sum())
    attention = torch.stack(rows)                 # (n, m)
    pred = torch.mv(attention, y_values)
    return pred, attention


# In[2]: 快速检查
if __name__ == "__main__":
    p, a = nw_predict(torch.tensor([1.0]), torch.tensor([0.0, 1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0]))
    print(p, a)
