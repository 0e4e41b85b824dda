"""Interface text in English and Simplified Chinese, keyed for gr.I18n."""

EN: dict[str, str] = {
    "app.title": "# Transformer Lab\nLearn attention by doing: change the inputs, watch the weights move.",
    "tab.basics": "Attention basics",
    "tab.pooling": "Attention pooling",
    "tab.multihead": "Multi-head explorer",
    "tab.positional": "Positional encoding",
    "tab.train": "Train",
    "tab.complexity": "Complexity",
    "tab.exercises": "Exercises",
    # Attention basics
    "basics.intro": (
        "Type Q, K and V (one row per line, numbers separated by spaces). The lesson's worked "
        "example is preloaded: its first context vector is `[5, 6, 7, 8]`, with or without ÷√d "
        "(its weights change, its output does not); q2's row is the one that shows the scaling."
    ),
    "basics.intro_random": (
        "Type Q, K and V (one row per line, numbers separated by spaces). These are random "
        "matrices (seed {seed}); press *Lesson example* for the lesson's worked example, whose "
        "first context vector is `[5, 6, 7, 8]`."
    ),
    "basics.q": "Q (queries, n × d)",
    "basics.k": "K (keys, m × d)",
    "basics.v": "V (values, m × d_v)",
    "basics.scoring": "Scoring function",
    "basics.dot": "Dot product",
    "basics.additive": "Additive (random W_q, W_k, w_v)",
    "basics.scale": "Divide by √d",
    "mask": "Mask",
    "mask.none": "None",
    "mask.valid": "Valid length",
    "mask.causal": "Causal",
    "valid_len": "Valid length (keys kept)",
    "seed": "Seed",
    "compute": "Compute",
    "randomise": "Randomise",
    "lesson": "Lesson example",
    "basics.shapes": "Shapes",
    "basics.weights": "Weights (softmax; each row sums to 1)",
    "basics.output": "Output = weights · V",
    "heatmap": "Attention weights",
    # Attention pooling
    "pooling.intro": (
        "Nadaraya–Watson regression is attention with a Gaussian kernel: each test point "
        "(query) averages the training targets (values), weighted by how close its x is to "
        "each training x (key). w multiplies the distance, so a larger w is a narrower kernel. "
        "Left: a fixed w. Right: w learned by SGD."
    ),
    "pooling.n": "Training points",
    "pooling.noise": "Noise σ",
    "pooling.w": "Fixed w (larger w = narrower kernel; non-parametric)",
    "pooling.steps": "SGD steps for the learned w",
    "pooling.lr": "Learning rate",
    "pooling.fixed": "Non-parametric (fixed w)",
    "pooling.learned": "Parametric (learned w)",
    "pooling.history": "Training of w (loss = mean squared error per point)",
    "pooling.fixed_title": "non-parametric, w = {w:g}",
    "pooling.learned_title": "learned w = {w:.3f}",
    # Multi-head
    "mh.intro": (
        "Self-attention over random tokens with a randomly initialised multi-head layer. Each "
        "head has its own projections, so each looks at the tokens in its own way. The model "
        "width must split evenly over the heads."
    ),
    "mh.embed": "embed_dim (width)",  # one line in a 390 px phone's field
    "mh.heads": "Heads",
    "mh.tokens": "Tokens",
    "mh.grid": "Weights per head",
    "mh.shapes": "Shape at each step",
    # Positional
    "pe.intro": (
        "Sinusoidal encoding: even dimensions hold sin(pos / 10000^(2i/d)), odd ones the cosine. "
        "Low dimensions change fast, high ones slowly, like the bits of a counter."
    ),
    "pe.length": "Length (positions)",
    "pe.d_model": "d_model (even)",
    "pe.dims": "Dimensions to plot (e.g. 0, 1, 4, 5)",
    "pe.show": "Show",
    "pe.table": "Your table: its first 5 positions × first 8 dimensions (d_model = 4 gives the "
                "lesson's worked table)",
    "pe.dim_col": "dim {j}",
    "pe.pos_row": "pos {i}",
    "pe.perm_title": "### Permutation experiment (exercise 2)",
    "pe.perm_intro": (
        "Five words A–E go through the same self-attention in three orders. The table gives, "
        "for each order, the largest difference between a word's output and that word's "
        "output in the order A B C D E. Without positional encoding it is zero (up to rounding): "
        "each word keeps its output and the rows are only permuted. With it, position changes "
        "the result."
    ),
    "pe.run_perm": "Run the experiment",
    "pe.perm_table": "Largest change of a word's output",
    # Train
    "train.intro": (
        "Train a small encoder–decoder Transformer on a toy task. Curves update while it trains; "
        "Stop ends the run and keeps what was learned so far."
    ),
    "train.task": "Task",
    "train.heads": "Heads",
    "train.d_model": "d_model",
    "train.layers": "Layers",
    "train.d_ff": "d_ff",
    "train.dropout": "Dropout",
    "train.pe": "Positional encoding",
    "train.steps": "Steps",
    "train.device": "Device",
    "train.start": "Train",
    "train.stop": "Stop",
    "train.curves": "Training curves",
    "train.status": "Status",
    "train.example": "Example (index in the held-out set)",
    "train.kind": "Attention",
    "train.maps": "Attention per layer × head",
    "train.preds": "Predictions vs targets",
    "train.show": "Show attention",
    "train.translate": "Translate",
    "train.sentence": "English sentence",
    "train.translation": "Translation",
    "train.alignment": "Alignment",
    "train.compare": "Keep this run for comparison",
    "train.compare_plot": "Kept runs side by side",
    "train.clear": "Clear kept runs",
    # Complexity
    "cx.intro": (
        "Time one layer of self-attention, a GRU and a 1-D convolution at growing sequence "
        "length n. On log-log axes the slope is the exponent: about 2 for self-attention "
        "(n² pairs), about 1 for the others."
    ),
    "cx.run": "Run the benchmark",
    "cx.sizes": "Sequence lengths",
    "cx.d": "Width d",
    "cx.plot": "Time vs n",
    "cx.table": "Per-layer complexity (from the paper)",
    "cx.measured": "Measured",
    "cx.ms": "ms",
    # Exercises
    "ex.intro": "Choose an exercise, read it, write your code (or upload a .py / .ipynb), then submit.",
    "ex.numbers_pending": "*(Your own numbers appear here once the page has loaded; if they do not, reload the page.)*",
    "ex.choose": "Exercise",
    "ex.statement": "Statement",
    "ex.code": "Your code",
    "ex.upload": "Upload a .py or .ipynb",
    "ex.examples": "Run public examples",
    "ex.submit": "Submit",
    "ex.reset": "Reset to starter",
    "ex.graded_elsewhere": "Your submission to “{title}” was graded: {score} / {max}. Open that "
                           "exercise or My progress to see its tests.",
    "ex.score": "Score",
    "ex.tests": "Tests",
    "ex.unavailable": "The grader is not available in this build yet.",
    "ex.answer": "Your answer",
    "ex.check": "Check / reveal",
}

ZH: dict[str, str] = {
    "app.title": "# Transformer 实验室\n动手学注意力：改变输入，看权重如何变化。",
    "tab.basics": "注意力基础",
    "tab.pooling": "注意力汇聚",
    "tab.multihead": "多头注意力",
    "tab.positional": "位置编码",
    "tab.train": "训练",
    "tab.complexity": "复杂度",
    "tab.exercises": "练习",
    "basics.intro": (
        "输入 Q、K、V（每行一个向量，数字用空格分隔）。已预先填入课程中的例子：第一个词的上下文"
        "向量是 `[5, 6, 7, 8]`，除不除以 √d 都一样（权重变了，输出不变）；能看出缩放的是 q2 这一行。"
    ),
    "basics.intro_random": (
        "输入 Q、K、V（每行一个向量，数字用空格分隔）。现在显示的是随机矩阵（种子 {seed}）；按“课程例子”"
        "可回到课程中的例子，其第一个词的上下文向量是 `[5, 6, 7, 8]`。"
    ),
    "basics.q": "Q（查询，n × d）",
    "basics.k": "K（键，m × d）",
    "basics.v": "V（值，m × d_v）",
    "basics.scoring": "评分函数",
    "basics.dot": "点积",
    "basics.additive": "加性（随机的 W_q、W_k、w_v）",
    "basics.scale": "除以 √d",
    "mask": "掩码",
    "mask.none": "无",
    "mask.valid": "有效长度",
    "mask.causal": "因果",
    "valid_len": "有效长度（保留的键数）",
    "seed": "随机种子",
    "compute": "计算",
    "randomise": "随机生成",
    "lesson": "课程例子",
    "basics.shapes": "形状",
    "basics.weights": "权重（softmax 之后，每行和为 1）",
    "basics.output": "输出 = 权重 · V",
    "heatmap": "注意力权重",
    "pooling.intro": (
        "Nadaraya–Watson 回归就是用高斯核做注意力：每个测试点（查询）按照它的 x 与各个训练点 x（键）"
        "的距离，对训练目标（值）做加权平均。w 乘在距离上，所以 w 越大，核越窄。左：固定的 w；"
        "右：用 SGD 学习 w。"
    ),
    "pooling.n": "训练点数",
    "pooling.noise": "噪声 σ",
    "pooling.w": "固定的 w（w 越大核越窄；非参数）",
    "pooling.steps": "学习 w 的 SGD 步数",
    "pooling.lr": "学习率",
    "pooling.fixed": "非参数（固定 w）",
    "pooling.learned": "带参数（学习 w）",
    "pooling.history": "w 的训练过程（损失 = 每个点的均方误差）",
    "pooling.fixed_title": "非参数，w = {w:g}",
    "pooling.learned_title": "学习得到的 w = {w:.3f}",
    "mh.intro": (
        "对随机词元做自注意力，多头层随机初始化。每个头有自己的投影矩阵，所以各自以不同方式"
        "看待这些词元。模型宽度必须能被头数整除。"
    ),
    "mh.embed": "embed_dim（宽度）",
    "mh.heads": "头数",
    "mh.tokens": "词元数",
    "mh.grid": "每个头的权重",
    "mh.shapes": "每一步的形状",
    "pe.intro": (
        "正弦位置编码：偶数维是 sin(pos / 10000^(2i/d))，奇数维是对应的余弦。低维变化快，高维变化慢，"
        "就像二进制计数器的各个位。"
    ),
    "pe.length": "长度（位置数）",
    "pe.d_model": "d_model（偶数）",
    "pe.dims": "要画的维度（例如 0, 1, 4, 5）",
    "pe.show": "显示",
    "pe.table": "你的表：前 5 个位置 × 前 8 维（d_model = 4 时就是课程中的那张表）",
    "pe.dim_col": "第 {j} 维",
    "pe.pos_row": "位置 {i}",
    "pe.perm_title": "### 置换实验（练习 2）",
    "pe.perm_intro": (
        "五个词 A–E 以三种顺序输入同一个自注意力层。表中给出每种顺序下，某个词的输出与它在"
        "A B C D E 顺序下输出之间的最大差异。没有位置编码时差异为零（仅有舍入误差）：每个词的输出"
        "不变，只是行的顺序随输入一起置换。加上位置编码后，位置会改变结果。"
    ),
    "pe.run_perm": "运行实验",
    "pe.perm_table": "一个词的输出的最大变化",
    "train.intro": "在玩具任务上训练一个小型编码器–解码器 Transformer。训练时曲线实时更新；“停止”会结束训练并保留已学到的内容。",
    "train.task": "任务",
    "train.heads": "头数",
    "train.d_model": "d_model",
    "train.layers": "层数",
    "train.d_ff": "d_ff",
    "train.dropout": "Dropout",
    "train.pe": "位置编码",
    "train.steps": "步数",
    "train.device": "设备",
    "train.start": "训练",
    "train.stop": "停止",
    "train.curves": "训练曲线",
    "train.status": "状态",
    "train.example": "样例（留出集中的序号）",
    "train.kind": "注意力类型",
    "train.maps": "每层 × 每头的注意力",
    "train.preds": "预测与目标",
    "train.show": "显示注意力",
    "train.translate": "翻译",
    "train.sentence": "英文句子",
    "train.translation": "译文",
    "train.alignment": "对齐",
    "train.compare": "保留这次训练用于比较",
    "train.compare_plot": "保留的训练并排比较",
    "train.clear": "清除保留的训练",
    "cx.intro": (
        "在不同序列长度 n 下，测量一层自注意力、GRU 和一维卷积的耗时。在双对数坐标中，斜率就是"
        "指数：自注意力约为 2（n² 个词对），其它两种约为 1。"
    ),
    "cx.run": "运行基准测试",
    "cx.sizes": "序列长度",
    "cx.d": "宽度 d",
    "cx.plot": "耗时与 n",
    "cx.table": "每层复杂度（来自论文）",
    "cx.measured": "实测",
    "cx.ms": "毫秒",
    "ex.intro": "选择一个练习，阅读题目，编写代码（或上传 .py / .ipynb 文件），然后提交。",
    "ex.numbers_pending": "*（页面加载完成后，这里会显示你自己的数字；如果没有显示，请刷新页面。）*",
    "ex.choose": "练习",
    "ex.statement": "题目",
    "ex.code": "你的代码",
    "ex.upload": "上传 .py 或 .ipynb 文件",
    "ex.examples": "运行公开样例",
    "ex.submit": "提交",
    "ex.reset": "恢复初始代码",
    "ex.graded_elsewhere": "你提交的“{title}”已评分：{score} / {max}。打开该练习或“我的进度”查看各项测试。",
    "ex.score": "得分",
    "ex.tests": "测试",
    "ex.unavailable": "此版本暂时无法使用评分器。",
    "ex.answer": "你的答案",
    "ex.check": "检查 / 解析",
}
