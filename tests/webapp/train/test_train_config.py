"""The Train page's choices travel as one ExperimentConfig: every control reaches the model and
the trainer, the page's lists are the library's, and the module loads no torch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from transformer_lab import positional
from transformer_lab.experiments import PRESETS, ExperimentConfig
from webapp.train import train_config, training

REPO = Path(__file__).resolve().parents[3]


def test_every_page_choice_reaches_the_model_and_the_trainer():
    torch.set_num_threads(1)
    c = train_config.page_config("sort", heads=2, d_model=24, layers=2, d_ff=40, dropout=0.15,
                                 pe="learned", steps=40, seed=3)
    assert isinstance(c, ExperimentConfig) and c.task == "sort"
    run = training.new_run(c)
    cfg = run.model.cfg  # the TransformerConfig the model was built from
    assert (cfg.heads, cfg.d_model, cfg.layers, cfg.d_ff, cfg.dropout, cfg.pe) == \
        (2, 24, 2, 40, 0.15, "learned")
    # ... and the modules built from it: 2 layers, 24/2 = 12 per head, learned positions
    assert len(run.model.encoder) == len(run.model.decoder) == 2
    assert run.model.encoder[0].self_attn.d_k == 12
    assert isinstance(run.model.src_pe, positional.LearnedPositionalEncoding)
    widths = {tuple(m.weight.shape) for m in run.model.encoder[0].modules()
              if isinstance(m, torch.nn.Linear)}
    assert (40, 24) in widths and (24, 40) in widths  # d_ff 40
    tc = run.trainer.cfg
    assert (tc.steps, tc.seed, tc.eval_every) == (40, 3, 10)  # eval_every: steps // 4 on short runs
    assert tc.batch_size == PRESETS["sort"]["batch_size"] and tc.lr == PRESETS["sort"]["lr"]


def test_choices_left_out_keep_the_preset_and_rechoose_rebuilds_as_the_page_does():
    p = train_config.page_preset("translate")
    for k in train_config.PAGE_FIELDS:
        assert getattr(p, k) == PRESETS["translate"][k], k
    shorter = train_config.rechoose(p, steps=100)
    assert shorter.steps == 100 and shorter.eval_every == 25 and shorter.d_model == p.d_model
    assert train_config.rechoose(shorter, steps=p.steps) == p
    with pytest.raises(ValueError, match="heads must be a whole number from 1 to 8"):
        train_config.page_config("reverse", heads=9)
    with pytest.raises(ValueError, match="unknown task"):
        train_config.page_config("kernel")  # a library task without a Transformer


def test_the_page_offers_the_librarys_lists_and_opens_on_its_first_view():
    import app

    comps = {c.elem_id: c for c in app.demo.blocks.values() if getattr(c, "elem_id", None)}

    def values(elem_id):
        return tuple(v for _, v in comps[elem_id].choices)

    assert values("train-task") == ("copy", "reverse", "sort", "translate")
    assert values("train-pe") == positional.PE_KINDS  # the kinds the model accepts
    assert values("train-kind") == ("encoder_self", "decoder_self", "cross")
    assert values("train-model") == ("transformer", "bahdanau")
    first = train_config.first_view()
    assert comps["train-steps"].value == first.steps == train_config.PAGE_START["steps"]
    assert comps["train-task"].value == first.task
    assert train_config.start_values() == first.replace(eval_every=PRESETS["reverse"]["eval_every"],
                                                        val_size=PRESETS["reverse"]["val_size"])


def test_importing_the_page_choices_loads_no_torch():
    code = "import sys, webapp.train.train_config as c; c.start_values(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"


def test_the_page_and_the_api_hand_their_choices_over_by_name():
    import inspect

    from webapp.lab import Lab
    from webapp.train.api import train_api

    train = train_api(Lab())  # the API as the app wires it (nothing opens until a call)

    with pytest.raises(TypeError, match="head"):
        train_config.page_config("reverse", head=2)  # a misspelt choice is refused, not dropped
    # every parameter of the train API is one of the page's choices (they travel by name)
    api = [p for p in inspect.signature(train).parameters if p not in ("task", "request")]
    assert api and set(api) <= set(train_config.CHOICES)
    # controls hand over numbers as floats or text: each becomes its field's type first
    typed = train_config.typed({"task": "sort", "heads": 2.0, "d_model": "24", "dropout": 0,
                                "pe": "learned", "seed": 3.0})
    assert typed == {"task": "sort", "heads": 2, "d_model": 24, "dropout": 0.0, "pe": "learned",
                     "seed": 3}
    assert [type(typed[k]) for k in ("heads", "dropout", "seed")] == [int, float, int]
    with pytest.raises(TypeError):
        train_config.typed({"heads": None})  # a cleared number box: the page shows the error
