"""Public examples for add-norm: the statement's token, two tokens normalised apart, dropout 1.0
in each mode (numbers you can check by hand)."""

import torch

from grader.spec import Case, call, check, mode, new, ref, zh_names

# The statement's token: X + Y = [2, 4, 4, 4, 5, 5, 7, 9], mean 5, variance 4.
X = torch.arange(1.0, 9.0).view(1, 1, 8)  # (B=1, T=1, d=8)
Y = torch.tensor([[[1.0, 2.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0]]])
SUM_NORMED = [[[-1.4999981, -0.4999994, -0.4999994, -0.4999994, 0.0, 0.0, 0.9999988, 1.9999975]]]
X_NORMED = [[[-1.5275238, -1.0910884, -0.6546530, -0.2182177,  # LayerNorm(X): mean 4.5,
              0.2182177, 0.6546530, 1.0910884, 1.5275238]]]  # variance 5.25

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    "one token of 8 features (the statement's example)": '一个 8 维特征的词元（题目中的例子）',
    'two tokens, each normalised over its own features': '两个词元，各自在自己的特征上规范化',
    'shapes: (2, 3, 4) in, (2, 3, 4) out': '形状：输入 (2, 3, 4)，输出 (2, 3, 4)',
    'evaluation mode, dropout 1.0: nothing is dropped': '评估模式，dropout 1.0：什么都不丢弃',
    'training mode, dropout 1.0: all of Y is dropped, so LayerNorm(X)':
        '训练模式，dropout 1.0：Y 全部被丢弃，结果是 LayerNorm(X)',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    # Two tokens whose sums are [1, 2, 3, 6] and ten times that: the same answer up to eps.
    X2 = torch.tensor([[[0.0, 1.0, 2.0, 5.0], [0.0, 10.0, 20.0, 50.0]]])  # (1, 2, 4)
    Y2 = torch.tensor([[[1.0, 1.0, 1.0, 1.0], [10.0, 10.0, 10.0, 10.0]]])
    x3 = torch.linspace(-1, 1, 2 * 3 * 4).reshape(2, 3, 4)
    return [
        Case("one token of 8 features (the statement's example)", 1.0, [
            new("AddNorm", 8, 0.0, save="m"),
            call(ref("m"), X, Y, check=check(label="output", atol=1e-5, expected=SUM_NORMED))]),
        Case("two tokens, each normalised over its own features", 1.0, [
            new("AddNorm", 4, 0.0, save="m"),
            call(ref("m"), X2, Y2, check=check(label="output", atol=1e-5, expected=[[
                [-1.0690434, -0.5345217, 0.0, 1.6035652],
                [-1.0690450, -0.5345225, 0.0, 1.6035674]]]))]),
        Case("shapes: (2, 3, 4) in, (2, 3, 4) out", 1.0, [
            new("AddNorm", 4, 0.1, save="m"),
            call(ref("m"), x3, x3.flip(-1), check=check("shape", label="output", expected=[2, 3, 4]))]),
        Case("evaluation mode, dropout 1.0: nothing is dropped", 1.0, [
            new("AddNorm", 8, 1.0, save="m"),
            mode("m", training=False),
            call(ref("m"), X, Y, check=check(label="output", atol=1e-5, expected=SUM_NORMED))]),
        Case("training mode, dropout 1.0: all of Y is dropped, so LayerNorm(X)", 1.0, [
            new("AddNorm", 8, 1.0, save="m"),
            mode("m", training=True),
            call(ref("m"), X, Y, check=check(label="output", atol=1e-5, expected=X_NORMED))]),
    ]
