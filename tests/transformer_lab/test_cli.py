"""Tests of `python -m transformer_lab train`: the JSON summary, the progress bar, bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from transformer_lab.cli import main
from transformer_lab.experiments import PRESETS, TASKS

TINY = ["--d-model", "16", "--heads", "2", "--d-ff", "32", "--no-progress", "--json"]


def last_json_line(text: str) -> dict:
    lines = [line for line in text.splitlines() if line.strip()]
    return json.loads(lines[-1])


def run_cli(capsys, *args: str) -> tuple[dict, str]:
    assert main(["train", *args]) == 0
    captured = capsys.readouterr()
    return last_json_line(captured.out), captured.err


@pytest.mark.parametrize("task", ["copy", "reverse", "sort"])
def test_toy_json_has_the_documented_keys(capsys, task):
    out, _ = run_cli(capsys, "--task", task, "--steps", "3", *TINY)
    assert {"task", "steps", "train_seconds", "device", "exact_match",
            "token_accuracy"} <= set(out)
    assert out["task"] == task and out["steps"] == 3 and out["device"] == "cpu"
    assert 0.0 <= out["exact_match"] <= out["token_accuracy"] <= 1.0
    assert out["train_seconds"] > 0 and out["d_model"] == 16 and out["heads"] == 2


def test_translate_json_reports_both_bleu_scores(capsys):
    out, _ = run_cli(capsys, "--task", "translate", "--steps", "2", *TINY)
    assert 0.0 <= out["bleu_heldout"] <= 100.0
    assert 0.0 <= out["bleu_examples"] <= 1.0
    assert [e["en"] for e in out["examples"]] == ["go .", "i lost .", "he's calm .", "i'm home ."]
    assert [e["ref"] for e in out["examples"]] == ["va !", "j'ai perdu .", "il est calme .",
                                                   "je suis chez moi ."]


def test_kernel_json_reports_the_fitted_width(capsys):
    out, _ = run_cli(capsys, "--task", "kernel", "--steps", "5", "--no-progress", "--json")
    assert out["task"] == "kernel" and out["steps"] == 5
    assert out["mse_test"] >= 0 and out["w"] != 1.0  # w moved away from its start


def test_progress_bar_goes_to_stderr_and_json_stays_last_on_stdout(capsys):
    out, err = run_cli(capsys, "--task", "copy", "--steps", "4", "--d-model", "16", "--heads",
                       "2", "--json")
    assert "train" in err and "4/4" in err
    assert out["steps"] == 4


def test_same_seed_same_result(capsys):
    a, _ = run_cli(capsys, "--task", "reverse", "--steps", "5", "--seed", "3", *TINY)
    b, _ = run_cli(capsys, "--task", "reverse", "--steps", "5", "--seed", "3", *TINY)
    assert a["exact_match"] == b["exact_match"] and a["token_accuracy"] == b["token_accuracy"]


def test_defaults_are_per_task_presets():
    assert set(PRESETS) == set(TASKS)
    assert PRESETS["reverse"]["target"] is not None  # early stop on a validation stream
    assert PRESETS["kernel"].get("d_model") is None  # no Transformer in the kernel task


@pytest.mark.parametrize("args,reason", [
    (["--task", "bogus"], "invalid choice"),
    (["--task", "reverse", "--heads", "3"], "divisible"),
    (["--task", "reverse", "--steps", "0"], "at least 1"),
    (["--task", "reverse", "--steps", "ten"], "whole number"),
    (["--task", "reverse", "--dropout", "1.5"], "[0, 1)"),
    (["--task", "reverse", "--pe", "rope"], "invalid choice"),
    (["--task", "reverse", "--warmup", "-3"], "warmup"),
    (["--task", "reverse", "--d-model", "15", "--heads", "1"], "even"),
    (["--steps", "5"], "required"),
])
def test_bad_arguments_exit_2_with_a_message(capsys, args, reason):
    with pytest.raises(SystemExit) as exc:
        main(["train", *args])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert reason in err and "Traceback" not in err


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_forcing_an_absent_device_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["train", "--task", "copy", "--device", "cuda"])
    assert exc.value.code == 2
    assert "not available" in capsys.readouterr().err


@pytest.mark.slow
def test_module_entry_point_runs_as_a_program():
    proc = subprocess.run(
        [sys.executable, "-m", "transformer_lab", "train", "--task", "copy", "--steps", "2",
         "--threads", "1", *TINY], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert last_json_line(proc.stdout)["steps"] == 2
    bad = subprocess.run([sys.executable, "-m", "transformer_lab", "train", "--task", "copy",
                          "--lr", "-1"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "must be positive" in bad.stderr
    assert "Traceback" not in bad.stderr



def test_bahdanau_model_trains_on_the_same_tasks(capsys):
    out, _ = run_cli(capsys, "--task", "reverse", "--model", "bahdanau", "--steps", "3", *TINY)
    assert out["model"] == "bahdanau" and out["steps"] == 3
    from transformer_lab.seq2seq import BahdanauSeq2Seq, Seq2SeqConfig

    # its parameter count is the GRU seq2seq's (d_model read as embed and hidden width)
    expected = BahdanauSeq2Seq(Seq2SeqConfig(14, 14, 16, 16, 1, 0.0)).num_parameters()
    assert out["parameters"] == expected

