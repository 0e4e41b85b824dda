"""Text of the playground's explorers: Basics, Multi-head, Positional (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    # basics: the caption follows the learner's Q and K ({d} = their width, {root} = √d), the
    # "Divide by √d" tickbox and the mask; it is built from a first sentence and one per setting
    "bx.caption.rows": (
        "**What to notice:** each row of weights sums to 1, so the output row is a weighted "
        "average of V's rows."
    ),
    "bx.caption.dot": (
        "Here Q and K have d = {d} columns, so *Divide by √d* divides the scores by √{d} {eq} "
        "{root}: untick it and the scores grow {root}× and the softmax gets sharper. With large "
        "d, unscaled dot products saturate softmax and its gradients vanish (lesson: the common "
        "mistake of forgetting 1/√d_k)."
    ),
    "bx.caption.moves": (
        " Ticking or unticking it moves output row {row} most: {with_} with ÷√d, {without} "
        "without."
    ),
    "bx.caption.still": (
        " Row {rows} keeps the same output although its weights change, so it cannot tell a "
        "scaled answer from an unscaled one: to check ÷√d, look at row {row}."
    ),
    "bx.caption.dot_off": (
        "*Divide by √d* is off: these scores are the raw dot products Q·Kᵀ, {root}× the scaled "
        "ones (d = {d}, √{d} {eq} {root}), so the softmax is sharper than with the tick. With large "
        "d, unscaled dot products saturate softmax and its gradients vanish: this is the lesson's "
        "common mistake of forgetting 1/√d_k. Tick it again to divide by √{d}."
    ),
    "bx.caption.d1": (
        "Here Q and K have d = 1 column, so √d = 1 and *Divide by √d* changes nothing, ticked or "
        "not: give Q and K more columns to see the scaling matter (lesson: with large d, unscaled "
        "dot products saturate softmax and its gradients vanish)."
    ),
    "bx.caption.additive": (
        "Additive scoring sends q and k through a small network (W_q q + W_k k → tanh → w_v), so "
        "Q and K may have different widths ({d} and {d_k} here) and there is no √d to divide by: "
        "*Divide by √d* does nothing here."
    ),
    "bx.caption.valid": (
        "The valid-length mask keeps the first {valid} of the {m} keys: the other keys get "
        "weight 0 (grey) and their scores read −∞, and each row's remaining weights still sum to 1."
    ),
    "bx.caption.causal": (
        "The causal mask lets query i see keys 0 … i only: the cells above the diagonal get "
        "weight 0 (grey) and their scores read −∞, so q0 puts all its weight on k0."
    ),
    # the scores table says what it holds (step 1 of the steps below is the raw Q·Kᵀ)
    "bx.scores.scaled": "Scores after ÷√d (before softmax)",
    "bx.scores.raw": "Scores Q·Kᵀ, not divided by √d (before softmax)",
    "bx.scores.additive": "Scores of the additive network (before softmax)",
    "bx.scores.masked": "{label}; masked keys read −∞",
    # the step-by-step view follows dot-product scoring; with additive scoring its panels hide
    "bx.steps_additive": (
        "### Step by step\nThe step-by-step view follows dot-product scoring (Q·Kᵀ, ÷√d, mask, "
        "softmax, weights·V): choose *Dot product* to see it. Additive scoring's own scores are "
        "in the scores table above."
    ),
    # positional: dimensions of "Dimensions to plot" that the chosen d_model does not have
    "pe.dims_dropped": (
        "Not plotted: {dropped} from *Dimensions to plot*, since d_model = {d} has dimensions "
        "0 to {last} only. Plotted: {kept}."
    ),
    # pooling with 0 SGD steps: the learned w is still its random starting value
    "pool.caption_no_steps": (
        "**No SGD step taken** (steps = 0): the learned w is its starting value w = {w0}, drawn "
        "at random for this seed, and the chart below shows only the starting loss {loss}. Add "
        "steps to watch w being learned."
    ),
    "pool.no_step_note": "steps = 0: no SGD step taken, only the starting point",
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
    # the status line beside it: a state to act on, not an input error
    "mh.status.no_run": "No trained model yet: train one on the Train page, then come back.",
    "mh.big_title": "Enlarged head ({head})",  # {head} = "layer · head"
    # Gradio's own screen-reader status (its frontend asks for these keys and ships no text for
    # them: a screen reader read "common.complete" aloud); gr.I18n hands them to the frontend.
    "common.complete": "Done",
    "common.error": "Error",
    "status.queue_position": "In the queue: position {position} of {size}",
    # the header of a group of warning toasts (Gradio writes "Warning" itself: see app.py)
    "toast.kind.warning": "Warning",
}

ZH: dict[str, str] = {
    "bx.caption.rows": "**看点**：每一行权重之和为 1，所以输出的每一行是 V 各行的加权平均。",
    "bx.caption.dot": (
        "这里 Q 和 K 有 d = {d} 列，所以“除以 √d”把分数除以 √{d} {eq} {root}：取消勾选，分数变为 "
        "{root} 倍，softmax 更尖锐。d 很大时，不缩放的点积会让 softmax 饱和、梯度消失（课程：忘记 "
        "1/√d_k 是常见错误）。"
    ),
    "bx.caption.moves": "勾选或取消“除以 √d”时，输出变化最大的是 {row} 这一行：除以 √d 时为 {with_}，不除时为 {without}。",
    "bx.caption.still": (
        "{rows} 这一行的权重虽然变了，输出却不变，所以它分辨不出是否除以了 √d：要检查缩放，请看 {row} 这一行。"
    ),
    "bx.caption.dot_off": (
        "“除以 √d”已取消：这些分数是原始点积 Q·Kᵀ，是缩放后的 {root} 倍（d = {d}，√{d} {eq} "
        "{root}），所以 softmax 比勾选时更尖锐。d 很大时，不缩放的点积会让 softmax 饱和、梯度消失："
        "这正是课程里忘记 1/√d_k 的常见错误。重新勾选即可除以 √{d}。"
    ),
    "bx.caption.d1": (
        "这里 Q 和 K 只有 d = 1 列，所以 √d = 1，无论是否勾选，“除以 √d”都不改变任何结果：给 Q 和 K "
        "多加几列，就能看到缩放的作用（课程：d 很大时，不缩放的点积会让 softmax 饱和、梯度消失）。"
    ),
    "bx.caption.additive": (
        "加性评分把 q 和 k 送进一个小网络（W_q q + W_k k → tanh → w_v），所以 Q 和 K 的宽度可以不同"
        "（这里是 {d} 和 {d_k}），也就没有需要除以的 √d：“除以 √d”在这里不起作用。"
    ),
    "bx.caption.valid": (
        "有效长度掩码保留 {m} 个键中的前 {valid} 个：其余的键权重为 0（灰色），分数记为 −∞，"
        "每一行剩下的权重之和仍为 1。"
    ),
    "bx.caption.causal": (
        "因果掩码让查询 i 只看键 0 … i：对角线以上的格子权重为 0（灰色），分数记为 −∞，所以 q0 "
        "把全部权重放在 k0 上。"
    ),
    "bx.scores.scaled": "分数（除以 √d 之后，softmax 之前）",
    "bx.scores.raw": "分数 Q·Kᵀ（未除以 √d，softmax 之前）",
    "bx.scores.additive": "加性网络的分数（softmax 之前）",
    "bx.scores.masked": "{label}；被掩码的键记为 −∞",
    "bx.steps_additive": (
        "### 分步计算\n分步视图按点积评分展示（Q·Kᵀ、除以 √d、掩码、softmax、权重·V）：选择“点积”"
        "即可看到。加性评分自己的分数在上面的分数表中。"
    ),
    "pe.dims_dropped": (
        "未画出：“要画的维度”中的 {dropped}，因为 d_model = {d} 只有维度 0 到 {last}。已画出：{kept}。"
    ),
    "pool.caption_no_steps": (
        "**没有进行 SGD 更新**（步数 = 0）：学习得到的 w 就是它的初始值 w = {w0}（按这个随机种子随机抽取），"
        "下面的图只显示初始损失 {loss}。增加步数，就能看到 w 是怎样学出来的。"
    ),
    "pool.no_step_note": "步数 = 0：没有进行 SGD 更新，只有起点",
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
    "mh.status.no_run": "还没有训练好的模型：先在“训练”页训练一个，再回到这里。",
    "mh.big_title": "放大的头（{head}）",
    "common.complete": "完成",
    "common.error": "出错",
    "status.queue_position": "排队中：第 {position} 位，共 {size} 位",
    "toast.kind.warning": "注意",
}
