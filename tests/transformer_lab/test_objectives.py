"""objectives.py against independent references: torch's cross-entropy, an oracle model, NumPy's kernel regression."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from transformer_lab.kernel import NWKernelRegression, make_kernel_data
from transformer_lab.objectives import KernelObjective, Seq2SeqObjective, validation_seed
from transformer_lab.tasks.batch import Batch

V = 8  # ids: 0 pad, 1 bos, 2 eos, 3..7 tokens


def copy_batch() -> Batch:
    """Copy task: tgt_out = src; rows of length 3, 2 and 1 (each ending in <eos>)."""
    src = torch.tensor([[3, 4, 5, 2], [6, 7, 2, 0], [5, 2, 0, 0]])
    lens = torch.tensor([4, 3, 2])
    tgt_in = torch.tensor([[1, 3, 4, 5], [1, 6, 7, 0], [1, 5, 0, 0]])
    return Batch(src, lens, tgt_in, src.clone(), lens.clone())


class Oracle(nn.Module):
    """Copies its source, except that it always gets row 1's first token wrong (says 3)."""

    def __init__(self) -> None:
        super().__init__()
        self.bias = nn.Parameter(torch.zeros(V))  # a device to run on, and something to train

    def _logits(self, src: torch.Tensor, t: int) -> torch.Tensor:
        tok = src[:, t] if t < src.shape[1] else torch.zeros(src.shape[0], dtype=torch.long)
        tok = tok.clone()
        if t == 0:
            tok[1] = 3
        return 10 * F.one_hot(tok, V).float() + self.bias  # (B, V)

    def forward(self, src, src_lens, tgt_in):
        return torch.stack([self._logits(src, t) for t in range(tgt_in.shape[1])], dim=1)

    def encode(self, src, src_lens):
        return src

    def decode_step(self, prefix, state):
        return self._logits(state, prefix.shape[1] - 1), torch.zeros(state.shape[0], 1, state.shape[1])


class Task:
    def __init__(self, batch: Batch) -> None:
        self.batch = batch

    def sample(self, batch_size: int, generator: torch.Generator) -> Batch:
        return self.batch


def test_validation_seed_differs_from_the_training_seed_and_is_stable():
    seeds = [validation_seed(s) for s in range(100)]
    assert seeds == [validation_seed(s) for s in range(100)]
    assert len(set(seeds)) == 100 and all(v != s and v > 0 for s, v in enumerate(seeds))


def test_seq2seq_loss_is_torch_cross_entropy_and_scores_are_counted():
    batch = copy_batch()
    objective = Seq2SeqObjective(Task(batch), batch)
    model = Oracle()
    loss, scores = objective.loss(model, objective.sample(3, torch.Generator(), "cpu"), 0.1)
    logits = model(batch.src, batch.src_lens, batch.tgt_in)
    ref = F.cross_entropy(logits.reshape(-1, V), batch.tgt_out.reshape(-1), ignore_index=0,
                          label_smoothing=0.1)
    torch.testing.assert_close(loss, ref)
    # 9 real target tokens, one wrong (row 1, position 0); rows 0 and 2 entirely right.
    assert scores == {"token_acc": pytest.approx(8 / 9), "exact_acc": pytest.approx(2 / 3)}
    loss.backward()
    assert model.bias.grad is not None  # the loss reaches the parameters


def test_seq2seq_evaluate_teacher_forced_and_decoded_restores_the_mode():
    batch = copy_batch()
    objective = Seq2SeqObjective(Task(batch), batch)
    model = Oracle().train()
    forced = objective.evaluate(model, torch.device("cpu"), decode=False)
    assert model.training
    decoded = objective.evaluate(model.eval(), torch.device("cpu"), decode=True)
    assert not model.training
    want_loss = F.cross_entropy(model(batch.src, batch.src_lens, batch.tgt_in).reshape(-1, V),
                                batch.tgt_out.reshape(-1), ignore_index=0).item()
    for out in (forced, decoded):
        assert out["loss"] == pytest.approx(want_loss)
        assert out["exact_acc"] == pytest.approx(2 / 3) and out["token_acc"] == pytest.approx(8 / 9)


def test_seq2seq_objective_refuses_what_it_cannot_use():
    with pytest.raises(TypeError, match="sample"):
        Seq2SeqObjective(object(), copy_batch())
    with pytest.raises(TypeError, match="Batch"):
        Seq2SeqObjective(Task(copy_batch()), (1, 2))


def nw_numpy(xq: np.ndarray, xk: np.ndarray, yk: np.ndarray, w: float) -> np.ndarray:
    """Nadaraya–Watson with a Gaussian kernel: Σ_j softmax_j(-½((x - x_j) w)²) y_j."""
    z = -0.5 * ((xq[:, None] - xk) * w) ** 2
    a = np.exp(z - z.max(axis=1, keepdims=True))
    return (a / a.sum(axis=1, keepdims=True)) @ yk


def test_kernel_loss_is_the_leave_one_out_error_and_evaluate_the_test_error():
    data = make_kernel_data(n_train=12, seed=4)
    objective = KernelObjective(data)
    model = NWKernelRegression(w_init=1.7)
    loss, scores = objective.loss(model, objective.sample(0, torch.Generator(), "cpu"), 0.0)
    x, y = data.x_train.double().numpy(), data.y_train.double().numpy()
    loo = np.array([nw_numpy(x[i:i + 1], np.delete(x, i), np.delete(y, i), 1.7)[0]
                    for i in range(len(x))])
    assert loss.item() == pytest.approx(((loo - y) ** 2).mean(), rel=1e-4)
    assert np.isnan(scores["token_acc"]) and np.isnan(scores["exact_acc"])
    pred = nw_numpy(data.x_test.double().numpy(), x, y, 1.7)
    want = ((pred - data.y_truth.double().numpy()) ** 2).mean()
    assert objective.evaluate(model, torch.device("cpu"), False)["loss"] == pytest.approx(want,
                                                                                          rel=1e-4)


class Chain(Oracle):
    """Copies its source only while the token it is fed is the right previous one, else says 3.

    Teacher forcing always feeds the right token, so one early mistake costs one token;
    greedy decoding feeds back the model's own mistake, so it costs the rest of the row.
    """

    def _next(self, src: torch.Tensor, prev: torch.Tensor, t: int) -> torch.Tensor:
        right_prev = torch.ones_like(prev) if t == 0 else src[:, t - 1]
        tok = torch.where(prev == right_prev, src[:, t], torch.full_like(prev, 3))
        if t == 0:
            tok[1] = 3
        return 10 * F.one_hot(tok, V).float() + self.bias  # (B, V)

    def forward(self, src, src_lens, tgt_in):
        return torch.stack([self._next(src, tgt_in[:, t], t) for t in range(tgt_in.shape[1])], 1)

    def decode_step(self, prefix, state):
        t = prefix.shape[1] - 1
        return self._next(state, prefix[:, -1], t), torch.zeros(state.shape[0], 1, state.shape[1])


def test_decoded_evaluation_feeds_back_the_models_own_mistakes():
    batch = copy_batch()
    objective = Seq2SeqObjective(Task(batch), batch)
    model = Chain()
    forced = objective.evaluate(model, torch.device("cpu"), decode=False)
    decoded = objective.evaluate(model, torch.device("cpu"), decode=True)
    # Row 1 (6 7 <eos>): forced gets 7 and <eos> after the wrong first token; decoded gets none.
    assert forced["token_acc"] == pytest.approx(8 / 9) and decoded["token_acc"] == pytest.approx(6 / 9)
    assert forced["exact_acc"] == decoded["exact_acc"] == pytest.approx(2 / 3)
    assert decoded["loss"] == pytest.approx(forced["loss"])  # the loss is always teacher-forced


def test_kernel_evaluate_reports_a_blown_up_error_as_nan():
    class Broken(nn.Module):
        def forward(self, xq, xk, yk):
            return torch.full_like(xq, float("inf"))

    out = KernelObjective(make_kernel_data(n_train=5, seed=1)).evaluate(Broken(), torch.device("cpu"),
                                                                         False)
    assert np.isnan(out["loss"]) and np.isnan(out["token_acc"]) and np.isnan(out["exact_acc"])
