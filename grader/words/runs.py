"""How a run went, in the grader's words: a crash, a time or output limit, an exception the
learner's code raised (told without hidden data, grader/feedback/raised.py), what the runner could not
find or run (grader/feedback/judge.py, grading.py), the summary line and a repeat pointing back."""

from __future__ import annotations

EN: dict[str, str] = {
    # what an exception means in the case's situation (feedback._situation)
    "situation.empty_reduction": "a reduction such as `.max()` over an empty tensor: in this test a "
                                 "row has nothing to reduce (for example the visible keys of a query "
                                 "whose valid length is 0, which sees no key); handle that row without "
                                 "reducing over nothing",
    "situation.matmul": "a matrix product (`@`, matmul) whose inner sizes differ: the left operand's "
                        "last axis has size {left}, the right operand's second-to-last {right}; they "
                        "must be equal (print the shapes of both operands on the public examples)",
    "situation.broadcast_mask": "; a mask or a length may need an axis of size 1 where it should repeat",
    "situation.matmul_transposed": "a matrix product whose right operand is the wrong way round: the left "
                                   "operand's last axis has size {left}, the right operand is {rows}×{cols}, "
                                   "so it needs its transpose ({cols}×{rows}): a weight of shape (out, in) is "
                                   "applied as `x @ W.T`",
    "situation.matmul_extra_t": "a matrix product whose right operand is the wrong way round: the left "
                                "operand's last axis has size {left}, the right operand is {rows}×{cols}, "
                                "and this line transposes it with `.T`: a weight the statement gives as "
                                "(in, out) is used as it is, `x @ W`",
    "situation.dtype_mix": "a product of tensors of two dtypes (float32 and float64 do not mix): keep "
                           "every tensor in the dtype of the inputs, with no `.float()` or `.double()`, "
                           "and make new tensors with `dtype=` the inputs' dtype",
    "situation.dot_t": "; this line uses `.T`, which reverses *every* axis: on a batched (B, m, d) "
                       "tensor it gives (d, m, B). To swap only the last two axes use "
                       "`.transpose(-2, -1)`",
    "situation.view_contiguous": "after `transpose` (or `permute`) a tensor is no longer contiguous in "
                                 "memory, so `.view` cannot merge its axes: use `.reshape(...)`, or "
                                 "`.contiguous().view(...)`",
    "situation.if_tensor": "`{cond}` asks a tensor for one truth value; a tensor of several values has "
                           "none (and a single 0 would count as False). To test whether the argument was "
                           "given, write `if {name} is not None:`",
    "situation.index_axis0": "`{x}[{i}]` indexes the first axis (axis 0, the batch); to reorder or pick "
                             "along another axis, index it explicitly, e.g. `{x}[:, {i}]` for axis 1",
    "situation.broadcast": "two shapes that do not broadcast: at dimension {dim} one operand has size "
                           "{a} and the other {b} (print the shapes on the public examples{hint})",
    "situation.broadcast_dot_t": "two shapes that do not broadcast: at dimension {dim} one operand has "
                                 "size {a} and the other {b}",
    # an exception on a hidden test (feedback.error_text)
    "error.an_exception": "an exception",
    "error.own_not_implemented": "`{fn}` raised NotImplementedError at line {line} of your code: that "
                                 "part is not written yet.",
    "error.own_raise": "`{fn}` raised {kind} at line {line} of your code, on a hidden test whose "
                       "inputs the statement allows (the test's name says what they are): look at the "
                       "condition that leads to line {line}.",
    "error.quoted": ': "{shown}"',
    "error.not_shown": " (its message is shown in the public examples only)",
    "error.at_line": " at line {line} of your code",
    "run.frame": 'File "submission.py", line {line}, in `{fn}`',
    "error.hidden_raised": "`{fn}` raised {kind}{where} on a hidden test{shown}",
    "error.hidden_situation": "{head}. Here: {what}.",
    "error.hidden_plain": "{head}.",
    # how a run ended (feedback.crash_message)
    "crash.malformed": "Your code wrote into the grader's private result channel (malformed output); "
                       "the run cannot be trusted and scores 0.",
    "crash.timeout": "Time limit reached ({wall:g} s wall clock, {cpu} s CPU): look for an infinite "
                     "loop or very slow code.",
    "crash.output_limit": "Your code printed too much (more than {mib} MiB); it was stopped.",
    "crash.result_limit": "Your code returned values far larger than the tests need; it was stopped.",
    "crash.signal_quiet": "Your code crashed the Python process (it was killed by a signal) during the "
                          "hidden tests; no result could be collected.",
    "crash.file_size": "Your code wrote a file larger than allowed.",
    "crash.signal": "Your code crashed the Python process (signal {name}), e.g. through ctypes or "
                    "native code; no result could be collected.",
    "crash.exit_quiet": "Your code ended the process early during the hidden tests (e.g. os._exit or "
                        "sys.exit) before all tests ran.",
    "crash.exit": "Your code ended the process early (exit code {code}, e.g. os._exit or sys.exit) "
                  "before all tests ran.",
    "crash.stopped": "The test run stopped unexpectedly.",
    # errors the grader explains in its own words (feedback.error_message)
    "error.memory": "Your code ran out of memory (limit about {mib} MiB above the worker).",
    "error.module_detail": ": {what}",
    "error.module": "This module is not available in the grader{detail}. Use torch, numpy, math and "
                    "the common standard library.",
    "error.sys_exit": "Your code called sys.exit(); the tests need it to return normally.",
    "error.not_allowed": "Your code tried something the grader does not allow (network, new "
                         "processes, signals, or files outside its own folder).",
    "error.raised": "Your code raised {kind}: {message}",
    # a step's record (grader/feedback/judge.py)
    "judge.passed": "Passed.",
    "judge.not_finished": "This test did not finish.",
    "judge.what_name": "the module-level name",
    "judge.what_function": "the function",
    "judge.what_class": "the class",
    "judge.undefined": "Your code does not define {what} `{name}`.",
    "judge.raised_open": "`{fn}` raised {kind}: {message}",
    "judge.should_raise": "`{fn}` should raise {expected} here, but it returned normally.",
    "judge.raised_other": "`{fn}` raised {name}, expected {expected}.",
    # the report (grader/grading.py, explain.say_once)
    "run.not_run": "Not run.",
    "run.syntax_error": "Syntax error: {message}",
    "run.while_loading": "{message} (while loading your code)",
    "run.summary": "{passed} of {total} tests passed; score {score:g}/{top:g}.",
    "explain.same_mistake": "Same mistake as in “{name}”.",
    "explain.same_problem": "Same problem as in “{name}”.",
}

ZH: dict[str, str] = {
    "situation.empty_reduction": "对空张量做了 `.max()` 之类的归约：本测试中有一行没有任何元素可归约（例如有效长度"
                                 "为 0 的查询，它看不到任何键）；请在不对空行归约的前提下处理这一行",
    "situation.matmul": "矩阵乘法（`@`、matmul）的内侧大小不一致：左操作数最后一维大小为 {left}，右操作数倒数第二"
                        "维为 {right}；两者必须相等（可在公开示例中打印两个操作数的形状）",
    "situation.broadcast_mask": "；掩码或长度可能需要在应重复的位置加一个大小为 1 的维",
    "situation.matmul_transposed": "矩阵乘法的右操作数方向反了：左操作数最后一维大小为 {left}，右操作数是 {rows}×{cols}，"
                                   "所以需要它的转置（{cols}×{rows}）：形状为 (out, in) 的权重应写成 `x @ W.T`",
    "situation.matmul_extra_t": "矩阵乘法的右操作数方向反了：左操作数最后一维大小为 {left}，右操作数是 {rows}×{cols}，"
                                "而这一行又用 `.T` 把它转置了：题目给出的 (in, out) 形状的权重应直接使用，写成 `x @ W`",
    "situation.dtype_mix": "两个不同 dtype 的张量相乘（float32 与 float64 不能混用）：让所有张量都保持输入的 dtype，"
                           "不要 `.float()` 或 `.double()`，新建张量时用 `dtype=` 输入的 dtype",
    "situation.dot_t": "；这一行用了 `.T`，它会反转*所有*维：对批量的 (B, m, d) 张量会得到 (d, m, B)。"
                       "只交换最后两维请用 `.transpose(-2, -1)`",
    "situation.view_contiguous": "`transpose`（或 `permute`）之后张量在内存中不再连续，`.view` 无法合并它的维："
                                 "请用 `.reshape(...)`，或 `.contiguous().view(...)`",
    "situation.if_tensor": "`{cond}` 要求张量给出一个真假值；含多个值的张量没有单一真假值（只有一个 0 时又会被当成 False）。"
                           "要判断参数是否传入，请写 `if {name} is not None:`",
    "situation.index_axis0": "`{x}[{i}]` 索引的是第一维（第 0 维，即批量）；要沿其他维重排或选取，请明确写出该维，"
                             "例如第 1 维用 `{x}[:, {i}]`",
    "situation.broadcast": "两个形状无法广播：在第 {dim} 维上一个操作数大小为 {a}，另一个为 {b}（可在公开示例中打印"
                           "形状{hint}）",
    "situation.broadcast_dot_t": "两个形状无法广播：在第 {dim} 维上一个操作数大小为 {a}，另一个为 {b}",
    "error.an_exception": "一个异常",
    "error.own_not_implemented": "`{fn}` 在你代码的第 {line} 行抛出了 NotImplementedError：这一部分还没有写。",
    "error.own_raise": "`{fn}` 在一个输入符合题目规定的隐藏测试中，于你代码的第 {line} 行抛出了 {kind}（测试名说明"
                       "了输入是什么）：请检查通向第 {line} 行的条件。",
    "error.quoted": "：“{shown}”",
    "error.not_shown": "（异常信息只在公开示例中显示）",
    "error.at_line": "于你代码的第 {line} 行",
    "run.frame": "`submission.py` 第 {line} 行，`{fn}` 函数中",
    "error.hidden_raised": "`{fn}` 在隐藏测试中{where}抛出了 {kind}{shown}",
    "error.hidden_situation": "{head}。也就是说：{what}。",
    "error.hidden_plain": "{head}。",
    "crash.malformed": "你的代码向评分器的内部结果通道写入了数据（输出格式不合法）；本次运行不可信，记 0 分。",
    "crash.timeout": "超出时间限制（{wall:g} 秒墙钟时间，{cpu} 秒 CPU）：请检查死循环或过慢的代码。",
    "crash.output_limit": "你的代码输出过多（超过 {mib} MiB），已被终止。",
    "crash.result_limit": "你的代码返回的数据远大于测试所需，已被终止。",
    "crash.signal_quiet": "你的代码在隐藏测试中使 Python 进程崩溃（被信号终止）；无法收集结果。",
    "crash.file_size": "你的代码写入的文件超出了允许的大小。",
    "crash.signal": "你的代码使 Python 进程崩溃（信号 {name}），例如通过 ctypes 或原生代码；无法收集结果。",
    "crash.exit_quiet": "你的代码在隐藏测试中提前结束了进程（例如 os._exit 或 sys.exit），测试未全部运行。",
    "crash.exit": "你的代码提前结束了进程（退出码 {code}，例如 os._exit 或 sys.exit），测试未全部运行。",
    "crash.stopped": "测试运行意外停止。",
    "error.memory": "你的代码内存不足（限制约为 {mib} MiB）。",
    "error.module_detail": "：{what}",
    "error.module": "评分器中没有这个模块{detail}。请使用 torch、numpy、math 和常用标准库。",
    "error.sys_exit": "你的代码调用了 sys.exit()；测试需要它正常返回。",
    "error.not_allowed": "你的代码尝试了评分器不允许的操作（网络、新进程、信号或访问自身目录以外的文件）。",
    "error.raised": "你的代码抛出了 {kind}：{message}",
    "judge.passed": "通过。",
    "judge.not_finished": "该测试没有运行完。",
    "judge.what_name": "模块级名字",
    "judge.what_function": "函数",
    "judge.what_class": "类",
    "judge.undefined": "你的代码没有定义{what} `{name}`。",
    "judge.raised_open": "`{fn}` 抛出了 {kind}：{message}",
    "judge.should_raise": "此处 `{fn}` 应当抛出 {expected}，但它正常返回了。",
    "judge.raised_other": "`{fn}` 抛出了 {name}，应为 {expected}。",
    "run.not_run": "未运行。",
    "run.syntax_error": "语法错误：{message}",
    "run.while_loading": "{message}（加载代码时）",
    "run.summary": "通过 {passed}/{total} 项测试；得分 {score:g}/{top:g}。",
    "explain.same_mistake": "与“{name}”中的错误相同。",
    "explain.same_problem": "与“{name}”中的问题相同。",
}
