"""Text of the playground's explorers: Basics, Multi-head, Positional (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    # basics: the caption follows the learner's Q and K ({d} = their width, {root} = √d)
    "bx.caption.dot": (
        "**What to notice:** each row of weights sums to 1, so the output row is a weighted "
        "average of V's rows. Here Q and K have d = {d} columns, so *Divide by √d* divides the "
        "scores by √{d} {eq} {root}: untick it and the scores grow {root}× and the softmax gets "
        "sharper. With large d, unscaled dot products saturate softmax and its gradients vanish "
        "(lesson: the common mistake of forgetting 1/√d_k)."
    ),
    "bx.caption.d1": (
        "**What to notice:** each row of weights sums to 1, so the output row is a weighted "
        "average of V's rows. Here Q and K have d = 1 column, so √d = 1 and *Divide by √d* "
        "changes nothing: give Q and K more columns to see the scaling matter (lesson: with "
        "large d, unscaled dot products saturate softmax and its gradients vanish)."
    ),
    "bx.caption.additive": (
        "**What to notice:** each row of weights sums to 1, so the output row is a weighted "
        "average of V's rows. Additive scoring sends q and k through a small network "
        "(W_q q + W_k k → tanh → w_v), so Q and K may have different widths ({d} and {d_k} "
        "here) and there is no √d to divide by."
    ),
}

ZH: dict[str, str] = {
    "bx.caption.dot": (
        "**看点：** 每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。这里 Q 和 K 有 d = {d} "
        "列，所以“除以 √d”把分数除以 √{d} {eq} {root}：取消勾选，分数变为 {root} 倍，softmax 更尖锐。"
        "d 很大时，不缩放的点积会让 softmax 饱和、梯度消失（课程：忘记 1/√d_k 是常见错误）。"
    ),
    "bx.caption.d1": (
        "**看点：** 每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。这里 Q 和 K 只有 d = 1 "
        "列，所以 √d = 1，“除以 √d”不改变任何结果：给 Q 和 K 多加几列，就能看到缩放的作用（课程：d "
        "很大时，不缩放的点积会让 softmax 饱和、梯度消失）。"
    ),
    "bx.caption.additive": (
        "**看点：** 每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。加性评分把 q 和 k "
        "送进一个小网络（W_q q + W_k k → tanh → w_v），所以 Q 和 K 的宽度可以不同（这里是 {d} 和 "
        "{d_k}），也就没有需要除以的 √d。"
    ),
}
