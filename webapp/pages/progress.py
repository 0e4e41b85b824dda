"""Progress page: the learner's best score per exercise, their history, reloading old code, and
the recovery code that carries a guest's work to another browser.

Everything here is looked up by the owner's opaque id (this browser's key, a recovery code
linked to it, or a verified sign-in), never by the typed name.
"""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr
import pandas as pd

from gradebook import Learner
from gradebook import identity as ids
from gradebook.csv_export import number
from webapp.i18n import input_error, tr
from webapp.lab import Lab
from webapp.pages import sign_in
from webapp.pages.common import friendly, lang_of, t
from webapp.services import submissions
from webapp.serving.ratelimit import locked_message
from webapp.views import gradebook_tables
from webapp.views.exercise_list import exercise_title
from webapp.views.report_view import empty_results, status_name


@dataclass
class ProgressPage:
    """What connect_editor() needs from build()."""

    pick: gr.Textbox
    load: gr.Button
    status: gr.Markdown
    who: list  # identity inputs: [label box, browser key]


def owner(lab: Lab, key: str | None, profile: gr.OAuthProfile | None, session: str | None = None) -> Learner:
    """Whose history this browser may open: the label plays no part (it cannot be refused).
    ``session``: the page session, for a click that races the first page load's key."""
    return sign_in.learner(lab, None, key, profile, session)


def tables(lab: Lab, key: str | None, profile: gr.OAuthProfile | None, lang: str = "en",
           session: str | None = None):
    """(best-score frame, history frame) of this browser's (or signed-in account's) work; the
    best scores in the exercises' own order (they came alphabetically: 1, 3, 2...)."""
    who = owner(lab, key, profile, session)
    book = lab.submitter.book
    best = in_exercise_order(gradebook_tables.best_frame(book, who.id, lang))
    return (readable(best, lang), readable(gradebook_tables.history_frame(book, who.id, lang), lang))


def in_exercise_order(best: pd.DataFrame) -> pd.DataFrame:
    """Best-score rows sorted by the exercises' numbers (unknown exercises last)."""
    if best.empty:
        return best
    order = {ex: i for i, ex in enumerate(submissions.exercise_ids())}
    rank = [order.get(str(ex), len(order)) for ex in best.iloc[:, 0]]
    return best.iloc[sorted(range(len(best)), key=lambda i: rank[i])].reset_index(drop=True)


def comments_text(lab: Lab, learner_id: str | None, lang: str, limit: int = 10) -> str:
    """The teacher's newest comments to this learner, as Markdown showing their text as is."""
    from webapp.views.markdown import md_literal

    book = lab.submitter.book
    found = book.comments(learner_id, limit=limit)
    lines = scores_lines(book, learner_id, lang)
    if not found:
        return "\n".join(lines)
    if lines:
        lines.append("")
    lines.append(f"**{tr('progress.comments', lang)}**")
    for c in found:
        about = exercise_title(c.exercise, lang) if c.exercise else tr("lp.general", lang)
        text = "  \n  ".join(md_literal(line) for line in c.text.splitlines())
        lines.append(f"- *{md_literal(about)}*, {c.at[:16].replace('T', ' ')} UTC:  \n  {text}")
    return "\n".join(lines)


def scores_lines(book, learner_id: str | None, lang: str) -> list[str]:
    """The scores the teacher set for this learner (in place of the graded best), with the
    graded one and the teacher's note, as Markdown lines; none when there are none."""
    from webapp.views.markdown import md_literal

    if not learner_id:
        return []
    graded = {b.exercise: b.graded for b in book.best_scores(learner_id=learner_id)}
    lines = []
    for (_, ex), o in sorted(book.score_overrides(learner_id).items()):
        line = tr("progress.score_line", lang, exercise=exercise_title(ex, lang),
                  score=number(o.score), max=number(o.max_score),
                  graded=number(graded.get(ex) or 0))
        # each line's leading spaces dropped: four of them made a Markdown code block (red team)
        note = "  \n  ".join(md_literal(part.lstrip()) for part in o.note.splitlines())
        colon = "：" if lang == "zh" else ":"
        lines.append(f"- {md_literal(line)}" + (f"{colon}  \n  {note}" if note else ""))
    return [f"**{tr('progress.scores', lang)}**", *lines] if lines else []


def total_line(best: pd.DataFrame, lang: str) -> str:
    """The learner's total over the exercises: points, how many tried and at full marks."""
    if best.empty:
        return ""
    score, top = float(best.iloc[:, 1].sum()), float(best.iloc[:, 2].sum())
    full = int((best.iloc[:, 1] >= best.iloc[:, 2]).sum())
    return tr("progress.total", lang, score=f"{score:g}", max=f"{top:g}", tried=len(best),
              n=len(submissions.exercise_ids()), full=full)


def readable(frame: pd.DataFrame, lang: str) -> pd.DataFrame:
    """The learner's view of a gradebook table: exercise titles instead of ids, statuses in
    their language (the gradebook keeps ids and status keys; only the display changes)."""
    frame = frame.copy()
    exercise, status = tr("table.exercise", lang), tr("table.status", lang)
    if exercise in frame:
        frame[exercise] = [exercise_title(str(e), lang) for e in frame[exercise]]
    if status in frame:
        frame[status] = [status_name(str(v), lang) for v in frame[status]]
    return frame


def own_code(lab: Lab, key: str | None, profile: gr.OAuthProfile | None, submission_id,
             session: str | None = None) -> tuple[str, str]:
    """(exercise, code) of one of this visitor's own submissions; ValueError otherwise."""
    return gradebook_tables.own_submission(lab.submitter.book, owner(lab, key, profile, session).id,
                                          pick_number(submission_id))


def clicked_submission(row_value, cell_value=None) -> int:
    """The submission number of a clicked history row (its first cell, the # column); the
    clicked cell itself when Gradio sent no row. ValueError for a row without one (the
    placeholder row of an empty table)."""
    first = row_value[0] if row_value else cell_value
    try:
        return int(float(str(first).strip()))
    except (TypeError, ValueError):
        raise input_error("submission_choose") from None


def pick_number(submission_id) -> str:
    """The typed "Submission #" as text; a plain sentence (not Python's repr of '') when empty."""
    text = "" if submission_id is None else str(submission_id).strip().lstrip("#").strip()
    if not text:
        raise input_error("submission_choose")
    return text


def _guest_asking(lab: Lab, key: str | None, profile: gr.OAuthProfile | None, lang: str,
                  session: str | None) -> tuple[Learner, str]:
    """(whose work, the hash of the asking browser's key) for the recovery buttons: a guest's
    only (a signed-in learner's other browsers are Hugging Face's sessions, not ours)."""
    who = owner(lab, key, profile, session)
    if who.kind == "member":  # the class link is the way back (a new code would break it)
        raise ValueError(tr("recovery.member", lang))
    if who.kind != "guest":
        raise ValueError(tr("recovery.signed_in", lang))
    return who, ids.key_hash(str(sign_in.key_for(lab, key, session)))


def new_recovery_code(lab: Lab, key: str | None, profile: gr.OAuthProfile | None, lang: str = "en",
                      session: str | None = None) -> str:
    """A fresh recovery code for this guest (only its hash is stored). The old one stops
    working, and every other browser that used a code is signed out (issue 19, F4: a leaked
    code used to stay good for any browser that had already linked with it); this browser
    stays, whether it made the work or linked to it."""
    who, asking = _guest_asking(lab, key, profile, lang, session)
    code = ids.new_recovery_code()
    lab.submitter.book.renew_recovery(who.id, ids.recovery_hash(code), keep=asking)
    return code


def sign_out_others(lab: Lab, key: str | None, profile: gr.OAuthProfile | None, lang: str = "en",
                    session: str | None = None) -> str:
    """End every other browser's link to this guest's work (the code stays as it is); the
    message to show."""
    who, asking = _guest_asking(lab, key, profile, lang, session)
    ended = lab.submitter.book.unlink_browsers(who.id, keep=asking)
    return tr("recovery.signed_out", lang, n=ended) if ended else tr("recovery.none_out", lang)


def use_recovery_code(lab: Lab, code: str | None, key: str | None, address: str, lang: str = "en",
                      session: str | None = None) -> str:
    """Link this browser's key to the learner whose recovery code this is; the message to show."""
    key = sign_in.key_for(lab, key, session)
    if not ids.valid_browser_key(key):
        raise ValueError(tr("recovery.no_key", lang))
    book = lab.submitter.book
    found: list[str] = []

    def verify() -> bool:  # links only while the code is the learner's current one
        raw = ids.normalise_recovery_code(code)
        target = book.link_browser_by_code(ids.key_hash(str(key)), ids.recovery_hash(raw)) \
            if raw else None
        found.extend([target] if target else [])
        return bool(target)

    # Counted per browser (the key checked above), not per address: one learner's wrong codes
    # locked every classmate behind the school's address out of recovery (issue 29). A code
    # has 100 bits, so guessing stays hopeless however many keys a guesser mints.
    ok, wait = lab.serving.recovery_tries.attempt(
        f"recovery:{ids.key_hash(str(key))[:24]}", verify)
    if not ok:
        raise ValueError(locked_message(wait)[lang] if wait > 0 else tr("recovery.wrong", lang))
    from webapp.views.gradebook_lang import show_label
    from webapp.views.markdown import md_literal

    member = book.member_name(found[0])  # a class link typed here joins too: say its name
    rows = [] if member else book.history(learner_id=found[0], limit=1)
    name = md_literal(member) if member else show_label(rows[0].learner, lang) if rows \
        else found[0]
    return tr("recovery.used", lang, name=name)


def recovered_name(lab: Lab, key: str | None, session: str | None = None) -> str | None:
    """The name this browser's learner last submitted under (a guest label without its
    " (guest)"), for the label box after a recovery code linked it: the label used to stay
    empty and the learner's next rows read "anonymous" beside their named ones. None when they
    never gave one."""
    who = sign_in.learner(lab, None, key, None, session)
    rows = lab.submitter.book.history(learner_id=who.id, limit=1)
    label = rows[0].learner if rows else ""
    if not label.endswith(ids.GUEST_SUFFIX):
        return None
    return label[: -len(ids.GUEST_SUFFIX)].strip() or None


def build(lab: Lab, learner: sign_in.Identity, tab: gr.Tab | None = None) -> ProgressPage:
    """Lay out the page inside the current gr.Tab; connect_editor() wires the reload button.
    With its ``tab``, the tables refresh themselves whenever the learner opens the page."""
    who = learner.inputs()  # the label box and browser key above the tabs
    gr.Markdown(t("progress.intro"))
    refresh = gr.Button(t("progress.refresh"), elem_id="progress-refresh")
    best = gr.Dataframe(label=t("progress.best"), interactive=False, elem_id="progress-best")
    history = gr.Dataframe(label=t("progress.history"), interactive=False, wrap=True,
                           elem_id="progress-history")
    with gr.Row():
        pick = gr.Textbox(label=t("progress.pick"), max_length=12, scale=1, elem_id="progress-pick")
        load = gr.Button(t("progress.load"), variant="primary", scale=1, elem_id="progress-load")
    preview = gr.Code(language="python", lines=10, interactive=False, label=t("progress.preview"),
                      elem_id="progress-preview")
    status = gr.Markdown(elem_id="progress-status")
    with gr.Accordion(t("progress.recovery"), open=False, elem_id="progress-recovery"):
        gr.Markdown(t("progress.recovery_help"))
        with gr.Row():
            new = gr.Button(t("progress.recovery_new"), elem_id="recovery-new")
            shown = gr.Textbox(label=t("progress.recovery_code"), interactive=False,
                               buttons=["copy"], elem_id="recovery-code")
        with gr.Row():
            typed_code = gr.Textbox(label=t("progress.recovery_enter"), max_length=64,
                                    elem_id="recovery-enter")
            use = gr.Button(t("progress.recovery_use"), variant="primary", elem_id="recovery-use")
        gr.Markdown(t("progress.sign_out_help"))
        sign_out = gr.Button(t("progress.sign_out"), elem_id="recovery-sign-out")
        rec_status = gr.Markdown(elem_id="recovery-status")

    # Gradio injects Request and OAuthProfile by type hint; friendly() turns errors into text.
    @friendly(3)
    def on_refresh(_typed, key, request: gr.Request, profile: gr.OAuthProfile | None):
        lang = lang_of(request)
        best, history = tables(lab, key, profile, lang, request.session_hash)
        said = comments_text(lab, owner(lab, key, profile, request.session_hash).id, lang)
        return best, history, "\n\n".join(x for x in (total_line(best, lang), said) if x)

    @friendly(2)
    def on_pick(_typed, key, sub_id, request: gr.Request, profile: gr.OAuthProfile | None):
        return own_code(lab, key, profile, sub_id, request.session_hash)[1], ""

    @friendly(3)
    def on_row(_typed, key, evt: gr.SelectData, request: gr.Request,
               profile: gr.OAuthProfile | None):
        lang = lang_of(request)
        sub_id = clicked_submission(evt.row_value, evt.value)
        ex_id, code = own_code(lab, key, profile, sub_id, request.session_hash)
        return str(sub_id), code, tr("progress.row_picked", lang, id=sub_id,
                                     exercise=exercise_title(ex_id, lang))

    @friendly(2)
    def on_new(_typed, key, request: gr.Request, profile: gr.OAuthProfile | None):
        lang = lang_of(request)
        return new_recovery_code(lab, key, profile, lang, request.session_hash), tr("recovery.shown", lang)

    @friendly(1)
    def on_sign_out(_typed, key, request: gr.Request, profile: gr.OAuthProfile | None):
        return sign_out_others(lab, key, profile, lang_of(request), request.session_hash)

    @friendly(6)
    def on_use(_typed, key, code, request: gr.Request, profile: gr.OAuthProfile | None):
        lang = lang_of(request)
        text = use_recovery_code(lab, code, key, sign_in.address_of(lab, request), lang,
                                 request.session_hash)
        name = recovered_name(lab, key, request.session_hash)  # the learner's label comes along
        if name is None:
            label = (gr.skip(), gr.skip(), gr.skip())
        else:
            label = (name, name, sign_in.describe(lab, name, profile, lang))
        return (*label, *tables(lab, key, profile, lang, request.session_hash), text)

    # Private events are still reachable over raw HTTP: what protects them is the browser key.
    ui = dict(api_visibility="private")
    triggers = [refresh.click, who[0].blur, who[0].submit] + ([tab.select] if tab else [])
    gr.on(triggers, on_refresh, who, [best, history, status], **ui)
    pick.submit(on_pick, [*who, pick], [preview, status], **ui)
    # A click on any cell of a history row picks that submission: its number and its code.
    history.select(on_row, who, [pick, preview, status], **ui)
    new.click(on_new, who, [shown, rec_status], **ui)
    sign_out.click(on_sign_out, who, [rec_status], **ui)
    gr.on([use.click, typed_code.submit], on_use, [*who, typed_code],
          [learner.name, learner.stored, learner.status, best, history, rec_status], **ui)
    return ProgressPage(pick=pick, load=load, status=status, who=who)


def connect_editor(lab: Lab, page: ProgressPage, editor, tabs: gr.Tabs | None = None,
                   tab_id: str = "exercises") -> None:
    """Wire "Load into the exercise editor": it keeps the editor's unsaved code as a draft, sets
    the Exercises page's dropdown and code, clears the verdict of other code (and switches to
    that tab). Call inside the same gr.Blocks, after both pages are built.

    The Exercises page must reset the code to the starter on *user* choice only
    (`exercise.input`), or the programmatic dropdown change would overwrite the loaded code.
    """
    from webapp.pages.exercises import keep_draft

    n_out = 8 if tabs is not None else 7

    @friendly(n_out)
    def on_load(_typed, key, sub_id, was, code, kept, request: gr.Request,
                profile: gr.OAuthProfile | None):
        ex_id, text = own_code(lab, key, profile, sub_id, request.session_hash)
        kept = keep_draft(kept, was, code)  # the learner's unsaved work stays one choice away
        switch = (gr.Tabs(selected=tab_id),) if tabs is not None else ()
        # the table keeps its headers, in the page's language (None drew "1 2 3")
        return (ex_id, text, ex_id, kept, "", empty_results(lang_of(request)), *switch, "")

    outputs = [editor.exercise, editor.code, editor.shown, editor.drafts, editor.score,
               editor.tests] + ([tabs] if tabs is not None else []) + [page.status]
    page.load.click(on_load, [*page.who, page.pick, editor.shown, editor.code, editor.drafts],
                    outputs, api_visibility="private")
