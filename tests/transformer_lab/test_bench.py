"""Tests of the benchmark: its timing helper, its torch baseline model and a --quick run."""

from __future__ import annotations

import io
import time

import pytest
import torch

from transformer_lab.bench import TorchTransformer, interleaved_medians, run_bench
from transformer_lab.cli import main
from transformer_lab.transformer import Transformer, TransformerConfig


def test_interleaved_medians_measures_known_durations():
    calls = []
    t = interleaved_medians({"short": lambda: (calls.append("s"), time.sleep(0.002)),
                             "long": lambda: (calls.append("l"), time.sleep(0.010))}, repeats=5)
    assert calls == ["s", "l"] * 6  # one warm-up each, then strict turns
    assert 0.002 <= t["short"] < t["long"] and t["long"] >= 0.010


def test_torch_baseline_has_our_size_and_follows_the_protocol():
    cfg = TransformerConfig(12, 14, d_model=16, heads=2, layers=2, d_ff=32)
    torch.manual_seed(0)
    ref = TorchTransformer(cfg).eval()
    assert ref.num_parameters() == Transformer(cfg).num_parameters()
    src = torch.randint(4, 12, (3, 7))
    lens = torch.tensor([7, 5, 2])
    tgt = torch.randint(4, 14, (3, 6))
    with torch.no_grad():
        logits = ref(src, lens, tgt)  # (B, T, V)
        state = ref.encode(src, lens)
        step_logits, attn = ref.decode_step(tgt[:, :4], state)
    assert logits.shape == (3, 6, 14) and attn.shape == (3, 2, 7)
    # causal decoding: the logits for position 4 cannot depend on later target tokens
    torch.testing.assert_close(step_logits, logits[:, 3], atol=1e-5, rtol=1e-5)
    # padded source positions are masked: changing them changes nothing
    src2 = src.clone()
    src2[2, 2:] = 5
    with torch.no_grad():
        torch.testing.assert_close(ref(src2, lens, tgt), logits, atol=1e-5, rtol=1e-5)


def test_quick_bench_prints_ratios_from_one_run():
    out = io.StringIO()
    report = run_bench(quick=True, sections=["attention", "complexity", "reverse"], out=out)
    text = out.getvalue()
    assert "ratio" in text and "n×2 measured" in text and "median seconds" in text
    rows = report["attention"]
    assert {r["path"] for r in rows} == {"fused", "weights"}
    assert {r["mask"] for r in rows} == {"none", "padding"}  # key padding is timed too
    assert all(r["same_output"] for r in rows)  # ours and torch compute the same thing
    for r in rows:
        assert r["ratio"] == pytest.approx(r["ours_ms"] / r["torch_ms"])
    growth = {g["layer"]: g for g in report["complexity"]["growth"]}
    assert growth["self-attention"]["n_theory"] == 4 and growth["recurrent (GRU)"]["d_theory"] == 4
    runs = report["reverse"]["runs"]
    assert {r["model"] for r in runs} == {"ours", "torch"}
    assert len({r["parameters"] for r in runs}) == 1  # same size on both sides


def test_bench_cli_rejects_an_unknown_section(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--quick", "--sections", "attention,warp"])
    assert exc.value.code == 2 and "warp" in capsys.readouterr().err


def test_bench_cli_runs_one_section(capsys):
    assert main(["bench", "--quick", "--sections", "complexity", "--repeats", "1"]) == 0
    assert "growth when n doubles" in capsys.readouterr().out


def test_quick_bench_translate_section_scores_held_out_sentences():
    from transformer_lab.tasks.translation import TranslationTask

    out = io.StringIO()
    report = run_bench(quick=True, sections=["translate"], out=out)
    held = report["translate"]["heldout"]
    task = TranslationTask()
    assert held["all"]["n"] == len(task.heldout) and held["in_vocab"]["n"] <= held["all"]["n"]
    assert "translate: held-out sentences" in out.getvalue() and "sacreBLEU" in out.getvalue()
