"""Progress page: the learner's best score per exercise, their history, and reloading old code."""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from app_support import gradebook_glue, gradebook_views

from . import identity
from .common import friendly, lang_of, t


@dataclass
class ProgressPage:
    """What connect_editor() needs from the latest build()."""

    pick: gr.Textbox
    load: gr.Button
    status: gr.Markdown
    who: gr.Textbox


CURRENT: ProgressPage | None = None


def tables(typed: str | None, profile: gr.OAuthProfile | None, lang: str = "en"):
    """(best-score frame, history frame) for this visitor; empty for anonymous visitors."""
    learner = identity.stored_learner(typed, profile)
    book = gradebook_glue.gradebook()
    return (gradebook_views.best_frame(book, learner, lang),
            gradebook_views.history_frame(book, learner, lang))


def own_code(typed: str | None, profile: gr.OAuthProfile | None, submission_id) -> tuple[str, str]:
    """(exercise, code) of one of this visitor's own submissions; ValueError otherwise."""
    learner = identity.stored_learner(typed, profile)
    return gradebook_views.own_submission(gradebook_glue.gradebook(), learner, submission_id)


def build() -> None:
    """Lay out the page inside the current gr.Tab; connect_editor() wires the reload button."""
    global CURRENT
    # The name box lives above the tabs (identity.build()); alone, the page gets a hidden one.
    who = identity.CURRENT.name if identity.CURRENT is not None else gr.Textbox(visible=False)
    gr.Markdown(t("progress.intro"))
    refresh = gr.Button(t("progress.refresh"), elem_id="progress-refresh")
    best = gr.Dataframe(label=t("progress.best"), interactive=False, elem_id="progress-best")
    history = gr.Dataframe(label=t("progress.history"), interactive=False, wrap=True,
                           elem_id="progress-history")  # fmt: skip
    with gr.Row():
        pick = gr.Textbox(label=t("progress.pick"), max_length=12, scale=1, elem_id="progress-pick")
        load = gr.Button(t("progress.load"), variant="primary", scale=1, elem_id="progress-load")
    preview = gr.Code(language="python", lines=10, interactive=False, label=t("progress.preview"),
                      elem_id="progress-preview")  # fmt: skip
    status = gr.Markdown(elem_id="progress-status")

    # Gradio injects Request and OAuthProfile by type hint; friendly() turns errors into text.
    @friendly(3)
    def on_refresh(typed, request: gr.Request, profile: gr.OAuthProfile | None):
        return (*tables(typed, profile, lang_of(request)), "")

    @friendly(2)
    def on_pick(typed, sub_id, request: gr.Request, profile: gr.OAuthProfile | None):
        return own_code(typed, profile, sub_id)[1], ""

    ui = dict(api_visibility="private")
    gr.on([refresh.click, who.blur, who.submit], on_refresh, [who], [best, history, status], **ui)
    pick.submit(on_pick, [who, pick], [preview, status], **ui)
    CURRENT = ProgressPage(pick=pick, load=load, status=status, who=who)


def connect_editor(exercise: gr.Dropdown, code: gr.Code, tabs: gr.Tabs | None = None,
                   tab_id: str = "exercises", page: ProgressPage | None = None) -> None:
    """Wire "Load into the exercise editor": it sets the Exercises page's dropdown and code
    (and switches to that tab). Call inside the same gr.Blocks, after both pages are built.

    The Exercises page must reset the code to the starter on *user* choice only
    (`exercise.input`), or the programmatic dropdown change would overwrite the loaded code.
    """
    page = page or CURRENT
    if page is None:
        raise RuntimeError("build() the Progress page before connecting it to the editor")
    n_out = 4 if tabs is not None else 3

    @friendly(n_out)
    def on_load(typed, sub_id, request: gr.Request, profile: gr.OAuthProfile | None):
        ex_id, text = own_code(typed, profile, sub_id)
        switch = (gr.Tabs(selected=tab_id),) if tabs is not None else ()
        return (ex_id, text, *switch, "")

    outputs = [exercise, code] + ([tabs] if tabs is not None else []) + [page.status]
    page.load.click(on_load, [page.who, page.pick], outputs, api_visibility="private")
