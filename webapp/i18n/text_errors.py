"""Learner input errors by key (``error.<key>``) and the names their fields carry (``term.<name>``).

A raise site names its error and fields instead of writing a sentence: the library with
transformer_lab.errors.lab_error (its English templates live there and are copied here, one
source), the app with webapp.i18n.input_error (its English lives here). webapp.pages.common's
``message`` renders the key in the page's language with the same fields; a field that is a
``Term`` (a setting's name, an attention kind) is looked up under ``term.<name>`` too. Every
key has the same fields in both languages (tests/webapp/test_i18n.py, test_error_keys.py).
"""

from __future__ import annotations

from transformer_lab.errors import TEMPLATES

EN_APP = {
    # numbers typed into a box (webapp.compute.matrices.check_int / check_float)
    "error.int_empty": "{name} is empty: enter a whole number from {low} to {high}.",
    "error.int_not_whole": "{name} must be a whole number, got {value!r}.",
    "error.not_number": "{name} must be a number, got {value!r}.",
    "error.between": "{name} must lie between {low} and {high}, got {got}.",
    "error.between_plain": "{name} must lie between {low} and {high}, got {got}",
    "error.whole_from": "{name} must be a whole number from {low} to {high}, got {value!r}",
    # a matrix typed into Q, K or V (webapp.compute.matrices.parse_matrix)
    "error.matrix_not_number": "{name}, row {row}: {cell!r} is not a number. Write numbers "
                               "separated by spaces, one row per line.",
    "error.matrix_not_finite": "{name}, row {row}: {cell!r} is not a finite number.",
    "error.matrix_empty": "{name} is empty: type at least one row of numbers.",
    "error.matrix_ragged": "{name}: row 1 has {width} numbers but row {row} has {count}; every "
                           "row needs the same number of columns.",
    "error.matrix_too_big": "{name} is {rows} × {cols}; at most {side} × {side} fits on the page.",
    # Attention basics and Multi-head (webapp.compute.basics / explore)
    "error.kv_rows": "K has {k} rows but V has {v}: every key needs exactly one value",
    "error.dot_width": "dot-product scoring needs queries and keys of the same width; Q has {q} "
                       "columns and K has {k} (additive scoring allows different widths)",
    "error.causal_square": "a causal mask lets query i see keys 0..i, so it needs as many queries "
                           "as keys; got {n} queries and {m} keys",
    "error.valid_len_keys": "the valid length must be a whole number from 1 to {m} (the number "
                            "of keys), got {got}",
    "error.valid_len_keys_empty": "the valid length must be a whole number from 1 to {m} (the "
                                  "number of keys), got nothing",
    "error.valid_len": "the valid length must be a whole number from 1 to {n}",
    "error.unknown_pick": "unknown {what} {value!r}; choose {choices}",
    "error.unknown_value": "unknown {what} {value!r}",
    # Complexity and Positional encoding
    "error.sizes_too_few": "give at least two sequence lengths, e.g. 64, 128, 256, 512",
    "error.sizes_too_many": "give at most {n} sequence lengths, so the run takes seconds",
    "error.sizes_not_whole": "sequence lengths must be whole numbers, got {text!r}",
    "error.sizes_range": "every sequence length must lie between 2 and {high}",
    "error.dims_none": "choose at least one dimension to plot, e.g. 0, 1, 2, 3",
    "error.dims_too_many": "plot at most 12 dimensions at once",
    "error.dim_outside": "dimension {dims} in 'Dimensions to plot' must lie between 0 and {top} "
                         "(below d_model = {d_model})",
    "error.dims_outside": "dimensions {dims} in 'Dimensions to plot' must lie between 0 and "
                          "{top} (below d_model = {d_model})",
    "error.d_model_odd": "d_model must be even (each sine is paired with a cosine), got {d}",
    # Train and the trained model's attention
    "error.train_first": "train a model first",
    "error.train_translate_first": "train a model on the 'translate' task first",
    "error.no_attention": "the {model} model has no {kind} attention",
    "error.no_attention_choose": "the {model} model has no {kind} attention; choose {choices}",
    "error.example_index": "the example index must lie between 0 and {top}",
    "error.translate_needs_task": "translation needs a model trained on the 'translate' task",
    "error.translate_sentence_empty": "the sentence is empty: type an English sentence to translate",
    "error.translate_sentence_long": "the sentence has {got} characters; type one sentence of at most "
                                     "{most} (the model was trained on short sentences)",
    # My progress: reloading one of your submissions
    "error.history_none": "this browser has no history yet: reload the page, or sign in",
    "error.submission_choose": "choose a submission: click its row in your history, or type its "
                               "number",
    "error.submission_not_number_text": "choose a submission number from your history, not '{text}'",
    "error.submission_not_number": "choose a submission number from your history, not {shown}",
    "error.submission_not_yours": "submission #{number} is not in your history",
    # an input error that carries no key (its English is shown as it is)
    "error.unkeyed": "Please check this page's settings and try again.",
}

EN_TERMS = {
    "term.seed": "seed", "term.dimension": "dimension", "term.length": "length",
    "term.d_model": "d_model", "term.d_ff": "d_ff", "term.embed_dim": "embed_dim",
    "term.heads": "heads", "term.layers": "layers", "term.tokens": "tokens",
    "term.valid_length": "valid length", "term.steps": "steps", "term.noise": "noise",
    "term.w": "w", "term.learning_rate": "learning rate", "term.training_points": "training points",
    "term.n_training_points": "the number of training points", "term.d": "d",
    "term.width_d": "the width d",
    # attention kinds, as the Train page's code names them in English
    "term.encoder_self": "encoder_self", "term.decoder_self": "decoder_self", "term.cross": "cross",
}

EN = {**{f"error.{key}": text for key, text in TEMPLATES.items()}, **EN_APP, **EN_TERMS}

ZH = {
    # the library's errors (transformer_lab.errors.TEMPLATES)
    "error.unknown_choice": "未知的选项（{what}）：{value!r}；可选：{choices}。",
    "error.toy_unknown_kind": "未知的选项（toy task kind）：{value!r}；可选：{choices}。",
    "error.toy_unknown_symbols": "未知的符号 {symbols}；这个任务使用的符号：{allowed}。",
    "error.bench_unknown_sections": "未知的选项（bench section）：{sections}；可选：{choices}。",
    "error.heads_not_divisor": "模型宽度 {d_model} 不能被头数 {heads} 整除：请选择 {d_model} 的约数作为头数。",
    "error.sinusoidal_table_odd": "正弦位置编码要求 d_model 为偶数（且至少为 2），现在是 {d_model}。",
    "error.sinusoidal_pe_odd": "正弦位置编码要求 d_model 为偶数，现在是 {d_model}（或改用 pe='learned'）。",
    "error.sentence_empty": "句子为空：请输入一个英文句子。",
    # the app's
    "error.int_empty": "{name} 为空：请输入 {low} 到 {high} 之间的整数。",
    "error.int_not_whole": "{name} 必须是整数，收到的是 {value!r}。",
    "error.not_number": "{name} 必须是数字，收到的是 {value!r}。",
    "error.between": "{name} 必须在 {low} 到 {high} 之间，收到的是 {got}。",
    "error.between_plain": "{name} 必须在 {low} 到 {high} 之间，收到的是 {got}。",
    "error.whole_from": "{name} 必须是 {low} 到 {high} 之间的整数，收到的是 {value!r}。",
    "error.matrix_not_number": "{name} 第 {row} 行：{cell!r} 不是数字。请用空格分隔数字，每行一个向量。",
    "error.matrix_not_finite": "{name} 第 {row} 行：{cell!r} 不是有限的数。",
    "error.matrix_empty": "{name} 为空：请至少输入一行数字。",
    "error.matrix_ragged": "{name}：第 1 行有 {width} 个数，第 {row} 行却有 {count} 个；每行的列数必须相同。",
    "error.matrix_too_big": "{name} 是 {rows} × {cols}；页面最多容纳 {side} × {side}。",
    "error.kv_rows": "K 有 {k} 行而 V 有 {v} 行：每个键都需要恰好一个值。",
    "error.dot_width": "点积评分要求查询和键的宽度相同；Q 有 {q} 列，K 有 {k} 列（加性评分允许不同宽度）。",
    "error.causal_square": "因果掩码让查询 i 只看键 0..i，所以查询数必须等于键数；现在有 {n} 个查询和 {m} 个键。",
    "error.valid_len_keys": "有效长度必须是 1 到 {m} 之间的整数（键的个数），收到的是 {got}。",
    "error.valid_len_keys_empty": "有效长度为空：请输入 1 到 {m} 之间的整数（键的个数）。",
    "error.valid_len": "有效长度必须是 1 到 {n} 之间的整数（键的个数）。",
    "error.unknown_pick": "未知的选项（{what}）：{value!r}；可选：{choices}。",
    "error.unknown_value": "未知的选项（{what}）：{value!r}。",
    "error.sizes_too_few": "请至少给出两个序列长度，例如 64, 128, 256, 512。",
    "error.sizes_too_many": "最多给出 {n} 个序列长度，这样几秒钟就能跑完。",
    "error.sizes_not_whole": "序列长度必须是整数，收到的是 {text!r}。",
    "error.sizes_range": "每个序列长度都必须在 2 到 {high} 之间。",
    "error.dims_none": "请至少选择一个要画的维度，例如 0, 1, 2, 3。",
    "error.dims_too_many": "一次最多画 12 个维度。",
    "error.dim_outside": "“要画的维度”中的维度 {dims} 必须在 0 到 {top} 之间（小于 d_model = {d_model}）。",
    "error.dims_outside": "“要画的维度”中的维度 {dims} 必须在 0 到 {top} 之间（小于 d_model = {d_model}）。",
    "error.d_model_odd": "d_model 必须是偶数（每个正弦都和一个余弦配对），现在是 {d}。",
    "error.train_first": "请先训练一个模型。",
    "error.train_translate_first": "请先在“英译法”任务上训练一个模型。",
    "error.no_attention": "{model} 模型没有{kind}，请选择交叉注意力。",
    "error.no_attention_choose": "{model} 模型没有{kind}，请选择{choices}。",
    "error.example_index": "样例序号必须在 0 到 {top} 之间。",
    "error.translate_needs_task": "翻译需要一个在“英译法”任务上训练的模型。",
    "error.translate_sentence_empty": "句子为空：请输入一个英文句子。",
    "error.translate_sentence_long": "句子有 {got} 个字符；请输入一个不超过 {most} 个字符的句子（模型是在短句上训练的）。",
    "error.history_none": "这个浏览器还没有历史记录：请刷新页面，或登录。",
    "error.submission_choose": "请选择一个提交：点击历史记录中的那一行，或输入它的编号。",
    "error.submission_not_number_text": "请从你的历史记录中选择一个提交编号，而不是“{text}”。",
    "error.submission_not_number": "请从你的历史记录中选择一个提交编号，而不是 {shown}。",
    "error.submission_not_yours": "第 {number} 号提交不在你的历史记录中。",
    "error.unkeyed": "请检查这一页的设置后再试。",  # message() puts "输入有误：" in front
    # names
    "term.seed": "随机种子", "term.dimension": "维度", "term.length": "长度",
    "term.d_model": "d_model", "term.d_ff": "d_ff", "term.embed_dim": "embed_dim",
    "term.heads": "头数", "term.layers": "层数", "term.tokens": "词元数",
    "term.valid_length": "有效长度", "term.steps": "步数", "term.noise": "噪声",
    "term.w": "w", "term.learning_rate": "学习率", "term.training_points": "训练点数",
    "term.n_training_points": "训练点数", "term.d": "宽度 d", "term.width_d": "宽度 d",
    "term.encoder_self": "编码器自注意力", "term.decoder_self": "解码器自注意力", "term.cross": "交叉注意力",
}
