"""Playground text added for issue 11 (captions, options, statuses, errors), English and Chinese.

webapp.i18n merges EN_LAB / ZH_LAB with the other parts; input errors are keyed in text_errors.py.
"""

from __future__ import annotations

EN_LAB: dict[str, str] = {
    # options
    "task.copy": "copy", "task.reverse": "reverse", "task.sort": "sort", "task.translate": "translate EN→FR",
    "pe.sinusoidal": "sinusoidal", "pe.learned": "learned", "pe.none": "none",
    "kind.encoder_self": "encoder self-attention", "kind.decoder_self": "decoder self-attention",
    "kind.cross": "cross-attention",
    "model.transformer": "Transformer", "model.bahdanau": "Bahdanau (GRU + additive attention)",
    "train.model": "Model",
    "train.vocab": "Vocabulary: the English words the model knows",
    "train.compare_table": "Kept runs",
    "stale": "◷ The settings changed: the result below is from the previous settings. Press the button to recompute.",
    # captions (teaching moments)
    "cap.reverse": (
        "**What to notice:** reversing means output token *i* copies input token *n − i*, so "
        "cross-attention forms an **anti-diagonal** (top-right to bottom-left). Each output "
        "step looks up the one source position it needs: attention is a learned lookup."
    ),
    "cap.copy": (
        "**What to notice:** copying makes cross-attention a **diagonal**: output token *i* "
        "looks at input token *i*."
    ),
    "cap.sort": (
        "**What to notice:** sorting does not depend on where a symbol stands, only on its "
        "value, so cross-attention jumps to wherever the next smallest symbol is."
    ),
    "cap.nope": (
        "**No positional encoding:** self-attention sees its input as a set. A query cannot tell "
        "position 2 from position 7, so the weights depend only on which tokens are present: "
        "equal tokens get equal columns and the map shows **vertical stripes**. The model can "
        "still sort (order does not matter) but cannot reverse (lesson: order-blind model)."
    ),
    "cap.translate": (
        "**What to notice:** each French word attends mostly to the English word it translates; "
        "word order is close in these sentences, so the map is near-diagonal."
    ),
    "cap.gap": (
        "**Why two accuracies?** During training the decoder is fed the *correct* previous "
        "token (teacher forcing): token accuracy {train:.3f}. Decoding on its own it feeds back "
        "its *own* guesses, so one early mistake derails the rest: {decoded:.3f}. Only the "
        "free-running number says how well the model really works."
    ),
    "cap.gap_close": (
        "**Why two accuracies?** During training the decoder is fed the *correct* previous "
        "token (teacher forcing): token accuracy {train:.3f}. Decoding on its own it feeds back "
        "its *own* guesses: {decoded:.3f}. Here they agree: its guesses are right, so no early "
        "mistake derails the rest. When the two part, only the free-running number says how "
        "well the model really works."
    ),
    "cap.translate_honest": (
        "**Held-out sentences** (never seen in training, {n} of them): sacreBLEU {bleu:.1f}, "
        "D2L BLEU {d2l:.3f}, exact match {exact:.1%}. On the {n_known} whose words are all in "
        "the vocabulary: sacreBLEU {kbleu:.1f}, exact match {kexact:.1%}. The vocabulary covers "
        "{share:.1%} of held-out words; an unknown word reads as `<unk>`. The curves above are "
        "measured on training pairs: they show memorisation, these numbers show translation."
    ),
    "train.seen.train": "this sentence is a training pair: a score here only shows memorisation",
    "train.seen.heldout": "this sentence is held out: the model never saw it in training",
    "train.seen.new": "this sentence is not in the corpus: there is no reference to score against",
    # whole lines, so Chinese gets full-width colons; corpus.line brings its own space (none in zh)
    "train.reference_line": "reference: {reference} · BLEU (D2L, k=2): {bleu:.3f}",
    "train.unknown_line": "⚠️ unknown words (read as `<unk>`): {words}",
    "train.read_as": "read as the training sentences are written (lower case, a space before "
                     "punctuation, a final “.”): `{sentence}`",
    "train.need_model": "train a model first",
    "train.need_translate": "train a model on the 'translate EN→FR' task first",
    "status.training": "Training: step {step} / {total} · {elapsed:.0f} s · about {eta:.0f} s left",
    "status.done": (
        "**Done**: {steps} steps in {seconds} s on {device} ({reason}); {model}, {params:,} "
        "parameters. Check on unseen sequences (greedy decoding): exact match {exact:.3f}, "
        "token accuracy {tok:.3f}."
    ),
    "status.done_translate": (
        "**Done**: {steps} steps in {seconds} s on {device} ({reason}); {model}, {params:,} "
        "parameters."
    ),
    "reason.max_steps": "all steps done", "reason.target": "reached the target accuracy",
    "reason.stop_flag": "stopped by you", "reason.diverged": "the loss diverged",
    "reason.callback": "stopped", "training": "training",
    "cols.source": "source", "cols.target": "target", "cols.prediction": "prediction",
    "cols.ok": "right?", "cols.run": "run", "cols.model": "model", "cols.params": "parameters",
    "cols.steps": "steps", "cols.seconds": "seconds", "cols.score": "score on unseen data",
    "cols.order": "order", "cols.no_pe": "without PE", "cols.pe": "with PE",
    "cols.layer": "layer", "cols.step": "step", "cols.loss": "loss", "cols.w": "w",
    # basics
    "bx.scores": "scores", "bx.weights": "weights", "bx.output": "output",
    "bx.heat_title": "Attention weights (grey = masked key)",
    "bx.steps_title": (
        "### Step by step\nOne attention computation in five steps. Hover over a cell to see "
        "the terms that made it; hidden keys are grey and read −∞."
    ),
    "bx.step.scores": "1 · Q·Kᵀ", "bx.step.scaled": "2 · ÷ √d", "bx.step.masked": "3 · mask",
    "bx.step.unscaled": "2 · not ÷ √d",
    "bx.step.weights": "4 · softmax", "bx.step.output": "5 · weights·V",
    # pooling
    "pool.caption": (
        "**What to notice:** a learned w fits the *training* points. With leave-one-out keys "
        "w still grows large in a few steps (here {w0} → {w1}): the kernel becomes narrow, the "
        "curve follows the noise and the attention rows turn into spikes. That is overfitting; "
        "a fixed, smaller w (a wider kernel) gives a smoother curve."
    ),
    "pool.curve_title": "Training loss of w (mean squared error)",
    # multi-head
    "mh.source": "Where the heads come from",
    "mh.source.random": "random layer, random tokens",
    "mh.source.trained": "the model trained on the Train page",
    "mh.thumbs": "All heads (click a head to enlarge)",
    "mh.big": "Enlarged head",
    "mh.pick": "Head to enlarge (layer · head)",
    "mh.trained_caption": (
        "**Heads of your trained model** ({task}, {kind}) on held-out example 0. {heads}"
    ),
    # How different the heads' maps are, measured (total variation between two heads' rows).
    "mh.heads_alike": (
        "Its heads attend alike here: two heads of a layer differ on {mean}% of their weight on "
        "average (0% = the same map), so they have not specialised (yet). Train longer or with "
        "another seed and compare again."
    ),
    "mh.heads_differ": (
        "Its heads attend differently: two heads of a layer differ on {mean}% of their weight on "
        "average (0% = the same map); most of all layer {layer} · heads {a} and {b} ({most}%). "
        "Compare which keys each one looks at."
    ),
    # One layer with one head (a Bahdanau model, or a Transformer of 1 layer × 1 head).
    "mh.trained_caption.one": (
        "**The one attention head of your trained model** ({task}, {kind}) on held-out example "
        "0. With a single head there is nothing to compare: read which source words each output "
        "step looks at. Train a Transformer with several heads to see heads specialise."
    ),
    "mh.random_caption": (
        "**A random, untrained layer:** every head looks alike, pale and unfocused. Train a "
        "model on the Train page and switch the source to see heads that specialise."
    ),
    "mh.need_model": "train a model on the Train page first, then choose it here",
    # positional
    "pe.caption": (
        "**What to notice:** the left columns (low dimensions) change quickly and the right "
        "ones slowly, like the bits of a binary counter; every position gets its own pattern."
    ),
    "pe.perm_caption": (
        "**Exercise 2:** without positional encoding the differences are ~0: self-attention "
        "is permutation-equivariant, so each word keeps its output whatever its place. With it, "
        "the same word at another place gets another output."
    ),
    # complexity
    "cx.caption": "**Slope** on log-log axes = the exponent of n: about 2 for self-attention, about 1 for the others.",
    "cx.first": "Measured once when this server started (sizes 128, 256, 512, 1024; d = 64).",
    "cx.slopes": "Slopes",
    "cap.bahdanau": (
        "**Bahdanau attention** (the lessons' seq2seq): one additive attention per output step; "
        "the query is the decoder GRU's previous state, the keys and values are the encoder's "
        "states. There is no self-attention and a single head. Keep a Transformer run and a "
        "Bahdanau run on the same task to compare their curves, sizes and scores side by side."
    ),
    "cap.untrained_task": (
        "**Before training:** a freshly initialised model on a held-out example of this task "
        "({task}). Its attention is spread out and means nothing yet; press Train and watch it "
        "take shape (the slider replays the snapshots)."
    ),
    "cap.untrained": (
        "**Before training:** a freshly initialised model on a held-out reversal example. Its "
        "attention is spread out and means nothing yet; press Train and watch an "
        "anti-diagonal form (the slider replays the snapshots)."
    ),
    "corpus": "Corpus", "corpus.bundled": "the bundled EN→FR pairs", "corpus.line": " Corpus: {name}.",
    "corpus.tatoeba": "D2L's Tatoeba fra-eng", "corpus.fallback": "Tatoeba could not be downloaded",
    "toast": "Please check",
    "error.generic": "⚠️ Something went wrong on our side; the error was logged.",
    # Train before its first run: placeholders instead of empty plots and tables
    "train.curves_hint": (
        "*No run yet.* Press **Train**: the loss and accuracy curves appear here from the first "
        "step, with the step count and the time left."
    ),
    "train.preds_hint": "*The model's predictions on held-out examples appear here when a run ends.*",
    # Complexity: a caption computed from the measurement shown
    "cx.slope_of": "{name} **{slope:.2f}** (theory {theory:g})",
    "cx.measured_how": (
        "**Measured on this server** (median of {repeats} interleaved runs; batch 8, d = {d}, "
        "forward pass, CPU threads: {threads}; other work on the machine adds noise). Log-log slopes: "
        "{slopes}."
    ),
    "cx.agrees": "Each slope is within 0.35 of the theory's exponent of n.",
    "cx.departs": (
        "Here {names} departs from the theory by more than 0.35: at small n fixed per-call costs "
        "flatten a line, and a busy machine bends it. The last doubling (n {a} → {b}) is the most "
        "telling: self-attention's time grew ×{ratio:.1f} (theory ×{theory:g})."
    ),
}

ZH_LAB: dict[str, str] = {
    "task.copy": "复制", "task.reverse": "反转", "task.sort": "排序", "task.translate": "英译法",
    "pe.sinusoidal": "正弦", "pe.learned": "可学习", "pe.none": "无",
    "kind.encoder_self": "编码器自注意力", "kind.decoder_self": "解码器自注意力",
    "kind.cross": "交叉注意力",
    "model.transformer": "Transformer", "model.bahdanau": "Bahdanau（GRU + 加性注意力）",
    "train.model": "模型",
    "train.vocab": "词表：模型认识的英文单词",
    "train.compare_table": "保留的训练",
    "stale": "◷ 设置已改变：下面的结果来自之前的设置。请点击按钮重新计算。",
    "cap.reverse": (
        "**看点**：反转时，第 i 个输出词复制第 n − i 个输入词，所以交叉注意力呈**反对角线**"
        "（从右上到左下）。每一步输出都去查找它需要的那个源位置：注意力就是一种学出来的查找。"
    ),
    "cap.copy": "**看点**：复制任务中交叉注意力是一条**对角线**：第 i 个输出词看第 i 个输入词。",
    "cap.sort": "**看点**：排序与符号所在的位置无关，只与它的值有关，所以交叉注意力跳到下一个最小符号所在的地方。",
    "cap.nope": (
        "**没有位置编码**：自注意力把输入当作一个集合。查询分不清位置 2 和位置 7，权重只取决于出现了"
        "哪些词元：相同的词元得到相同的列，热力图呈现**竖条纹**。模型仍然能排序（顺序无关），却学不会"
        "反转（课程：对顺序不敏感的模型）。"
    ),
    "cap.translate": "**看点**：每个法语词主要关注它所翻译的英语词；这些句子的语序相近，所以图接近对角线。",
    "cap.gap": (
        "**为什么有两个准确率**？训练时解码器得到的是正确的前一个词（教师强制）：词元准确率 "
        "{train:.3f}。独立解码时它把自己的猜测送回去，一个早期错误会带偏后面所有的词：{decoded:.3f}。"
        "只有独立解码的数字才说明模型真正的水平。"
    ),
    "cap.gap_close": (
        "**为什么有两个准确率**？训练时解码器得到的是正确的前一个词（教师强制）：词元准确率 "
        "{train:.3f}。独立解码时它把自己的猜测送回去：{decoded:.3f}。这里两者一致：它的猜测是对的，"
        "所以没有早期错误带偏后面的词。两者分开时，只有独立解码的数字才说明模型真正的水平。"
    ),
    "cap.translate_honest": (
        "**留出的句子**（训练中从未见过，共 {n} 句）：sacreBLEU {bleu:.1f}，D2L BLEU {d2l:.3f}，"
        "完全匹配 {exact:.1%}。其中所有单词都在词表里的 {n_known} 句：sacreBLEU {kbleu:.1f}，"
        "完全匹配 {kexact:.1%}。词表覆盖了留出句子中 {share:.1%} 的单词；不认识的单词读作 `<unk>`。"
        "上面的曲线是在训练句对上测的：它们说明模型记住了多少，这里的数字才说明它会不会翻译。"
    ),
    "train.seen.train": "这句话是训练数据：这里的得分只说明模型记住了它",
    "train.seen.heldout": "这句话是留出数据：模型在训练中从未见过它",
    "train.seen.new": "这句话不在语料中：没有参考译文可以打分",
    "train.reference_line": "参考译文：{reference} · BLEU（D2L，k=2）：{bleu:.3f}",
    "train.unknown_line": "⚠️ 不认识的单词（读作 `<unk>`）：{words}",
    "train.read_as": "按训练句子的写法读入（小写、标点前加空格、句末加句点 `.`）：`{sentence}`",
    "train.need_model": "请先训练一个模型",
    "train.need_translate": "请先在“英译法”任务上训练一个模型",
    "status.training": "训练中：第 {step} / {total} 步 · 已用 {elapsed:.0f} 秒 · 约剩 {eta:.0f} 秒",
    "status.done": (
        "**完成**：{steps} 步，用时 {seconds} 秒（{device}，{reason}）；{model}，{params:,} 个参数。"
        "在未见过的序列上检查（贪心解码）：完全匹配 {exact:.3f}，词元准确率 {tok:.3f}。"
    ),
    "status.done_translate": "**完成**：{steps} 步，用时 {seconds} 秒（{device}，{reason}）；{model}，{params:,} 个参数。",
    "reason.max_steps": "已跑完全部步数", "reason.target": "已达到目标准确率",
    "reason.stop_flag": "已手动停止", "reason.diverged": "损失发散", "reason.callback": "已停止",
    "training": "训练中",
    "cols.source": "输入", "cols.target": "目标", "cols.prediction": "预测", "cols.ok": "正确？",
    "cols.run": "训练", "cols.model": "模型", "cols.params": "参数量", "cols.steps": "步数",
    "cols.seconds": "秒", "cols.score": "未见数据上的得分",
    "cols.order": "顺序", "cols.no_pe": "无位置编码", "cols.pe": "有位置编码",
    "cols.layer": "层", "cols.step": "步", "cols.loss": "损失", "cols.w": "w",
    "bx.scores": "分数", "bx.weights": "权重", "bx.output": "输出",
    "bx.heat_title": "注意力权重（灰色 = 被掩码的键）",
    "bx.steps_title": "### 分步计算\n把一次注意力计算分成五步。把鼠标移到格子上，可以看到它是由哪些项算出来的；被隐藏的键显示为灰色，值为 −∞。",
    "bx.step.scores": "1 · Q·Kᵀ", "bx.step.scaled": "2 · ÷ √d", "bx.step.masked": "3 · 掩码",
    "bx.step.unscaled": "2 · 不除以 √d",
    "bx.step.weights": "4 · softmax", "bx.step.output": "5 · 权重·V",
    "pool.caption": (
        "**看点**：学习得到的 w 拟合的是训练点。即使用留一法的键，w 也会在几步之内变得很大"
        "（这里 {w0} → {w1}）：核变窄，曲线跟着噪声走，注意力的每一行变成尖峰。这就是过拟合；"
        "固定的、较小的 w（更宽的核）给出更平滑的曲线。"
    ),
    "pool.curve_title": "w 的训练损失（均方误差）",
    "mh.source": "头来自哪里",
    "mh.source.random": "随机层、随机词元",
    "mh.source.trained": "在“训练”页训练的模型",
    "mh.thumbs": "所有的头（点击一个头放大）",
    "mh.big": "放大的头",
    "mh.pick": "要放大的头（层 · 头）",
    "mh.trained_caption": "**你训练的模型的各个头**（{task}，{kind}），使用留出样例 0。{heads}",
    "mh.heads_alike": (
        "这里各个头的关注方式相近：同一层的两个头平均只有 {mean}% 的权重不同（0% 表示完全相同），"
        "所以它们（还）没有分工。可以训练更久或换一个随机种子再比较。"
    ),
    "mh.heads_differ": (
        "这里各个头的关注方式不同：同一层的两个头平均有 {mean}% 的权重不同（0% 表示完全相同）；"
        "差别最大的是第 {layer} 层的头 {a} 和头 {b}（{most}%）。比较每个头关注哪些键。"
    ),
    "mh.trained_caption.one": (
        "**你训练的模型唯一的注意力头**（{task}，{kind}），使用留出样例 0。只有一个头，就没有可比较的分工："
        "看看每一步输出关注哪些源词。训练一个多头的 Transformer，就能看到各个头如何分工。"
    ),
    "mh.random_caption": "**随机、未训练的层**：每个头看起来都差不多，颜色浅而分散。在“训练”页训练一个模型，再把来源切换过来，就能看到分工的头。",
    "mh.need_model": "请先在“训练”页训练一个模型，再在这里选择它",
    "pe.caption": "**看点**：左边的列（低维）变化快，右边的列变化慢，就像二进制计数器的各个位；每个位置都有自己独特的模式。",
    "pe.perm_caption": "**练习 2**：没有位置编码时差异约为 0：自注意力对置换是等变的，每个词无论在哪个位置，输出都不变。加上位置编码后，同一个词换了位置就得到不同的输出。",
    "cx.caption": "双对数坐标中的**斜率** = n 的指数：自注意力约为 2，其它约为 1。",
    "cx.first": "服务器启动时测量了一次（长度 128、256、512、1024；d = 64）。",
    "cx.slopes": "斜率",
    "cap.bahdanau": (
        "**Bahdanau 注意力**（课程中的 seq2seq）：每一步输出做一次加性注意力；查询是解码器 GRU 的上一个"
        "状态，键和值是编码器的各个状态。它没有自注意力，只有一个头。在同一任务上各保留一次 Transformer "
        "和 Bahdanau 的训练，就能并排比较它们的曲线、参数量和得分。"
    ),
    "cap.untrained_task": (
        "**训练之前**：一个刚初始化的模型在本任务（{task}）的一个留出样例上的注意力。它分散开来，"
        "还没有任何意义；点击“训练”，看它如何成形（滑块可以回放各个快照）。"
    ),
    "cap.untrained": (
        "**训练之前**：一个刚初始化的模型在一个留出的反转样例上的注意力。它分散开来，还没有任何意义；"
        "点击“训练”，看反对角线如何形成（滑块可以回放各个快照）。"
    ),
    "corpus": "语料", "corpus.bundled": "内置的英法句对", "corpus.line": "语料：{name}。",
    "corpus.tatoeba": "D2L 的 Tatoeba fra-eng", "corpus.fallback": "无法下载 Tatoeba",
    "toast": "请检查输入",
    "error.generic": "⚠️ 服务器出了点问题，错误已记录。",
    "train.curves_hint": "*还没有训练*。点击**训练**：损失和准确率曲线会从第一步起显示在这里，并附上步数和剩余时间。",
    "train.preds_hint": "*训练结束后，模型在留出样例上的预测会显示在这里。*",
    "cx.slope_of": "{name} **{slope:.2f}**（理论值 {theory:g}）",
    "cx.measured_how": (
        "**在本服务器上实测**（交错运行 {repeats} 次取中位数；批大小 8，d = {d}，只算前向，处理器线程数 {threads}；"
        "机器上的其它任务会带来噪声）。双对数斜率：{slopes}。"
    ),
    "cx.agrees": "每条线的斜率与理论上 n 的指数相差都不超过 0.35。",
    "cx.departs": (
        "这里{names}与理论相差超过 0.35：n 较小时每次调用的固定开销会让曲线变平，机器繁忙也会让它弯曲。"
        "最后一次翻倍（n 从 {a} 到 {b}）最能说明问题：自注意力的耗时增长了 {ratio:.1f} 倍（理论为 {theory:g} 倍）。"
    ),
}
