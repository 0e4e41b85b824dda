"""Greedy decoding and beam search against naive references and a hand-built model."""

import copy
import math

import pytest
import torch
from torch import nn

from transformer_lab.decode import beam_search, greedy_decode
from transformer_lab.device import available_devices
from transformer_lab.seq2seq import BahdanauSeq2Seq, Seq2SeqConfig
from transformer_lab.transformer import Transformer, TransformerConfig

BOS, EOS, PAD = 1, 2, 0


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny ops on a shared 2-core box run ~10x slower with 2 torch threads than with 1."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def reverse_batch(gen, n, width=7):
    """Reversal with lengths 2..width: src padded with 0, targets y..<eos> like tasks.Batch."""
    lens = torch.randint(2, width + 1, (n,), generator=gen)
    src = torch.randint(3, 12, (n, width), generator=gen)
    valid = torch.arange(width)[None] < lens[:, None]
    src[~valid] = PAD
    idx = (lens[:, None] - 1 - torch.arange(width)[None]).clamp(min=0)
    tgt_out = torch.cat([torch.where(valid, src.gather(1, idx), PAD),
                         torch.zeros(n, 1, dtype=torch.long)], dim=1)
    tgt_out[torch.arange(n), lens] = EOS
    tgt_in = torch.cat([torch.full((n, 1), BOS), tgt_out[:, :-1]], dim=1)
    return src, lens, tgt_in, tgt_out


def briefly_trained(model, lr):
    """80 Adam steps on reversal: enough for <eos> to depend on the source length."""
    gen = torch.Generator().manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr, fused=True)
    for _ in range(80):
        src, lens, tgt_in, tgt_out = reverse_batch(gen, 32)
        logits = model(src, lens, tgt_in)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                           tgt_out.reshape(-1), ignore_index=PAD)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.eval()


@pytest.fixture(scope="module")
def trained_transformer():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    cfg = TransformerConfig(12, 12, d_model=16, heads=2, layers=2, d_ff=32)
    return briefly_trained(Transformer(cfg), lr=1e-2)


@pytest.fixture(scope="module")
def trained_bahdanau():
    torch.set_num_threads(1)
    torch.manual_seed(0)
    cfg = Seq2SeqConfig(12, 12, embed_size=16, num_hiddens=16, dropout=0.0)
    return briefly_trained(BahdanauSeq2Seq(cfg), lr=2e-2)


@pytest.fixture(params=["transformer", "bahdanau"])
def model(request):
    return request.getfixturevalue(f"trained_{request.param}")


def batch(seed=1, n=12):
    src, lens, _, _ = reverse_batch(torch.Generator().manual_seed(seed), n)
    return src, lens


@torch.no_grad()
def naive_greedy(model, src_row, length, max_len):
    """One sentence at a time, re-running the teacher-forced forward on the growing prefix."""
    model.eval()
    src = src_row[None, :length]
    prefix = [BOS]
    for _ in range(max_len):
        logits = model(src, torch.tensor([length]), torch.tensor([prefix]))[0, -1]
        prefix.append(int(logits.argmax()))
        if prefix[-1] == EOS:
            break
    return prefix[1:]


def test_greedy_equals_naive_step_by_step_reference(model):
    src, lens = batch()
    # max_len 6: sentences of up to 5 tokens can finish, longer ones are cut off.
    result = greedy_decode(model, src, lens, max_len=6)
    expected = [naive_greedy(model, src[i], int(lens[i]), 6) for i in range(len(src))]
    assert result.to_lists(strip_eos=False) == expected
    ended = [row[-1] == EOS for row in expected]
    assert any(ended) and not all(ended), "the case must mix finished and unfinished rows"
    assert result.finished.tolist() == ended
    assert result.lengths.tolist() == [len(row) for row in expected]
    assert result.to_lists() == [row[:-1] if row[-1] == EOS else row for row in expected]
    for i, row in enumerate(expected):  # after <eos> the tokens are padding
        assert torch.all(result.tokens[i, len(row):] == PAD)


def test_greedy_attention_shapes_and_rows(model):
    heads = 2 if isinstance(model, Transformer) else 1
    src, lens = batch(seed=2)
    result = greedy_decode(model, src, lens, max_len=9)
    b, steps = result.tokens.shape
    assert result.attention.shape == (b, heads, steps, src.shape[1])
    for i in range(b):
        n, s = int(result.lengths[i]), int(lens[i])
        rows = result.attention[i, :, :n]
        torch.testing.assert_close(rows.sum(-1), torch.ones(heads, n))
        assert torch.all(rows[..., s:] == 0), "padded source positions get no attention"
        assert torch.all(result.attention[i, :, n:] == 0), "no attention after <eos>"


def test_greedy_attention_is_the_models_last_layer_cross_attention(trained_transformer):
    model = trained_transformer
    src, lens = batch(seed=3, n=4)
    result = greedy_decode(model, src, lens, max_len=6)
    tgt_in = torch.cat([torch.full((4, 1), BOS), result.tokens[:, :-1]], dim=1)
    maps = model.attention_maps(src, lens, tgt_in)["cross"][-1]  # (B, h, T, S)
    for i in range(4):
        n = int(result.lengths[i])
        torch.testing.assert_close(result.attention[i, :, :n], maps[i, :, :n], atol=1e-5, rtol=1e-5)


def test_decoding_restores_train_mode_and_ignores_dropout():
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(12, 9, d_model=16, heads=2, dropout=0.5))
    model.train()
    src, lens = batch(seed=2, n=5)
    a = greedy_decode(model, src, lens, max_len=6)
    b = greedy_decode(model, src, lens, max_len=6)
    assert model.training
    assert torch.equal(a.tokens, b.tokens) and not a.attention.requires_grad
    beam_search(model, src[:1], lens[:1], beam_size=2, max_len=4)
    assert model.training


def test_greedy_reverses_after_brief_training(trained_transformer):
    src, lens, _, tgt_out = reverse_batch(torch.Generator().manual_seed(5), 200)
    result = greedy_decode(trained_transformer, src, lens, max_len=8)
    exact = (result.tokens == tgt_out[:, : result.tokens.shape[1]]).all(dim=1).float().mean()
    assert exact > 0.25, f"only {exact:.0%} of reversals exact"


def test_beam_of_one_equals_greedy(model):
    src, lens = batch(seed=4, n=8)
    greedy = greedy_decode(model, src, lens, max_len=9).to_lists(strip_eos=False)
    for i in range(8):
        hyps = beam_search(model, src[i : i + 1], lens[i : i + 1], beam_size=1, max_len=9)
        assert hyps[0].tokens == greedy[i]
        assert hyps[0].finished == (greedy[i][-1] == EOS)


class TableModel(nn.Module):
    """A protocol model whose next-token distribution is a fixed table of prefixes."""

    V = 6  # ids: 0 pad, 1 bos, 2 eos, 3 'a', 4 'b', 5 'c'

    def __init__(self, table):
        super().__init__()
        self.table = table
        self.dummy = nn.Parameter(torch.zeros(1))

    def encode(self, src, src_lens):
        return src.shape[1]

    def decode_step(self, prefix, state):
        probs = torch.full((prefix.shape[0], self.V), 1e-9)
        for row, p in enumerate(prefix.tolist()):
            for token, prob in self.table.get(tuple(p[1:]), {EOS: 1.0}).items():
                probs[row, token] = prob
        attn = torch.full((prefix.shape[0], 1, state), 1.0 / state)
        return probs.log(), attn


def test_beam_search_finds_a_better_sequence_than_greedy():
    # Greedy takes 'a' (0.6) and is then stuck with 0.34 at best: 0.6*0.34 = 0.204.
    # The beam keeps 'b' (0.4), whose continuation 'c' has 0.9: 0.4*0.9 = 0.36.
    a, b, c = 3, 4, 5
    table = {(): {a: 0.6, b: 0.4}, (a,): {a: 0.33, b: 0.33, c: 0.34}, (b,): {c: 0.9, a: 0.1}}
    model = TableModel(table)
    src, lens = torch.tensor([[3, 4]]), torch.tensor([2])
    greedy = greedy_decode(model, src, lens, max_len=5).to_lists(strip_eos=False)[0]
    assert greedy == [a, c, EOS]
    hyps = beam_search(model, src, lens, beam_size=2, max_len=5, length_penalty=0.0)
    best = hyps[0]
    assert best.tokens == [b, c, EOS] and best.finished
    assert math.isclose(best.log_prob, math.log(0.4 * 0.9 * 1.0), rel_tol=1e-5)
    assert math.isclose(best.score, best.log_prob)
    greedy_logp = math.log(0.6 * 0.34)
    assert best.log_prob > greedy_logp + 0.5
    assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
    assert best.attention.shape == (1, 3, 2)


def test_length_penalty_divides_by_length_power():
    a = 3
    table = {(): {EOS: 0.5, a: 0.5}, (a,): {EOS: 0.9, a: 0.1}}
    hyps = beam_search(TableModel(table), torch.tensor([[3]]), None, beam_size=2,
                       max_len=3, length_penalty=1.0)
    by_tokens = {tuple(h.tokens): h for h in hyps}
    short, long = by_tokens[(EOS,)], by_tokens[(a, EOS)]
    assert math.isclose(short.score, math.log(0.5) / 1, rel_tol=1e-5)
    assert math.isclose(long.score, math.log(0.5 * 0.9) / 2, rel_tol=1e-5)
    assert hyps[0] is long  # the length penalty prefers the longer, nearly as likely sentence


def test_beam_search_returns_unfinished_beams_at_max_len():
    a = 3
    hyps = beam_search(TableModel({(): {a: 1.0}, (a,): {a: 1.0}, (a, a): {a: 1.0}}),
                       torch.tensor([[3]]), None, beam_size=2, max_len=3)
    assert hyps[0].tokens == [a, a, a] and not hyps[0].finished


@pytest.mark.parametrize("call, message", [
    (lambda m, s, n: greedy_decode(m, s, n, max_len=0), "max_len"),
    (lambda m, s, n: greedy_decode(m, s, n, max_len=3, bos_id=2, eos_id=2), "differ"),
    (lambda m, s, n: beam_search(m, s, n, beam_size=0), "beam_size"),
    (lambda m, s, n: beam_search(m, s, n, beam_size=2), r"\(1, S\)"),
])
def test_bad_arguments_raise_clear_errors(call, message):
    src, lens = batch(n=2)
    with pytest.raises(ValueError, match=message):
        torch.manual_seed(0)
        call(Transformer(TransformerConfig(12, 9, d_model=16, heads=2)), src, lens)


@pytest.mark.skipif(available_devices() == ["cpu"], reason="no accelerator on this machine")
def test_decoding_on_an_accelerator_matches_cpu(trained_transformer, trained_bahdanau):
    device = available_devices()[0]
    src, lens = batch(seed=6, n=16)
    for model in (trained_transformer, trained_bahdanau):
        on_cpu = greedy_decode(model, src, lens, max_len=8)
        moved = copy.deepcopy(model).to(device)
        on_dev = greedy_decode(moved, src, lens, max_len=8)  # CPU inputs, moved by greedy_decode
        assert on_dev.tokens.device.type == device
        assert torch.equal(on_dev.tokens.cpu(), on_cpu.tokens)
        torch.testing.assert_close(on_dev.attention.cpu(), on_cpu.attention, atol=1e-4, rtol=1e-3)
        hyps = beam_search(moved, src[:1], lens[:1], beam_size=3, max_len=8)
        assert hyps[0].tokens == beam_search(model, src[:1], lens[:1], beam_size=3, max_len=8)[0].tokens
