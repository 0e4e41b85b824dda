"""Instructor page: everyone's scores and a CSV export, for instructors only, every use logged.

Who is an instructor:
- on a Space with Hugging Face sign-in and `LAB_INSTRUCTORS` set: the listed usernames, as
  verified by the sign-in; no shared password is accepted there;
- elsewhere, whoever knows `LAB_INSTRUCTOR_PASSWORD` (at least 12 characters, or the app
  refuses to start): compared in constant time, with failed tries limited per client address
  (a new session starts no new count) and across all clients. The overall cap throttles
  strangers to one try per address per 10 minutes; an address or browser that logged in
  before (kept as a keyed hash in the gradebook, so every replica knows it) keeps its own
  allowance. Wrong guesses from many addresses therefore cannot lock the instructor out.

Every view, export and checked refusal is written to the gradebook's access log (who, when).
Below the form the class view (class_view.py) shows who is stuck on which mistake; it is drawn
only for a session whose sign-in succeeded, and every draw checks the sign-in again.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import gradio as gr

from webapp.lab import Lab
from webapp.pages import class_list, class_view, sign_in, teacher_actions
from webapp.pages.common import lang_of, t, tr, warn
from webapp.pages.instructor_auth import authorize, check_password, mode, tries  # noqa: F401
from webapp.services import instructor_access, learner_page, submissions
from webapp.services.exports import Exports
from webapp.views import gradebook_lang, gradebook_tables
from webapp.views import learner_page as learner_page_view

log = logging.getLogger("transformer_lab.app")


def scores(lab: Lab, password: str | None, profile: gr.OAuthProfile | None, address: str,
           lang: str = "en", browser_key: str | None = None):
    """(everyone's best-score frame, access-log frame, message) or (None, None, refusal)."""
    who, refusal = authorize(lab, password, profile, address, lang, browser_key)
    if who is None:
        return None, None, refusal
    book = lab.submitter.book
    book.log_access(who, "view", "best scores")
    frame = gradebook_tables.everyone_frame(book)
    learners, rows = len({(b.learner_id or b.learner) for b in book.best_scores()}), book.count()
    text = tr("instructor.count", lang, rows=rows, learners=learners)
    return (gradebook_lang.instructor_frame(frame, lang),
            gradebook_lang.access_frame(gradebook_tables.access_frame(book), lang), text)


def export(lab: Lab, password: str | None, include_code: bool, profile: gr.OAuthProfile | None,
           address: str, lang: str = "en", browser_key: str | None = None,
           per_learner: bool = False):
    """(CSV path, message) or (None, refusal): every submission, with the code if asked; or,
    ``per_learner``, one line per learner with a column per exercise (best scores)."""
    who, refusal = authorize(lab, password, profile, address, lang, browser_key)
    if who is None:
        return None, refusal
    book = lab.submitter.book
    detail = "csv per learner" if per_learner else "csv with code" if include_code else "csv"
    book.log_access(who, "export", detail)
    path = lab.exports.csv_file(book, include_code=bool(include_code) and not per_learner,
                                per_learner=per_learner, exercises=submissions.exercise_ids())
    minutes = max(1, round(lab.exports.ttl_s / 60))
    done = "instructor.exported_learners_for" if per_learner else "instructor.exported_for"
    return path, tr(done, lang, minutes=minutes)


REFRESH_LOG_S = 600  # a timer's redraws are logged once per 10 minutes per instructor


def log_class_view(lab: Lab, who: str, periodic: bool) -> None:
    """Log a class-view draw: every one a teacher asked for; a timer's at most once per
    REFRESH_LOG_S, so a lesson's refreshes do not push everything else off the access log."""
    book = lab.submitter.book
    if periodic and _logged_lately(book, who, "class view (refreshed)"):
        return
    book.log_access(who, "view", "class view (refreshed)" if periodic else "class view")


def _logged_lately(book, who: str, detail: str) -> bool:
    """Whether the access log's newest entry is ``who``'s ``detail`` within REFRESH_LOG_S."""
    newest = book.access_log(1)
    if not newest or (newest[0].who, newest[0].detail) != (who, detail):
        return False
    at = datetime.fromisoformat(newest[0].at)
    return datetime.now(timezone.utc) - at < timedelta(seconds=REFRESH_LOG_S)


def log_learner_page(lab: Lab, who: str, learner: str) -> None:
    """Log a learner page's view, unless the access log's newest entry is this very view
    within REFRESH_LOG_S (the picker fired twice per pick, and the page follows the view's
    redraws)."""
    book = lab.submitter.book
    detail = gradebook_lang.access_text("gb.detail.learner_page", learner)[:200]
    if not _logged_lately(book, who, detail):
        book.log_access(who, "view", detail)


def log_frame(lab: Lab, lang: str):
    """The access log as the page shows it, fresh after each action."""
    return gradebook_lang.access_frame(gradebook_tables.access_frame(lab.submitter.book), lang)


def clean_gradio_copies(exports: Exports) -> None:
    """Exports expire together with Gradio's copies of them (it copies every file it serves)."""
    from webapp.serving.gradio_patch import upload_folder

    exports.also_clean(upload_folder)


def _visible(values: tuple, timer) -> tuple:
    """The page's answer: what holds something is shown, what is None is hidden (an empty
    Dataframe is headed "1 2 3"), and the export's expiry timer set."""
    out = [v if isinstance(v, dict) else gr.update(value=v, visible=v is not None)
           for v in values[:3]]
    return (*out, values[3], timer)



class InstructorEvents:
    """What the Instructor page's clicks, timers and API calls do, for the app's ``lab`` and the
    class view's components ``cv``: every one checks the sign-in again on the server."""

    def __init__(self, lab: Lab, cv: class_view.ClassViewUI) -> None:
        self.lab, self.cv = lab, cv

    def on_show(self, pw, browser_key=None, request: gr.Request = None,
                profile: gr.OAuthProfile | None = None):
        """The API's answer (scripts): plain values, (table, csv, log, status)."""
        frame, log_frame, text = scores(self.lab, pw, profile,
                                        sign_in.address_of(self.lab, request),
                                        lang_of(request), browser_key)
        if frame is None:
            warn(text, lang_of(request))
            return None, None, None, text  # a refusal also hides an earlier table and download
        return frame, gr.skip(), log_frame, text

    def on_export(self, pw, with_code, browser_key=None, request: gr.Request = None,
                  profile: gr.OAuthProfile | None = None, per_learner: bool = False):
        path, text = export(self.lab, pw, with_code, profile, sign_in.address_of(self.lab, request),
                            lang_of(request), browser_key, per_learner)
        if path is None:
            warn(text, lang_of(request))
            return None, None, None, text
        # the log shows the export
        return gr.skip(), path, log_frame(self.lab, lang_of(request)), text

    def on_show_page(self, pw, browser_key, request: gr.Request, profile: gr.OAuthProfile | None):
        values = self.on_show(pw, browser_key, request, profile)
        timer = gr.skip() if values[0] is not None else gr.Timer(active=False)
        return (*_visible(values, timer), values[0] is not None)  # and whether this session is in

    def on_class(self, pw, since, browser_key, tz, seen, is_signed, request: gr.Request,
                 profile: gr.OAuthProfile | None, shown: list | None = None, echo: bool = False,
                 periodic: bool = False):
        """The class view drawn anew: (class outputs..., access log, signed). Nothing is read
        for a session that never signed in, nor while the view is off screen (its timer
        stops until the tab is opened again); every draw checks the sign-in again."""
        lang = lang_of(request)
        if not is_signed:
            return (*class_view.hidden(), gr.skip(), False)
        if not seen:  # everything kept as drawn, the timer stopped
            kept = [gr.Timer(active=False) if c is self.cv.timer else gr.skip()
                    for c in self.cv.outputs]
            return (*kept, gr.skip(), True)
        who, refusal = authorize(self.lab, pw, profile, sign_in.address_of(self.lab, request),
                                 lang, browser_key,
                                 remember=False)
        if who is None:
            warn(refusal, lang)
            return (*class_view.hidden(), gr.update(value=None, visible=False), False)
        log_class_view(self.lab, who, periodic)
        return (*class_view.draw(self.lab.submitter.book, since, tz, lang, echo, shown),
                gr.update(value=log_frame(self.lab, lang), visible=True), True)

    def on_class_tick(self, pw, since, browser_key, tz, seen, is_signed, request: gr.Request,
                      profile: gr.OAuthProfile | None, shown: list | None = None):
        return self.on_class(pw, since, browser_key, tz, seen, is_signed, request, profile, shown,
                        periodic=True)

    def on_class_since(self, pw, since, browser_key, tz, seen, is_signed, request: gr.Request,
                       profile: gr.OAuthProfile | None, shown: list | None = None):
        return self.on_class(pw, since, browser_key, tz, seen, is_signed, request, profile, shown,
                        echo=True)

    @staticmethod
    def on_mistake(picks, evt: gr.SelectData, request: gr.Request):
        """Who made the clicked mistake (from this session's last draw, already checked)."""
        row = evt.index[0] if isinstance(evt.index, (list, tuple)) else evt.index
        return class_view.who_made(picks, row, lang_of(request))

    def on_export_page(self, pw, with_code, browser_key, request: gr.Request,
                       profile: gr.OAuthProfile | None):
        values = self.on_export(pw, with_code, browser_key, request, profile)
        return _visible(values, gr.Timer(active=values[1] is not None))

    def on_export_learners(self, pw, browser_key=None, request: gr.Request = None,
                           profile: gr.OAuthProfile | None = None):
        """One line per learner, a column per exercise (scripts: plain values)."""
        return self.on_export(pw, False, browser_key, request, profile, per_learner=True)

    def on_export_learners_page(self, pw, browser_key, request: gr.Request,
                                profile: gr.OAuthProfile | None):
        values = self.on_export_learners(pw, browser_key, request, profile)
        return _visible(values, gr.Timer(active=values[1] is not None))

    def on_learner(self, pw, learner_key, browser_key, is_signed, tz, request: gr.Request,
                   profile: gr.OAuthProfile | None, periodic: bool = False):
        """One learner's page: checked like every draw of the class view, and logged once
        per learner per REFRESH_LOG_S (the picker's events and the view's redraws repeat)."""
        lang = lang_of(request)
        if not is_signed or (periodic and not learner_key):
            return gr.skip() if periodic else learner_page_view.page_html(None, lang)
        who, refusal = authorize(self.lab, pw, profile, sign_in.address_of(self.lab, request),
                                 lang, browser_key,
                                 remember=False)
        if who is None:
            if not periodic:
                warn(refusal, lang)
            return learner_page_view.page_html(None, lang)
        found = learner_page.load(self.lab.submitter.book, str(learner_key or ""))
        if found is not None:
            log_learner_page(self.lab, who, found.learner_id or found.label)
        return learner_page_view.page_html(found, lang, tz)

    def on_learner_redraw(self, pw, learner_key, browser_key, is_signed, tz, request: gr.Request,
                          profile: gr.OAuthProfile | None):
        """The open learner's page follows the class view's redraws (it went stale)."""
        return self.on_learner(pw, learner_key, browser_key, is_signed, tz, request, profile,
                          periodic=True)

    def on_row(self, pw, browser_key, is_signed, tz, evt: gr.EventData, request: gr.Request,
               profile: gr.OAuthProfile | None):
        """A click on a learner's row in the grid or needs help: the picker shows them and
        their page opens (checked and logged like a pick)."""
        key = getattr(evt, "learner", None)
        if not isinstance(key, str) or not key:
            return gr.skip(), gr.skip()
        return gr.update(value=key), self.on_learner(pw, key, browser_key, is_signed, tz, request,
                                                profile)

    @staticmethod
    def on_choices(request: gr.Request):
        """The lesson chooser's exercises, titled in the page's language."""
        return class_view.exercise_choices(lang_of(request))

    @staticmethod
    def on_expire(request: gr.Request):
        """The export's file is gone: so is its link, and the page says how to get a new one."""
        return (gr.update(value=None, visible=False), tr("instructor.expired", lang_of(request)),
                gr.Timer(active=False))


@dataclass
class InstructorPage:
    """The page's components (built by :func:`_layout`, wired by :func:`_wire`)."""

    password: Any
    include_code: Any
    show: Any
    csv_button: Any
    learners_button: Any
    status: Any
    csv: Any
    roster_added: Any
    cv: Any
    table: Any
    access: Any
    expiry: Any
    signed: Any
    key: Any
    api_show: Any
    api_csv: Any
    api_learners: Any


def build(lab: Lab, learner: sign_in.Identity, tab: gr.Tab | None = None) -> None:
    """Lay out the page inside the current gr.Tab: a sign-in or password form, or "disabled".

    The events are wired in every mode and every request re-checks mode(), so the page only
    says what the server was started with; the check itself never trusts the page. With its
    ``tab``, opening the tab redraws the class view and restarts its timer.
    """
    p = _layout(lab, learner)
    _wire(p, InstructorEvents(lab, p.cv), lab, tab)


def _layout(lab: Lab, learner: sign_in.Identity) -> InstructorPage:
    """The form, the class view (who is stuck on what, first), the long table and the log."""
    check_password()
    clean_gradio_copies(lab.exports)
    how = mode()
    if instructor_access.password_set() and how == "allow_list":
        log.warning("LAB_INSTRUCTORS is set on a Space with sign-in: LAB_INSTRUCTOR_PASSWORD is ignored")
    gr.Markdown(t("instructor.disabled"), visible=how == "disabled", elem_id="instructor-disabled")
    with gr.Column(visible=how != "disabled", elem_id="instructor-form"):
        gr.Markdown(t("instructor.intro_oauth" if how == "allow_list" else "instructor.intro"))
        with gr.Row():
            password = gr.Textbox(label=t("instructor.password"), type="password", max_length=256,
                                  visible=how != "allow_list", elem_id="instructor-password")
            include_code = gr.Checkbox(False, label=t("instructor.code"))
            show = gr.Button(t("instructor.open"), variant="primary", elem_id="instructor-open")
            csv_button = gr.Button(t("instructor.export"), elem_id="instructor-export")
            learners_button = gr.Button(t("instructor.export_learners"),
                                        elem_id="instructor-export-learners")
        status = gr.Markdown(elem_id="instructor-status")
        # Right under the message that points at it ("the link below"): below the class view
        # it was 2,500 px down the page (chromium walk, 2026-12-07).
        csv = gr.File(label=t("instructor.csv"), interactive=False, visible=False,
                      elem_id="instructor-csv")
        roster_added = class_list.build(lab, functools.partial(authorize, lab), password,
                                        learner.key)  # folded
        cv = class_view.build()  # who is stuck on what, first; the long table below, folded
        with gr.Accordion(t("instructor.table"), open=False, elem_id="instructor-table-box"):
            # Hidden until they hold something: an empty Dataframe is headed "1 2 3".
            table = gr.Dataframe(label=t("instructor.table"), interactive=False, visible=False,
                                 elem_id="instructor-table")
        access = gr.Dataframe(label=t("instructor.log"), interactive=False, visible=False,
                              elem_id="instructor-log")
        # The export's file is deleted after LAB_EXPORT_TTL_S: its link goes with it (it stayed
        # on the page and answered a raw 403 JSON).
        expiry = gr.Timer(lab.exports.ttl_s, active=False)
    signed = gr.State(False)  # this session's sign-in succeeded (server-side, never the page's)

    key = learner.key  # this browser's key: a browser that logged in before is known
    # Scripts call /instructor_scores and /instructor_csv without a browser key, as before;
    # the page's own buttons send the key through the *_browser events (hidden twins).
    api_show = gr.Button(visible=False, elem_id="instructor-api-show")
    api_csv = gr.Button(visible=False, elem_id="instructor-api-csv")
    api_learners = gr.Button(visible=False, elem_id="instructor-api-csv-learners")
    return InstructorPage(password, include_code, show, csv_button, learners_button, status, csv,
                          roster_added, cv, table, access, expiry, signed, key, api_show,
                          api_csv, api_learners)


def _wire(p: InstructorPage, ev: InstructorEvents, lab: Lab, tab: gr.Tab | None) -> None:
    """Connect the components to the events (the API's names are the scripts' and tests')."""
    # "undocumented", not "private": Gradio does not enforce "private" on the server (a raw
    # HTTP client can call any event by index), so the protection is the check above, and
    # scripts (and the tests) may call these by name.
    ui = dict(api_visibility="undocumented")
    outputs = [p.table, p.csv, p.access, p.status]
    page_outputs = [*outputs, p.expiry]
    p.expiry.tick(ev.on_expire, None, [p.csv, p.status, p.expiry], api_visibility="private",
                  show_progress="hidden")
    opened = gr.on([p.show.click, p.password.submit], ev.on_show_page, [p.password, p.key],
                   [*page_outputs, p.signed], api_name="instructor_scores_browser", **ui)
    cv_in = [p.password, p.cv.since, p.key, p.cv.tz, p.cv.seen, p.signed, p.cv.exercises]
    cv_out = [*p.cv.outputs, p.access, p.signed]
    opened.then(ev.on_class, cv_in, cv_out, js=class_view.OPEN_JS, api_name="instructor_class",
                **ui)
    opened.then(ev.on_choices, None,
                [p.cv.exercises, p.cv.comment_exercise, p.cv.regrade_exercise],
                api_visibility="private", show_progress="hidden")
    gr.on([p.cv.refresh.click, p.cv.since.submit], ev.on_class, cv_in, cv_out,
          js=class_view.OPEN_JS, api_name="instructor_class_refresh", **ui)
    p.cv.now.click(ev.on_class_since, cv_in, cv_out, js=class_view.NOW_JS,
                   api_name="instructor_class_now", **ui)
    p.cv.everything.click(ev.on_class_since, cv_in, cv_out, js=class_view.ALL_JS,
                          api_name="instructor_class_all", **ui)
    p.cv.exercises.input(ev.on_class, cv_in, cv_out, js=class_view.OPEN_JS,
                         api_name="instructor_class_exercises", **ui)
    # New names on the class list are rows of the grid at once (they waited for the timer).
    p.roster_added.then(ev.on_class, cv_in, cv_out, js=class_view.OPEN_JS, show_progress="hidden",
                        api_visibility="private")
    p.cv.timer.tick(ev.on_class_tick, cv_in, cv_out, js=class_view.TICK_JS, show_progress="hidden",
                    api_name="instructor_class_tick", **ui)
    if tab is not None:  # back on the tab: drawn at once, and the timer runs again
        tab.select(ev.on_class, cv_in, cv_out, js=class_view.OPEN_JS, show_progress="hidden",
                   api_name="instructor_class_open", **ui)
    p.cv.mistakes.select(ev.on_mistake, [p.cv.picks], p.cv.who, api_visibility="private")
    learner_in = [p.password, p.cv.learner_pick, p.key, p.signed, p.cv.tz]
    tz_js = ("(...args) => { args[args.length - 1] = new Date().getTimezoneOffset(); "
             "return args; }")
    p.cv.learner_pick.input(ev.on_learner, learner_in, p.cv.learner_page, js=tz_js,
                            api_name="instructor_learner", **ui)
    p.cv.grid.change(ev.on_learner_redraw, learner_in, p.cv.learner_page, js=tz_js,
                     show_progress="hidden", api_visibility="private")
    # under the learner's page: a comment, a score, a regrade
    acts = teacher_actions.TeacherActions(lab)
    p.cv.comment_send.click(acts.on_comment,
                            [p.password, p.cv.learner_pick, p.cv.comment_exercise, p.cv.comment,
                             p.key, p.signed, p.cv.tz],
                            [p.cv.learner_page, p.cv.comment], js=tz_js,
                            api_name="instructor_comment", **ui)
    score_in = [p.password, p.cv.learner_pick, p.cv.comment_exercise, p.cv.score, p.cv.comment,
                p.key, p.signed, p.cv.tz]
    # then the grid, totals and Needs help at once (the walk's teacher saw the old grid until
    # Refresh and set the score again), logged like the timer's redraws (the score is logged)
    redraw = dict(js=class_view.OPEN_JS, show_progress="hidden", api_visibility="private")
    p.cv.score_set.click(acts.on_score, score_in, [p.cv.learner_page, p.cv.comment], js=tz_js,
                         api_name="instructor_score", **ui).then(
        ev.on_class_tick, cv_in, cv_out, **redraw)
    p.cv.score_clear.click(acts.on_score_clear, score_in, [p.cv.learner_page, p.cv.comment],
                           js=tz_js, api_name="instructor_score_clear", **ui).then(
        ev.on_class_tick, cv_in, cv_out, **redraw)
    p.cv.regrade.click(acts.on_regrade, [p.password, p.cv.regrade_exercise, p.key, p.signed],
                       p.cv.regrade_status, api_name="instructor_regrade", concurrency_id="submit",
                       **ui)
    p.cv.regrade_stop.click(acts.on_regrade_stop, [p.password, p.key, p.signed],
                            p.cv.regrade_status, api_name="instructor_regrade_stop", **ui)
    row_in = [p.password, p.key, p.signed, p.cv.tz]
    for rows in (p.cv.grid, p.cv.stuck):
        rows.click(ev.on_row, row_in, [p.cv.learner_pick, p.cv.learner_page], js=tz_js,
                   show_progress="hidden", api_visibility="private").then(
            None, js=class_view.SHOW_PAGE_JS)
    p.csv_button.click(ev.on_export_page, [p.password, p.include_code, p.key], page_outputs,
                       api_name="instructor_csv_browser", **ui)
    p.api_show.click(ev.on_show, [p.password], outputs, api_name="instructor_scores", **ui)
    p.api_csv.click(ev.on_export, [p.password, p.include_code], outputs, api_name="instructor_csv",
                    **ui)
    p.learners_button.click(ev.on_export_learners_page, [p.password, p.key], page_outputs,
                            api_name="instructor_csv_learners_browser", **ui)
    p.api_learners.click(ev.on_export_learners, [p.password], outputs,
                         api_name="instructor_csv_learners", **ui)
