"""Bahdanau seq2seq against a one-sentence-at-a-time reference written from the formulas."""

import pytest
import torch
from torch import nn

from transformer_lab.seq2seq import BahdanauSeq2Seq, Seq2SeqConfig


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny ops on a shared 2-core box run ~10x slower with 2 torch threads than with 1."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def make_model(seed=0, **kw) -> BahdanauSeq2Seq:
    torch.manual_seed(seed)
    base = dict(src_vocab=12, tgt_vocab=10, embed_size=8, num_hiddens=6, num_layers=2)
    base.update(kw)
    return BahdanauSeq2Seq(Seq2SeqConfig(**base)).eval()


def gru_cell(layer: int, gru: nn.GRU, x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    """One step of GRU layer ``layer`` from its equations (r, z, n gates, torch's layout)."""
    w_ih, w_hh = getattr(gru, f"weight_ih_l{layer}"), getattr(gru, f"weight_hh_l{layer}")
    b_ih, b_hh = getattr(gru, f"bias_ih_l{layer}"), getattr(gru, f"bias_hh_l{layer}")
    gi, gh = x @ w_ih.T + b_ih, h @ w_hh.T + b_hh
    i_r, i_z, i_n = gi.chunk(3, -1)
    h_r, h_z, h_n = gh.chunk(3, -1)
    r, z = torch.sigmoid(i_r + h_r), torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h


def run_gru(gru: nn.GRU, inputs: list[torch.Tensor], hidden: list[torch.Tensor]):
    """Stacked GRU over a list of input vectors; returns top outputs and final hiddens."""
    outs = []
    for x in inputs:
        for layer in range(gru.num_layers):
            hidden[layer] = gru_cell(layer, gru, x, hidden[layer])
            x = hidden[layer]
        outs.append(x)
    return outs, hidden


@torch.no_grad()
def reference_logits(model: BahdanauSeq2Seq, src: list[int], tgt: list[int]):
    """D2L's Bahdanau decoder for one unpadded sentence, written with plain tensor ops."""
    n_h = model.cfg.num_hiddens
    enc_in = [model.src_embed.weight[t] for t in src]
    enc_out, hidden = run_gru(model.encoder, enc_in, [torch.zeros(n_h)] * model.cfg.num_layers)
    keys = torch.stack(enc_out)  # (S, H): only real tokens, so no mask is needed
    att = model.attention
    logits, weights = [], []
    for y_prev in tgt:
        q = hidden[-1]  # previous top-layer decoder state
        score = att.w_v(torch.tanh(att.W_q(q)[None] + att.W_k(keys))).squeeze(-1)  # (S,)
        alpha = torch.softmax(score, dim=0)
        context = alpha @ keys
        x = torch.cat([context, model.tgt_embed.weight[y_prev]])
        out, hidden = run_gru(model.decoder, [x], hidden)
        logits.append(model.out(out[0]))
        weights.append(alpha)
    return torch.stack(logits), torch.stack(weights)


def test_batched_padded_model_matches_per_sentence_reference():
    model = make_model()
    sentences = [[4, 5, 6, 7, 8], [9, 3], [11, 10, 4]]
    width = 7  # extra padding beyond the longest sentence
    src = torch.zeros(3, width, dtype=torch.long)
    for i, s in enumerate(sentences):
        src[i, : len(s)] = torch.tensor(s)
    lens = torch.tensor([len(s) for s in sentences])
    tgt = torch.tensor([[1, 4, 5, 6], [1, 7, 2, 0], [1, 3, 3, 9]])
    with torch.no_grad():
        logits = model(src, lens, tgt)
    maps = model.attention_maps(src, lens, tgt)["cross"]
    assert logits.shape == (3, 4, 10) and len(maps) == 1 and maps[0].shape == (3, 1, 4, width)
    for i, s in enumerate(sentences):
        ref_logits, ref_w = reference_logits(model, s, tgt[i].tolist())
        torch.testing.assert_close(logits[i], ref_logits, atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(maps[0][i, 0, :, : len(s)], ref_w, atol=1e-5, rtol=1e-5)
        assert torch.all(maps[0][i, 0, :, len(s):] == 0), "padded keys must get weight 0"


def test_padded_source_tokens_do_not_matter():
    model = make_model(seed=1)
    src = torch.tensor([[4, 5, 6, 0, 0], [7, 8, 9, 10, 11]])
    lens = torch.tensor([3, 5])
    tgt = torch.tensor([[1, 5, 6], [1, 2, 3]])
    garbage = src.clone()
    garbage[0, 3:] = torch.tensor([11, 11])
    with torch.no_grad():
        torch.testing.assert_close(model(garbage, lens, tgt), model(src, lens, tgt))


def test_decode_step_equals_teacher_forcing_at_the_last_position():
    model = make_model(seed=2)
    src, lens = torch.tensor([[4, 5, 6, 7], [8, 9, 0, 0]]), torch.tensor([4, 2])
    tgt = torch.tensor([[1, 3, 4, 5, 6], [1, 9, 8, 7, 6]])
    with torch.no_grad():
        full = model(src, lens, tgt)
        state = model.encode(src, lens)
        for t in range(1, 6):
            logits, attn = model.decode_step(tgt[:, :t], state)
            torch.testing.assert_close(logits, full[:, t - 1], atol=1e-6, rtol=1e-5)
            assert attn.shape == (2, 1, 4)
            torch.testing.assert_close(attn.sum(-1), torch.ones(2, 1))


def test_cached_steps_survive_reordered_rows():
    model = make_model(seed=5)
    src, lens = torch.tensor([[4, 5, 6, 7]]).expand(3, -1), torch.tensor([4, 4, 4])
    tgt = torch.tensor([[1, 3, 4, 5], [1, 9, 8, 7], [1, 6, 6, 6]])
    order = torch.tensor([1, 2, 0])
    with torch.no_grad():
        expected = model(src, lens, tgt[order])[:, -1]
        state = model.encode(src, lens)
        for t in range(1, 4):
            model.decode_step(tgt[:, :t], state)  # fills the cache for the original order
        logits, _ = model.decode_step(tgt[order], state)  # beam search reorders its rows
    torch.testing.assert_close(logits, expected, atol=1e-6, rtol=1e-5)


def test_attention_maps_use_eval_mode_and_restore_training():
    model = make_model(seed=3, dropout=0.5)
    model.train()
    src, lens, tgt = torch.tensor([[4, 5, 6]]), torch.tensor([3]), torch.tensor([[1, 4, 5]])
    a = model.attention_maps(src, lens, tgt)["cross"][0]
    b = model.attention_maps(src, lens, tgt)["cross"][0]
    assert model.training
    torch.testing.assert_close(a, b)
    torch.testing.assert_close(a.sum(-1), torch.ones(1, 1, 3))


def test_gradients_reach_every_parameter():
    model = make_model(seed=4, dropout=0.1).train()
    src = torch.tensor([[4, 5, 6, 7], [8, 9, 0, 0]])
    tgt = torch.tensor([[1, 3, 4], [1, 9, 8]])
    logits = model(src, torch.tensor([4, 2]), tgt)
    nn.functional.cross_entropy(logits.reshape(-1, 10), tgt.reshape(-1)).backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, f"no gradient reaches {name}"


def test_default_config_is_d2l():
    cfg = Seq2SeqConfig(src_vocab=5, tgt_vocab=5)
    assert (cfg.embed_size, cfg.num_hiddens, cfg.num_layers, cfg.dropout) == (32, 32, 2, 0.1)
    model = BahdanauSeq2Seq(cfg)
    assert model.decoder.input_size == 32 + 32  # [context ; embedding]


@pytest.mark.parametrize("src, lens, tgt, message", [
    (torch.tensor([[4, 12]]), [2], torch.tensor([[1]]), "token id 12"),
    (torch.tensor([[4, 5]]), [2], torch.tensor([[10]]), "vocabulary of size 10"),
    (torch.tensor([[4, 5]]), [0], torch.tensor([[1]]), r"\[1, 2\]"),
    (torch.zeros(1, 0, dtype=torch.long), [0], torch.tensor([[1]]), "empty"),
    (torch.tensor([[4, 5]]), [2], torch.zeros(1, 0, dtype=torch.long), "empty"),
])
def test_bad_inputs_raise_clear_errors(src, lens, tgt, message):
    with pytest.raises(ValueError, match=message):
        make_model()(src, torch.tensor(lens), tgt)


def test_bad_config_raises():
    with pytest.raises(ValueError, match="num_hiddens"):
        BahdanauSeq2Seq(Seq2SeqConfig(5, 5, num_hiddens=0))
