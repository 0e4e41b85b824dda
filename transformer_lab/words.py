"""The library's catalogue: every learner-facing word its tables and figures show, in English
and Simplified Chinese (plotly figures and DataFrames are built on the server, so Gradio's i18n
cannot translate them: callers pass ``lang``). The only module of ``transformer_lab`` that
holds Chinese text (tests/test_text_catalogues.py); it imports nothing but the Message type.
"""

from __future__ import annotations

from transformer_lab.message import Message

# Learner-facing words, English and Simplified Chinese. Plotly figures and DataFrames are built
# here, not in the browser, so Gradio's i18n cannot translate them: callers pass `lang`.
WORDS: dict[str, Message] = {  # key: Message(English, 简体中文)
    "query": Message("query", "查询"),
    "key": Message("key", "键"),
    "weight": Message("weight", "权重"),
    "corner": Message("query \\ key", "查询 \\ 键"),
    "corner_out": Message("query \\ output dimension", "查询 \\ 输出维度"),
    "corner_pos": Message("position \\ dimension", "位置 \\ 维度"),
    "layer": Message("layer", "层"),
    "head": Message("head", "头"),
    "position": Message("position", "位置"),
    "dimension": Message("dimension", "维度"),
    "value": Message("value", "值"),
    "step": Message("step", "步骤"),
    "train_step": Message("training step", "训练步数"),
    "shape": Message("shape", "形状"),
    "elements": Message("elements", "元素个数"),
    "per_layer": Message("complexity per layer", "每层计算复杂度"),
    "sequential": Message("sequential operations", "顺序操作数"),
    "path": Message("maximum path length", "最大路径长度"),
    "self-attention": Message("self-attention", "自注意力"),
    "recurrent": Message("recurrent", "循环（RNN）"),
    "convolutional": Message("convolutional", "卷积（CNN）"),
    "restricted self-attention": Message("restricted self-attention", "受限自注意力"),
    "attention": Message("attention weights", "注意力权重"),
    "layer_head": Message("layer {layer} · head {head}", "第 {layer} 层 · 第 {head} 头"),
    "pe_title": Message("sinusoidal positional encoding", "正弦位置编码"),
    "pe_curves": Message("positional encoding over positions", "位置编码随位置的变化"),
    "dim_n": Message("dim {dim}", "第 {dim} 维"),
    "curves": Message("training curves", "训练曲线"),
    "loss": Message("loss", "损失"),
    "eval_loss": Message("eval loss", "评估损失（eval 模式）"),
    "token_accuracy": Message("token accuracy", "词元准确率"),
    "exact_match": Message("exact match", "完全匹配率"),
    "lr": Message("learning rate", "学习率"),
    "seconds": Message("seconds", "秒"),
    "decoded": Message("decoded (free-running)", "自由解码结果"),
    "kernel": Message("attention pooling (Nadaraya–Watson)", "注意力汇聚（Nadaraya–Watson）"),
    "fit": Message("fit", "拟合"),
    "truth": Message("truth", "真实函数"),
    "prediction": Message("prediction", "预测"),
    "train_points": Message("training points", "训练样本"),
    "train_sorted": Message("x of the training points", "训练样本的 x"),
    "test_sorted": Message("x of the test points", "测试点的 x"),
    "alignment": Message("alignment (cross-attention)", "对齐（交叉注意力）"),
    "source": Message("source", "源序列"),
    "output": Message("output", "输出序列"),
    "complexity": Message("time per layer vs sequence length", "每层耗时与序列长度"),
    "n": Message("sequence length n", "序列长度 n"),
    "ms": Message("time (ms)", "耗时（毫秒）"),
    "slope": Message("slope", "斜率"),
}

SHAPE_STEPS = [  # the steps of multi-head attention, in order
    Message("queries X_q", "查询 X_q"), Message("project Q = X_q W_q", "投影 Q = X_q W_q"),
    Message("project K = X_k W_k, V = X_v W_v", "投影 K = X_k W_k, V = X_v W_v"),
    Message("split Q into heads", "把 Q 拆成多个头"), Message("split K, V into heads", "把 K、V 拆成多个头"),
    Message("scores Q Kᵀ / √d_k", "打分 Q Kᵀ / √d_k"),
    Message("attend: softmax(scores) V", "注意力：softmax(分数) V"),
    Message("concatenate heads", "拼接各个头"), Message("project output W_o", "输出投影 W_o"),
]

# Layer names as bench.bench_complexity writes them, in English and Chinese (no full-width
# bracket at the end: the legend and the caption put " · 斜率" or a number after a name).
LAYER_NAMES = {"self-attention": ("self-attention", "自注意力"),
                "recurrent (GRU)": ("recurrent (GRU)", "循环层 GRU"),
                "convolutional (k=3)": ("convolutional (k=3)", "卷积层 k=3")}
