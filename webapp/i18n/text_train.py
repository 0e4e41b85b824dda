"""Text of the Train page and its runs: statuses, kept-run labels, queue lines (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    "pred.right": "✓",
    "pred.wrong": "✗",
    # A held-out target with a French word the model never saw in training: it cannot be right.
    "pred.unreachable": "✗ (target word not in the vocabulary)",
    # Under the held-out figures: the predictions table's rows are some of those sentences.
    "cap.table_rows": (
        "The table below shows the first {shown} of those {n_known} sentences, judged by the "
        "same rule (right = the prediction equals the reference exactly): {right} of {shown} "
        "right here, {kexact:.1%} over all {n_known}; {unk} of the shown targets use a French "
        "word the model never saw in training, so they cannot be right."
    ),
    # The score column of the kept-runs table: "exact 0.990 · token 0.998".
    "kept.exact": "exact",
    "kept.stop_flag": "stopped at {step}",
    "kept.diverged": "diverged at {step}",
    "kept.token": "token",
    # Above the live curves until the first evaluation has measured the accuracies.
    "train.acc_wait": ("*Accuracy panels appear after the first evaluation, at step {every}: "
                       "until then only the training loss is measured.*"),
    # Legend names of the two loss lines: what each is measured on, and how. The solid line is
    # the loss the optimiser sees (dropout and label smoothing as the run has them); the dashed
    # one is a check in evaluation mode, with neither.
    "curve.train.both": "training loss (dropout and label smoothing on)",
    "curve.train.dropout": "training loss (dropout on)",
    "curve.train.smoothing": "training loss (label smoothing on)",
    "curve.train.none": "training loss",
    "curve.check.translate": "loss on {n:,} training pairs (no dropout, no smoothing)",
    "curve.on_training_pairs": "{metric} (on training pairs, not held-out sentences)",
    "curve.check.toy": "loss on {n:,} validation sequences (no dropout, no smoothing)",
    # The same, short, after a kept run's name in the comparison's legend.
    "curve.check_short.translate": "loss on training pairs, eval mode",
    "curve.check_short.toy": "loss on validation sequences, eval mode",
    # Under the curves at the end of a run whose two loss lines differ by construction.
    "cap.loss_gap.both": (
        "**Why is the dashed line lower?** The solid line ({train:.2f}) is measured while "
        "training, with label smoothing and with dropout switching units off; the dashed line "
        "({check:.2f}) is measured in evaluation mode, without either. Label smoothing alone "
        "keeps the training loss above {floor:.2f}, even for a perfect model."
    ),
    "cap.loss_gap.dropout": (
        "**Why is the dashed line lower?** The solid line ({train:.2f}) is measured while "
        "training, with dropout switching units off; the dashed line ({check:.2f}) is measured "
        "in evaluation mode, without dropout."
    ),
    "cap.loss_gap.smoothing": (
        "**Why is the dashed line lower?** The solid line ({train:.2f}) is measured with label "
        "smoothing, the dashed line ({check:.2f}) without it. Label smoothing alone keeps the "
        "training loss above {floor:.2f}, even for a perfect model."
    ),
    # The snapshot slider counts snapshots; the caption under the map names the training step.
    "train.snap_label": "Attention snapshot (0 = before training)",
    "cap.snap_at": (
        "Snapshot at step {step} of {total} (slider {index}/{last}, held-out example 0): drag "
        "the slider to watch the pattern form."
    ),
    "cap.snap_final": (
        "Snapshot at step {step} of {total} (slider {index}/{last}): the trained model. Drag "
        "the slider to the left to watch the pattern form."
    ),
}

ZH: dict[str, str] = {
    # CJK fonts (WenQuanYi) draw ✓ like a square-root sign: a word says it plainly
    "pred.right": "对",
    "pred.wrong": "错",
    "pred.unreachable": "错（目标含词表外的词）",
    "cap.table_rows": (
        "下表列出这 {n_known} 句中的前 {shown} 句，判定规则相同（预测与参考译文完全一致才算对）："
        "这里 {shown} 句中对了 {right} 句，全部 {n_known} 句的完全匹配率为 {kexact:.1%}；"
        "所列目标中有 {unk} 句含有模型训练时从未见过的法语单词，因此不可能译对。"
    ),
    "kept.exact": "完全匹配",
    "kept.stop_flag": "在第 {step} 步停止",
    "kept.diverged": "在第 {step} 步发散",
    "kept.token": "词元准确率",
    "train.acc_wait": "*准确率图在第一次评估（第 {every} 步）之后出现；在此之前只测量训练损失。*",
    "curve.train.both": "训练损失（开启 Dropout 和标签平滑）",
    "curve.train.dropout": "训练损失（开启 Dropout）",
    "curve.train.smoothing": "训练损失（开启标签平滑）",
    "curve.train.none": "训练损失",
    "curve.check.translate": "{n} 个训练句对上的损失（无 Dropout，无标签平滑）",
    "curve.on_training_pairs": "{metric}（在训练句对上，不是留出句子）",
    "curve.check.toy": "{n} 个验证序列上的损失（无 Dropout，无标签平滑）",
    "curve.check_short.translate": "训练句对上的损失（评估模式）",
    "curve.check_short.toy": "验证序列上的损失（评估模式）",
    "cap.loss_gap.both": (
        "**为什么虚线更低**？实线（{train:.2f}）是在训练中测的，带标签平滑，Dropout 还随机关掉一些单元；"
        "虚线（{check:.2f}）是在评估模式下测的，两者都没有。单是标签平滑就让训练损失不低于 {floor:.2f}，"
        "即使模型完美无缺。"
    ),
    "cap.loss_gap.dropout": (
        "**为什么虚线更低**？实线（{train:.2f}）是在训练中测的，Dropout 随机关掉一些单元；"
        "虚线（{check:.2f}）是在评估模式下测的，没有 Dropout。"
    ),
    "cap.loss_gap.smoothing": (
        "**为什么虚线更低**？实线（{train:.2f}）带标签平滑，虚线（{check:.2f}）不带。"
        "单是标签平滑就让训练损失不低于 {floor:.2f}，即使模型完美无缺。"
    ),
    "train.snap_label": "注意力快照（0 = 训练之前）",
    "cap.snap_at": "第 {step} 步（共 {total} 步）的快照（滑块 {index}/{last}，留出样例 0）：拖动滑块，观察模式如何形成。",
    "cap.snap_final": "第 {step} 步（共 {total} 步）的快照（滑块 {index}/{last}）：训练好的模型。把滑块向左拖，观察模式如何形成。",
}
