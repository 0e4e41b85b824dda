"""A teacher's actions on one learner or one exercise, under the class view's learner page
(issue 25, item 8): a comment, a score in place of the graded best, a regrade of an exercise's
submissions after its tests changed. Each checks the sign-in (instructor_auth.authorize) and is
logged like every instructor action."""

from __future__ import annotations

import logging
import threading

import gradio as gr

from gradebook.csv_export import number
from gradebook.overrides import MAX_NOTE
from webapp.lab import Lab
from webapp.pages import class_view, sign_in
from webapp.pages.common import lang_of, tr, warn
from webapp.pages.instructor_auth import authorize
from webapp.services import learner_page, regrade, submissions
from webapp.views import learner_page as learner_page_view

log = logging.getLogger("transformer_lab.app")


class TeacherActions:
    """The actions' event handlers for one app (``lab``: its gradebook, wing and submitter)."""

    def __init__(self, lab: Lab) -> None:
        self.lab = lab

    def _teacher(self, pw, browser_key, is_signed, request: gr.Request,
                 profile: gr.OAuthProfile | None) -> tuple[str, str | None]:
        """(the page's language, who acts) for a signed-in session whose sign-in still holds;
        who is None when it does not (the refusal already said, as a toast)."""
        lang = lang_of(request)
        if not is_signed:
            return lang, None
        who, refusal = authorize(self.lab, pw, profile, sign_in.address_of(self.lab, request), lang, browser_key,
                                 remember=False)
        if who is None:
            warn(refusal, lang)
        return lang, who


    def _learner_id(self, learner_key, lang: str) -> str | None:
        """The id of the learner whose page is open, or None (said as a toast)."""
        learner_id, _ = learner_page.parse_key(str(learner_key or ""))
        if learner_id is None:
            warn(tr("lp.comment_nobody", lang), lang)
        return learner_id


    def on_comment(self, pw, learner_key, exercise, text, browser_key, is_signed, tz,
                   request: gr.Request, profile: gr.OAuthProfile | None):
        """A comment to the learner on the page: checked and logged like every instructor
        action; (the learner's page drawn again with it, the box emptied)."""
        lang, who = self._teacher(pw, browser_key, is_signed, request, profile)
        learner_id = self._learner_id(learner_key, lang) if who is not None else None
        if learner_id is None:
            return gr.skip(), gr.skip()
        book = self.lab.submitter.book
        try:
            book.add_comment(learner_id, str(exercise or ""), text, who)
        except ValueError:
            warn(tr("lp.comment_bad", lang, n=2000), lang)
            return gr.skip(), gr.skip()
        book.log_access(who, "comment", learner_id[:200])
        found = learner_page.load(book, str(learner_key))
        return learner_page_view.page_html(found, lang, tz), ""


    def _score(self, pw, learner_key, exercise, points, note, browser_key, is_signed, tz, request,
               profile, clear: bool):
        """Set (or clear) the teacher's score for the learner on the page, checked and logged
        like a comment; (the learner's page again, the note box emptied)."""
        lang, who = self._teacher(pw, browser_key, is_signed, request, profile)
        learner_id = self._learner_id(learner_key, lang) if who is not None else None
        if learner_id is None:
            return gr.skip(), gr.skip()
        if not isinstance(exercise, str) or not exercise:
            warn(tr("lp.score_pick", lang), lang)
            return gr.skip(), gr.skip()
        book = self.lab.submitter.book
        tried = {b.exercise: b.max_score for b in book.best_scores(learner_id=learner_id)}
        if exercise not in tried:
            warn(tr("lp.score_untried", lang), lang)
            return gr.skip(), gr.skip()
        if clear:
            book.clear_score(learner_id, exercise)
            detail = f"{learner_id[:150]} {exercise} cleared"
        else:
            try:
                done = book.set_score(learner_id, exercise, points, tried[exercise],
                                      str(note or ""), who)
            except ValueError:
                warn(tr("lp.score_bad", lang, max=number(tried[exercise]), n=MAX_NOTE), lang)
                return gr.skip(), gr.skip()
            detail = f"{learner_id[:150]} {exercise} {number(done.score)}/{number(done.max_score)}"
        book.log_access(who, "score", detail[:200])
        name = class_view.view.exercise_name(exercise, lang)
        said = (tr("lp.score_cleared", lang, exercise=name) if clear else
                tr("lp.score_done", lang, exercise=name, score=number(done.score),
                   max=number(done.max_score)))
        gr.Info(said, title=tr("lp.done_title", lang))  # the controls sit below the page it redraws
        found = learner_page.load(book, str(learner_key))
        return learner_page_view.page_html(found, lang, tz), (gr.skip() if clear else "")


    def on_score(self, pw, learner_key, exercise, points, note, browser_key, is_signed, tz,
                 request: gr.Request, profile: gr.OAuthProfile | None):
        return self._score(pw, learner_key, exercise, points, note, browser_key, is_signed, tz,
                      request, profile, clear=False)


    def on_score_clear(self, pw, learner_key, exercise, points, note, browser_key, is_signed, tz,
                       request: gr.Request, profile: gr.OAuthProfile | None):
        return self._score(pw, learner_key, exercise, points, note, browser_key, is_signed, tz,
                      request, profile, clear=True)


    def on_regrade(self, pw, exercise, browser_key, is_signed, request: gr.Request,
                   profile: gr.OAuthProfile | None):
        """Grade the exercise's stored submissions again (checked and logged like every
        instructor action), saying how far it is every second, then what changed."""
        lang, who = self._teacher(pw, browser_key, is_signed, request, profile)
        if who is None:
            yield gr.skip()
            return
        if not isinstance(exercise, str) or exercise not in submissions.exercise_ids():
            warn(tr("lp.score_pick", lang), lang)
            yield gr.skip()
            return
        state: dict = {"done": 0, "total": None, "result": None, "error": None}

        def work() -> None:
            try:
                state["result"] = regrade.regrade(
                    exercise, who, self.lab.submitter, progress=lambda done, total: state.update(done=done, total=total))
            except regrade.Busy:
                state["error"] = tr("rg.busy", lang)
            except Exception:  # noqa: BLE001 - said on the page, logged in full
                log.exception("regrading %s failed", exercise)
                state["error"] = tr("rg.failed", lang)

        self.lab.submitter.book.log_access(who, "regrade", exercise[:200])
        runner = threading.Thread(target=work, name="regrade", daemon=True)
        runner.start()
        name = class_view.view.exercise_name(exercise, lang)
        while runner.is_alive():
            runner.join(1.0)
            if state["total"]:
                yield tr("rg.progress", lang, exercise=name, done=state["done"], total=state["total"])
        if state["error"]:
            yield state["error"]
            return
        r = state["result"]
        if r.rows == 0:
            yield tr("rg.none", lang, exercise=name)
            return
        said = tr("rg.done", lang, exercise=name, rows=r.rows, regraded=r.regraded,
                  changed=r.changed, learners=len(r.learners_changed), failed=r.failed)
        yield said + (" " + tr("rg.left", lang, left=r.left) if r.left else "")


    def on_regrade_stop(self, pw, browser_key, is_signed, request: gr.Request,
                        profile: gr.OAuthProfile | None):
        """Stop the running regrade after its current row (checked like every action)."""
        lang, who = self._teacher(pw, browser_key, is_signed, request, profile)
        if who is None:
            return gr.skip()
        if not regrade.stop():
            return tr("rg.not_running", lang)
        self.lab.submitter.book.log_access(who, "regrade", "stop")
        return tr("rg.stopping", lang)
