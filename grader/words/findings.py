"""Stage findings on plain values (grader/feedback/observe_values.py): a constant or rounded output, a
transposed table, where NaN appears and why, additive scores that split or stay inside tanh's
range, a sinusoidal table read column by column, a constant factor, columns in another order.
Each says a property of the learner's own values; ``{label}`` is the output's name."""

from __future__ import annotations

EN: dict[str, str] = {
    "constant.placeholder": "every entry of `{label}` is {c}, while the right entries are not all equal "
                            "(if this is still the starter's placeholder, this is the part to write).",
    "constant.plain": "every entry of `{label}` is {c}, while the right entries are not all equal: the "
                      "values do not depend on the inputs the way they should.",
    "rounded": "every entry of `{label}` is within {half} of the right one and has at most {d} "
               "decimals: the values look rounded. Return them unrounded (round only what you print).",
    "rounded_1": "every entry of `{label}` is within {half} of the right one and has at most {d} "
                 "decimal: the values look rounded. Return them unrounded (round only what you print).",
    "transposed.weights": "`{label}` is the softmax of the transposed scores: row i is computed from what "
                          "should be column i (key i against every query). The scores are Q·Kᵀ, row i = "
                          "query i against every key.",
    "transposed.scores": "`{label}` is the transpose of the right one: row i holds key i against every "
                         "query. The scores are Q·Kᵀ, row i = query i against every key.",
    # NaN where the right values are finite (nan_finding)
    "nan.head_rest_right": " and right in every other row",
    "nan.head": "`{label}` is NaN exactly in the {k} rows whose keys are all hidden{rest}",
    "nan.head_1": "`{label}` is NaN exactly in the {k} row whose keys are all hidden{rest}",
    "nan.after_softmax_uniform": ": such a row then comes out uniform (1/m)",
    "nan.after_softmax": "{head}: your code calls softmax and writes no large negative fill, so the "
                         "hidden keys are set to 0 after the softmax and the row is divided by its sum "
                         "again, which is 0 in a row with no visible key (0/0 is NaN). Hide the keys in "
                         "the scores before the softmax, with a large negative fill such as −1e6{uniform}.",
    "nan.uniform_finite_fill": " The right weights there are uniform (1/m): with a finite fill (such as "
                               "−1e6) instead of −inf, a row of equal fills gives the same weight to every key.",
    "nan.uniform_max_first": " The right weights there are uniform (1/m): with a finite fill (such as "
                             "−1e6) and a softmax that subtracts the row's maximum first (torch.softmax "
                             "does), a row of equal fills gives exp(0) = 1 for every key.",
    "nan.all_hidden": "{head}: there every exp term came out 0 (a fill of −inf, or exp of a large "
                      "negative fill), and 0/0 is NaN.{extra}",
    "nan.where_visible": " (rows where some key is visible)",
    "nan.rest_right": ", and is right in every other row",
    "nan.said": "`{label}` has NaN or inf in {k} of {total} rows{where}{rest}.",
    "nan.mask_hides_all": "{said} Each of those rows should see at least one key, but a softmax gives "
                          "NaN for a row whose scores are all −inf: your mask hides every key there. "
                          "Check which keys it hides in those rows (its diagonal, its offset, its "
                          "True/False sense).",
    "nan.around_softmax": "{said} Your code calls softmax, which gives finite weights for finite scores: "
                          "the NaN comes from a step around it, such as a row whose scores are all −inf, "
                          "or weights divided again by a row sum that is 0 (keys hidden after the "
                          "softmax, then normalised). Hide keys in the scores before the softmax, with a "
                          "large finite fill.",
    "nan.underflow": "{said} In those rows every score lies far below the largest score of the whole "
                     "input, so exp of (score − that maximum) underflows to 0 for every key, and 0/0 is "
                     "NaN: subtract each row's own maximum (`max(dim=-1, keepdim=True)`), not one for "
                     "the whole tensor.",
    "nan.overflow": "{said} Those rows hold scores of a few hundred: exp of them overflows to ∞ and ∞/∞ "
                    "is NaN. Subtracting each row's own maximum before exp (as torch.softmax does) keeps "
                    "every row finite.",
    "nan.normalised": "{said} A NaN there is 0/0 or ∞/∞ when the values are normalised: the exp of "
                      "every term of such a row came out 0 (all far below 0) or one came out ∞ (far "
                      "above 0). Subtracting the row's own maximum before exp (as torch.softmax does) "
                      "keeps every row finite.",
    # additive scores (_scores_finding)
    "scores.additive_split": "your scores split into a part that depends only on the query plus a part "
                             "that depends only on the key (s[i, j] − s[i, 0] − s[0, j] + s[0, 0] = 0 "
                             "everywhere), so every query ranks the keys the same way; in w_vᵀ tanh(W_q q "
                             "+ W_k k) the tanh acts on the sum.",
    "scores.tanh_range": "all your scores lie between −1 and 1, the range of a tanh, while the right "
                         "ones do not: w_v weights the tanh features after the tanh.",
    # a sinusoidal table read column by column (_table_finding)
    "table.freq_one": "every column pair has frequency 1, where pair i should have 1 / 10000^(2i / "
                      "d_model): the exponent comes out 0 (as 2i // d_model does)",
    "table.freq_per_column": "each column has its own frequency 1 / 10000^(j / d_model); a sine and its "
                             "cosine share one, 1 / 10000^(2i / d_model)",
    "table.freq_two_j": "column j uses 1 / 10000^(2j / d_model): the exponent takes the column index j "
                        "where it needs the pair index i = j // 2 (a sine and its cosine share "
                        "1 / 10000^(2i / d_model)), so every column after the first is off",
    "table.freq_grow": "the frequencies grow with the column, 10000^(2i / d_model), instead of falling: "
                       "the position is multiplied by the power, not divided by it",
    "table.freq_log10": "the frequencies are e^(−4·2i / d_model), as if ln 10000 were replaced by log10 "
                        "10000 = 4",
    "table.freq_half": "the exponent of pair i is i / d_model where it is 2i / d_model (column 2i's own "
                       "index over d_model), so the frequencies fall half as fast",
    "table.start_at_1": "the positions start at 1: row 0 should be sin(0) = 0 and cos(0) = 1",
    "table.read": "read column by column, {rule}.",
    "table.cos_sin_swapped": "read column by column, the even columns hold the cosines and the odd ones "
                             "the sines: column 2i is sin, column 2i + 1 is cos.",
    "table.sines_right": "the sine columns (0, 2, 4, …) are right; only the cosine columns (1, 3, 5, …) "
                         "differ, by at most {top:.2g}: look at how the cosines are computed.",
    "table.cosines_right": "the cosine columns (1, 3, 5, …) are right; only the sine columns (0, 2, 4, "
                           "…) differ, by at most {top:.2g}: look at how the sines are computed.",
    "table.which_pairs": "pairs 0, 1, …",
    "table.which_one": "the one pair",
    "table.more": ", …",
    "table.pairs": "read column by column, each pair (2i, 2i + 1) is the sine and cosine of one "
                   "frequency, but the frequencies of {which} are {mine}{more}, where 1 / 10000^(2i / "
                   "d_model) gives {right}: look at how the frequency of pair i is computed.",
    "table.by_batch": "`{label}` minus X·√d_model is the same for every time step of a batch row: batch "
                      "row b gets row b of the table at every position. The table's row t belongs to "
                      "time step t (axis 1 of X), the same for every batch row.",
    # a factor, an order (values_finding)
    "values.factor_size": "every entry is about {c:.3g} = {size} times the right one ({n} is a length "
                          "of this test's inputs).",
    "values.factor": "every entry is about {c:.3g} times the right one.",
    "values.reversed": " (reversed)",
    "values.column_order": "it holds the right columns in another order{rev}: look at how the pieces "
                           "are put side by side (for heads: head 0 first, features of one head together).",
}

ZH: dict[str, str] = {
    "constant.placeholder": "`{label}` 的每个元素都是 {c}，而正确的元素并不全相等（如果这里仍是初始代码的占位值，"
                            "这就是要写的部分）。",
    "constant.plain": "`{label}` 的每个元素都是 {c}，而正确的元素并不全相等：结果没有按应有的方式依赖输入。",
    "rounded": "`{label}` 的每个元素与正确值相差都不超过 {half}，且最多只有 {d} 位小数：看起来结果被四舍五入了。"
               "请返回未经舍入的值（只在打印时舍入）。",
    "rounded_1": "`{label}` 的每个元素与正确值相差都不超过 {half}，且最多只有 {d} 位小数：看起来结果被四舍五入了。"
                 "请返回未经舍入的值（只在打印时舍入）。",
    "transposed.weights": "`{label}` 是对转置后的分数做的 softmax：第 i 行用的是本应在第 i 列的分数（键 i 对所有"
                          "查询）。分数应为 Q·Kᵀ，第 i 行是查询 i 对所有键的分数。",
    "transposed.scores": "`{label}` 是正确结果的转置：第 i 行是键 i 对所有查询的分数。分数应为 Q·Kᵀ，第 i 行是查询 "
                         "i 对所有键的分数。",
    "nan.head_rest_right": "，其余各行都正确",
    "nan.head": "`{label}` 恰好在所有键都被遮蔽的 {k} 行中为 NaN{rest}",
    "nan.head_1": "`{label}` 恰好在所有键都被遮蔽的 {k} 行中为 NaN{rest}",
    "nan.after_softmax_uniform": "：这样的行就会得到均匀的权重（1/m）",
    "nan.after_softmax": "{head}：你的代码调用了 softmax，却没有写很大的负填充值，因此被遮蔽的键是在 softmax 之后"
                         "才置 0，然后这一行又除以它的和，而在没有可见键的行中这个和为 0（0/0 是 NaN）。请在 softmax "
                         "之前、在分数中用很大的负数（如 −1e6）遮蔽这些键{uniform}。",
    "nan.uniform_finite_fill": "正确的权重在这些行是均匀的（1/m）：用有限的填充值（如 −1e6）代替 −inf，一行相同的"
                               "填充值会给每个键相同的权重。",
    "nan.uniform_max_first": "正确的权重在这些行是均匀的（1/m）：用有限的填充值（如 −1e6），并用先减去该行最大值的 "
                             "softmax（torch.softmax 就是这样），一行相同的填充值对每个键都得到 exp(0) = 1。",
    "nan.all_hidden": "{head}：这些行的每一项 exp 都是 0（填充了 −inf，或对很大的负填充值直接取 exp），而 0/0 是 "
                      "NaN。{extra}",
    "nan.where_visible": "（这些行中有可见的键）",
    "nan.rest_right": "，其余各行都正确",
    "nan.said": "`{label}` 的 {total} 行中有 {k} 行出现 NaN 或 inf{where}{rest}。",
    "nan.mask_hides_all": "{said}这些行本应至少能看到一个键，但一行分数全是 −inf 时 softmax 会得到 NaN：你的掩码在"
                          "这些行遮蔽了所有键。请检查它在这些行遮蔽了哪些键（对角线、偏移、True/False 的含义）。",
    "nan.around_softmax": "{said}你的代码调用了 softmax，它对有限的分数给出有限的权重：NaN 来自它前后的某一步，例如"
                          "某一行的分数全是 −inf，或在 softmax 之后遮蔽键、再除以一个为 0 的行和。请在 softmax 之前、"
                          "在分数中用很大的有限负数遮蔽键。",
    "nan.underflow": "{said}这些行的每个分数都远低于整个输入中的最大分数，因此 exp(分数 − 该最大值) 对每个键都下溢"
                     "为 0，而 0/0 是 NaN：请减去每一行自己的最大值（`max(dim=-1, keepdim=True)`），而不是整个张量"
                     "的一个最大值。",
    "nan.overflow": "{said}这些行中有几百大小的分数：取 exp 会上溢为 ∞，而 ∞/∞ 是 NaN。在 exp 之前减去每一行自己的"
                    "最大值（torch.softmax 就是这样做的）可以让每一行都保持有限。",
    "nan.normalised": "{said}这里的 NaN 来自归一化时的 0/0 或 ∞/∞：这一行的每一项 exp 都变成了 0（都远小于 0），"
                      "或某一项变成了 ∞（远大于 0）。在 exp 之前减去该行自己的最大值（torch.softmax 就是这样做的）"
                      "可以让每一行都保持有限。",
    "scores.additive_split": "你的分数可以拆成“只与查询有关的部分 + 只与键有关的部分”（处处有 s[i, j] − s[i, 0] − "
                             "s[0, j] + s[0, 0] = 0），于是每个查询对键的排序都一样；在 w_vᵀ tanh(W_q q + W_k k) 中，"
                             "tanh 作用在两者之和上。",
    "scores.tanh_range": "你的分数全部落在 −1 到 1 之间（tanh 的值域），而正确的分数并非如此：w_v 应在 tanh 之后对"
                         "特征加权。",
    "table.freq_one": "每一对列的频率都是 1，而第 i 对应为 1 / 10000^(2i / d_model)：指数算成了 0（2i // d_model "
                      "就是这样）",
    "table.freq_per_column": "每一列都用了自己的频率 1 / 10000^(j / d_model)；一对正弦和余弦应共用 1 / 10000^(2i / "
                             "d_model)",
    "table.freq_two_j": "第 j 列用了 1 / 10000^(2j / d_model)：指数里用的是列下标 j，而应当用成对的下标 i = j // 2"
                        "（一对正弦和余弦共用 1 / 10000^(2i / d_model)），所以第一列之后的每一列都不对",
    "table.freq_grow": "频率随列增大（10000^(2i / d_model)）而不是减小：位置乘以了这个幂，而不是除以它",
    "table.freq_log10": "频率是 e^(−4·2i / d_model)，相当于把 ln 10000 换成了 log10 10000 = 4",
    "table.freq_half": "第 i 对的指数是 i / d_model，而应为 2i / d_model（第 2i 列自己的下标除以 d_model），所以频率"
                       "下降得慢了一半",
    "table.start_at_1": "位置从 1 开始：第 0 行应为 sin(0) = 0 和 cos(0) = 1",
    "table.read": "逐列来看：{rule}。",
    "table.cos_sin_swapped": "逐列来看：偶数列是余弦、奇数列是正弦；第 2i 列应为 sin，第 2i + 1 列应为 cos。",
    "table.sines_right": "正弦列（0, 2, 4, …）正确；只有余弦列（1, 3, 5, …）不同，最多相差 {top:.2g}：请检查余弦的计算。",
    "table.cosines_right": "余弦列（1, 3, 5, …）正确；只有正弦列（0, 2, 4, …）不同，最多相差 {top:.2g}：请检查正弦的"
                           "计算。",
    "table.which_pairs": "第 0、1……对",
    "table.which_one": "唯一这一对",
    "table.more": "……",
    "table.pairs": "逐列来看：每一对列 (2i, 2i + 1) 是同一个频率的正弦和余弦，但{which}的频率是 {mine}{more}，而 "
                   "1 / 10000^(2i / d_model) 给出的是 {right}：请检查第 i 对的频率是怎样算的。",
    "table.by_batch": "`{label}` 减去 X·√d_model 后，在同一批次行的每个时间步都相同：第 b 个批次行的每个位置都加上了"
                      "编码表的第 b 行。编码表的第 t 行属于时间步 t（X 的第 1 维），对每个批次行都一样。",
    "values.factor_size": "每个元素都约为正确值的 {c:.3g} = {size} 倍（{n} 是本测试输入的一个长度）。",
    "values.factor": "每个元素都约为正确值的 {c:.3g} 倍。",
    "values.reversed": "（顺序颠倒）",
    "values.column_order": "它包含正确的列，但顺序不对{rev}：请检查拼接的顺序（多头时：第 0 个头在前，同一个头的特征"
                           "放在一起）。",
}
