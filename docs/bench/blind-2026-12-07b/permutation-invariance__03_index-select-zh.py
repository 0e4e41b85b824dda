
import torch


def is_permutation_equivariant(layer, x, perm, atol=1e-5):
    """True when layer(x[:, perm]) equals layer(x)[:, perm] within atol."""
    idx = torch.as_tensor(perm, dtype=torch.long, device=x.device)
    # 原始顺序的输出
    a = layer(x)
    a = a[0] if isinstance(a, tuple) else a          # 若返回 (输出, 权重) 只取输出
    # 打乱输入后的输出
    b = layer(torch.index_select(x, 1, idx))
    b = b[0] if isinstance(b, tuple) else b
    # 等变：b 应该等于把 a 按同样的方式打乱
    a_perm = torch.index_select(a, 1, idx)
    return bool(torch.isclose(b, a_perm, rtol=0.0, atol=atol).all())


def sinusoidal_positional_encoding(seq_len, d_model):
    """Table (seq_len, d_model): sin in even columns, cos in odd columns."""
    if d_model % 2 == 1:
        raise ValueError("d_model 必须是偶数")
    pos = torch.arange(seq_len, dtype=torch.float64)[:, None]
    div = 10000.0 ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)
    angles = pos / div                                # (seq_len, d_model/2)
    # 交错：偶数列 sin，奇数列 cos
    P = torch.stack([angles.sin(), angles.cos()], dim=2).flatten(1)
    return P.float()
