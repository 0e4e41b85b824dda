"""What a check found when a returned value is not the expected one (grader/feedback/compare.py): what
the value is, a tuple too short, a wrong type, dtype or shape, NaN, wrong values and where. On
hidden cases the fields hold only the grader's own words and the expected shapes."""

from __future__ import annotations

EN: dict[str, str] = {
    # the contract every exercise's function keeps (grader/authoring.contract)
    "contract.types": "`{fn}` must return {what} in the dtype of its inputs (float32 in, float32 out; "
                      "float64 in, float64 out): no numpy, no casts such as `.float()` or `.double()`.",
    "contract.unchanged": "`{fn}` changes the caller's tensors in place (`+=`, `/=`, `.div_()`, "
                          "`masked_fill_`...): compute on new tensors and leave the inputs as they were.",
    "contract.one_tensor": "a torch tensor",
    "check.verify_failed": "`{label}` is not what the contract allows here.",
    "contract.case": "types: torch tensors in the dtype of the inputs (float32 and float64); inputs left "
                     "unchanged",
    "contract.tensors": "torch tensors `({names})`",
    # what a value is (compare._kind)
    "kind.object": "a {name} object",
    "kind.own_type": "an object of your own type",
    "kind.none": "None",
    "kind.tensor": "a tensor",
    "kind.array": "an array of shape {shape}",
    "kind.value": "a {type}",
    "kind.sequence": "a {type} of {count} items",
    # one check's finding (compare.compare, select)
    "check.short_tuple": "`{label}`: expected a tuple with at least {count} items, got {what}.",
    "check.bool_means": "`{label}` returns {got} where {wrong}.",
    "check.equal_open": "`{label}` is {got}, expected {want}.",
    "value.array": "array of shape {shape}, {dtype}: {items}",
    "check.dtype": "`{label}` has dtype {got}, expected {want}.",
    "check.true_where_false": "True where it should be False",
    "check.false_where_true": "False where it should be True",
    "sep.and": " and ",
    "check.wrong_entries": "`{label}` has wrong entries: {parts}.",
    "check.attributes": "`{label}`: {wrong} missing or not what the contract says (names, types and "
                        "sizes are in the statement).",
    "check.not_contract": "`{label}` is not what the contract asks for here ({what}).",
    "check.shape_hidden": "`{label}` has the wrong shape: expected {want}.",
    "check.shape": "`{label}` has shape {have}, expected {want}.",
    "check.type": "`{label}` should be a Python {want}, got {what}.",
    "check.type_bool": "`{label}` should be a Python {want}, got {what} (convert with `bool(...)`).",
    "check.shape_not_tensor": "`{label}` should be a tensor of shape {want}, got {what}.",
    "check.none": "`{label}` is None: nothing was returned.",
    "check.not_numbers": "`{label}` should be numbers (a tensor), got {what}.",
    "check.nan_finite": "`{label}` contains NaN where the right values are all finite numbers.",
    "check.nan_where": "`{label}` contains NaN where it should not (or lacks it where expected).",
    "check.wrong_where": "`{label}` has the right shape but wrong values {where}.",
    "where.hidden_keys": "only where keys should be hidden (they get weight)",
    "where.masked_rows": "only in rows where the mask hides keys",
    "check.wrong_share": "`{label}` has the right shape but wrong values in {share}.",
    "share.every": "every entry",
    "share.most": "most entries",
    "share.some": "some entries",
    "check.wrong_values": "`{label}` has the right shape but wrong values (largest difference "
                          "{worst:.3g}, {off} of {size} entries off).",
}

ZH: dict[str, str] = {
    "contract.types": "`{fn}` 必须返回与输入 dtype 相同的{what}（float32 进 float32 出，float64 进 float64 出）："
                      "不要返回 numpy，也不要用 `.float()`、`.double()` 之类转换类型。",
    "contract.unchanged": "`{fn}` 原地修改了调用者传入的张量（`+=`、`/=`、`.div_()`、`masked_fill_` 等）："
                          "请在新张量上计算，不要改动输入。",
    "contract.one_tensor": " torch 张量",
    "check.verify_failed": "`{label}` 不是约定所允许的结果。",
    "contract.case": "类型：与输入 dtype 相同的 torch 张量（float32 和 float64）；输入不被修改",
    "contract.tensors": " torch 张量 `({names})`",
    "kind.object": "一个 {name} 对象",
    "kind.own_type": "一个你自定义类型的对象",
    "kind.none": "None",
    "kind.tensor": "一个张量",
    "kind.array": "一个形状为 {shape} 的数组",
    "kind.value": "一个 {type}",
    "kind.sequence": "含 {count} 项的 {type}",
    "check.short_tuple": "`{label}`：应返回至少含 {count} 项的元组，实际得到{what}。",
    "check.bool_means": "`{label}` 返回了 {got}，但{wrong}。",
    "check.equal_open": "`{label}` 的值是 {got}，应为 {want}。",
    "value.array": "形状为 {shape} 的 {dtype} 数组：{items}",
    "check.dtype": "`{label}` 的 dtype 是 {got}，应为 {want}。",
    "check.true_where_false": "有应为 False 的位置是 True",
    "check.false_where_true": "有应为 True 的位置是 False",
    "sep.and": "，",
    "check.wrong_entries": "`{label}` 的元素不对：{parts}。",
    "check.attributes": "`{label}`：{wrong} 缺失或与约定不符（名称、类型和尺寸见题目说明）。",
    "check.not_contract": "`{label}` 不符合约定（实际得到{what}）。",
    "check.shape_hidden": "`{label}` 的形状不对：应为 {want}。",
    "check.shape": "`{label}` 的形状是 {have}，应为 {want}。",
    "check.type": "`{label}` 应为 Python {want}，实际得到{what}。",
    "check.type_bool": "`{label}` 应为 Python {want}，实际得到{what}（请用 `bool(...)` 转换）。",
    "check.shape_not_tensor": "`{label}` 应为形状 {want} 的张量，实际得到{what}。",
    "check.none": "`{label}` 是 None：没有返回任何值。",
    "check.not_numbers": "`{label}` 应为数值（张量），实际得到{what}。",
    "check.nan_finite": "`{label}` 中出现了 NaN，而正确的值全是有限的数。",
    "check.nan_where": "`{label}` 在不该出现 NaN 的位置出现了 NaN（或相反）。",
    "check.wrong_where": "`{label}` 形状正确，但数值不对：{where}。",
    "where.hidden_keys": "错误只出现在应被隐藏的键上（它们得到了权重）",
    "where.masked_rows": "错误只出现在掩码隐藏了部分键的行中",
    "check.wrong_share": "`{label}` 形状正确，但{share}的数值不对。",
    "share.every": "所有元素",
    "share.most": "大部分元素",
    "share.some": "部分元素",
    "check.wrong_values": "`{label}` 形状正确但数值不对（最大误差 {worst:.3g}，{size} 个元素中有 {off} 个不符）。",
}
