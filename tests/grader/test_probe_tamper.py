"""Probes run next to learner code, so learner code can replace them: the points they guard must
still need the right answer (raw gradients compared with the reference's on the trusted side)."""

from __future__ import annotations

EX = "multi-head-attention"
# The contract's submodules, a forward that returns zeros (no attention, no graph).
ZEROS = '''
import torch
from torch import nn
class SimpleMultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("not divisible")
        self.query, self.key, self.value, self.out_proj = (nn.Linear(embed_dim, embed_dim) for _ in range(4))
    def forward(self, x, mask=None):
        B, T, E = x.shape
        return torch.zeros_like(x), torch.zeros(B, 1, T, T, dtype=x.dtype)
'''
# A red-team patch: the in-child probes now answer what a correct module would.
PATCH = '''
import sys as _s, torch as _t
_p = _s.modules["grader.sandbox.probes"].PROBES
_p["train"] = lambda **kw: ("ok", *[_t.zeros(8, 8, dtype=_t.float64)] * 4, _t.zeros(2, 5, 8, dtype=_t.float64))
'''
TRAIN_CASE = "trainable"


def _train_case(report):
    return next(t for t in report.tests if t.name.startswith(TRAIN_CASE))


def test_patching_the_train_probe_earns_nothing(grader):
    plain = grader.grade(EX, ZEROS)
    patched = grader.grade(EX, ZEROS + PATCH)
    assert not _train_case(plain).passed and not _train_case(patched).passed
    assert patched.score <= plain.score


def test_a_correct_module_still_passes_the_train_case(grader):
    from grader.exercises import get

    report = grader.grade(EX, get(EX).reference_source())
    assert report.full_marks and _train_case(report).passed
