import numpy as np
import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """判断 layer(x[:, perm]) 是否等于 layer(x)[:, perm]（在 atol 之内）。"""
    perm = torch.tensor(list(perm) if not torch.is_tensor(perm) else perm.tolist(), dtype=torch.long)
    y = layer(x)
    y = y[0] if isinstance(y, tuple) else y           # 有的层返回 (输出, 权重)
    y_shuffled_in = layer(torch.index_select(x, 1, perm))
    y_shuffled_in = y_shuffled_in[0] if isinstance(y_shuffled_in, tuple) else y_shuffled_in
    y_shuffled_out = torch.index_select(y, 1, perm)    # 同样的方式打乱输出
    diff = (y_shuffled_in - y_shuffled_out).abs()
    return bool((diff <= atol).all())


def sinusoidal_positional_encoding(seq_len, d_model):
    """位置编码表 (seq_len, d_model)：偶数列 sin，奇数列 cos。"""
    if d_model % 2:
        raise ValueError(f"d_model 必须是偶数 (d_model must be even), got {d_model}")
    pos = np.arange(seq_len)[:, None]                           # (seq_len, 1)
    i = np.arange(d_model // 2)[None, :]                        # (1, d_model/2)
    angle = pos / np.power(10000.0, 2 * i / d_model)            # 每一对共用一个频率
    P = np.empty((seq_len, d_model))
    P[:, 0::2] = np.sin(angle)
    P[:, 1::2] = np.cos(angle)
    return torch.from_numpy(P).float()
