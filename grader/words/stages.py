"""Stage findings on attention weights and the stage itself (grader/feedback/observe.py): which output
first differs, a module's submodules against the contract, rows that do not sum to 1, hidden
keys that get weight (and where the mask or the fill goes wrong), heads that all agree, a
scale that fits the scores. Fields are the learner's own coarse figures and the case's sizes."""

from __future__ import annotations

EN: dict[str, str] = {
    # the stage (observe.locate)
    "sep.list": ", ",
    "stage.twin_call": "Two identical calls of `{fn}` (same inputs, same weights) returned different "
                       "values: something random runs inside it (dropout left on, `torch.rand…`), so its "
                       "result cannot be checked.",
    "stage.right_not": "{right} right, `{label}` not: {finding}",
    "stage.first_differs": "The first output that differs is `{label}`: {finding}",
    # a module's submodules (observe._contract)
    "contract.missing": "`{name}` is missing (the tests load its weights by that name)",
    "contract.bias": "`{name}`: the statement fixes `bias={bias}`: `{layer}`",
    "contract.should_be": "`{name}` should be `{layer}`",
    "sep.clauses": "; ",
    "contract.differs": "The submodules differ from the contract: {parts}. This is charged once, here; "
                        "the value tests load the contract's weights wherever they can.",
    # weights (observe._weights_finding, _row_sum_finding)
    "weights.wrong_axis": "each row of `{label}` should sum to 1 over the keys (the last axis); yours sum "
                          "to 1 down each column, over the queries: the softmax runs over the wrong axis.",
    "weights.uniform_rows": "it is right except in the rows that should be uniform (1/m for every key: a "
                            "query that sees no key, whose scores are all the same fill); yours are not "
                            "uniform there. Fill the hidden scores with one value (replace them), do not "
                            "add to them.",
    "weights.mask_place": "the rows sum to 1, but {k} weights that should be 0 are not{what}: look at how "
                          "the mask is built (which keys it hides), not at the fill.",
    "weights.extra": "the rows sum to 1, but {k} weights that should be 0 are not (keys the mask hides, "
                     "or keys whose scores lie far below the row's best){what}. {how}",
    "weights.zeroed_scores": "the rows sum to 1, but some weights that should be clearly above 0 are "
                             "0{what}: the scores differ before the softmax.",
    "weights.zeroed_visible": "the rows sum to 1, but some weights that should be clearly above 0 are 0 "
                              "(keys that should be visible){what}.",
    "rows.said": "each row of `{label}` should sum to 1 over the keys; yours sum to {span}",
    "rows.scaled": "{said}: every weight is {c:.3g} times the right one, so the weights are scaled after "
                   "they are normalised.",
    "rows.wrong_sum": "{said}: in every row the weights have the right proportions, but they are divided "
                      "by something other than the row's own sum.",
    "rows.hidden_after": "{said}: in every row the weights have the right proportions, and the keys that "
                         "should get 0 get 0, but the row is not normalised again after them: keys are "
                         "hidden after the softmax instead of in the scores before it.",
    "rows.normalise": "{said}: look at the step that normalises them.",
    # keys a mask hides (observe._masked_keys_finding, _how_to_hide, _hidden_pattern)
    "masked.visible_weight": "the rows sum to 1 and no key the mask hides gets weight, but {k} visible "
                             "keys whose right weight is about 0 (their scores lie far below the row's "
                             "best) get weight: the scores already differ before the softmax.",
    "masked.visible_weight_1": "the rows sum to 1 and no key the mask hides gets weight, but {k} visible "
                               "key whose right weight is about 0 (their scores lie far below the row's "
                               "best) get weight: the scores already differ before the softmax.",
    "masked.far_below": "the rows sum to 1, but {k} weights whose right value is about 0 (keys whose "
                        "scores lie far below the row's best) are not: the scores already differ before "
                        "the softmax.",
    "masked.constant_fill": "the keys the mask hides get weight, and every hidden key of a row gets the "
                            "same weight: their scores are filled with 0 or another ordinary number, "
                            "which the softmax treats like any score. Fill them with a large negative "
                            "number (the statement's fill) before the softmax.",
    "masked.query_axis": "the keys valid_lens hides get weight, and the rows of queries i >= "
                         "valid_lens[b] are uniform: the valid lengths are applied to the queries (rows) "
                         "instead of the keys (the last axis). Hide key j of batch row b when j >= "
                         "valid_lens[b].",
    "masked.mask_place": "the rows sum to 1, but {k} keys the mask hides get weight{what}: look at how "
                         "the mask is built (which keys it hides), not at the fill.",
    "masked.hidden_weight": "the rows sum to 1, but {k} keys the mask hides get weight. {how}",
    "hide.how": "A hidden key is hidden in the scores, before the softmax, with a large negative fill.",
    "hide.check_fill": "Your code writes a large negative fill: check which positions it goes to (the "
                       "mask's True/False sense and its axis) and that it is applied to the scores "
                       "before the softmax.",
    "pattern.transpose": ": the keys that get weight are the transpose of the right ones (queries and "
                         "keys swapped in the mask)",
    "pattern.shifted": ": the keys that get weight are the right ones shifted by {shift:+d} along the keys",
    # heads and scale (observe._same_heads, _scale_finding, _scale_name, _other_scale)
    "heads.same": "every head has the same weights: each head must use its own slice of the projections "
                  "(head i: features i·d_k … (i+1)·d_k − 1).",
    "scale.factor": "the rows sum to 1 and the right keys get weight, but your weights are those of the "
                    "right scores multiplied by about {r:.3g}{which}: look at how the scores are scaled.",
    "scale.also": " = {hits} here",
    "scale.divisor": " (as if Q·Kᵀ were divided by {divisor:.3g}{also}, instead of √d_k = {root:.3g})",
    "scale.too_large": "too large",
    "scale.too_small": "too small",
    "scale.additive": " ({size}: additive scores w_vᵀ tanh(W_q q + W_k k) are not scaled)",
    "scale.kernel_also": " = {fit} here",
    "scale.kernel": "{also} (look at how w enters the kernel −½((x − x_i)·w)²)",
}

ZH: dict[str, str] = {
    "sep.list": "、",
    "stage.twin_call": "两次完全相同的 `{fn}` 调用（输入和权重都相同）返回了不同的值：其中有随机的计算（没有关掉的 "
                       "dropout、`torch.rand…`），结果无法检查。",
    "stage.right_not": "{right} 正确，`{label}` 不正确：{finding}",
    "stage.first_differs": "第一个出错的输出是 `{label}`：{finding}",
    "contract.missing": "缺少 `{name}`（测试按这个名字加载权重）",
    "contract.bias": "`{name}`：题目规定 `bias={bias}`：`{layer}`",
    "contract.should_be": "`{name}` 应为 `{layer}`",
    "sep.clauses": "；",
    "contract.differs": "子模块与约定不一致：{parts}。这一点只在此处扣分；其余数值测试会尽可能加载约定的权重。",
    "weights.wrong_axis": "`{label}` 的每一行应在键（最后一维）上求和为 1；你的结果是每一列（在查询上）求和为 1："
                          "softmax 的维度不对。",
    "weights.uniform_rows": "除了本应均匀的行（每个键 1/m：看不到任何键的查询，它的分数全是同一个填充值）之外都正确；"
                            "你的结果在这些行并不均匀。请把被遮蔽的分数替换成同一个值，而不是在原分数上相加。",
    "weights.mask_place": "每行之和为 1，但有 {k} 个本应为 0 的权重不为 0{what}：请检查掩码是怎样构造的（它遮蔽了"
                          "哪些键），而不是填充值。",
    "weights.extra": "每行之和为 1，但有 {k} 个本应为 0 的权重不为 0（被掩码遮蔽的键，或分数远低于该行最高分的键）"
                     "{what}。{how}",
    "weights.zeroed_scores": "每行之和为 1，但一些本应明显大于 0 的权重为 0{what}：softmax 之前的分数就已不同。",
    "weights.zeroed_visible": "每行之和为 1，但一些本应明显大于 0 的权重为 0（本应可见的键）{what}。",
    "rows.said": "`{label}` 的每一行应在键上求和为 1；你的结果每行之和为 {span}",
    "rows.scaled": "{said}：每个权重都是正确值的 {c:.3g} 倍，也就是在归一化之后又被缩放了。",
    "rows.wrong_sum": "{said}：每一行的权重比例都正确，但除以的不是这一行自己的和。",
    "rows.hidden_after": "{said}：每一行的权重比例都正确，应为 0 的键也是 0，但之后这一行没有重新归一化：键是在 "
                         "softmax 之后才被遮蔽的，而不是在 softmax 之前的分数里。",
    "rows.normalise": "{said}：请检查对它们做归一化的那一步。",
    "masked.visible_weight": "每行之和为 1，被掩码遮蔽的键也没有得到权重，但有 {k} 个可见键本应权重约为 0（它们的"
                             "分数远低于该行最高分）却得到了权重：softmax 之前的分数就已不同。",
    "masked.visible_weight_1": "每行之和为 1，被掩码遮蔽的键也没有得到权重，但有 {k} 个可见键本应权重约为 0（它们的"
                               "分数远低于该行最高分）却得到了权重：softmax 之前的分数就已不同。",
    "masked.far_below": "每行之和为 1，但有 {k} 个本应约为 0 的权重（分数远低于该行最高分的键）不为 0：softmax "
                        "之前的分数就已不同。",
    "masked.constant_fill": "被掩码遮蔽的键得到了权重，而且同一行中每个被遮蔽的键权重都相同：它们的分数被填成了 0 "
                            "或其他普通数值，softmax 会把它当作普通分数。请在 softmax 之前填入很大的负数（题目规定的"
                            "填充值）。",
    "masked.query_axis": "valid_lens 遮蔽的键得到了权重，而第 i >= valid_lens[b] 个查询的整行权重是均匀的：有效长度"
                         "被用在了查询（行）上，而不是键（最后一维）上。应当在 j >= valid_lens[b] 时遮蔽第 b 行的第 "
                         "j 个键。",
    "masked.mask_place": "每行之和为 1，但有 {k} 个被掩码遮蔽的键得到了权重{what}：请检查掩码是怎样构造的（它遮蔽"
                         "了哪些键），而不是填充值。",
    "masked.hidden_weight": "每行之和为 1，但有 {k} 个被掩码遮蔽的键得到了权重。{how}",
    "hide.how": "被遮蔽的键应在 softmax 之前、在分数中用很大的负数填充。",
    "hide.check_fill": "你的代码写了很大的负填充值：请检查它被填到了哪些位置（掩码 True/False 的含义和它所在的维度），"
                       "以及它是否在 softmax 之前作用于分数。",
    "pattern.transpose": "：得到权重的位置恰好是正确位置的转置（掩码中查询和键互换了）",
    "pattern.shifted": "：得到权重的键是正确的键沿键方向移动了 {shift:+d} 位",
    "heads.same": "每个头的权重都一样：每个头应使用投影结果中属于自己的那一段（第 i 个头：特征 i·d_k … (i+1)·d_k − 1）。",
    "scale.factor": "每行之和为 1，正确的键也得到了权重，但你的权重相当于把正确的分数乘以约 {r:.3g}{which}：请检查"
                    "分数的缩放。",
    "scale.also": "，此处即 {hits}",
    "scale.divisor": "（相当于 Q·Kᵀ 除以了 {divisor:.3g}{also}，而不是 √d_k = {root:.3g}）",
    "scale.too_large": "偏大",
    "scale.too_small": "偏小",
    "scale.additive": "（{size}：加性注意力的分数 w_vᵀ tanh(W_q q + W_k k) 不做缩放）",
    "scale.kernel_also": "（此处即 {fit}）",
    "scale.kernel": "{also}（请检查 w 在核函数 −½((x − x_i)·w)² 中的位置）",
}
