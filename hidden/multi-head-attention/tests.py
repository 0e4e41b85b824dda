"""Hidden tests for multi-head-attention: values compared with the reference on loaded weights."""

import torch

from grader.spec import Case, call, check, describe, new, ref, set_params

NAMES = ("query", "key", "value", "out_proj")


def build(rng: torch.Generator) -> list[Case]:
    def randn(*shape, dtype=torch.float32, scale=1.0):
        return torch.randn(*shape, generator=rng, dtype=torch.float64).mul(scale).to(dtype)

    def value_case(name, B, T, E, h, dtype=torch.float32, mask=None, points=1.0):
        params = {}
        for n in NAMES:
            params[f"{n}.weight"] = randn(E, E, dtype=dtype, scale=E ** -0.5)
            params[f"{n}.bias"] = randn(E, dtype=dtype, scale=0.1)
        x = randn(B, T, E, dtype=dtype)
        atol = 1e-9 if dtype == torch.float64 else 1e-5
        checks = [check(label="output", select=0, rtol=1e-5, atol=atol),
                  check(label="weights", select=1, rtol=1e-5, atol=atol)]
        if dtype == torch.float64:
            checks.append(check("dtype", label="output", select=0))
        kw = {} if mask is None else {"mask": mask}
        return Case(name, points, [
            new("SimpleMultiHeadAttention", E, h, save="m"),
            set_params("m", params, dtype="float64" if dtype == torch.float64 else None),
            call(ref("m"), x, **kw, check=checks),
        ])

    lengths = torch.tensor([5, 3, 1, 4])
    padding = (torch.arange(5).view(1, 1, 1, 5) < lengths.view(4, 1, 1, 1))  # (B, 1, 1, T)
    return [
        Case("submodules are nn.Linear(E, E) with bias, named as in the contract", 1, [
            new("SimpleMultiHeadAttention", 12, 3, save="m"),
            describe("m", list(NAMES), check=check("equal", label="submodules"))]),
        Case("embed_dim not divisible by num_heads raises ValueError", 1, [
            new("SimpleMultiHeadAttention", 6, 4, raises="ValueError")]),
        value_case("2 heads, float32, batch 2 < seq 5", 2, 5, 8, 2, points=2),
        value_case("3 heads, float64, batch 7 > seq 3", 7, 3, 12, 3, dtype=torch.float64, points=2),
        value_case("1 head (plain self-attention)", 1, 4, 6, 1),
        value_case("as many heads as features (d_k = 1)", 2, 3, 4, 4),
        value_case("causal mask (T, T), 4 heads", 3, 6, 16, 4,
                   mask=torch.tril(torch.ones(6, 6, dtype=torch.bool)), points=2),
        value_case("padding mask (B, 1, 1, T), float64", 4, 5, 8, 2, dtype=torch.float64,
                   mask=padding, points=2),
    ]
