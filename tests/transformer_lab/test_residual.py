"""Issue 28: the residual rule is written once (transformer.residual), and pre-LN is reachable
from the config and the command line (nothing reached norm_first=True before)."""

from __future__ import annotations

import torch
from torch import nn

from transformer_lab.cli import build_parser, settings_for
from transformer_lab.experiments import ExperimentConfig
from transformer_lab.transformer import residual


def test_the_rule_is_add_and_norm_or_pre_ln():
    torch.manual_seed(0)
    x, norm, drop = torch.randn(2, 3, 4), nn.LayerNorm(4), nn.Identity()
    lin = nn.Linear(4, 4)
    w = torch.ones(1)

    def f(h):
        return lin(h), w

    post, got_w = residual(x, f, norm, drop, norm_first=False)
    assert torch.allclose(post, norm(x + lin(x))) and got_w is w
    pre, _ = residual(x, f, norm, drop, norm_first=True)
    assert torch.allclose(pre, x + lin(norm(x)))


def test_pre_ln_reaches_the_model_from_the_command_line_and_the_default_keeps_its_key():
    args = build_parser().parse_args(["train", "--task", "reverse", "--norm-first"])
    config = settings_for(args)
    assert config.norm_first and config.model_config(8, 8).norm_first
    assert config.as_dict()["norm_first"] is True
    plain = ExperimentConfig.from_preset("reverse")
    assert not plain.norm_first and "norm_first" not in plain.as_dict()  # run-cache keys stay
    assert not settings_for(build_parser().parse_args(["train", "--task", "reverse"])).norm_first
