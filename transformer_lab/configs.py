"""The model's and the trainer's settings, TransformerConfig and TrainConfig, without torch.

transformer.py and train.py consume them (and export them too); they live here so that
experiments.ExperimentConfig can take its fields from them while the app lays out its Train
page before torch loads. Nothing here imports torch until a config is validated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import lab_error

__all__ = ["PE_KINDS", "SCHEDULES", "TrainConfig", "TransformerConfig"]

PE_KINDS = ("sinusoidal", "learned", "none")  # positional.make_positional_encoding's kinds
SCHEDULES = ("noam", "constant", "cosine")


@dataclass
class TransformerConfig:
    """Sizes and switches of the Transformer; the defaults suit the toy tasks on a CPU."""

    src_vocab: int
    tgt_vocab: int
    d_model: int = 32
    heads: int = 4
    layers: int = 2  # encoder layers = decoder layers
    d_ff: int = 64  # paper: 4 * d_model; 2 * d_model keeps the toy model small and quick
    dropout: float = 0.0
    pe: str = "sinusoidal"  # "sinusoidal" | "learned" | "none"
    max_len: int = 256
    norm_first: bool = False  # False: post-LN Add & Norm (the paper); True: pre-LN
    pad_id: int = 0
    share_embeddings: bool = False  # one embedding table for source and target (same vocab)
    tie_output: bool = False  # output projection reuses the target embedding matrix

    def validate(self) -> None:
        """Raise ValueError naming the bad field, before any tensor is built."""
        from .multihead import check_heads  # loads torch: a model is about to be built

        for name in ("src_vocab", "tgt_vocab", "d_model", "heads", "layers", "d_ff", "max_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        check_heads(self.d_model, self.heads)
        if self.pe not in PE_KINDS:
            raise lab_error("unknown_choice", what="pe", value=self.pe, choices=", ".join(PE_KINDS))
        if self.pe == "sinusoidal" and self.d_model % 2:
            raise lab_error("sinusoidal_pe_odd", d_model=self.d_model)
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must lie in [0, 1), got {self.dropout}")
        if not 0 <= self.pad_id < min(self.src_vocab, self.tgt_vocab):
            raise ValueError(f"pad_id={self.pad_id} is not a valid id in both vocabularies")
        if self.share_embeddings and self.src_vocab != self.tgt_vocab:
            raise ValueError(
                f"share_embeddings needs one vocabulary for both sides, got "
                f"src_vocab={self.src_vocab} and tgt_vocab={self.tgt_vocab}"
            )


@dataclass
class TrainConfig:
    """Optimiser, schedule and loop settings; Adam's defaults are the paper's."""

    steps: int = 1000  # most optimiser steps (fewer if a target or a stop ends training early)
    batch_size: int = 64
    lr: float = 1e-3  # peak learning rate, reached at the end of warm-up
    warmup: int = 100  # linear warm-up steps (0: start at the peak)
    schedule: str = "noam"  # noam: then ∝ 1/√step (the paper) | constant | cosine (to 0)
    beta1: float = 0.9
    beta2: float = 0.98
    eps: float = 1e-9
    weight_decay: float = 0.0
    label_smoothing: float = 0.0  # the paper uses 0.1
    clip_norm: float | None = 1.0  # max global gradient norm; None switches clipping off
    eval_every: int = 50  # steps between validation checks (and always at the end)
    target: float | None = None  # stop once the greedy validation target_metric reaches this
    target_metric: str = "exact_acc"
    decode_final: bool = True  # score the last validation check by greedy decoding
    seed: int = 0
    device: str = "auto"  # auto (cuda → mps → cpu) | cpu | cuda | mps

    def validate(self) -> None:
        """Raise ValueError naming the first bad field, before any work is done."""
        for name in ("steps", "batch_size", "eval_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if isinstance(self.warmup, bool) or not isinstance(self.warmup, int) or self.warmup < 0:
            raise ValueError(f"warmup must be a whole number of steps >= 0, got {self.warmup!r}")
        if not (isinstance(self.lr, (int, float)) and math.isfinite(self.lr) and self.lr > 0):
            raise ValueError(f"the learning rate lr must be a positive number, got {self.lr!r}")
        if self.schedule not in SCHEDULES:
            raise lab_error("unknown_choice", what="schedule", value=self.schedule,
                            choices=", ".join(SCHEDULES))
        for name in ("beta1", "beta2"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ValueError(f"{name} must lie in [0, 1), got {getattr(self, name)}")
        if not self.eps > 0:
            raise ValueError(f"eps must be positive, got {self.eps}")
        if not 0.0 <= self.label_smoothing < 1.0:
            raise ValueError(f"label_smoothing must lie in [0, 1), got {self.label_smoothing}")
        if self.clip_norm is not None and not self.clip_norm > 0:
            raise ValueError(f"clip_norm must be positive or None, got {self.clip_norm}")
        if self.target is not None and not 0.0 < self.target <= 1.0:
            raise ValueError(f"target is a score in (0, 1], got {self.target}")
        if self.target_metric not in ("exact_acc", "token_acc"):
            raise ValueError(f"target_metric must be exact_acc or token_acc, "
                             f"got {self.target_metric!r}")
