"""Text the app's services and views produce at request time: submit refusals, quick checks,
report and gradebook tables, statuses (en + zh-CN, keyed like the rest of the catalogue)."""

from __future__ import annotations

EN: dict[str, str] = {
    # Submit service refusals that come from the app itself (the grader and gradebook word theirs)
    "submit.sandbox_off": "Grading is switched off on this server: its sandbox is weaker than "
                          "required. Please tell your instructor; nothing was stored.",
    "submit.grader_failed": "The grader failed on our side; nothing was stored. Please submit again.",
    "submit.not_stored": "Your code was graded but the result could not be saved. Please submit again.",
    "submit.cancelled": "This submission was cancelled before its turn: nothing was graded or stored.",
    "input.check": "Please check the input: {text}",
    "input.too_large": "{name}, row {row}: {cell} is too large. The page takes numbers up to "
                       "{limit} in size: bigger scores only make the softmax pick one key, and "
                       "past about 1e19 the products overflow float32.",
    "error.kept": "(What is shown below is from the last input that worked.)",
    # The line in front of the grader (webapp.serving.turns): only a flood is refused
    "queue.regrade_waits": "The regrade waits: learners are in the grading line, and they go "
                           "first.",
    "queue.learner_full": "You already have {n} submissions in line; they are graded one after "
                          "the other. Wait for their results before sending more; nothing was "
                          "stored.",
    "queue.address_full": "Your network address already has {n} submissions in line, the most "
                          "one address may have at once (a whole lecture hall fits). Please "
                          "retry in {wait} s; nothing was stored.",
    "queue.full": "The grader's line is full ({n} submissions are waiting). Please retry in "
                  "{wait} s; nothing was stored.",
    "queue.position": "◷ Waiting for the grader: position {position} in the queue, about {eta} s.",
    "limit.body": "This request is larger than {mb} MB; a solution fits in a few kB. Nothing was "
                  "stored.",
    "limit.uploads": "Your network address has uploaded {mb} MB in the last {minutes} min, the "
                     "most it may. Please retry in {wait} s.",
    "limit.locked": "Too many wrong tries. Try again in {wait} s ({minutes} min).",
    "limit.wait_practice": "You have run the public examples {n} times in the last {window} s. "
                           "Please try again in {wait} s; your submissions are not affected.",
    "limit.wait": "You have sent {n} submissions in the last {window} s. Please try again in "
                  "{wait} s; use the time to read the hints of your last result.",
    "queue.grading": "◷ Grading your submission…",
    "queue.new_learners_tab": "This browser tab has started {n} new learners in the last {window} "
                              "min, the most one tab may. Reload the page or retry in {wait} s; "
                              "nothing was stored.",
    "queue.new_learners": "Too many new learners have started from your network address in the "
                          "last {window} min ({n}). Please retry in {wait} s; nothing was stored.",
    # Quick checks
    "quick.head": "Quick check",
    "quick.pick_first": "Pick an answer first.",
    "quick.right": "✓ Right.",
    "quick.wrong": "✗ Not quite.",
    "quick.write_first": "Write your answer in the box first, then reveal.",
    # A report on the Exercises page
    "report.score_line": "Score: {score:g} / {max:g}",
    "ex.recorded_as": "Recorded as submission #{id} (My progress lists it).",
    "report.first_fix": "**First to fix** ({test}): {message}",
    "report.practice_line": "Practice run: {passed} of {n} public examples pass",
    "report.practice_note": "Not graded and not recorded: press Submit to be graded on the hidden "
                            "tests.",
    "report.last_submission": "Your last submission to this exercise ({when} UTC), shown again "
                              "after the page was reloaded:",
    "report.col.test": "test",
    "report.col.result": "result",
    "report.passed": "✓",
    "report.failed": "✗",
    "report.col.score": "score",
    "report.col.max": "max",
    "report.col.message": "message",
    # A stored submission's status (grader/report.py's Report.status)
    "status.graded": "graded",
    "status.syntax_error": "syntax error",
    "status.load_error": "error while loading",
    "status.timeout": "time limit",
    "status.crashed": "crashed",
    "status.malformed": "malformed output",
    "status.output_limit": "too much output",
    "status.result_limit": "result too large",
    # Gradebook tables (Progress; the instructor's table shares exercise, best, max, attempts)
    "table.exercise": "exercise",
    "table.status": "status",
    "table.id": "#",
    "table.best": "best",
    "table.max": "max",
    "table.attempts": "attempts",
    "table.best_id": "best #",
    "table.last_submitted": "last submitted",
    "table.score": "score",
    "table.passed": "tests passed",
    "table.submitted": "submitted",
}

ZH: dict[str, str] = {
    "submit.sandbox_off": "本服务器已关闭评分：其沙箱隔离级别低于要求。请告知你的老师；本次提交未被保存。",
    "submit.grader_failed": "评分器在服务器端出错，本次提交未被保存。请重新提交。",
    "submit.not_stored": "代码已评分，但结果未能保存。请重新提交。",
    "submit.cancelled": "这次提交在轮到它之前已取消：没有评分，也没有保存。",
    "input.check": "输入有误：{text}",
    "input.too_large": "{name} 第 {row} 行：{cell} 太大了。本页接受绝对值不超过 {limit} 的数：更大的分数只会让 softmax "
                       "只选中一个键，而超过约 1e19 时乘积会超出 float32 的范围。",
    "error.kept": "（下方显示的仍是上一次有效输入的结果。）",
    "queue.regrade_waits": "重新评分稍后进行：评分队列里有学习者在排队，他们优先。",
    "queue.learner_full": "你已有 {n} 份提交在排队，它们会依次评分。请等它们出结果后再提交；本次提交未被保存。",
    "queue.address_full": "你所在的网络地址已有 {n} 份提交在排队，这是同一地址同时排队的上限（足够容纳整个阶梯教室）。"
                          "请在 {wait} 秒后重试；本次提交未被保存。",
    "queue.full": "评分队列已满（{n} 份提交在等候）。请在 {wait} 秒后重试；本次提交未被保存。",
    "queue.new_learners_tab": "这个浏览器标签页最近 {window} 分钟内已新开始了 {n} 位学习者，这是一个标签页的上限。"
                              "请刷新页面，或在 {wait} 秒后重试；本次提交未被保存。",
    "queue.new_learners": "最近 {window} 分钟内从你所在的网络地址新开始的学习者过多（{n} 位）。请在 {wait} 秒后重试；"
                          "本次提交未被保存。",
    "queue.position": "◷ 正在排队等待评分：第 {position} 位，预计约 {eta} 秒。",
    "limit.body": "该请求超过 {mb} MB；答案只需几 kB。未保存任何内容。",
    "limit.uploads": "你的网络地址在最近 {minutes} 分钟内已上传 {mb} MB，已达上限。请在 {wait} 秒后再试。",
    "limit.locked": "错误尝试次数过多。请在 {wait} 秒（约 {minutes} 分钟）后再试。",
    "limit.wait_practice": "你在最近 {window} 秒内已运行公开示例 {n} 次。请在 {wait} 秒后再试；这不影响你的提交。",
    "limit.wait": "你在最近 {window} 秒内已提交 {n} 次。请在 {wait} 秒后再试，这段时间可以先看看上一次结果中的提示。",
    "queue.grading": "◷ 正在评分你的提交……",
    "quick.head": "快速检查",
    "quick.pick_first": "请先选择一个答案。",
    "quick.right": "✓ 正确。",
    "quick.wrong": "✗ 不对。",
    "quick.write_first": "请先在框中写下你的答案，再展开解析。",
    "report.score_line": "得分：{score:g} / {max:g}",
    "ex.recorded_as": "已记录为第 {id} 号提交（可在“我的进度”中查看）。",
    "report.first_fix": "**先改这一处**（{test}）：{message}",
    "report.practice_line": "练习运行：{n} 个公开样例中通过 {passed} 个",
    "report.practice_note": "不评分，也不记录：按“提交”才会用隐藏测试评分。",
    "report.last_submission": "这是你上次提交此练习的结果（{when} UTC），页面重新载入后再次显示：",
    "report.col.test": "测试",
    "report.col.result": "结果",
    # CJK fonts (WenQuanYi) draw ✓ like a square-root sign: words say it plainly
    "report.passed": "✓ 通过",
    "report.failed": "✗ 未通过",
    "report.col.score": "得分",
    "report.col.max": "满分",
    "report.col.message": "说明",
    "status.graded": "已评分",
    "status.syntax_error": "语法错误",
    "status.load_error": "加载出错",
    "status.timeout": "超时",
    "status.crashed": "运行崩溃",
    "status.malformed": "输出不合法",
    "status.output_limit": "输出过多",
    "status.result_limit": "结果过大",
    "table.exercise": "练习",
    "table.status": "状态",
    "table.id": "#",
    "table.best": "最高分",
    "table.max": "满分",
    "table.attempts": "提交次数",
    "table.best_id": "最佳提交 #",
    "table.last_submitted": "最近提交",
    "table.score": "得分",
    "table.passed": "通过测试",
    "table.submitted": "提交时间",
}
