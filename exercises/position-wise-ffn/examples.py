"""Public examples for the position-wise FFN: the statement's worked example, a zero input
(only the biases speak), and the shape of a wider network."""

import torch

from grader.spec import Case, call, check, zh_names

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    "the statement's example: two positions, d_model = 2, d_ff = 3":
        "题目中的示例：两个位置，d_model = 2，d_ff = 3",
    "a zero input: the output is max(0, b1) @ W2 + b2":
        "全零的输入：输出为 max(0, b1) @ W2 + b2",
    "shape: batch 2, 3 positions, d_model = 4, d_ff = 8":
        "形状：批大小 2，3 个位置，d_model = 4，d_ff = 8",
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    X = torch.tensor([[[1.0, -1], [2, 0]]])  # (1, 2, 2)
    W1 = torch.tensor([[1.0, 0, -1], [0, 1, 1]])  # (2, 3)
    b1 = torch.tensor([0.0, 0, 1])
    W2 = torch.tensor([[1.0, 0], [0, 1], [1, 1]])  # (3, 2)
    b2 = torch.tensor([0.0, -2])
    zero = torch.zeros(1, 1, 2)
    # (2, 3, 4) input widened to d_ff = 8 and back
    X_b = torch.arange(24.0).reshape(2, 3, 4) / 24
    W1_b, b1_b = torch.ones(4, 8) / 4, torch.zeros(8)
    W2_b, b2_b = torch.ones(8, 4) / 8, torch.zeros(4)
    return [
        Case("the statement's example: two positions, d_model = 2, d_ff = 3", 1.0, [
            call("position_wise_ffn", X, W1, b1, W2, b2, check=check(
                label="output", atol=1e-6, expected=[[[1.0, -2.0], [2.0, -2.0]]])),
        ]),
        Case("a zero input: the output is max(0, b1) @ W2 + b2", 1.0, [
            call("position_wise_ffn", zero, W1, b1, W2, b2, check=check(
                label="output", atol=1e-6, expected=[[[1.0, -1.0]]])),
        ]),
        Case("shape: batch 2, 3 positions, d_model = 4, d_ff = 8", 1.0, [
            call("position_wise_ffn", X_b, W1_b, b1_b, W2_b, b2_b,
                 check=check("shape", label="output", expected=[2, 3, 4])),
        ]),
    ]
