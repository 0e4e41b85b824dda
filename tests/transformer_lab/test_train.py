"""Tests of the training loop against the paper's formulas, torch's own losses and hand sums."""

from __future__ import annotations

import math
import threading

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from transformer_lab.kernel import NWKernelRegression
from transformer_lab.metrics import exact_match, label_smoothed_cross_entropy, token_accuracy
from transformer_lab.objectives import KernelObjective, Seq2SeqObjective, validation_seed
from transformer_lab.tasks.toy import ToyTask, ToyTaskConfig
from transformer_lab.train import (
    HISTORY_COLUMNS,
    TrainConfig,
    Trainer,
    lr_at,
    make_optimizer,
    noam_lr,
    train,
)
from transformer_lab.transformer import Transformer, TransformerConfig

# ---------------------------------------------------------------- schedule and optimiser


def paper_lr(step: int, d_model: int, warmup: int) -> float:
    """lrate = d_model^-0.5 · min(step^-0.5, step · warmup_steps^-1.5), written out again."""
    return (1 / math.sqrt(d_model)) * min(1 / math.sqrt(step), step / warmup ** 1.5)


@pytest.mark.parametrize("step", [1, 2, 50, 399, 400, 401, 1000, 4000, 100000])
def test_noam_lr_is_the_paper_formula(step):
    assert noam_lr(step, 512, 4000) == pytest.approx(paper_lr(step, 512, 4000), rel=1e-12)
    assert noam_lr(step, 32, 400, factor=2.0) == pytest.approx(2 * paper_lr(step, 32, 400))


def test_noam_schedule_is_the_paper_curve_scaled_to_its_peak():
    cfg = TrainConfig(lr=3e-3, warmup=200, schedule="noam")
    peak = paper_lr(200, 64, 200)
    for step in (1, 10, 199, 200, 201, 800, 5000):
        assert lr_at(step, cfg) == pytest.approx(3e-3 * paper_lr(step, 64, 200) / peak)
    assert lr_at(200, cfg) == pytest.approx(3e-3)  # the peak is where warm-up ends
    assert lr_at(800, cfg) == pytest.approx(3e-3 / 2)  # 1/√step: 4× the steps, half the rate


def test_constant_and_cosine_schedules():
    const = TrainConfig(lr=1e-3, warmup=10, schedule="constant")
    assert [lr_at(s, const) for s in (1, 5, 10, 500)] == pytest.approx([1e-4, 5e-4, 1e-3, 1e-3])
    cos = TrainConfig(lr=1e-3, warmup=10, schedule="cosine", steps=110)
    assert lr_at(5, cos) == pytest.approx(5e-4)
    assert lr_at(60, cos) == pytest.approx(5e-4)  # half-way down the half cosine
    assert lr_at(110, cos) == pytest.approx(0.0, abs=1e-12)
    no_warm = TrainConfig(lr=1e-3, warmup=0, schedule="noam")
    assert lr_at(1, no_warm) == pytest.approx(1e-3)
    assert lr_at(4, no_warm) == pytest.approx(5e-4)


def test_adam_uses_the_paper_settings():
    opt = make_optimizer(nn.Linear(3, 2), TrainConfig(lr=1e-3, warmup=10))
    assert isinstance(opt, torch.optim.Adam)
    group = opt.param_groups[0]
    assert group["betas"] == (0.9, 0.98)
    assert group["eps"] == 1e-9


@pytest.mark.parametrize("field,value", [
    ("steps", 0), ("batch_size", -1), ("lr", 0.0), ("lr", float("nan")), ("warmup", -5),
    ("schedule", "linear"), ("label_smoothing", 1.0), ("beta2", 1.0), ("clip_norm", 0.0),
    ("target", 1.5), ("eval_every", 0), ("target_metric", "bleu"),
])
def test_bad_config_raises_a_clear_value_error(field, value):
    with pytest.raises(ValueError, match=field if field != "lr" else "learning rate"):
        TrainConfig(**{field: value}).validate()


# ---------------------------------------------------------------- losses and scores


@pytest.mark.parametrize("eps", [0.0, 0.1, 0.3])
def test_label_smoothing_matches_torch_cross_entropy(eps):
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(4, 7, 11, generator=gen)  # (B, T, V)
    target = torch.randint(1, 11, (4, 7), generator=gen)
    target[0, 5:] = 0  # padding, ignored
    target[2, 3:] = 0
    ours = label_smoothed_cross_entropy(logits, target, eps, ignore_index=0)
    ref = F.cross_entropy(logits.reshape(-1, 11), target.reshape(-1), ignore_index=0,
                          label_smoothing=eps)
    assert ours.item() == pytest.approx(ref.item(), rel=1e-5)


def test_label_smoothing_rejects_all_padding_and_bad_shapes():
    with pytest.raises(ValueError, match="padding"):
        label_smoothed_cross_entropy(torch.randn(2, 3, 5), torch.zeros(2, 3, dtype=torch.long))
    with pytest.raises(ValueError, match="disagree"):
        label_smoothed_cross_entropy(torch.randn(2, 3, 5), torch.ones(2, 4, dtype=torch.long))


def test_token_and_exact_accuracy_by_hand():
    target = torch.tensor([[5, 6, 2, 0], [7, 8, 9, 2]])
    pred = torch.tensor([[5, 6, 2, 9], [7, 4, 9, 2]])  # row 0 right (junk after <eos>), row 1 not
    assert token_accuracy(pred, target) == pytest.approx(6 / 7)
    assert exact_match(pred, target) == pytest.approx(0.5)


# ---------------------------------------------------------------- the loop


def toy_setup(kind="reverse", seed=0, d_model=16, layers=1):
    task = ToyTask(ToyTaskConfig(kind=kind, min_len=3, max_len=5, vocab_size=6, seed=seed))
    torch.manual_seed(seed)
    v = len(task.vocab)
    model = Transformer(TransformerConfig(v, v, d_model=d_model, heads=2, layers=layers,
                                          d_ff=32))
    val = task.sample(64, torch.Generator().manual_seed(validation_seed(seed)))
    return model, Seq2SeqObjective(task, val)


def quick_cfg(**kw):
    base = dict(steps=30, batch_size=32, lr=3e-3, warmup=5, eval_every=10, device="cpu")
    return TrainConfig(**{**base, **kw})


def test_same_seed_gives_the_same_history_and_another_seed_does_not():
    runs = []
    for seed in (0, 0, 1):
        model, obj = toy_setup(seed=0)
        runs.append(train(model, obj, quick_cfg(steps=12, seed=seed)).history)
    cols = ["phase", "step", "loss", "token_acc", "exact_acc", "lr"]
    assert runs[0][cols].equals(runs[1][cols])
    assert not runs[0]["loss"].equals(runs[2]["loss"])


def test_history_has_the_documented_columns_and_rows():
    model, obj = toy_setup()
    result = train(model, obj, quick_cfg(steps=20, eval_every=10))
    h = result.history
    assert tuple(h.columns) == HISTORY_COLUMNS
    assert h[h.phase == "train"].step.tolist() == list(range(1, 21))
    assert h[h.phase == "eval"].step.tolist() == [10, 20]
    assert h.seconds.is_monotonic_increasing
    assert h.iloc[-1].decoded  # the last check is scored by greedy decoding
    assert result.steps == 20 and result.stopped == "max_steps" and result.device == "cpu"


def test_callbacks_receive_every_record_with_the_documented_fields():
    model, obj = toy_setup()
    seen_a, seen_b = [], []
    train(model, obj, quick_cfg(steps=10, eval_every=5),
          callbacks=[seen_a.append, lambda r: seen_b.append(r["phase"])])
    assert [r["phase"] for r in seen_a] == seen_b
    assert seen_b.count("train") == 10 and seen_b.count("eval") == 2
    for rec in seen_a:
        assert set(rec) == set(HISTORY_COLUMNS)
        assert 0.0 <= rec["token_acc"] <= 1.0 and rec["lr"] > 0 and rec["loss"] > 0


def test_a_callback_returning_false_stops_after_that_step():
    model, obj = toy_setup()
    result = train(model, obj, quick_cfg(steps=50),
                   callbacks=[lambda r: r["step"] < 4])
    assert result.stopped == "callback" and result.steps == 4
    assert result.history.iloc[-1].phase == "eval"  # a closing validation row


def test_stop_flag_set_mid_run_stops_within_one_step():
    model, obj = toy_setup()
    stop = threading.Event()
    trainer = Trainer(model, obj, quick_cfg(steps=50), stop=stop)
    for rec in trainer.run():
        if rec["phase"] == "train" and rec["step"] == 3:
            stop.set()  # as a UI's Stop button would, from another thread
    assert trainer.steps == 3 and trainer.stopped == "stop_flag"
    stop_before = threading.Event()
    stop_before.set()
    result = train(*toy_setup(), quick_cfg(), stop=stop_before)
    assert result.steps == 0 and result.stopped == "stop_flag"


class ScriptedObjective:
    """A fake objective whose validation score rises by 0.1 per check; decoding scores lower."""

    def __init__(self, decoded_lag=0.0, loss=1.0):
        self.checks, self.decode_calls, self.decoded_lag, self.loss_value = 0, 0, decoded_lag, loss

    def sample(self, batch_size, generator, device):
        return torch.randn(batch_size, 2, generator=generator).to(device)

    def loss(self, model, batch, smoothing):
        return (model(batch).sum() * 0 + self.loss_value), {"token_acc": 0.5, "exact_acc": 0.5}

    def evaluate(self, model, device, decode):
        if decode:
            self.decode_calls += 1
            score = min(1.0, 0.1 * self.checks) - self.decoded_lag
        else:
            self.checks += 1
            score = min(1.0, 0.1 * self.checks)
        return {"loss": 1.0, "token_acc": score, "exact_acc": score}


def test_a_teacher_forced_score_alone_never_stops_training():
    obj = ScriptedObjective(decoded_lag=0.15)  # decoding stays ≤ 0.85 while TF climbs to 1.0
    result = train(nn.Linear(2, 1), obj, quick_cfg(steps=30, eval_every=1, target=0.9,
                                                   decode_final=False))
    assert result.stopped == "max_steps" and result.steps == 30
    assert obj.decode_calls == 22  # one decoded check for each TF score ≥ 0.9 (checks 9..30)


def test_target_needs_the_decoded_score_not_the_teacher_forced_one():
    lagging = ScriptedObjective(decoded_lag=0.05)
    res = train(nn.Linear(2, 1), lagging, quick_cfg(steps=20, eval_every=1, target=0.9,
                                                    decode_final=False))
    # TF ≥ 0.9 from check 9; decoded = TF − 0.05 ≥ 0.9 first at check 10 (TF = 1.0 capped).
    assert res.stopped == "target" and res.steps == 10
    assert lagging.decode_calls == 2  # checks 9 (0.85, too low) and 10 (0.95)


def test_a_non_finite_loss_ends_the_run_as_diverged():
    result = train(nn.Linear(2, 1), ScriptedObjective(loss=float("nan")), quick_cfg())
    assert result.stopped == "diverged" and result.steps == 1


# ---------------------------------------------------------------- every task goes through it


@pytest.mark.parametrize("kind", ["copy", "reverse", "sort"])
def test_toy_tasks_learn_something_in_a_few_dozen_steps(kind):
    model, obj = toy_setup(kind)
    result = train(model, obj, quick_cfg(steps=40, eval_every=20))
    train_loss = result.history.query("phase == 'train'").loss
    assert train_loss.iloc[-5:].mean() < 0.8 * train_loss.iloc[:5].mean()


def test_kernel_regression_goes_through_the_same_loop():
    torch.manual_seed(0)
    model = NWKernelRegression(w_init=0.2)
    result = train(model, KernelObjective(seed=0),
                   quick_cfg(steps=40, lr=0.1, warmup=0, schedule="constant", eval_every=20))
    h = result.history
    train_loss = h.query("phase == 'train'").loss
    assert train_loss.iloc[-1] < 0.7 * train_loss.iloc[0]
    assert h.query("phase == 'eval'").token_acc.isna().all()  # no tokens in regression
    assert float(model.w.detach()) > 0.2  # the kernel narrowed: D2L's fit moves w up as well


def test_a_consumer_may_stop_iterating_and_keep_the_progress():
    model, obj = toy_setup()
    trainer = Trainer(model, obj, quick_cfg(steps=50))
    records = trainer.run()
    for rec in records:
        if rec["step"] == 6:
            break  # a UI generator that was cancelled
    records.close()
    assert trainer.steps == 6 and trainer.train_seconds > 0
    assert len(trainer.history()) == 6
