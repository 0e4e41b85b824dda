"""Tests for transformer_lab.figures against numpy references and the lessons' numbers."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
import torch

from transformer_lab import figures as F


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def heatmaps(fig):
    return [t for t in fig.data if isinstance(t, go.Heatmap)]


def sinusoid_reference(T, d):
    """P[pos, 2i] = sin(pos / 10000^(2i/d)), P[pos, 2i+1] = cos(same), written independently."""
    P = np.zeros((T, d))
    for pos in range(T):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            P[pos, 2 * i], P[pos, 2 * i + 1] = np.sin(angle), np.cos(angle)
    return P


WORKED_TABLE = np.array(  # SOURCES.md, d_model = 4
    [
        [0.0000, 1.0000, 0.0000, 1.0000],
        [0.8415, 0.5403, 0.0100, 0.9999],
        [0.9093, -0.4161, 0.0200, 0.9998],
        [0.1411, -0.9900, 0.0300, 0.9996],
        [-0.7568, -0.6536, 0.0400, 0.9992],
    ]
)


def test_positional_heatmap_shows_the_table():
    P = sinusoid_reference(5, 4)
    np.testing.assert_allclose(P, WORKED_TABLE, atol=1e-4)  # our reference matches the lesson
    (trace,) = heatmaps(F.positional_heatmap(P))
    np.testing.assert_allclose(np.asarray(trace.z), WORKED_TABLE, atol=1e-4)
    assert (trace.zmin, trace.zmax) == (-1.0, 1.0)
    assert list(trace.y) == list(range(5)) and list(trace.x) == list(range(4))


def test_positional_curves_follow_the_chosen_dimensions():
    P = sinusoid_reference(30, 8)
    fig = F.positional_curves(P, dims=(6, 1))
    assert [t.name for t in fig.data] == ["dim 6", "dim 1"]
    for trace, dim in zip(fig.data, (6, 1), strict=True):
        assert list(trace.x) == list(range(30))
        np.testing.assert_allclose(np.asarray(trace.y), P[:, dim])
    with pytest.raises(ValueError, match="from 0 to 7"):
        F.positional_curves(P, dims=(8,))
    with pytest.raises(ValueError, match="dims is empty"):
        F.positional_curves(P, dims=())


def make_history(losses, evals):
    """A history like the training loop's: eval columns only on evaluation rows, NaN elsewhere."""
    steps = np.arange(1, len(losses) + 1) * 10
    df = pd.DataFrame({"step": steps, "loss": losses, "lr": 1e-3, "seconds": steps / 100})
    for col in ("eval_loss", "token_accuracy", "exact_match"):
        df[col] = np.nan
    for row, (el, acc, em) in evals.items():
        df.loc[row, ["eval_loss", "token_accuracy", "exact_match"]] = [el, acc, em]
    return df


def test_training_curves_drop_rows_without_evaluation():
    hist = make_history([3.0, 2.5, 2.0, 1.5, 1.0], {1: (2.6, 0.4, 0.1), 4: (1.1, 0.9, 0.7)})
    fig = F.training_curves(hist)
    by_name = {t.name: t for t in fig.data}
    assert set(by_name) == {"loss", "eval loss", "token accuracy", "exact match"}
    assert list(by_name["loss"].x) == [10, 20, 30, 40, 50]
    assert list(by_name["eval loss"].x) == [20, 50]
    assert list(by_name["token accuracy"].y) == [0.4, 0.9]
    assert list(by_name["exact match"].x) == [20, 50]
    assert not any(np.isnan(np.asarray(t.y, dtype=float)).any() for t in fig.data)
    assert by_name["eval loss"].line.dash == "dash"
    assert [t.name for t in fig.data if t.showlegend] == ["loss", "eval loss"]
    assert [a.text for a in fig.layout.annotations] == ["loss", "token accuracy", "exact match"]


def test_training_curves_overlay_runs_with_one_colour_each():
    with_pe = make_history([2.0, 1.0, 0.5], {2: (0.6, 0.95, 0.9)})
    without = make_history([2.0, 1.8, 1.7], {2: (1.7, 0.26, 0.001)})
    fig = F.training_curves(None, metrics=("loss", "exact_match"),
                            compare={"with PE": with_pe, "without PE": without})
    solid = [t for t in fig.data if t.line.dash == "solid"]
    assert [t.name for t in solid] == ["with PE", "with PE", "without PE", "without PE"]
    assert solid[0].line.color == solid[1].line.color != solid[2].line.color
    # One legend entry per run for the solid curves.
    assert [t.showlegend for t in solid] == [True, False, True, False]
    assert list(solid[3].y) == [0.001]


def test_training_curves_live_history_and_errors():
    early = pd.DataFrame({"step": [1, 2], "loss": [3.0, 2.9], "lr": [0.0, 1e-5], "seconds": [0, 1]})
    fig = F.training_curves(early)  # no evaluation yet: empty accuracy panels, no error
    assert [t.name for t in fig.data] == ["loss"]
    with pytest.raises(ValueError, match="no 'step' column"):
        F.training_curves(pd.DataFrame({"loss": [1.0]}))
    with pytest.raises(ValueError, match="No run has a column 'bleu'"):
        F.training_curves(early, metrics=("bleu",))
    with pytest.raises(ValueError, match="Nothing to plot"):
        F.training_curves(None)
    with pytest.raises(TypeError, match="must be a pandas DataFrame"):
        F.training_curves(None, compare={"x": [1, 2]})


def test_kernel_figure_sorts_points_and_shows_the_attention():
    rng = np.random.default_rng(0)
    x_train = rng.uniform(0, 5, 12)  # unsorted on purpose
    y_train = 2 * np.sin(x_train) + x_train**0.8
    x_test = np.array([3.0, 0.5, 4.0, 1.5])
    attn = np_softmax(-0.5 * (x_test[:, None] - x_train[None, :]) ** 2)  # Nadaraya–Watson
    y_pred = attn @ y_train
    y_true = 2 * np.sin(x_test) + x_test**0.8
    fig = F.kernel_regression_figure(x_train, y_train, x_test, y_true, y_pred, torch.tensor(attn))
    (heat,) = heatmaps(fig)
    z = np.asarray(heat.z)
    np.testing.assert_allclose(z, attn[np.argsort(x_test)][:, np.argsort(x_train)])
    np.testing.assert_allclose(z.sum(axis=1), 1.0)  # rows are still distributions
    np.testing.assert_allclose(np.asarray(heat.x), np.sort(x_train))  # cells at the inputs' x
    np.testing.assert_allclose(np.asarray(heat.y), np.sort(x_test))
    assert heat.text is None  # hover reads %{x}/%{y}: no per-cell strings to ship
    names = [t.name for t in fig.data if isinstance(t, go.Scatter)]
    assert names == ["training points", "truth", "prediction"]
    pred = fig.data[2]
    np.testing.assert_allclose(np.asarray(pred.x), np.sort(x_test))
    np.testing.assert_allclose(np.asarray(pred.y), y_pred[np.argsort(x_test)])
    tied = heatmaps(F.kernel_regression_figure([1.0, 1.0, 2.0], [0, 1, 2], [0.0, 3.0], None,
                                               [0, 0], np.full((2, 3), 1 / 3)))[0]
    assert list(tied.x) == [0, 1, 2] and "train #" in tied.hovertemplate  # ranks for repeats
    with pytest.raises(ValueError, match="must have the same length"):
        F.kernel_regression_figure(x_train, y_train[:-1], x_test, y_true, y_pred, attn)
    with pytest.raises(ValueError, match="x_test has 4 points"):
        F.kernel_regression_figure(x_train, y_train, x_test, None, y_pred, attn[:3])


def test_complexity_figure_log_log_with_slopes():
    n = np.array([64, 128, 256, 512])
    df = pd.concat([
        pd.DataFrame({"layer": "self-attention", "n": n, "d": 128, "ms": 1e-4 * n**2}),
        pd.DataFrame({"layer": "rnn", "n": n, "d": 128, "ms": 0.05 * n}),
    ])
    fig = F.complexity_figure(df)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert [t.name for t in fig.data] == ["self-attention · slope 2.00", "rnn · slope 1.00"]
    np.testing.assert_allclose(np.asarray(fig.data[0].y), 1e-4 * n**2)
    with pytest.raises(ValueError, match=r"lacks columns \['ms'\]"):
        F.complexity_figure(df.drop(columns="ms"))
    with pytest.raises(ValueError, match="positive"):
        F.complexity_figure(df.assign(ms=0.0))


def test_figures_do_not_import_gradio():
    # The library stays UI-free: app.py alone builds Gradio components around these figures.
    code = "import sys, transformer_lab.figures; print('gradio' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root)
    assert out.stdout.strip() == "False"


def long_history():
    """A history in train.py's long format: train rows, eval rows, a decoded final eval."""
    rows = [("train", s, 3.0 - 0.5 * s, 0.1 * s, 0.0, 1e-3, 0.1 * s, False) for s in range(1, 5)]
    rows += [("eval", 2, 2.2, 0.5, 0.2, 1e-3, 0.25, False), ("eval", 4, 1.2, 0.9, 0.6, 1e-3, 0.45,
             False), ("eval", 4, 1.2, 0.8, 0.4, 1e-3, 0.5, True)]
    cols = ["phase", "step", "loss", "token_acc", "exact_acc", "lr", "seconds", "decoded"]
    return pd.DataFrame(rows, columns=cols)


def test_training_curves_read_the_long_history_of_train_py():
    fig = F.training_curves(long_history(), metrics=("loss", "exact_acc"))
    lines = {t.name: t for t in fig.data if t.mode == "lines"}
    assert list(lines["loss"].x) == [1, 2, 3, 4] and list(lines["loss"].y) == [2.5, 2.0, 1.5, 1.0]
    assert list(lines["eval loss"].x) == [2, 4] and list(lines["eval loss"].y) == [2.2, 1.2]
    # The final check was decoded (last row per step wins): a diamond, not part of the line.
    assert list(lines["exact match"].x) == [2] and list(lines["exact match"].y) == [0.2]
    (diamond,) = [t for t in fig.data if t.mode == "markers"]
    assert list(diamond.x) == [4] and list(diamond.y) == [0.4]
    assert diamond.marker.symbol == "diamond" and diamond.name == "decoded (free-running)"


def test_training_curves_on_a_real_training_run():
    # The contract with train.py: its history (phase/step/loss/... columns) plots without edits.
    from transformer_lab.kernel import NWKernelRegression
    from transformer_lab.objectives import KernelObjective
    from transformer_lab.train import TrainConfig, train

    torch.manual_seed(0)
    cfg = TrainConfig(steps=6, eval_every=3, lr=0.5, warmup=1, schedule="constant", device="cpu")
    result = train(NWKernelRegression(1.0), KernelObjective(), cfg)
    hist = result.history
    fig = F.training_curves(hist, metrics=("loss",))
    lines = {t.name: t for t in fig.data}
    train_rows = hist[hist["phase"] == "train"]
    eval_rows = hist[hist["phase"] == "eval"]
    assert list(lines["loss"].x) == train_rows["step"].tolist() == list(range(1, 7))
    np.testing.assert_allclose(np.asarray(lines["eval loss"].y), eval_rows["loss"].to_numpy())


