"""ExperimentConfig: one typed object from the command line to the model, equal to the dict path."""

from __future__ import annotations

from dataclasses import fields

import pytest
import torch

from transformer_lab.cli import build_parser, settings_for
from transformer_lab.configs import TrainConfig, TransformerConfig
from transformer_lab.experiments import (
    MODEL_FIELDS,
    OFFERED,
    PRESETS,
    ExperimentConfig,
    as_config,
    build_model,
    check_settings,
    train_config,
)


def test_from_preset_takes_every_preset_value_and_the_overrides():
    c = ExperimentConfig.from_preset("translate", heads=2, seed=7)
    for key, value in PRESETS["translate"].items():
        if key != "heads":
            assert getattr(c, key) == value, key
    assert (c.task, c.heads, c.seed) == ("translate", 2, 7)


def test_a_misspelt_setting_or_task_is_refused_not_dropped():
    with pytest.raises(ValueError, match="head"):
        ExperimentConfig.from_preset("reverse", head=2)
    with pytest.raises(ValueError, match="unknown task"):
        ExperimentConfig.from_preset("rewind")


def test_command_line_settings_reach_the_model():
    args = build_parser().parse_args(["train", "--task", "sort", "--heads", "2", "--d-model",
                                      "16", "--layers", "2", "--no-early-stop", "--seed", "5"])
    c = settings_for(args)
    assert isinstance(c, ExperimentConfig) and c.target is None and c.seed == 5
    model = build_model(11, 11, c)
    attn = model.encoder[0].self_attn
    assert len(model.encoder) == 2 and attn.num_heads == 2 and attn.num_hiddens == 16
    assert model.cfg.d_ff == PRESETS["sort"]["d_ff"]  # not given: the preset's value


def test_dict_settings_and_the_config_build_the_same_model_and_training():
    c = ExperimentConfig.from_preset("reverse", d_model=16, heads=2, seed=3)
    as_dict = c.as_dict()
    assert "task" not in as_dict and as_config(as_dict, "reverse") == c
    a, b = build_model(12, 12, c), build_model(12, 12, as_dict)
    for (name, p), (_, q) in zip(a.state_dict().items(), b.state_dict().items(), strict=True):
        assert torch.equal(p, q), name
    assert train_config(c) == train_config(as_dict) == c.train_config()
    assert train_config(c, decode_final=True).decode_final


def test_check_settings_reads_the_config_like_the_dict():
    bad = ExperimentConfig.from_preset("reverse", d_model=30, heads=4)
    for s in (bad, bad.as_dict()):
        with pytest.raises(ValueError, match="divisible"):
            check_settings("reverse", s)
    check_settings("kernel", ExperimentConfig.from_preset("kernel"))  # no model to check


def test_the_model_and_training_settings_are_their_configs_fields_not_copies():
    run = {f.name: f for f in fields(ExperimentConfig)}
    model = {f.name: f for f in fields(TransformerConfig)}
    assert MODEL_FIELDS == ("d_model", "heads", "layers", "d_ff", "dropout", "pe", "norm_first")
    for name in MODEL_FIELDS:
        assert run[name].type == model[name].type, name
    for f in fields(TrainConfig):
        if f.name in run:
            assert run[f.name].type == f.type, f.name
    # a run's defaults are the toy preset's, where the model's own default differs (2 layers)
    assert ExperimentConfig() == ExperimentConfig.from_preset("reverse")
    assert ExperimentConfig().layers == 1 and model["layers"].default == 2
    # what a page offers for a setting travels with the setting, as its field metadata
    for name, offer in OFFERED.items():
        assert dict(run[name].metadata) == offer, name
    c = ExperimentConfig.from_preset("sort", heads=2, norm_first=True, lr=0.01)
    built, trainer = c.model_config(5, 6), c.train_config()
    assert (built.heads, built.norm_first, built.src_vocab, built.max_len) == (2, True, 5, 256)
    assert (trainer.lr, trainer.beta2, trainer.decode_final) == (0.01, 0.98, False)
