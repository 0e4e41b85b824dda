"""Greedy decoding and beam search for any model that follows the seq2seq protocol."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch import Tensor, nn

__all__ = ["DecodeResult", "Hypothesis", "beam_search", "greedy_decode"]


@dataclass
class DecodeResult:
    """Batched greedy output. Tokens exclude <bos>, include <eos> when produced, then pad 0."""

    tokens: Tensor  # (B, L) long, L <= max_len; comparable with Batch.tgt_out
    lengths: Tensor  # (B,) long, generated tokens including <eos> (like Batch.tgt_lens)
    finished: Tensor  # (B,) bool, True where <eos> was produced within max_len
    attention: Tensor  # (B, h, L, S) cross-attention of each step; zero after a row finished

    def to_lists(self, strip_eos: bool = True) -> list[list[int]]:
        """Token ids per row, without padding (and without the final <eos> if strip_eos)."""
        rows = []
        for row, n, done in zip(self.tokens.tolist(), self.lengths.tolist(),
                                self.finished.tolist(), strict=True):
            rows.append(row[: n - 1] if (strip_eos and done) else row[:n])
        return rows


@dataclass
class Hypothesis:
    """One beam-search result: tokens exclude <bos> and include <eos> if finished."""

    tokens: list[int]
    log_prob: float  # sum of the log-probabilities of the tokens
    score: float  # log_prob / len(tokens) ** length_penalty, used for the final ranking
    attention: Tensor  # (h, len(tokens), S) cross-attention of each step
    finished: bool


def _model_device(model: nn.Module) -> torch.device:
    param = next(model.parameters(), None)
    return param.device if param is not None else torch.device("cpu")


@contextmanager
def _eval_mode(model: nn.Module):
    """Decode with dropout off and no autograd, then restore the caller's train/eval mode."""
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            yield
    finally:
        model.train(was_training)


def _check_args(max_len: int, bos_id: int, eos_id: int) -> None:
    if not isinstance(max_len, int) or max_len < 1:
        raise ValueError(f"max_len must be a positive integer (tokens to generate), got {max_len!r}")
    if bos_id == eos_id:
        raise ValueError(f"bos_id and eos_id must differ, both are {bos_id}")


def _prepare(model: nn.Module, src: Tensor, src_lens: Tensor | None) -> tuple[Tensor, Tensor]:
    """Move src and src_lens to the model's device; a missing src_lens means no padding."""
    if not isinstance(src, Tensor) or src.dim() != 2:
        raise ValueError("src must be a (batch, length) tensor of token ids")
    if src_lens is None:
        src_lens = torch.full((src.shape[0],), src.shape[1], dtype=torch.long)
    device = _model_device(model)
    return src.to(device), torch.as_tensor(src_lens).to(device)


def greedy_decode(
    model: nn.Module,
    src: Tensor,
    src_lens: Tensor | None,
    max_len: int,
    bos_id: int = 1,
    eos_id: int = 2,
    pad_id: int = 0,
) -> DecodeResult:
    """Pick the most likely next token at every step, for the whole batch at once.

    src (B, S), src_lens (B,) → DecodeResult; stops when every row produced <eos> or after
    max_len tokens. The model runs in eval mode under no_grad on its own device.
    """
    _check_args(max_len, bos_id, eos_id)
    src, src_lens = _prepare(model, src, src_lens)
    b = src.shape[0]
    with _eval_mode(model):
        state = model.encode(src, src_lens)
        prefix = torch.full((b, 1), bos_id, dtype=torch.long, device=src.device)  # (B, 1)
        finished = torch.zeros(b, dtype=torch.bool, device=src.device)
        lengths = torch.zeros(b, dtype=torch.long, device=src.device)
        maps = []
        for _ in range(max_len):
            logits, attn = model.decode_step(prefix, state)  # (B, V), (B, h, S)
            nxt = logits.argmax(dim=-1)  # (B,)
            nxt = nxt.masked_fill(finished, pad_id)  # finished rows only emit padding
            maps.append(attn.masked_fill(finished[:, None, None], 0.0))
            lengths += (~finished).long()
            finished = finished | (nxt == eos_id)
            prefix = torch.cat([prefix, nxt[:, None]], dim=1)  # (B, t+1)
            if bool(finished.all()):
                break
    return DecodeResult(prefix[:, 1:], lengths, finished, torch.stack(maps, dim=2))


def beam_search(
    model: nn.Module,
    src: Tensor,
    src_lens: Tensor | None,
    beam_size: int = 4,
    max_len: int = 20,
    bos_id: int = 1,
    eos_id: int = 2,
    length_penalty: float = 0.75,
) -> list[Hypothesis]:
    """Keep the beam_size best prefixes (by summed log-probability) at every step.

    src is one sentence (1, S). A prefix that emits <eos> becomes a finished hypothesis; the
    search stops once beam_size hypotheses are finished or after max_len tokens (unfinished
    beams are then returned too). Hypotheses come back best first by
    log_prob / length ** length_penalty (D2L suggests 0.75; 0 ranks by log_prob alone).
    """
    _check_args(max_len, bos_id, eos_id)
    if not isinstance(beam_size, int) or beam_size < 1:
        raise ValueError(f"beam_size must be a positive integer, got {beam_size!r}")
    src, src_lens = _prepare(model, src, src_lens)
    if src.shape[0] != 1:
        raise ValueError(f"beam_search decodes one sentence: src must be (1, S), got {tuple(src.shape)}")

    def score(log_prob: float, n: int) -> float:
        return log_prob / (n**length_penalty)

    with _eval_mode(model):
        states = {}  # live-beam count -> encoder state for that many copies of src

        def state_for(k: int):
            if k not in states:
                states[k] = model.encode(src.expand(k, -1), src_lens.expand(k))
            return states[k]

        prefix = torch.full((1, 1), bos_id, dtype=torch.long, device=src.device)  # (k, t)
        log_probs = torch.zeros(1, device=src.device)  # (k,)
        attn_so_far = None  # (k, h, t, S)
        done: list[Hypothesis] = []
        for _ in range(max_len):
            k = prefix.shape[0]
            logits, attn = model.decode_step(prefix, state_for(k))  # (k, V), (k, h, S)
            cand = log_probs[:, None] + torch.log_softmax(logits.float(), dim=-1)  # (k, V)
            top = cand.flatten().topk(min(2 * beam_size, cand.numel()))
            vocab = cand.shape[1]
            keep_rows, keep_tokens, keep_scores = [], [], []
            pairs = zip(top.values.tolist(), top.indices.tolist(), strict=True)
            for rank, (value, flat) in enumerate(pairs):
                row, token = divmod(flat, vocab)
                step_attn = attn[row][:, None]  # (h, 1, S)
                past = attn_so_far[row] if attn_so_far is not None else step_attn[:, :0]
                if token == eos_id:
                    if rank < beam_size:  # only an <eos> among the best beam_size counts
                        tokens = prefix[row, 1:].tolist() + [token]
                        done.append(Hypothesis(tokens, value, score(value, len(tokens)),
                                               torch.cat([past, step_attn], dim=1), True))
                elif len(keep_rows) < beam_size:
                    keep_rows.append(row)
                    keep_tokens.append(token)
                    keep_scores.append(value)
            if len(done) >= beam_size or not keep_rows:
                break
            rows = torch.tensor(keep_rows, device=src.device)
            new_tok = torch.tensor(keep_tokens, device=src.device)[:, None]
            prefix = torch.cat([prefix[rows], new_tok], dim=1)  # (k', t+1)
            log_probs = torch.tensor(keep_scores, device=src.device)
            step_attn = attn[rows][:, :, None]  # (k', h, 1, S)
            attn_so_far = step_attn if attn_so_far is None else torch.cat(
                [attn_so_far[rows], step_attn], dim=2)
        else:
            # max_len reached: the live beams are returned as unfinished hypotheses.
            for i in range(prefix.shape[0]):
                tokens = prefix[i, 1:].tolist()
                lp = float(log_probs[i])
                done.append(Hypothesis(tokens, lp, score(lp, len(tokens)), attn_so_far[i], False))
    done.sort(key=lambda h: h.score, reverse=True)
    return done
