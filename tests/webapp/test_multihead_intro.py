"""The multi-head explorer describes what it shows: a random layer, or the trained run's layers ×
heads on the real tokens of held-out example 0 (it kept the random layer's intro for both)."""

from __future__ import annotations

import pytest

from transformer_lab.experiments import ExperimentConfig
from webapp.pages.multihead import heads_of, on_source
from webapp.services.training import example_batch, new_run


@pytest.fixture(scope="module")
def run():
    r = new_run(ExperimentConfig.from_preset("reverse", layers=2, heads=2))
    r.summary = {"steps": 7}
    return r


def real_source_tokens(run) -> list[str]:
    batch = example_batch(run)
    ids = batch.src[0, : int(batch.src_lens[0])].tolist()
    return [str(t) for t in run.task.vocab.to_tokens(ids)]


@pytest.mark.parametrize("kind", ["encoder_self", "cross"])
def test_trained_intro_names_the_runs_layers_heads_steps_and_real_tokens(run, kind):
    maps, q, k, _, intro = heads_of("trained", kind, 16, 4, 6, "none", 3, 0, run, "en")
    assert len(maps) == 2 and all(m.shape[0] == 2 for m in maps)  # the run's own 2 × 2
    assert "**2 × 2** (layers × heads)" in intro and "7 training steps" in intro
    src = real_source_tokens(run)
    assert f"input `{' '.join(src)}`" in intro
    assert list(k) == src  # the maps are drawn over the same tokens the intro names
    assert "random tokens" not in intro
    zh = heads_of("trained", kind, 16, 4, 6, "none", 3, 0, run, "zh")[4]
    assert "**2 × 2**（层 × 头）" in zh and "训练 7 步" in zh and f"输入 `{' '.join(src)}`" in zh


def test_random_source_keeps_the_random_layer_intro():
    *_, intro = heads_of("random", "cross", 16, 4, 6, "none", 3, 0, None, "en")
    assert "random tokens" in intro


def test_switching_source_shows_only_the_controls_that_apply(run):
    intro, random_row, compute, kind = on_source("trained", "en", run)
    assert random_row["visible"] is False and compute["visible"] is False and kind["visible"]
    assert "reverse" in intro
    intro, random_row, compute, kind = on_source("random", "zh", None)
    assert random_row["visible"] and compute["visible"] and kind["visible"] is False
    assert "随机" in intro
    assert "还没有训练好的模型" in on_source("trained", "zh", None)[0]


def test_a_bahdanau_run_offers_only_its_cross_attention():
    run = new_run(ExperimentConfig.from_preset("reverse", model="bahdanau"))
    *_, kind = on_source("trained", "en", run, "encoder_self")
    assert [value for _, value in kind["choices"]] == ["cross"] and kind["value"] == "cross"
    maps, *_, intro = heads_of("trained", "cross", 16, 4, 6, "none", 3, 0, run, "en")
    assert len(maps) == 1 and maps[0].shape[0] == 1  # one additive "head"
    assert "**1 × 1** (layers × heads)" in intro and "Bahdanau" in intro
    *_, kind = on_source("trained", "zh", new_run(ExperimentConfig.from_preset("reverse")), "decoder_self")
    assert [value for _, value in kind["choices"]] == ["encoder_self", "decoder_self", "cross"]
    assert kind["value"] == "decoder_self" and kind["choices"][2][0] == "交叉注意力"
