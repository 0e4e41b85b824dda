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
    # multi-head explorer, source = the model trained on the Train page
    "mh.intro.trained": (
        "**Heads of the model you trained on the Train page:** {model} on *{task}*, "
        "{steps} training steps, **{layers} × {heads}** (layers × heads). The tokens are real: "
        "held-out example 0, input `{src}`, and the model's own output `{out}`. A random layer's "
        "settings (width, tokens, mask, seed) do not apply to a trained model; choose which "
        "attention to look at instead."
    ),
    "mh.intro.trained_short": (
        "**Heads of the model you trained on the Train page** ({model}, *{task}*), on the real "
        "tokens of a held-out example."
    ),
    "mh.intro.no_run": (
        "**No trained model yet.** Train one on the Train page (a short *reverse* run is "
        "enough), then come back: its layers × heads appear here on real tokens."
    ),
    # Gradio's own screen-reader status (its frontend asks for these keys and ships no text for
    # them: a screen reader read "common.complete" aloud); gr.I18n hands them to the frontend.
    "common.complete": "Done",
    "common.error": "Error",
    "status.queue_position": "In the queue: position {position} of {size}",
    # the header of a group of warning toasts (Gradio writes "Warning" itself: see app.py)
    "toast.kind.warning": "Warning",
}

ZH: dict[str, str] = {
    "bx.caption.dot": (
        "**看点**：每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。这里 Q 和 K 有 d = {d} "
        "列，所以“除以 √d”把分数除以 √{d} {eq} {root}：取消勾选，分数变为 {root} 倍，softmax 更尖锐。"
        "d 很大时，不缩放的点积会让 softmax 饱和、梯度消失（课程：忘记 1/√d_k 是常见错误）。"
    ),
    "bx.caption.d1": (
        "**看点**：每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。这里 Q 和 K 只有 d = 1 "
        "列，所以 √d = 1，“除以 √d”不改变任何结果：给 Q 和 K 多加几列，就能看到缩放的作用（课程：d "
        "很大时，不缩放的点积会让 softmax 饱和、梯度消失）。"
    ),
    "bx.caption.additive": (
        "**看点**：每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。加性评分把 q 和 k "
        "送进一个小网络（W_q q + W_k k → tanh → w_v），所以 Q 和 K 的宽度可以不同（这里是 {d} 和 "
        "{d_k}），也就没有需要除以的 √d。"
    ),
    "mh.intro.trained": (
        "**你在“训练”页训练的模型的各个头**：{model}，任务 *{task}*，训练 {steps} 步，"
        "**{layers} × {heads}**（层 × 头）。词元是真实的：留出样例 0，输入 `{src}`，模型自己的输出 "
        "`{out}`。随机层的设置（宽度、词元数、掩码、种子）不适用于训练好的模型；请改为选择要查看的注意力。"
    ),
    "mh.intro.trained_short": "**你在“训练”页训练的模型的各个头**（{model}，*{task}*），使用一个留出样例的真实词元。",
    "mh.intro.no_run": (
        "**还没有训练好的模型**。先在“训练”页训练一个（一次简短的*反转*训练就够了），再回到这里："
        "它的各层 × 各头会在真实词元上显示出来。"
    ),
    "common.complete": "完成",
    "common.error": "出错",
    "status.queue_position": "排队中：第 {position} 位，共 {size} 位",
    "toast.kind.warning": "注意",
}
