"""Interface text of the gradebook pages (who is submitting, Progress, instructor), en + zh-CN."""

from __future__ import annotations

from .text import EN as APP_EN
from .text import ZH as APP_ZH

EN: dict[str, str] = {
    "tab.progress": "My progress",
    "tab.instructor": "Instructor",
    "who.name": "Your name (kept in this browser)",
    "who.placeholder": "e.g. Ada Lovelace: leave empty to submit anonymously",
    "who.signed_in": "Signed in as **{name}**: your submissions are stored under this name.",
    "who.guest": "Your submissions are stored as **{name}**. A typed name is not verified; "
                 "sign in with Hugging Face where the course offers it.",
    "who.anonymous": "Submitting anonymously: scores are graded but you will see no history. "
                     "Enter a name to keep your progress.",
    "progress.intro": "Your best score per exercise and every submission you made. "
                      "Pick a submission number and load its code back into the editor.",
    "progress.refresh": "Refresh",
    "progress.best": "Best score per exercise",
    "progress.history": "History (newest first)",
    "progress.pick": "Submission #",
    "progress.preview": "Code of that submission",
    "progress.load": "Load into the exercise editor",
    "instructor.disabled": "The instructor view is disabled: set the secret "
                           "`LAB_INSTRUCTOR_PASSWORD` on the server to enable it.",
    "instructor.intro": "Everyone's scores. Enter the instructor password.",
    "instructor.password": "Instructor password",
    "instructor.open": "Show scores",
    "instructor.code": "Include the code in the CSV",
    "instructor.table": "Best score of every learner",
    "instructor.csv": "CSV of every submission",
}

ZH: dict[str, str] = {
    "tab.progress": "我的进度",
    "tab.instructor": "教师",
    "who.name": "你的名字（保存在本浏览器中）",
    "who.placeholder": "例如 Ada Lovelace；留空则匿名提交",
    "who.signed_in": "已登录为 **{name}**：你的提交以此名字保存。",
    "who.guest": "你的提交将以 **{name}** 保存。手动输入的名字未经验证；如课程提供，"
                 "请使用 Hugging Face 登录。",
    "who.anonymous": "当前为匿名提交：可以评分，但不会显示历史记录。输入名字即可保存你的进度。",
    "progress.intro": "每个练习的最高分以及你的全部提交。选择一个提交编号，即可把它的代码重新载入编辑器。",
    "progress.refresh": "刷新",
    "progress.best": "各练习最高分",
    "progress.history": "历史记录（最新在前）",
    "progress.pick": "提交编号",
    "progress.preview": "该次提交的代码",
    "progress.load": "载入练习编辑器",
    "instructor.disabled": "教师视图未启用：请在服务器上设置密钥 `LAB_INSTRUCTOR_PASSWORD`。",
    "instructor.intro": "所有学习者的成绩。请输入教师密码。",
    "instructor.password": "教师密码",
    "instructor.open": "显示成绩",
    "instructor.code": "CSV 中包含代码",
    "instructor.table": "每位学习者的最高分",
    "instructor.csv": "全部提交的 CSV",
}


def register() -> None:
    """Add these keys to the app's gr.I18n tables (which hold text.EN / text.ZH by reference)."""
    for table, ours in ((APP_EN, EN), (APP_ZH, ZH)):
        for key, value in ours.items():
            table.setdefault(key, value)


def say(key: str, lang: str, **fields: str) -> str:
    """Server-side text for Markdown built at request time (gr.I18n only translates static text)."""
    return (ZH if lang == "zh" else EN)[key].format(**fields)


register()
