"""Learner input errors in Chinese: each English ValueError a page raises, matched by pattern and
rewritten with its numbers and names (the app raises English; a Chinese page shows this)."""

from __future__ import annotations

import re

# Learner input errors seen on the playground pages, as (pattern, Chinese template). The
# groups of the English message fill the template, so numbers and names carry over.
ERRORS_ZH: list[tuple[str, str]] = [
    (r"^submission #(\d+) is not in your history\.?$", r"第 \1 号提交不在你的历史记录中。"),
    (r"^choose a submission: click its row in your history, or type its number\.?$",
     r"请选择一个提交：点击历史记录中的那一行，或输入它的编号。"),
    (r"^choose a submission number from your history, not '(.+?)'\.?$",
     r"请从你的历史记录中选择一个提交编号，而不是“\1”。"),
    (r"^choose a submission number from your history, not (.+?)\.?$",
     r"请从你的历史记录中选择一个提交编号，而不是 \1。"),
    (r"^this browser has no history yet: reload the page, or sign in\.?$",
     "这个浏览器还没有历史记录：请刷新页面，或登录。"),
    (r"^(.+?) is empty: enter a whole number from (\S+) to (\S+)\.?$", r"\1 为空：请输入 \2 到 \3 之间的整数。"),
    (r"^(.+?) must be a whole number, got (.+?)\.?$", r"\1 必须是整数，收到的是 \2。"),
    (r"^(.+?) must lie between (\S+) and (\S+), got (.+?)\.?$", r"\1 必须在 \2 到 \3 之间，收到的是 \4。"),
    (r"^(.+?) must be a number, got (.+?)\.?$", r"\1 必须是数字，收到的是 \2。"),
    (r"^(.+?), row (\d+): (.+?) is not a number\..*$", r"\1 第 \2 行：\3 不是数字。请用空格分隔数字，每行一个向量。"),
    (r"^(.+?), row (\d+): (.+?) is not a finite number\.$", r"\1 第 \2 行：\3 不是有限的数。"),
    (r"^(.+?) is empty: type at least one row of numbers\.$", r"\1 为空：请至少输入一行数字。"),
    (r"^(.+?): row 1 has (\d+) numbers but row (\d+) has (\d+);.*$", r"\1：第 1 行有 \2 个数，第 \3 行却有 \4 个；每行的列数必须相同。"),
    (r"^(.+?) is (\d+) × (\d+); at most (\d+) × (\d+) fits on the page\.$", r"\1 是 \2 × \3；页面最多容纳 \4 × \5。"),
    (r"^K has (\d+) rows but V has (\d+):.*$", r"K 有 \1 行而 V 有 \2 行：每个键都需要恰好一个值。"),
    (r"^dot-product scoring needs queries and keys of the same width; Q has (\d+) columns and K has (\d+).*$",
     r"点积评分要求查询和键的宽度相同；Q 有 \1 列，K 有 \2 列（加性评分允许不同宽度）。"),
    (r"^a causal mask .* got (\d+) queries and (\d+) keys$", r"因果掩码让查询 i 只看键 0..i，所以查询数必须等于键数；现在有 \1 个查询和 \2 个键。"),
    (r"^the valid length must be a whole number from 1 to (\d+) .*, got nothing$",
     r"有效长度为空：请输入 1 到 \1 之间的整数（键的个数）。"),
    (r"^the valid length must be a whole number from 1 to (\d+) .*, got (.+)$",
     r"有效长度必须是 1 到 \1 之间的整数（键的个数），收到的是 \2。"),
    (r"^the valid length must be a whole number from 1 to (\d+).*$", r"有效长度必须是 1 到 \1 之间的整数（键的个数）。"),
    (r"^dimensions? (.+?) in 'Dimensions to plot' must lie between 0 and (\d+) \(below d_model = (\d+)\)$",
     r"“要画的维度”中的维度 \1 必须在 0 到 \2 之间（小于 d_model = \3）。"),
    (r"^.*?(?:embed_dim|d_model|num_hiddens)=(\d+) is not divisible by (?:heads|num_heads)=(\d+).*$",
     r"模型宽度 \1 不能被头数 \2 整除：请选择 \1 的约数作为头数。"),
    (r"^d_model must be even .*got (\d+)$", r"d_model 必须是偶数（每个正弦都和一个余弦配对），现在是 \1。"),
    (r"^choose at least one dimension to plot.*$", r"请至少选择一个要画的维度，例如 0, 1, 2, 3。"),
    (r"^plot at most 12 dimensions at once$", r"一次最多画 12 个维度。"),
    (r"^give at least two sequence lengths.*$", r"请至少给出两个序列长度，例如 64, 128, 256, 512。"),
    (r"^give at most (\d+) sequence lengths.*$", r"最多给出 \1 个序列长度，这样几秒钟就能跑完。"),
    (r"^sequence lengths must be whole numbers.*$", r"序列长度必须是整数。"),
    (r"^every sequence length must lie between 2 and (\d+)$", r"每个序列长度都必须在 2 到 \1 之间。"),
    (r"^(\w+) must be a whole number from (\S+) to (\S+), got (.+)$", r"\1 必须是 \2 到 \3 之间的整数，收到的是 \4。"),
    (r"^d_model must be even.*$", r"d_model 必须是偶数。"),
    (r"^.*sinusoidal.*even.*$", r"正弦位置编码要求 d_model 为偶数。"),
    (r"^the example index must lie between 0 and (\d+)$", r"样例序号必须在 0 到 \1 之间。"),
    (r"^the sentence is empty.*$", r"句子为空：请输入一个英文句子。"),
    (r"^unknown (\w+) .*$", r"未知的选项（\1）。"),
    (r"^train a model on the 'translate' task first$", r"请先在“英译法”任务上训练一个模型。"),
    (r"^train a model first$", r"请先训练一个模型。"),
    (r"^the (\w+) model has no (\w+) attention.*$", r"\1 模型没有这种注意力，请选择交叉注意力。"),
    (r"^translation needs a model trained on the 'translate' task$", r"翻译需要一个在“英译法”任务上训练的模型。"),
]
_COMPILED = [(re.compile(p, re.S), zh) for p, zh in ERRORS_ZH]
NAMES_ZH = {"training points": "训练点数", "noise": "噪声", "learning rate": "学习率",
            "steps": "步数", "seed": "随机种子", "valid length": "有效长度", "tokens": "词元数",
            "heads": "头数", "length": "长度", "dimension": "维度", "the width d": "宽度 d",
            "d": "宽度 d", "w": "w", "layers": "层数"}


def error_zh(text: str) -> str:
    """The Chinese sentence for an English input error; a generic one when none matches."""
    for pattern, template in _COMPILED:
        m = pattern.match(text.strip())
        if m:
            out = m.expand(template)
            for en, zh in sorted(NAMES_ZH.items(), key=lambda kv: -len(kv[0])):
                if out.startswith(en + " "):
                    out = zh + out[len(en):]
                    break
            return out
    return "请检查这一页的设置后再试。"  # message() puts "输入有误：" in front
