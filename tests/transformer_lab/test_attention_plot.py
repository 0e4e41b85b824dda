"""Tests for transformer_lab.attention_plot against numpy references and the lessons' numbers."""

import numpy as np
import plotly.graph_objects as go
import pytest
import torch

from transformer_lab import attention_plot as A

# Exercise 1 of the lesson: Q = K, scores Q Kᵀ / √4 and the published weights.
Q = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]], dtype=float)
LESSON_WEIGHTS = np.array(
    [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
)


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def heatmaps(fig):
    return [t for t in fig.data if isinstance(t, go.Heatmap)]


def test_heatmap_z_is_the_matrix_from_a_torch_tensor():
    # The weights come from torch (with grad, as out of a model); numpy gives the reference.
    scores = torch.tensor(Q @ Q.T / 2.0, requires_grad=True)
    weights = torch.softmax(scores, dim=-1)
    fig = A.attention_heatmap(weights, ["A", "B", "C"], ["A", "B", "C"])
    (trace,) = heatmaps(fig)
    z = np.asarray(trace.z)
    np.testing.assert_allclose(z, np_softmax(Q @ Q.T / 2.0), atol=1e-6)
    np.testing.assert_allclose(z, LESSON_WEIGHTS, atol=1e-4)
    assert (trace.zmin, trace.zmax) == (0.0, 1.0)


def test_heatmap_axes_carry_tokens_with_queries_top_to_bottom():
    q, k = ["the", "cat", "the", "<eos>"], ["<bos>", "a", "b"]
    w = np_softmax(np.arange(12.0).reshape(4, 3))
    fig = A.attention_heatmap(w, q, k)
    (trace,) = heatmaps(fig)
    # Repeated "the" must keep two rows: positions are integers, names are tick labels.
    assert list(trace.y) == [0, 1, 2, 3] and list(trace.x) == [0, 1, 2]
    assert list(fig.layout.yaxis.tickvals) == [0, 1, 2, 3]
    assert list(fig.layout.yaxis.ticktext) == ["the", "cat", "the", "&lt;eos&gt;"]
    assert list(fig.layout.xaxis.ticktext) == ["&lt;bos&gt;", "a", "b"]
    assert fig.layout.yaxis.autorange == "reversed"
    assert fig.layout.xaxis.title.text == "key" and fig.layout.yaxis.title.text == "query"


def test_heatmap_hover_names_query_key_and_weight():
    fig = A.attention_heatmap(LESSON_WEIGHTS, ["q1", "q2", "q3"], ["k1", "k2", "k3"])
    (trace,) = heatmaps(fig)
    text = np.asarray(trace.text)
    assert text.shape == (3, 3)
    assert "q2" in text[1, 0] and "k1" in text[1, 0] and "k3" not in text[1, 0]
    assert "%{z" in trace.hovertemplate and "weight" in trace.hovertemplate
    assert trace.texttemplate is None
    shown = heatmaps(A.attention_heatmap(LESSON_WEIGHTS, show_values=True))[0]
    assert shown.texttemplate == "%{z:.2f}"


def test_heatmap_chinese_labels():
    fig = A.attention_heatmap(LESSON_WEIGHTS, lang="zh-CN")
    assert fig.layout.xaxis.title.text == "键" and fig.layout.title.text == "注意力权重"
    # Plotly turns a y-axis title sideways ("查询" lay on its side): in Chinese the rows' name
    # sits level in the corner above the row labels instead
    assert fig.layout.yaxis.title.text is None
    corner = [a for a in fig.layout.annotations if "查询" in a.text]
    assert len(corner) == 1 and corner[0].textangle == 0
    assert (corner[0].xref, corner[0].x, corner[0].xanchor) == ("paper", 0, "right")
    assert (corner[0].yref, corner[0].y, corner[0].yanchor) == ("paper", 1, "bottom")
    aligned = A.alignment_heatmap(np.full((2, 3), 1 / 3), ["a", "b", "c"], ["x", "y"], lang="zh")
    assert [a.text for a in aligned.layout.annotations] == ["输出序列 ↓"]  # not "查询" as well


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"query_labels": ["a", "b"]}, ValueError, "query_labels has 2 labels"),
        ({"key_labels": ["a", "b", "c", "d"]}, ValueError, "key_labels has 4 labels"),
        ({"key_labels": "abc"}, TypeError, "not one string"),
        ({"lang": "fr"}, ValueError, "Unsupported language"),
    ],
)
def test_heatmap_rejects_bad_labels(kwargs, error, match):
    with pytest.raises(error, match=match):
        A.attention_heatmap(LESSON_WEIGHTS, **kwargs)


def test_heatmap_rejects_a_batch():
    with pytest.raises(ValueError, match="must be 2-D"):
        A.attention_heatmap(np.zeros((2, 3, 3)))
    with pytest.raises(TypeError, match="could not read"):
        A.attention_heatmap([["a", "b"]])


def test_grid_has_one_heatmap_per_layer_and_head_on_one_scale():
    rng = np.random.default_rng(0)
    maps = np_softmax(rng.normal(size=(2, 3, 4, 5)))  # (L, h, n, m)
    fig = A.attention_grid(torch.tensor(maps), list("abcd"), list("vwxyz"))
    traces = heatmaps(fig)
    assert len(traces) == 2 * 3
    for idx, trace in enumerate(traces):  # added layer by layer, head by head
        np.testing.assert_allclose(np.asarray(trace.z), maps[idx // 3, idx % 3], atol=1e-6)
        assert trace.coloraxis == "coloraxis"
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (0.0, 1.0)
    titles = [a.text for a in fig.layout.annotations]
    assert titles[0] == "layer 1 · head 1" and titles[-1] == "layer 2 · head 3"
    # Every panel's y axis is reversed so each panel reads like the single heatmap.
    yaxes = [fig.layout[f"yaxis{i}"] for i in ["", *range(2, 7)]]
    assert all(ax.autorange == "reversed" for ax in yaxes)


def test_grid_accepts_a_list_of_layers_and_auto_scale():
    rng = np.random.default_rng(1)
    layers = [np_softmax(rng.normal(size=(2, 3, 3))) for _ in range(3)]  # 3 x (h, n, m)
    fig = A.attention_grid(layers, zmax=None)
    assert len(heatmaps(fig)) == 6
    assert fig.layout.coloraxis.cmax == pytest.approx(max(a.max() for a in layers))


def test_grid_errors():
    with pytest.raises(ValueError, match="at most 8 layers x 8 heads"):
        A.attention_grid(np.zeros((9, 1, 2, 2)))
    with pytest.raises(ValueError, match=r"Pick one example first"):
        A.attention_grid([np.zeros((1, 2, 3, 3))])  # (B, h, n, m) straight from a model
    with pytest.raises(ValueError, match="same shape"):
        A.attention_grid([np.zeros((2, 3, 3)), np.zeros((2, 4, 4))])
    with pytest.raises(ValueError, match="key_labels has 2"):
        A.attention_grid(np.zeros((1, 1, 3, 3)), key_labels=["a", "b"])
    with pytest.raises(ValueError, match="empty"):
        A.attention_grid([])


def test_alignment_heatmap_labels_and_heads():
    rng = np.random.default_rng(2)
    cross = np_softmax(rng.normal(size=(2, 4, 3)))  # (h, T_out, S)
    src, out = ["go", ".", "<eos>"], ["va", "!", "<eos>", "x"]
    fig = A.alignment_heatmap(cross, src, out)
    (trace,) = heatmaps(fig)
    np.testing.assert_allclose(np.asarray(trace.z), cross.mean(axis=0))
    assert list(fig.layout.xaxis.ticktext) == ["go", ".", "&lt;eos&gt;"]
    assert fig.layout.xaxis.title.text == "source" and fig.layout.yaxis.title.text == "output"
    one = heatmaps(A.alignment_heatmap(cross, src, out, head=1))[0]
    np.testing.assert_allclose(np.asarray(one.z), cross[1])
    with pytest.raises(ValueError, match="head must be"):
        A.alignment_heatmap(cross, src, out, head=2)
    with pytest.raises(ValueError, match="query_labels has 3"):
        A.alignment_heatmap(cross, src, out[:3])


def test_grid_wraps_heads_for_a_narrow_screen():
    rng = np.random.default_rng(2)
    maps = np_softmax(rng.normal(size=(2, 3, 4, 4)))  # (L, h, n, m)
    fig = A.attention_grid(maps, cols=2)
    traces = heatmaps(fig)
    # still layer by layer, head by head: the k-th heatmap on axes x{k}/y{k} (click-to-enlarge)
    for idx, trace in enumerate(traces):
        np.testing.assert_allclose(np.asarray(trace.z), maps[idx // 3, idx % 3], atol=1e-6)
        assert trace.xaxis == ("x" if idx == 0 else f"x{idx + 1}")
    # two per row; each layer starts a row: rows (1·1, 1·2), (1·3), (2·1, 2·2), (2·3)
    tops = [fig.layout[f"yaxis{'' if i == 0 else i + 1}"].domain[1] for i in range(6)]
    assert tops[0] == tops[1] > tops[2] > tops[3] == tops[4] > tops[5]
    lefts = [fig.layout[f"xaxis{'' if i == 0 else i + 1}"].domain[0] for i in range(6)]
    assert lefts[0] == lefts[2] == lefts[3] == lefts[5] < lefts[1] == lefts[4]
    titles = [a.text for a in fig.layout.annotations]
    assert titles == [f"layer {i} · head {j}" for i in (1, 2) for j in (1, 2, 3)]
    with pytest.raises(ValueError, match="cols"):
        A.attention_grid(maps, cols=0)


def test_cols_asks_for_the_narrow_layout_even_when_every_head_fits_a_row():
    """A phone's two heads in one row: the colour bar goes beneath them, not beside (issue 26)."""
    maps = np_softmax(np.random.default_rng(3).normal(size=(1, 2, 4, 4)))  # (L, h, n, m)
    narrow, wide = A.attention_grid(maps, cols=2), A.attention_grid(maps)
    assert narrow.layout.coloraxis.colorbar.orientation == "h"
    assert wide.layout.coloraxis.colorbar.orientation is None
    assert narrow.layout.margin.l == 50 and wide.layout.margin.l is None
