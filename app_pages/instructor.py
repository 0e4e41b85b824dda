"""Instructor page: everyone's scores and a CSV export, behind LAB_INSTRUCTOR_PASSWORD."""

from __future__ import annotations

import gradio as gr

from app_support import gradebook_glue, gradebook_views
from grader.gradebook import RateLimiter

from .common import lang_of, t

# Guessing the password is brute force too: a few tries per browser session per minute.
_TRIES = RateLimiter(per_learner=5, window_s=60)


def _refuse(en: str, zh: str, lang: str) -> str:
    return "⚠️ " + (zh if lang == "zh" else en)


def scores(password: str | None, include_code: bool, session_key: str, lang: str = "en"):
    """(everyone's best-score frame, CSV path, message) or (None, None, refusal text)."""
    if not gradebook_views.password_set():
        return None, None, _refuse("The instructor view is disabled on this server.",
                                   "此服务器未启用教师视图。", lang)  # fmt: skip
    ok, wait = _TRIES.check(session_key or "no-session")
    if not ok:
        return None, None, _refuse(f"Too many tries; wait {max(1, round(wait))} s.",
                                   f"尝试次数过多，请等待 {max(1, round(wait))} 秒。", lang)  # fmt: skip
    if not gradebook_views.password_ok(password):
        return None, None, _refuse("Wrong password.", "密码错误。", lang)
    _TRIES.reset(session_key or "no-session")  # a right password clears the count
    book = gradebook_glue.gradebook()
    frame = gradebook_views.everyone_frame(book)
    path = gradebook_views.csv_file(book, include_code=bool(include_code))
    learners, rows = len(book.learners()), book.count()
    text = (f"{rows} 次提交，{learners} 位学习者。" if lang == "zh"
            else f"{rows} submissions from {learners} learners.")  # fmt: skip
    return frame, path, text


def build() -> None:
    """Lay out the page inside the current gr.Tab; without a password set, say it is disabled."""
    if not gradebook_views.password_set():
        gr.Markdown(t("instructor.disabled"), elem_id="instructor-disabled")
        return
    gr.Markdown(t("instructor.intro"))
    with gr.Row():
        password = gr.Textbox(label=t("instructor.password"), type="password", max_length=256,
                              elem_id="instructor-password")  # fmt: skip
        include_code = gr.Checkbox(False, label=t("instructor.code"))
        show = gr.Button(t("instructor.open"), variant="primary", elem_id="instructor-open")
    status = gr.Markdown(elem_id="instructor-status")
    table = gr.Dataframe(label=t("instructor.table"), interactive=False, elem_id="instructor-table")
    csv = gr.File(label=t("instructor.csv"), interactive=False, elem_id="instructor-csv")

    def on_show(pw, with_code, request: gr.Request):
        frame, path, text = scores(pw, with_code, getattr(request, "session_hash", "") or "",
                                   lang_of(request))  # fmt: skip
        if frame is None:
            gr.Warning(text)
            return None, None, text  # a refusal also hides an earlier table and download
        return frame, path, text

    # Private: the scores are reachable only through this page, never as a named API endpoint.
    gr.on([show.click, password.submit], on_show, [password, include_code], [table, csv, status],
          api_visibility="private")  # fmt: skip
