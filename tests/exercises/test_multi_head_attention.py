"""Exercise 3: the reference equals torch.nn.MultiheadAttention with the same weights."""

import torch

from grader.exercises import get
from grader.sandbox.runner import load_module


def _copy_from_torch(mine, theirs, E):
    w, b = theirs.in_proj_weight, theirs.in_proj_bias
    with torch.no_grad():
        for i, name in enumerate(("query", "key", "value")):
            getattr(mine, name).weight.copy_(w[i * E:(i + 1) * E])
            getattr(mine, name).bias.copy_(b[i * E:(i + 1) * E])
        mine.out_proj.weight.copy_(theirs.out_proj.weight)
        mine.out_proj.bias.copy_(theirs.out_proj.bias)


def test_reference_equals_nn_multihead_attention():
    ns = load_module(get("multi-head-attention").reference_source())
    g = torch.Generator().manual_seed(3)
    for B, T, E, h in ((2, 5, 8, 2), (7, 3, 12, 3), (1, 4, 6, 1)):
        theirs = torch.nn.MultiheadAttention(E, h, batch_first=True).double().eval()
        mine = ns["SimpleMultiHeadAttention"](E, h).double()
        _copy_from_torch(mine, theirs, E)
        x = torch.randn(B, T, E, generator=g, dtype=torch.float64)
        mask = torch.tril(torch.ones(T, T, dtype=torch.bool))
        out, w = mine(x, mask=mask)
        want, want_w = theirs(x, x, x, attn_mask=~mask, average_attn_weights=False)
        assert torch.allclose(out, want, atol=1e-10)
        assert torch.allclose(w, want_w, atol=1e-10)
    try:
        ns["SimpleMultiHeadAttention"](10, 3)
    except ValueError:
        pass
    else:
        raise AssertionError("embed_dim 10 with 3 heads must raise ValueError")


def test_exercise_is_sound(exercise_sound):
    exercise_sound("multi-head-attention")
