"""Text of the Train page and its runs: statuses, kept-run labels, queue lines (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    # The score column of the kept-runs table: "exact 0.990 · token 0.998".
    "kept.exact": "exact",
    "kept.token": "token",
    # Above the live curves until the first evaluation has measured the accuracies.
    "train.acc_wait": ("*Accuracy panels appear after the first evaluation, at step {every}: "
                       "until then only the training loss is measured.*"),
}

ZH: dict[str, str] = {
    "kept.exact": "完全匹配",
    "kept.token": "词元准确率",
    "train.acc_wait": "*准确率图在第一次评估（第 {every} 步）之后出现；在此之前只测量训练损失。*",
}
