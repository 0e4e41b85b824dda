"""What the training loop optimises: a seq2seq objective (token tasks) and a regression one (kernel)."""

from __future__ import annotations

import math
from typing import Any, Protocol

import torch
from torch import Tensor, nn

from .decode import greedy_decode
from .kernel import KernelData, leave_one_out, make_kernel_data
from .metrics import decoded_scores, exact_match, label_smoothed_cross_entropy, token_accuracy
from .tasks.batch import Batch

__all__ = ["KernelObjective", "Objective", "Seq2SeqObjective", "validation_seed"]

NAN = float("nan")


def validation_seed(seed: int) -> int:
    """Seed of the validation stream used for early stopping.

    It must differ from the training stream (the loop's generator) and from the task's
    held-out test stream, so that stopping early never peeks at the reported test set.
    """
    return (seed * 40503 + 0x0BAD_CAFE) % (2**63 - 1) or 7


class Objective(Protocol):
    """The task-specific half of a training step; the loop in train.py is the other half."""

    def sample(self, batch_size: int, generator: torch.Generator, device: torch.device) -> Any:
        """One training batch, already on ``device``."""

    def loss(self, model: nn.Module, batch: Any, smoothing: float) -> tuple[Tensor, dict]:
        """Scalar loss to minimise, and {"token_acc", "exact_acc"} of this batch (nan if n/a)."""

    def evaluate(self, model: nn.Module, device: torch.device, decode: bool) -> dict:
        """{"loss", "token_acc", "exact_acc"} on the validation data, in eval mode."""


class Seq2SeqObjective:
    """Teacher-forced cross-entropy on any task that samples `Batch`es (toy tasks, translation).

    Validation scores come in two strengths: teacher-forced (one forward pass, cheap enough
    to run every few dozen steps) and greedy-decoded (``decode=True``: the model feeds back
    its own outputs, the score that counts). A teacher-forced exact match is an upper bound
    in practice, so the loop decodes only once the cheap score reaches the target.
    """

    def __init__(self, task: Any, validation: Batch, pad_id: int = 0, bos_id: int = 1,
                 eos_id: int = 2) -> None:
        if not hasattr(task, "sample"):
            raise TypeError(f"the task must have a sample(batch_size, generator) method, "
                            f"got {type(task).__name__}")
        if not isinstance(validation, Batch):
            raise TypeError(f"validation must be a Batch, got {type(validation).__name__}")
        self.task, self.validation = task, validation
        self.pad_id, self.bos_id, self.eos_id = pad_id, bos_id, eos_id

    def sample(self, batch_size: int, generator: torch.Generator, device: torch.device) -> Batch:
        return self.task.sample(batch_size, generator).to(device)

    def _forward(self, model: nn.Module, batch: Batch) -> Tensor:
        return model(batch.src, batch.src_lens, batch.tgt_in)  # (B, T, V)

    def loss(self, model: nn.Module, batch: Batch, smoothing: float) -> tuple[Tensor, dict]:
        logits = self._forward(model, batch)  # (B, T, V)
        loss = label_smoothed_cross_entropy(logits, batch.tgt_out, smoothing, self.pad_id)
        with torch.no_grad():
            pred = logits.argmax(dim=-1)  # (B, T)
            scores = {"token_acc": token_accuracy(pred, batch.tgt_out, self.pad_id),
                      "exact_acc": exact_match(pred, batch.tgt_out, self.pad_id)}
        return loss, scores

    @torch.no_grad()
    def evaluate(self, model: nn.Module, device: torch.device, decode: bool) -> dict:
        was_training = model.training
        model.eval()
        try:
            val = self.validation.to(device)
            logits = self._forward(model, val)  # (B, T, V)
            loss = float(label_smoothed_cross_entropy(logits, val.tgt_out, 0.0, self.pad_id))
            if decode:
                out = greedy_decode(model, val.src, val.src_lens, max_len=val.tgt_out.shape[1],
                                    bos_id=self.bos_id, eos_id=self.eos_id, pad_id=self.pad_id)
                scores = decoded_scores(out.tokens, val.tgt_out, self.pad_id)
            else:
                pred = logits.argmax(dim=-1)  # (B, T)
                scores = {"token_acc": token_accuracy(pred, val.tgt_out, self.pad_id),
                          "exact_acc": exact_match(pred, val.tgt_out, self.pad_id)}
        finally:
            model.train(was_training)
        return {"loss": loss, **scores}


class KernelObjective:
    """Mean squared error of Nadaraya–Watson regression (the `kernel` task).

    Every step is full-batch on the training points with leave-one-out keys (a point may not
    attend to itself, else a sharp kernel just memorises y_i); validation is the error
    against the noiseless truth on the test grid, with all training points as keys.
    """

    def __init__(self, data: KernelData | None = None, seed: int = 0) -> None:
        self.data = data if data is not None else make_kernel_data(seed=seed)
        self.keys, self.values = leave_one_out(self.data.x_train, self.data.y_train)  # (n, n-1)

    def sample(self, batch_size: int, generator: torch.Generator,
               device: torch.device) -> tuple[Tensor, ...]:
        d = self.data
        return tuple(t.to(device) for t in (d.x_train, self.keys, self.values, d.y_train))

    def loss(self, model: nn.Module, batch: tuple[Tensor, ...],
             smoothing: float) -> tuple[Tensor, dict]:
        x, keys, values, y = batch
        loss = ((model(x, keys, values) - y) ** 2).mean()
        return loss, {"token_acc": NAN, "exact_acc": NAN}

    @torch.no_grad()
    def evaluate(self, model: nn.Module, device: torch.device, decode: bool) -> dict:
        d = self.data
        pred = model(d.x_test.to(device), d.x_train.to(device), d.y_train.to(device))
        mse = float(((pred - d.y_truth.to(device)) ** 2).mean())
        return {"loss": mse if math.isfinite(mse) else NAN, "token_acc": NAN, "exact_acc": NAN}
