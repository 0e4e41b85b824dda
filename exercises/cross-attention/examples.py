"""Public examples for cross-attention: the statement's worked example, equal scores, and the
shapes when the decoder and the encoder have different lengths."""

import math

import torch

from grader.spec import Case, call, check, zh_names

# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    "the statement's example: two decoder queries, the third encoder token is padding":
        "题目中的示例：两个解码器查询，第三个编码器词元是填充",
    "no mask: a zero query weighs the m encoder tokens equally":
        "无掩码：全零的查询平均分配给 m 个编码器词元",
    "shapes: n = 3 decoder positions, m = 5 encoder positions":
        "形状：n = 3 个解码器位置，m = 5 个编码器位置",
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    enc = torch.tensor([[[1.0, 0, 0, 0], [0, 1, 0, 0], [5, 5, 5, 5]]])  # (1, 3, 4)
    eye = torch.eye(4)
    W_v = torch.tensor([[1.0], [2], [3], [4]])  # V = enc @ W_v = [1, 2, 50]
    dec = torch.tensor([[[0.0, 0, 0, 0], [2 * math.log(3), 0, 0, 0]]])  # (1, 2, 4)
    lens = torch.tensor([2])
    third = 1 / 3
    # (2, 3, 4) decoder and (2, 5, 4) encoder, projected to d_k = 2 and d_v = 6
    dec_b = torch.arange(24.0).reshape(2, 3, 4) / 24
    enc_b = torch.arange(40.0).reshape(2, 5, 4) / 40
    W_qk, W_v6 = torch.ones(4, 2) / 4, torch.ones(4, 6) / 4
    return [
        Case("the statement's example: two decoder queries, the third encoder token is padding", 1.0, [
            call("cross_attention", dec, enc, eye, eye, W_v, enc_valid_lens=lens, check=check(
                label="weights", select=1, atol=1e-6, expected=[[[0.5, 0.5, 0.0], [0.75, 0.25, 0.0]]])),
            call("cross_attention", dec, enc, eye, eye, W_v, enc_valid_lens=lens, check=check(
                label="output", select=0, atol=1e-5, expected=[[[1.5], [1.25]]])),
        ]),
        Case("no mask: a zero query weighs the m encoder tokens equally", 1.0, [
            call("cross_attention", dec[:, :1], enc, eye, eye, W_v, check=check(
                label="weights", select=1, atol=1e-6, expected=[[[third, third, third]]])),
            call("cross_attention", dec[:, :1], enc, eye, eye, W_v, check=check(
                label="output", select=0, atol=1e-5, expected=[[[(1 + 2 + 50) / 3]]])),
        ]),
        Case("shapes: n = 3 decoder positions, m = 5 encoder positions", 1.0, [
            call("cross_attention", dec_b, enc_b, W_qk, W_qk, W_v6,
                 check=check("shape", label="weights", select=1, expected=[2, 3, 5])),
            call("cross_attention", dec_b, enc_b, W_qk, W_qk, W_v6,
                 check=check("shape", label="output", select=0, expected=[2, 3, 6])),
        ]),
    ]
