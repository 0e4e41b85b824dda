"""残差连接 + 层规范化（Post-LN），规范化只在最后一维（每个词元的 d 个特征）上做。"""

import torch.nn.functional as F
from torch import nn


class AddNorm(nn.Module):
    """Post-LN Add & Norm: LayerNorm(X + Dropout(Y)), each token normalised over its d features."""

    def __init__(self, normalized_shape, dropout):
        super().__init__()
        # 测试会把自己的 weight 和 bias 载入 self.ln，名字不能改
        self.ln = nn.LayerNorm(normalized_shape)
        # nn.Dropout 只在训练模式下丢弃，eval() 之后自动变成恒等映射
        self.dropout_layer = nn.Dropout(p=dropout)

    def forward(self, X, Y):
        # 第一步：只对子层输出 Y 做 dropout，残差 X 原样相加（不能原地修改 X）
        summed = X + self.dropout_layer(Y)
        # 第二步：对每个词元单独做层规范化，参数取自 self.ln
        return F.layer_norm(summed, self.ln.normalized_shape,
                            weight=self.ln.weight, bias=self.ln.bias, eps=self.ln.eps)
