"""Public examples for multi-head-attention: structure and shapes (values are hidden-tested)."""

import torch

from grader.spec import Case, call, check, describe, new, ref, zh_names

LIN = "Linear(8, 8, bias=True)"


# Each case's name on a Chinese page (the English name stays the gradebook's key).
ZH_NAMES = {
    'submodules query/key/value/out_proj': '子模块 query/key/value/out_proj',
    'embed_dim 10 with 3 heads raises ValueError': 'embed_dim 10 配 3 个头时抛出 ValueError',
    'shapes: output (2, 5, 8), weights (2, 2, 5, 5)': '形状：输出 (2, 5, 8)，权重 (2, 2, 5, 5)',
}


@zh_names(ZH_NAMES)
def build(rng: torch.Generator) -> list[Case]:
    x = torch.linspace(-1, 1, 2 * 5 * 8).reshape(2, 5, 8)  # (B=2, T=5, E=8)
    return [
        Case("submodules query/key/value/out_proj", 1, [
            new("SimpleMultiHeadAttention", 8, 2, save="m"),
            describe("m", ["query", "key", "value", "out_proj"],
                     check=check("equal", label="submodules",
                                 expected={"query": LIN, "key": LIN, "value": LIN, "out_proj": LIN}))]),
        Case("embed_dim 10 with 3 heads raises ValueError", 1, [
            new("SimpleMultiHeadAttention", 10, 3, raises="ValueError",
                check=check("raises", label="SimpleMultiHeadAttention", expected="ValueError"))]),
        Case("shapes: output (2, 5, 8), weights (2, 2, 5, 5)", 1, [
            new("SimpleMultiHeadAttention", 8, 2, save="m"),
            call(ref("m"), x, check=check("shape", label="output", select=0, expected=[2, 5, 8])),
            call(ref("m"), x, check=check("shape", label="weights", select=1, expected=[2, 2, 5, 5])),
        ]),
    ]
