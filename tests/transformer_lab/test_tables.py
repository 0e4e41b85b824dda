"""Tests for transformer_lab.tables against the lessons' tables and hand-computed numbers."""

import numpy as np
import pandas as pd
import pytest
import torch

from transformer_lab import tables as T

# The lesson's complexity table as written in SOURCES.md (n length, d width, k kernel, r window).
LESSON_COMPLEXITY = [
    ["self-attention", "O(n²·d)", "O(1)", "O(1)"],
    ["recurrent", "O(n·d²)", "O(n)", "O(n)"],
    ["convolutional", "O(k·n·d²)", "O(1)", "O(log_k n)"],
    ["restricted self-attention", "O(r·n·d)", "O(1)", "O(n/r)"],
]


def test_complexity_table_matches_the_lesson():
    df = T.complexity_table()
    assert list(df.columns) == [
        "layer", "complexity per layer", "sequential operations", "maximum path length"
    ]
    assert df.values.tolist() == LESSON_COMPLEXITY


def test_complexity_table_in_chinese_keeps_the_formulas():
    df = T.complexity_table(lang="zh")
    assert df.iloc[:, 1:].values.tolist() == [row[1:] for row in LESSON_COMPLEXITY]
    assert df.iloc[0, 0] == "自注意力" and df.columns[0] == "层"


def test_matrix_table_rounds_and_labels():
    scores = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 2]], dtype=float)  # Exercise 1's QKᵀ/√4
    e = np.exp(scores)
    weights = torch.tensor(e / e.sum(axis=1, keepdims=True))
    df = T.matrix_table(weights, ["A", "B", "C"], ["A", "B", "C"])
    assert list(df.columns) == ["query \\ key", "A", "B", "C"]
    assert df.iloc[:, 0].tolist() == ["A", "B", "C"]
    expected = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
    assert df.iloc[:, 1:].to_numpy().tolist() == expected  # the lesson's 4-decimal answers
    assert T.matrix_table(scores, decimals=0).iloc[:, 1:].to_numpy().tolist() == scores.tolist()


def test_matrix_table_default_and_repeated_labels():
    df = T.matrix_table(np.zeros((2, 3)), col_labels=["the", "cat", "the"])
    assert df.iloc[:, 0].tolist() == ["q0", "q1"]
    assert list(df.columns[1:]) == ["the", "cat", "the (2)"]
    assert df["the (2)"].tolist() == [0.0, 0.0]


def test_matrix_table_errors():
    with pytest.raises(ValueError, match="row_labels has 1 labels but the matrix has 2"):
        T.matrix_table(np.zeros((2, 2)), row_labels=["a"])
    with pytest.raises(ValueError, match="col_labels has 3 labels"):
        T.matrix_table(np.zeros((2, 2)), col_labels=["a", "b", "c"])
    with pytest.raises(ValueError, match="must be 2-D"):
        T.matrix_table(np.zeros(3))
    with pytest.raises(ValueError, match="decimals"):
        T.matrix_table(np.zeros((2, 2)), decimals=-1)


def test_shapes_table_from_d2l_shape_check():
    # D2L: num_hiddens=100, num_heads=5, batch 2, 4 queries, 6 key-value pairs -> (2, 4, 100).
    steps = T.multihead_shape_steps(2, 4, 6, num_hiddens=100, num_heads=5)
    df = T.shapes_table(steps)
    assert list(df.columns) == ["step", "shape", "elements"]
    assert df["shape"].iloc[-1] == "(2, 4, 100)"
    assert dict(steps)["split Q into heads"] == (2, 5, 4, 20)
    assert dict(steps)["scores Q Kᵀ / √d_k"] == (2, 5, 4, 6)
    assert df["elements"].tolist() == [int(np.prod(s)) for _, s in steps]


def test_shapes_steps_agree_with_torch_reshapes():
    # Paper notes: seq 100, batch 32, d 512, h 8 -> D2L's per-head (256, 100, 64) = (B·h, n, d_k).
    steps = dict(T.multihead_shape_steps(32, 100, 100, num_hiddens=512, num_heads=8))
    x = torch.zeros(32, 100, 512)  # (B, n, H)
    split = x.view(32, 100, 8, 64).transpose(1, 2)  # (B, h, n, d_k)
    assert steps["split Q into heads"] == tuple(split.shape)
    assert tuple(split.reshape(-1, 100, 64).shape) == (256, 100, 64)
    assert steps["concatenate heads"] == tuple(split.transpose(1, 2).reshape(32, 100, 512).shape)


def test_shapes_table_accepts_tensors_and_rejects_bad_steps():
    df = T.shapes_table([("x", torch.zeros(2, 3)), ("y", (4,))], lang="zh")
    assert df.values.tolist() == [["x", "(2, 3)", 6], ["y", "(4)", 4]]
    assert list(df.columns) == ["步骤", "形状", "元素个数"]
    with pytest.raises(ValueError, match="pair"):
        T.shapes_table([("x",)])
    with pytest.raises(ValueError, match="sizes >= 0"):
        T.shapes_table([("x", (2, -1))])
    with pytest.raises(ValueError, match="divisible"):
        T.multihead_shape_steps(1, 2, 2, num_hiddens=10, num_heads=3)


def test_positional_frame_is_long_format():
    table = np.arange(12.0).reshape(4, 3)  # (T, d)
    df = T.positional_frame(table, dims=(2, 0))
    assert df["dimension"].tolist() == [2] * 4 + [0] * 4
    assert df["position"].tolist() == [0, 1, 2, 3] * 2
    assert df["value"].tolist() == [2.0, 5.0, 8.0, 11.0, 0.0, 3.0, 6.0, 9.0]
    with pytest.raises(ValueError, match="from 0 to 2"):
        T.positional_frame(table, dims=(True,))


@pytest.mark.parametrize(("code", "key"), [("en", "en"), ("zh", "zh"), ("zh_CN", "zh"),
                                           ("zh-CN", "zh"), ("EN-us", "en")])
def test_language_codes(code, key):
    assert T.normalise_lang(code) == key


def test_every_word_is_translated():
    # A Chinese entry equal to the English one is an untranslated copy.
    untranslated = [k for k, en in T.TEXT["en"].items() if not T.TEXT["zh"][k] or T.TEXT["zh"][k] == en]
    assert untranslated == []
    assert T.word("train_step", "zh-CN") == "训练步数"


def test_log_log_slope_and_timing_slopes():
    assert T.log_log_slope([10, 100], [3.0, 3000.0]) == pytest.approx(3.0)
    assert np.isnan(T.log_log_slope([10, 10], [1.0, 2.0]))
    n = np.array([256, 1024])
    # NOTES.md's measurement: naive attention 261 -> 4049 ms (x16 = quadratic), GRU 173 -> 675 ms.
    df = pd.DataFrame({"layer": ["naive", "naive", "gru", "gru", "gru"],
                       "n": [*n, *n, 512], "d": 128, "ms": [261, 4049, 173, 675, 340]})
    slopes = T.timing_slopes(df)
    assert slopes["layer"].tolist() == ["naive", "gru"]
    assert slopes["slope"].iloc[0] == pytest.approx(np.log2(4049 / 261) / 2)
    assert 1.8 < slopes["slope"].iloc[0] < 2.1 and 0.9 < slopes["slope"].iloc[1] < 1.1
    with pytest.raises(ValueError, match="lacks columns"):
        T.timing_slopes(df.drop(columns="d"))


def test_history_frame_widens_train_py_history():
    rows = [("train", 1, 2.0, 1e-3), ("train", 2, 1.5, 1e-3), ("eval", 2, 1.7, 1e-3),
            ("train", 3, 1.0, 1e-3)]
    long = pd.DataFrame(rows, columns=["phase", "step", "loss", "lr"])
    long["token_acc"] = [0.1, 0.2, 0.55, 0.3]  # train rows: batch scores, dropped
    long["exact_acc"], long["seconds"], long["decoded"] = 0.0, 1.0, False
    wide = T.history_frame(long)
    assert wide["step"].tolist() == [1, 2, 3]
    assert wide["loss"].tolist() == [2.0, 1.5, 1.0]
    np.testing.assert_array_equal(wide["eval_loss"], [np.nan, 1.7, np.nan])
    np.testing.assert_array_equal(wide["token_accuracy"], [np.nan, 0.55, np.nan])
    assert "token_acc" not in wide and "phase" not in wide
    already = wide.drop(columns="decoded")
    assert T.history_frame(already) is already  # a wide table passes through
    with pytest.raises(TypeError, match="pandas DataFrame"):
        T.history_frame([1, 2])
