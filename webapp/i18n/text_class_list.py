"""What the class list says: the teacher's paste box and links, a learner joining by their
link, and the class view's count of who has not started (en + zh-CN)."""

from __future__ import annotations

EN: dict[str, str] = {
    "roster.title": "Class list and join links",
    "roster.help": (
        "Paste your class's names, one per line (a spreadsheet's name column works). Each name "
        "gets its own join link: give each learner theirs. Whoever opens a link is on your class "
        "list from then on: their work is kept under that name in every browser that opened it, "
        "the grid below shows who has not started, and when the school's network is busy they "
        "are graded before anyone the app cannot tell apart from a student's extra keys. Pasting "
        "the list again shows the same links."),
    "roster.names": "Names, one per line",
    "roster.renew": "Make new links for these names (the old links stop working, and browsers "
                    "that joined with them leave the class list)",
    "roster.add": "Add to the class list",
    "roster.show": "Show the class list",
    "roster.links": "Join links (name, then link): copy them into a spreadsheet or a message",
    "roster.table": "On the class list",
    "roster.col.name": "Name",
    "roster.col.browsers": "Browsers joined",
    "roster.col.link": "Join link",
    "roster.done": "{added} added, {kept} already on the list, {renewed} with new links; "
                   "{total} on the class list.",
    "roster.none_yet": "Nobody is on the class list yet.",
    "roster.count": "{total} on the class list.",
    "roster.line": "Line {line}: {why}",
    "roster.empty": "No names: write one name per line.",
    "roster.too_long": "The list is too long: at most {n} characters at a time.",
    "roster.too_many": "At most {n} names at a time: add the rest in a second paste.",
    "roster.full": "The class list holds at most {n} names: “{name}” and the names after it were "
                   "not added.",
    "roster.no_letters": "“{name}” has no letters or digits.",
    "roster.twice": "“{name}” is already on line {first}: add something to tell them apart "
                    "(a class number, a second initial).",
    "join.ok": "You are on the class list as **{name}**. Your work is kept under this name; "
               "open the same link in another browser to continue there.",
    "join.bad": "⚠️ This class link is not valid (your teacher may have made a new one): ask your "
                "teacher for your link. You can still work here as a guest.",
    "join.switched": "⚠️ This browser was on the class list as **{old}**; it is now **{name}**. "
                     "If this link is not yours, open your own class link (ask your teacher).",
    "join.bad_member": "⚠️ This class link is not valid (your teacher may have made a new one). "
                       "This browser stays on the class list as **{name}**.",
    "who.member": "You are on the class list as **{name}**: your teacher sees your work under "
                  "this name, in every browser that opened your class link.",
    "recovery.member": "You are on the class list: to continue in another browser, open your "
                       "class link there (ask your teacher if you lost it).",
    "cv.roster_status": "{started} of {listed} on the class list have submitted.",
    "cv.roster_waiting": "Not started yet: {names}.",
    "cv.roster_more": "{names} and {n} more",
}

ZH: dict[str, str] = {
    "roster.title": "班级名单与加入链接",
    "roster.help": (
        "粘贴班级名单，每行一个名字（可直接复制表格中的姓名列）。每个名字都会得到专属的加入链接，"
        "请把链接分别发给对应的学生。打开链接的学生从此就在班级名单上：在打开过该链接的每个浏览器中，"
        "作业都记在这个名字下；下方表格会显示谁还没有开始；学校网络繁忙时，他们会排在无法与"
        "某个学生多开的密钥区分开的人之前评分。再次粘贴同一份名单会显示相同的链接。"),
    "roster.names": "名字，每行一个",
    "roster.renew": "为这些名字生成新链接（旧链接失效，用旧链接加入的浏览器会离开班级名单）",
    "roster.add": "加入班级名单",
    "roster.show": "显示班级名单",
    "roster.links": "加入链接（名字，然后是链接）：可复制到表格或消息中",
    "roster.table": "班级名单",
    "roster.col.name": "名字",
    "roster.col.browsers": "已加入的浏览器",
    "roster.col.link": "加入链接",
    "roster.done": "新加入 {added} 人，已在名单上 {kept} 人，生成新链接 {renewed} 人；"
                   "班级名单共 {total} 人。",
    "roster.none_yet": "班级名单上还没有人。",
    "roster.count": "班级名单共 {total} 人。",
    "roster.line": "第 {line} 行：{why}",
    "roster.empty": "没有名字：请每行写一个名字。",
    "roster.too_long": "名单太长：一次最多 {n} 个字符。",
    "roster.too_many": "一次最多 {n} 个名字：其余的请再粘贴一次。",
    "roster.full": "班级名单最多 {n} 个名字：“{name}”及其后的名字没有加入。",
    "roster.no_letters": "“{name}”中没有字母或数字。",
    "roster.twice": "“{name}”已在第 {first} 行：请加上能区分两人的内容（如学号、第二个首字母）。",
    "join.ok": "你已在班级名单上，名字是 **{name}**。作业会记在这个名字下；在其他浏览器中打开"
               "同一链接即可在那里继续。",
    "join.bad": "⚠️ 此班级链接无效（老师可能已生成新链接）：请向老师索取你的链接。你仍可以访客身份"
                "在这里学习。",
    "join.switched": "⚠️ 此浏览器原来在班级名单上的名字是 **{old}**，现在是 **{name}**。如果这不是你的链接，"
                     "请打开你自己的班级链接（向老师索取）。",
    "join.bad_member": "⚠️ 此班级链接无效（老师可能已生成新链接）。此浏览器在班级名单上的名字仍是 **{name}**。",
    "who.member": "你在班级名单上，名字是 **{name}**：在打开过你的班级链接的每个浏览器中，老师都会"
                  "在这个名字下看到你的作业。",
    "recovery.member": "你在班级名单上：要在另一个浏览器中继续，请在那里打开你的班级链接"
                       "（如果丢失了，请向老师索取）。",
    "cv.roster_status": "班级名单上 {listed} 人中已有 {started} 人提交。",
    "cv.roster_waiting": "尚未开始：{names}。",
    "cv.roster_more": "{names} 等另外 {n} 人",
}
