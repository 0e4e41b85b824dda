"""Interface text of the gradebook pages (who is submitting, Progress, instructor), en + zh-CN."""

from __future__ import annotations

EN: dict[str, str] = {
    "tab.progress": "My progress",
    "tab.instructor": "Instructor",
    "who.name": "Your name for the gradebook (a label only)",
    "who.placeholder": "e.g. Ada Lovelace: leave empty to stay anonymous",
    "who.signed_in": "Signed in as **{name}**: your work is kept under your Hugging Face account.",
    "who.guest": "Your work is kept in **this browser** and your instructor sees it as **{name}**. "
                 "The name is only a label: typing someone's name never shows their work. "
                 "To continue in another browser, use your recovery code (My progress).",
    "who.anonymous": "No name given: your work is kept in this browser and your instructor "
                     "sees it as **anonymous**. Enter a name so they know it is you.",
    "who.loading": "Preparing this browser's learner key…",
    "progress.intro": "Your best score per exercise and every submission you made from this "
                      "browser (or your signed-in account). Click a row of your history (or type "
                      "its number) to see its code, then load it back into the editor.",
    "progress.row_picked": "Submission #{id} ({exercise}): its code is shown above. Press *Load "
                           "into the exercise editor* to continue from it.",
    "progress.recovery": "Continue in another browser",
    "progress.recovery_help": "Your work belongs to this browser. To carry it to another "
                              "browser, show your personal recovery code here, copy it, and "
                              "enter it there. Keep it private: whoever has it sees your work. "
                              "Showing a new code cancels the previous one and signs out every "
                              "other browser that used a code (this one stays).",
    "progress.recovery_new": "Show a new recovery code",
    "progress.recovery_code": "Your recovery code (copy it now: it is shown only once)",
    "progress.recovery_enter": "Recovery code from your other browser",
    "progress.recovery_use": "Use this code in this browser",
    "recovery.shown": "Copy this code now and keep it private; it is not stored in readable "
                      "form and will not be shown again. Any earlier code no longer works.",
    "recovery.signed_in": "You are signed in with Hugging Face: sign in on the other browser "
                          "instead; no recovery code is needed.",
    "recovery.used": "This browser now continues your work (**{name}**).",
    "recovery.wrong": "That recovery code is not valid (or a newer one replaced it).",
    "recovery.no_key": "This browser has no learner key yet: reload the page and try again.",
    "progress.sign_out_help": "A browser you do not know can see your work? Sign out every other "
                              "browser that used a recovery code. Your code stays valid, so if it "
                              "may have leaked, show a new code instead: that does both.",
    "progress.sign_out": "Sign out other browsers",
    "recovery.signed_out": "Other browsers signed out: {n}. They no longer see your work; this "
                           "browser stays.",
    "recovery.none_out": "No other browser was using your recovery code.",
    "progress.refresh": "Refresh",
    "progress.best": "Best score per exercise",
    "progress.history": "History (newest first)",
    "progress.pick": "Submission #",
    "progress.preview": "Code of that submission",
    "progress.load": "Load into the exercise editor",
    "instructor.disabled": "The instructor view is disabled: on a Space with Hugging Face "
                           "sign-in set `LAB_INSTRUCTORS` (instructors' usernames); elsewhere set "
                           "the secret `LAB_INSTRUCTOR_PASSWORD` (at least 12 characters) on the "
                           "server.",
    "instructor.intro": "Everyone's scores. Enter the instructor password. Every view and "
                        "export is logged (who and when). The *source* column says who a row "
                        "belongs to: a signed-in learner (verified), a guest (one browser), or "
                        "an **API label** (\"… (api)\", id \"api:…\"): unverified, anyone "
                        "may send any name through the API and all of them share that row.",
    "instructor.intro_oauth": "Everyone's scores, for the instructors listed on this Space. "
                              "Sign in with Hugging Face (button at the top). Every view and "
                              "export is logged (who and when). Rows labelled \"… (api)\" "
                              "(id \"api:…\") came through the API under a name nobody "
                              "verified.",
    "instructor.password": "Instructor password",
    "instructor.open": "Show scores",
    "instructor.export": "Export CSV",
    "instructor.code": "Include the code in the CSV",
    "instructor.table": "Best score of every learner",
    "instructor.csv": "CSV of every submission",
    "instructor.log": "Instructor access log (newest first)",
    # Instructor refusals and results (webapp/pages/instructor.py)
    "instructor.off": "The instructor view is disabled on this server.",
    "instructor.sign_in": "Sign in with Hugging Face first (button at the top).",
    "instructor.not_listed": "{user} is not on this Space's instructor list.",
    "instructor.wrong": "Wrong password.",
    "instructor.count": "{rows} submissions from {learners} learners.",
    "instructor.exported": "CSV exported.",
    "instructor.exported_for": "CSV exported. The link below works for {minutes} min; then the "
                               "file is deleted and you press Export CSV again.",
    "instructor.expired": "The export's link has expired and its file is deleted (it held "
                          "learners' data). Press Export CSV to make a new one.",
    # What the gradebook stores, as a page shows it (webapp/views/gradebook_lang.py). The
    # English text is the stored value itself: labels, sources, access-log words.
    "gb.suffix.guest": " (guest)",
    "gb.suffix.api": " (api)",
    "gb.anonymous": "anonymous",
    "gb.col.learner": "learner",
    "gb.col.learner_id": "learner id",
    "gb.col.source": "source",
    "gb.col.best_id": "best #",
    "gb.col.first_best_at": "first best at",
    "gb.col.last_at": "last at",
    "gb.col.when": "when",
    "gb.col.who": "who",
    "gb.col.action": "action",
    "gb.col.detail": "detail",
    "gb.source.before_ids": "before ids (unverified)",
    "gb.source.signed_in": "signed in (verified)",
    "gb.source.guest": "guest (one browser)",
    "gb.source.api": "API (unverified label)",
    "gb.source.unknown": "unknown",
    "gb.action.view": "view",
    "gb.action.export": "export",
    "gb.action.refused": "refused",
    "gb.detail.best_scores": "best scores",
    "gb.detail.csv": "csv",
    "gb.detail.csv_code": "csv with code",
    "gb.detail.wrong_password": "wrong password",
    "gb.detail.not_listed": "not on LAB_INSTRUCTORS",
    "gb.who.password": "password from {address}",
    # The starters' "not written yet" and a traceback line, as a results table shows them
    "gb.starter.not_written": "`{name}`{extra} is not written yet{numbers}",
    "gb.starter.valid_lens": " with valid_lens",
    "gb.starter.numbers": " (d_k = {d_k}, scale {scale})",
    "gb.trace.line": "`{file}` line {line}, in `{fn}`",
}

ZH: dict[str, str] = {
    "tab.progress": "我的进度",
    "tab.instructor": "教师",
    "who.name": "你在成绩册中的名字（仅作标签）",
    "who.placeholder": "例如 Ada Lovelace；留空则保持匿名",
    "who.signed_in": "已登录为 **{name}**：你的作业保存在你的 Hugging Face 账号下。",
    "who.guest": "你的作业保存在**本浏览器**中，教师看到的名字是 **{name}**。名字只是标签："
                 "输入别人的名字并不能看到他们的作业。要在其他浏览器中继续，请使用恢复码（见“我的进度”）。",
    "who.anonymous": "未填写名字：你的作业保存在本浏览器中，教师看到的是 **匿名**。"
                     "请输入名字，方便教师认出你。",
    "who.loading": "正在为本浏览器生成学习者密钥……",
    "progress.intro": "本浏览器（或你登录的账号）中每个练习的最高分以及全部提交。"
                      "点击历史记录中的一行（或输入它的编号）即可查看它的代码，再把它重新载入编辑器。",
    "progress.row_picked": "第 {id} 号提交（{exercise}）：它的代码显示在上方。点击“载入练习编辑器”即可从它继续。",
    "progress.recovery": "在其他浏览器中继续",
    "progress.recovery_help": "你的作业属于本浏览器。要带到其他浏览器，请在这里显示你的个人恢复码，"
                              "复制后在那边输入。请妥善保管：拿到它的人就能看到你的作业。"
                              "显示新的恢复码会让旧的失效，并让其他用过恢复码的浏览器全部退出（本浏览器除外）。",
    "progress.recovery_new": "显示新的恢复码",
    "progress.recovery_code": "你的恢复码（请立即复制：只显示一次）",
    "progress.recovery_enter": "来自另一个浏览器的恢复码",
    "progress.recovery_use": "在本浏览器中使用此恢复码",
    "recovery.shown": "请立即复制并妥善保管此恢复码；服务器不保存其明文，之后不会再次显示。之前的恢复码已失效。",
    "recovery.signed_in": "你已通过 Hugging Face 登录：在另一个浏览器中登录即可，无需恢复码。",
    "recovery.used": "本浏览器现在继续你的作业（**{name}**）。",
    "recovery.wrong": "该恢复码无效（或已被新的恢复码取代）。",
    "recovery.no_key": "此浏览器尚未生成学习者密钥：请刷新页面后重试。",
    "progress.sign_out_help": "有不认识的浏览器能看到你的作业？可以让其他用过恢复码的浏览器全部退出。"
                              "你的恢复码仍然有效；如果它可能已经泄露，请改为显示新的恢复码：这样两件事都会完成。",
    "progress.sign_out": "让其他浏览器退出",
    "recovery.signed_out": "已让 {n} 个其他浏览器退出：它们不再能看到你的作业；本浏览器不受影响。",
    "recovery.none_out": "没有其他浏览器在使用你的恢复码。",
    "progress.refresh": "刷新",
    "progress.best": "各练习最高分",
    "progress.history": "历史记录（最新在前）",
    "progress.pick": "提交编号",
    "progress.preview": "该次提交的代码",
    "progress.load": "载入练习编辑器",
    "instructor.disabled": "教师视图未启用：在启用 Hugging Face 登录的 Space 上请设置 "
                           "`LAB_INSTRUCTORS`（教师的用户名）；其他情况下请在服务器上设置密钥 "
                           "`LAB_INSTRUCTOR_PASSWORD`（至少 12 个字符）。",
    "instructor.intro": "所有学习者的成绩。请输入教师密码。每次查看和导出都会被记录（谁、何时）。"
                        "“来源”一列说明每行属于谁：已登录的学习者（已验证）、访客（某个浏览器），"
                        "或 **API 标签**（“…（API）”，编号 `api:…`）：未经验证，任何人都可以通过 "
                        "API 使用任意名字，且共用同一行。",
    "instructor.intro_oauth": "所有学习者的成绩，仅限本 Space 列出的教师。请用 Hugging Face 登录"
                              "（页面顶部的按钮）。每次查看和导出都会被记录（谁、何时）。标为 “…（API）”"
                              "（编号 `api:…`）的行来自 API，其名字未经任何验证。",
    "instructor.password": "教师密码",
    "instructor.open": "显示成绩",
    "instructor.export": "导出 CSV",
    "instructor.code": "CSV 中包含代码",
    "instructor.table": "每位学习者的最高分",
    "instructor.csv": "全部提交的 CSV",
    "instructor.log": "教师访问记录（最新在前）",
    "instructor.off": "此服务器未启用教师视图。",
    "instructor.sign_in": "请先用 Hugging Face 登录（页面顶部的按钮）。",
    "instructor.not_listed": "{user} 不在本 Space 的教师名单中。",
    "instructor.wrong": "密码错误。",
    "instructor.count": "{rows} 次提交，{learners} 位学习者。",
    "instructor.exported": "已导出 CSV。",
    "instructor.exported_for": "已导出 CSV。下方链接在 {minutes} 分钟内有效；之后文件会被删除，需要再按一次“导出 CSV”。",
    "instructor.expired": "导出链接已过期，文件已删除（其中含有学习者的数据）。请再按一次“导出 CSV”生成新的文件。",
    "gb.suffix.guest": "（访客）",
    "gb.suffix.api": "（API）",
    "gb.anonymous": "匿名",
    "gb.col.learner": "学习者",
    "gb.col.learner_id": "学习者编号",
    "gb.col.source": "来源",
    "gb.col.best_id": "最高分提交编号",
    "gb.col.first_best_at": "首次最高分时间",
    "gb.col.last_at": "最近提交时间",
    "gb.col.when": "时间",
    "gb.col.who": "谁",
    "gb.col.action": "操作",
    "gb.col.detail": "详情",
    "gb.source.before_ids": "编号启用之前（未验证）",
    "gb.source.signed_in": "已登录（已验证）",
    "gb.source.guest": "访客（某个浏览器）",
    "gb.source.api": "API 标签（未验证）",
    "gb.source.unknown": "未知",
    "gb.action.view": "查看",
    "gb.action.export": "导出",
    "gb.action.refused": "被拒绝",
    "gb.detail.best_scores": "最高分",
    "gb.detail.csv": "CSV",
    "gb.detail.csv_code": "CSV（含代码）",
    "gb.detail.wrong_password": "密码错误",
    "gb.detail.not_listed": "不在 LAB_INSTRUCTORS 名单中",
    "gb.who.password": "密码登录（来自 {address}）",
    "gb.starter.not_written": "`{name}`{extra} 还没有写：这是起始代码中的占位{numbers}",
    "gb.starter.valid_lens": "（带 valid_lens）",
    "gb.starter.numbers": "（d_k = {d_k}，缩放系数 {scale}）",
    "gb.trace.line": "`{file}` 第 {line} 行，`{fn}` 函数中",
}

