"""The Transformer against torch's own layers, plus masking, maps, gradients and errors."""

import math

import numpy as np
import pytest
import torch
from torch import nn

from transformer_lab.transformer import (
    DecoderLayer,
    EncoderLayer,
    EncoderState,
    Transformer,
    TransformerConfig,
)

D, H, FF = 16, 4, 32


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny ops on a shared 2-core box run ~10x slower with 2 torch threads than with 1."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def small_cfg(**kw) -> TransformerConfig:
    base = dict(src_vocab=11, tgt_vocab=9, d_model=D, heads=H, layers=2, d_ff=FF)
    base.update(kw)
    return TransformerConfig(**base)


@torch.no_grad()
def copy_encoder_layer(mine: EncoderLayer, ref: nn.TransformerEncoderLayer) -> None:
    mine.self_attn.load_from_torch(ref.self_attn)
    for a, b in ((mine.ffn.linear1, ref.linear1), (mine.ffn.linear2, ref.linear2),
                 (mine.norm1, ref.norm1), (mine.norm2, ref.norm2)):
        a.weight.copy_(b.weight)
        a.bias.copy_(b.bias)


@torch.no_grad()
def copy_decoder_layer(mine: DecoderLayer, ref: nn.TransformerDecoderLayer) -> None:
    mine.self_attn.load_from_torch(ref.self_attn)
    mine.cross_attn.load_from_torch(ref.multihead_attn)
    for a, b in ((mine.ffn.linear1, ref.linear1), (mine.ffn.linear2, ref.linear2),
                 (mine.norm1, ref.norm1), (mine.norm2, ref.norm2), (mine.norm3, ref.norm3)):
        a.weight.copy_(b.weight)
        a.bias.copy_(b.bias)


def lengths_mask(lens, width):
    """Our convention: True = real token."""
    return torch.arange(width)[None, :] < torch.as_tensor(lens)[:, None]


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_equals_torch(norm_first):
    torch.manual_seed(0)
    ref = nn.TransformerEncoderLayer(D, H, FF, dropout=0.0, batch_first=True,
                                     norm_first=norm_first)
    ref.train()  # train mode (dropout is 0) keeps torch off its nested-tensor fast path
    mine = EncoderLayer(small_cfg(norm_first=norm_first))
    copy_encoder_layer(mine, ref)
    x = torch.randn(3, 7, D)
    lens = torch.tensor([7, 4, 1])
    keep = lengths_mask(lens, 7)
    expected = ref(x, src_key_padding_mask=~keep)  # torch: True = ignore
    got, _ = mine(x, keep[:, None, None, :])
    torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)
    got_w, weights = mine(x, keep[:, None, None, :], need_weights=True)
    torch.testing.assert_close(got_w, expected, atol=1e-5, rtol=1e-5)
    assert weights.shape == (3, H, 7, 7)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_layer_equals_torch_with_causal_and_memory_padding(norm_first):
    torch.manual_seed(1)
    ref = nn.TransformerDecoderLayer(D, H, FF, dropout=0.0, batch_first=True,
                                     norm_first=norm_first).train()
    mine = DecoderLayer(small_cfg(norm_first=norm_first))
    copy_decoder_layer(mine, ref)
    x, memory = torch.randn(2, 5, D), torch.randn(2, 6, D)
    keep = lengths_mask([6, 3], 6)
    causal_float = torch.triu(torch.full((5, 5), float("-inf")), diagonal=1)  # the paper notes' mask
    expected = ref(x, memory, tgt_mask=causal_float, memory_key_padding_mask=~keep)
    causal_bool = torch.ones(5, 5, dtype=torch.bool).tril()
    enc = EncoderState(memory, keep[:, None, None, :], torch.tensor([6, 3]), 6)
    for need in (False, True):
        got, w_self, w_cross = mine(x, enc, causal_bool, need)
        torch.testing.assert_close(got, expected, atol=1e-5, rtol=1e-5)
    assert w_self.shape == (2, H, 5, 5) and w_cross.shape == (2, H, 5, 6)


def reference_forward(model: Transformer, src, src_lens, tgt):
    """The same computation written with torch's layers and a numpy sinusoidal table."""
    cfg = model.cfg
    encs, decs = [], []
    for mine in model.encoder:
        ref = nn.TransformerEncoderLayer(cfg.d_model, cfg.heads, cfg.d_ff, 0.0,
                                         batch_first=True).train()
        with torch.no_grad():
            ref.self_attn.in_proj_weight.copy_(torch.cat(
                [mine.self_attn.W_q.weight, mine.self_attn.W_k.weight, mine.self_attn.W_v.weight]))
            ref.self_attn.in_proj_bias.copy_(torch.cat(
                [mine.self_attn.W_q.bias, mine.self_attn.W_k.bias, mine.self_attn.W_v.bias]))
            ref.self_attn.out_proj.load_state_dict(mine.self_attn.W_o.state_dict())
            ref.linear1.load_state_dict(mine.ffn.linear1.state_dict())
            ref.linear2.load_state_dict(mine.ffn.linear2.state_dict())
            ref.norm1.load_state_dict(mine.norm1.state_dict())
            ref.norm2.load_state_dict(mine.norm2.state_dict())
        encs.append(ref)
    for mine in model.decoder:
        ref = nn.TransformerDecoderLayer(cfg.d_model, cfg.heads, cfg.d_ff, 0.0,
                                         batch_first=True).train()
        with torch.no_grad():
            for r_att, m_att in ((ref.self_attn, mine.self_attn), (ref.multihead_attn, mine.cross_attn)):
                r_att.in_proj_weight.copy_(torch.cat([m_att.W_q.weight, m_att.W_k.weight, m_att.W_v.weight]))
                r_att.in_proj_bias.copy_(torch.cat([m_att.W_q.bias, m_att.W_k.bias, m_att.W_v.bias]))
                r_att.out_proj.load_state_dict(m_att.W_o.state_dict())
            for name in ("linear1", "linear2"):
                getattr(ref, name).load_state_dict(getattr(mine.ffn, name).state_dict())
            for name in ("norm1", "norm2", "norm3"):
                getattr(ref, name).load_state_dict(getattr(mine, name).state_dict())
        decs.append(ref)
    d = cfg.d_model
    pos = np.arange(64)[:, None]
    angle = pos / 10000 ** (np.arange(0, d, 2)[None, :] / d)
    table = np.zeros((64, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    table = torch.tensor(table, dtype=torch.float32)
    pad = ~lengths_mask(src_lens, src.shape[1])
    x = model.src_embed(src) * math.sqrt(d) + table[: src.shape[1]]
    for ref in encs:
        x = ref(x, src_key_padding_mask=pad)
    y = model.tgt_embed(tgt) * math.sqrt(d) + table[: tgt.shape[1]]
    causal = torch.triu(torch.full((tgt.shape[1],) * 2, float("-inf")), diagonal=1)
    for ref in decs:
        y = ref(y, x, tgt_mask=causal, memory_key_padding_mask=pad)
    return model.out(y)


@pytest.mark.parametrize("src_len, tgt_len", [(7, 5), (20, 18)])
def test_whole_model_equals_a_torch_layer_reference(src_len, tgt_len):
    # Short inputs exercise the internal right-padding to 16 positions; long ones skip it.
    torch.manual_seed(2)
    model = Transformer(small_cfg())
    src = torch.randint(3, 11, (3, src_len))
    src_lens = torch.tensor([src_len, src_len - 2, 1])
    tgt = torch.randint(1, 9, (3, tgt_len))
    with torch.no_grad():
        torch.testing.assert_close(model(src, src_lens, tgt),
                                   reference_forward(model, src, src_lens, tgt),
                                   atol=1e-4, rtol=1e-4)


def test_decoder_is_causal():
    torch.manual_seed(3)
    model = Transformer(small_cfg())
    src = torch.randint(3, 11, (2, 6))
    lens = torch.tensor([6, 4])
    tgt = torch.randint(1, 9, (2, 8))
    changed = tgt.clone()
    changed[:, 5:] = (changed[:, 5:] + 3) % 9
    with torch.no_grad():
        a, b = model(src, lens, tgt), model(src, lens, changed)
    torch.testing.assert_close(a[:, :5], b[:, :5])
    assert not torch.allclose(a[:, 5:], b[:, 5:])


def test_padded_source_tokens_do_not_matter():
    torch.manual_seed(4)
    model = Transformer(small_cfg())
    src = torch.randint(3, 11, (2, 6))
    lens = torch.tensor([6, 3])
    tgt = torch.randint(1, 9, (2, 5))
    other = src.clone()
    other[1, 3:] = torch.tensor([7, 8, 9])  # garbage where padding should be
    wider = torch.cat([src, torch.zeros(2, 12, dtype=torch.long)], dim=1)  # (2, 18), more pads
    with torch.no_grad():
        base = model(src, lens, tgt)
        torch.testing.assert_close(model(other, lens, tgt), base)
        torch.testing.assert_close(model(wider, lens, tgt), base, atol=1e-5, rtol=1e-5)
        shorter = model(src, torch.tensor([6, 2]), tgt)
    assert not torch.allclose(shorter[1], base[1]), "the valid length must matter"


def test_attention_maps_shapes_rows_and_masks():
    torch.manual_seed(5)
    model = Transformer(small_cfg(dropout=0.3, layers=3))
    model.train()
    src = torch.randint(3, 11, (2, 6))
    lens = torch.tensor([6, 4])
    tgt = torch.randint(1, 9, (2, 5))
    maps = model.attention_maps(src, lens, tgt)
    assert model.training, "attention_maps must restore train mode"
    assert set(maps) == {"encoder_self", "decoder_self", "cross"}
    for kind, shape in (("encoder_self", (2, H, 6, 6)), ("decoder_self", (2, H, 5, 5)),
                        ("cross", (2, H, 5, 6))):
        assert len(maps[kind]) == 3
        for w in maps[kind]:
            assert w.shape == shape and not w.requires_grad
            torch.testing.assert_close(w.sum(-1), torch.ones(shape[:-1]))
    for w in maps["encoder_self"] + maps["cross"]:
        assert torch.all(w[1, :, :, 4:] == 0), "padded source keys must get weight 0"
    future = ~torch.ones(5, 5, dtype=torch.bool).tril()
    for w in maps["decoder_self"]:
        assert torch.all(w[:, :, future] == 0), "future target keys must get weight 0"
    again = model.attention_maps(src, lens, tgt)  # eval mode: dropout off, so repeatable
    for kind in maps:
        for a, b in zip(maps[kind], again[kind], strict=True):
            torch.testing.assert_close(a, b)
    model.eval()
    model.attention_maps(src, lens, tgt)
    assert not model.training


@pytest.mark.parametrize("extra", [
    {}, {"norm_first": True}, {"pe": "learned"}, {"pe": "none"},
    {"src_vocab": 9, "share_embeddings": True, "tie_output": True},
])
def test_gradients_reach_every_parameter(extra):
    torch.manual_seed(6)
    model = Transformer(small_cfg(dropout=0.1, **extra))
    src = torch.randint(3, 9, (4, 7))
    lens = torch.tensor([7, 5, 3, 2])
    tgt = torch.randint(1, 9, (4, 6))
    logits = model(src, lens, tgt)
    assert logits.shape == (4, 6, 9)
    nn.functional.cross_entropy(logits.reshape(-1, 9), tgt.reshape(-1)).backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, f"no gradient reaches {name}"


def test_shared_and_tied_embeddings_are_one_tensor():
    model = Transformer(small_cfg(src_vocab=9, share_embeddings=True, tie_output=True))
    assert model.src_embed.weight is model.tgt_embed.weight is model.out.weight
    plain = Transformer(small_cfg(src_vocab=9))
    assert model.num_parameters() == plain.num_parameters() - 2 * 9 * D


def test_same_seed_same_model_and_output():
    src, lens, tgt = torch.randint(3, 11, (2, 5)), torch.tensor([5, 3]), torch.randint(1, 9, (2, 4))
    outs = []
    for _ in range(2):
        torch.manual_seed(7)
        model = Transformer(small_cfg(dropout=0.2))
        torch.manual_seed(8)
        outs.append(model(src, lens, tgt))  # train mode: dropout draws from the seeded stream
    torch.testing.assert_close(outs[0], outs[1])


def test_learns_to_reverse_a_fixed_batch():
    """A real behaviour check: the model can fit reversal of a small batch quickly."""
    torch.manual_seed(9)
    model = Transformer(small_cfg(src_vocab=10, tgt_vocab=10, d_model=32, d_ff=64))
    src = torch.randint(3, 10, (32, 6))
    lens = torch.full((32,), 6)
    target = torch.cat([src.flip(1), torch.full((32, 1), 2)], dim=1)  # y ... <eos>
    tgt_in = torch.cat([torch.ones(32, 1, dtype=torch.long), target[:, :-1]], dim=1)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, fused=True)
    for _ in range(80):
        loss = nn.functional.cross_entropy(model(src, lens, tgt_in).reshape(-1, 10), target.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (model(src, lens, tgt_in).argmax(-1) == target).float().mean().item()
    assert acc > 0.95, f"teacher-forced token accuracy only {acc:.2f}"


@pytest.mark.parametrize("kwargs, message", [
    ({"d_model": 30, "heads": 4}, r"d_model=30.*heads=4"),
    ({"d_model": 15, "heads": 3}, "even"),
    ({"pe": "rotary"}, "unknown pe"),
    ({"dropout": 1.0}, "dropout"),
    ({"layers": 0}, "layers"),
    ({"share_embeddings": True}, "share_embeddings"),
])
def test_bad_config_raises(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Transformer(small_cfg(**kwargs))


def test_odd_d_model_is_fine_with_learned_positions():
    model = Transformer(small_cfg(d_model=15, heads=3, pe="learned"))
    out = model(torch.randint(0, 11, (1, 4)), torch.tensor([4]), torch.randint(0, 9, (1, 3)))
    assert out.shape == (1, 3, 9)


@pytest.mark.parametrize("src, lens, tgt, error, message", [
    (torch.zeros(2, 0, dtype=torch.long), [0, 0], torch.ones(2, 3, dtype=torch.long), ValueError, "empty"),
    (torch.ones(2, 3, dtype=torch.long), [3, 3], torch.ones(2, 0, dtype=torch.long), ValueError, "empty"),
    (torch.full((1, 3), 11), [3], torch.ones(1, 2, dtype=torch.long), ValueError, "token id 11"),
    (torch.ones(1, 3, dtype=torch.long), [3], torch.full((1, 2), 9), ValueError, "vocabulary of size 9"),
    (torch.full((1, 3), -1), [3], torch.ones(1, 2, dtype=torch.long), ValueError, "token id -1"),
    (torch.ones(1, 40, dtype=torch.long), [40], torch.ones(1, 2, dtype=torch.long), ValueError, "max_len=32"),
    (torch.ones(1, 3, dtype=torch.long), [3], torch.ones(1, 33, dtype=torch.long), ValueError, "max_len=32"),
    (torch.ones(2, 3, dtype=torch.long), [3, 0], torch.ones(2, 2, dtype=torch.long), ValueError, r"\[1, 3\]"),
    (torch.ones(2, 3, dtype=torch.long), [3, 4], torch.ones(2, 2, dtype=torch.long), ValueError, r"\[1, 3\]"),
    (torch.ones(2, 3, dtype=torch.long), [3], torch.ones(2, 2, dtype=torch.long), ValueError, "one length per"),
    (torch.ones(2, 3), [3, 3], torch.ones(2, 2, dtype=torch.long), TypeError, "integer token ids"),
    (torch.ones(3, dtype=torch.long), [3], torch.ones(1, 2, dtype=torch.long), ValueError, "batch, length"),
    (torch.ones(2, 3, dtype=torch.long), [3, 3], torch.ones(1, 2, dtype=torch.long), ValueError, "batch"),
])
def test_bad_inputs_raise_clear_errors(src, lens, tgt, error, message):
    model = Transformer(small_cfg(max_len=32))
    with pytest.raises(error, match=message):
        model(src, torch.tensor(lens), tgt)
