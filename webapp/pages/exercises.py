"""Exercises page: statement, code editor or upload, public examples, submit → score and table."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from grader.api import Report, render
from transformer_lab.message import Refusal
from webapp.i18n import LANGUAGES, tr
from webapp.lab import Lab
from webapp.pages import sign_in
from webapp.pages.common import friendly, lang_of, t, warn
from webapp.pages.sign_in import client_of
from webapp.services import quickcheck, submissions
from webapp.serving.turns import grading_message, queue_message
from webapp.views.exercise_list import (
    exercise_choices,
    exercise_title,
    starter_text,
    statement_text,
)
from webapp.views.report_view import (
    empty_results,
    last_result_markdown,
    results_frame,
    score_markdown,
    stored_report,
)

log = logging.getLogger("transformer_lab.app")
MAX_DRAFT_CHARS = 100_000  # the submit path's own cap on code (grader DEFAULT_LIMITS)

def your_numbers_api(lab: Lab) -> Callable[..., str]:
    """The ``your_numbers`` API of the app ``lab``."""

    def your_numbers(exercise_id: str, learner: str | None = None,
                     profile: gr.OAuthProfile | None = None) -> str:
        """Your own numbers for an exercise that gives each learner theirs (exercise 1's Part A
        is graded on them), as /grade grades them for the same `learner` label; "" for an
        exercise without. Nothing is stored."""
        from grader import api

        try:
            who = lab.submitter.resolve_learner(sign_in.claim(lab, learner, None, profile,
                                                              via_api=True))
        except submissions.Refused as err:
            raise gr.Error(str(err)) from None
        try:
            return api.your_numbers(exercise_id, lab.submitter.numbers_key(who.id)) or ""
        except api.UnknownExercise as err:
            raise gr.Error(str(err)) from None

    return your_numbers


def examples_report(exercise_id: str, code: str) -> Report:
    """The grader's report on the public examples only (nothing stored)."""
    from gradebook import clean_code
    from grader import api

    # The submit path's own input limits (gradebook.DEFAULT_LIMITS): one set of caps.
    return api.run_examples(exercise_id, clean_code(code))


def grade_api(lab: Lab) -> Callable[..., dict]:
    """The ``grade`` API of the app ``lab``."""

    def grade(exercise_id: str, code: str, learner: str | None = None,
              request: gr.Request = None, profile: gr.OAuthProfile | None = None) -> dict:
        """Grade `code` for `exercise_id` against the hidden tests, store it in the gradebook,
        and return the Gradescope JSON (its extra_data names the stored submission).

        `learner` (optional): a label, stored as an API submission "name (api)" with an opaque
        id; it never opens anyone's history or code. A signed-in Hugging Face user is stored
        under their username; no name means "anonymous"."""
        who = sign_in.claim(lab, learner, None, profile, via_api=True)
        outcome = lab.submitter.submit(exercise_id, code, who,
                                       getattr(request, "session_hash", None),
                                       client=client_of(lab, request))
        if isinstance(outcome, Refusal):  # nothing graded or stored; the reason leads
            raise gr.Error(f"{outcome.reason}: {outcome.text()}")
        return submissions.to_gradescope(outcome)  # the API's shape, made here only

    return grade


def last_submission(lab: Lab, exercise_id: str | None, key: str | None,
                    profile: gr.OAuthProfile | None,
                    session: str | None) -> tuple[Report, str] | None:
    """This browser's (or account's) newest submission to ``exercise_id``: (its report, when it
    was made), or None: none yet, or the gradebook cannot be read now (a reload must still open
    the page)."""
    if not exercise_id or not (key or profile):
        return None
    try:
        who = sign_in.learner(lab, None, key, profile, session)
        rows = lab.submitter.book.history(learner_id=who.id, exercise=exercise_id, limit=1)
    except Exception:  # noqa: BLE001 - the page opens without it
        log.exception("reading the last submission failed")
        return None
    if not rows:
        return None
    return stored_report(exercise_id, rows[0].tests, rows[0].status), rows[0].submitted_at


def stream_grading(grade_fn: Callable[..., submissions.Outcome], lang: str, /,
                   **kwargs) -> Iterator[str | submissions.Outcome]:
    """Run ``grade_fn(on_wait=..., **kwargs)`` in a thread; yield the queue status text (position
    and ETA, then "grading") while it waits, and finally its outcome."""
    updates: queue.SimpleQueue = queue.SimpleQueue()
    box: dict = {}
    cancelled = threading.Event()

    def work() -> None:
        try:
            box["result"] = grade_fn(on_wait=lambda pos, eta: updates.put((pos, eta)),
                                     cancelled=cancelled, **kwargs)
        finally:
            updates.put(None)

    threading.Thread(target=work, name="grade-submission", daemon=True).start()
    try:
        while (item := updates.get()) is not None:
            pos, eta = item
            msg = queue_message(pos, eta) if pos else grading_message()
            yield render(msg, lang)
    finally:
        # Closed early (Gradio closes a cancelled or abandoned event's generator): a submission
        # still waiting leaves the line ungraded and unstored (issue 29); one already grading ends.
        if "result" not in box:
            cancelled.set()
    if "result" not in box:
        raise RuntimeError("grading stopped without a result")
    yield box["result"]


def read_upload(path: str | None) -> str:
    """Source text of an uploaded .py or the code cells of an .ipynb (binary, damaged or huge
    files are refused here with the gradebook's bilingual message, before reaching the editor)."""
    from gradebook import DEFAULT_LIMITS, clean_code

    if not path:
        raise ValueError("no file was uploaded")
    if not str(path).endswith((".py", ".ipynb")):
        raise ValueError("upload a .py file or a Jupyter notebook (.ipynb)")
    if Path(path).stat().st_size > DEFAULT_LIMITS.max_upload_bytes:  # never read a huge file
        raise ValueError(f"the file is larger than {DEFAULT_LIMITS.max_upload_bytes // 1_000_000} MB")
    return clean_code(Path(path).read_bytes(), filename=str(path))  # Refused: both languages


def _slot_values(items: list[dict], i: int, lang: str) -> list:
    """Updates for quick-check slot ``i``: question, choices, answer box, button, feedback."""
    if i >= len(items):
        return [gr.update(visible=False)] * 4 + [""]
    item, picks = items[i], quickcheck.choices(items[i], lang)
    return [gr.update(value=quickcheck.question_markdown(item, i + 1, lang), visible=True),
            gr.update(choices=picks, value=None, visible=bool(picks)),
            gr.update(value="", visible=not picks), gr.update(visible=True), ""]


def quick_slots(first: str | None) -> list[tuple]:
    """The exercise's short checked questions: answer box (or choices), then a reveal."""
    items = quickcheck.load(first) if first else []
    slots = []
    with gr.Column(elem_id="ex-quick"):
        for i in range(quickcheck.SLOTS):
            shown = i < len(items)
            picks = quickcheck.choices(items[i], "en") if shown else []
            q = gr.Markdown(quickcheck.question_markdown(items[i], i + 1, "en") if shown else "",
                            visible=shown, elem_id=f"ex-q{i}")
            pick = gr.Radio(picks, value=None, label=t("ex.answer"), show_label=False, visible=bool(picks),
                            elem_id=f"ex-q{i}-pick")
            text = gr.Textbox(lines=2, label=t("ex.answer"), visible=shown and not picks,
                              elem_id=f"ex-q{i}-text")
            go = gr.Button(t("ex.check"), size="sm", visible=shown, elem_id=f"ex-q{i}-go")
            out = gr.Markdown(elem_id=f"ex-q{i}-out")
            slots.append((q, pick, text, go, out))
    return slots


def quick_update(ex_id: str | None, lang: str) -> list:
    """All quick-check slots for the chosen exercise, in the statement's language."""
    items = quickcheck.load(ex_id) if ex_id else []
    return [v for i in range(quickcheck.SLOTS) for v in _slot_values(items, i, lang)]


def quick_answer(i: int):
    """The click handler of slot ``i``: judge a choice or take the answer, then reveal."""
    def inner(ex_id, lang, pick, text):
        items = quickcheck.load(ex_id) if ex_id else []
        if i >= len(items):
            return ""
        given = pick if items[i].get("kind") == "choice" else text
        return quickcheck.answer(items[i], given, lang)

    return inner


@dataclass
class Editor:
    """What the Progress page needs to load a stored submission into the editor."""

    exercise: gr.Dropdown
    code: gr.Code
    shown: gr.State  # the exercise whose code the editor holds
    drafts: gr.BrowserState | gr.State  # exercise id -> unsaved code (sign_in.Identity.drafts)
    score: gr.Markdown
    tests: gr.Dataframe


def keep_draft(drafts: dict | None, exercise_id: str | None, code: str | None) -> dict:
    """``drafts`` with ``code`` kept for ``exercise_id`` (known exercises only, each capped):
    switching exercises or loading a stored submission never throws a learner's work away."""
    out = {k: v for k, v in (drafts or {}).items() if isinstance(k, str) and isinstance(v, str)}
    if exercise_id in {i for _, i in exercise_choices()} and isinstance(code, str):
        out[exercise_id] = code[:MAX_DRAFT_CHARS]
    return out


class ExerciseEvents:
    """What the page's clicks, changes and first load do, for the app's ``lab``: methods, so
    the page's layout (:func:`_layout`) and its wiring (:func:`_wire`) stay short."""

    def __init__(self, lab: Lab) -> None:
        self.lab = lab

    def own_id(self, key, profile, request: gr.Request) -> str | None:
        """The key this page's learner's own numbers are drawn from (an exercise with variants),
        or None when the page does not know the learner yet."""
        try:
            return self.lab.submitter.numbers_key(sign_in.learner(self.lab, None, key, profile,
                                                             session=request.session_hash).id)
        except ValueError:
            return None

    @friendly(1)
    def on_statement(self, ex_id, lang, key, request: gr.Request, profile: gr.OAuthProfile | None = None):
        return statement_text(ex_id, lang, self.own_id(key, profile, request))

    def on_open(self, ex_id, kept, was_open, key, request: gr.Request,
                profile: gr.OAuthProfile | None = None):
        """First load: the exercise this browser had open (else the first), with its draft;
        the titles, the statement and the table's headers follow the browser's language; and
        the learner's last graded submission to that exercise, shown again."""
        page = lang_of(request)
        chosen = was_open.get("exercise") if isinstance(was_open, dict) else None
        known = {v for _, v in exercise_choices()}
        ex = chosen if isinstance(chosen, str) and chosen in known else ex_id
        text = (kept or {}).get(ex) if isinstance(kept, dict) else None
        mine = self.own_id(key, profile, request)
        if not isinstance(text, str):  # no draft: the starter, its comments in the page's
            # language and, for an exercise with variants, the learner's own numbers
            text = starter_text(ex, page, mine) if ex else gr.skip()
        tests, score = empty_results(page), ""
        last = last_submission(self.lab, ex, key, profile, request.session_hash)
        if last is not None and last[0].tests:
            try:
                tests, score = results_frame(last[0], page), last_result_markdown(*last, page)
            except Exception:  # noqa: BLE001 - an odd stored row: the page still opens
                log.exception("showing the last submission again failed")
        shown_text = statement_text(ex, page, mine) if ex else gr.skip()
        return (gr.update(choices=exercise_choices(lang=page), value=ex), page, text, ex, tests, score,
                shown_text)

    @friendly(5)
    def on_choose(self, ex_id, code, was, kept, key, request: gr.Request,
                  profile: gr.OAuthProfile | None = None):
        if ex_id == was:  # already shown (a repeated event, or Progress loaded this code)
            return gr.skip(), gr.skip(), gr.skip(), gr.skip(), gr.skip()
        kept = keep_draft(kept, was, code)  # the code on screen belongs to the exercise shown
        page = lang_of(request)
        # The last exercise's results go with it (they sat under the new editor, unheaded).
        return (kept.get(ex_id) or starter_text(ex_id, page, self.own_id(key, profile, request)), ex_id,
                kept, empty_results(page), "")

    @friendly(5)
    def on_reset(self, ex_id, kept, key, request: gr.Request, profile: gr.OAuthProfile | None = None):
        kept = {k: v for k, v in (kept or {}).items() if k != ex_id}
        page = lang_of(request)  # the last run's table goes with its code (headers kept)
        return (starter_text(ex_id, page, self.own_id(key, profile, request)), ex_id, kept, "",
                empty_results(page))

    @staticmethod
    def on_leave(was, code, kept):
        return keep_draft(kept, was, code)

    @staticmethod
    @friendly(2)
    def on_upload(path):
        return read_upload(path), ""

    def run(self, fn):
        @friendly(2)
        def inner(ex_id, code, typed, key, request: gr.Request,
                  profile: gr.OAuthProfile | None = None):
            lang = lang_of(request)
            # The same line as Submit, as the same learner (one turn at a time, and a fresh
            # page session is no new fair share: red team, issue 17), and the same bound on the
            # learners an address may start; examples store nothing, so no submission limit.
            report = self.lab.submitter.practice(
                sign_in.claim(self.lab, typed, key, profile, session=request.session_hash),
                request.session_hash, client_of(self.lab, request), lambda: fn(ex_id, code))
            if isinstance(report, Refusal):  # keep the last result; say why not (nothing kept)
                warn(report.text(lang), lang)
                return gr.skip(), "⚠️ " + report.text(lang)
            return results_frame(report, lang), score_markdown(report, lang, practice=True)

        return inner


    def on_submit(self, ex_id, code, typed, key, request: gr.Request, profile: gr.OAuthProfile | None):
        lang = lang_of(request)
        # The browser's key (or the one its first page load is making), not the typed label.
        claim = sign_in.claim(self.lab, typed, key, profile, session=request.session_hash)
        for outcome in stream_grading(self.lab.submitter.submit, lang, exercise_id=ex_id, code=code,
                                      learner=claim, session_key=request.session_hash,
                                      client=client_of(self.lab, request)):
            if isinstance(outcome, str):  # queue position / "grading" while it waits
                yield None, outcome
        if isinstance(outcome, Refusal):  # keep the last result; say why not graded
            warn(outcome.text(lang), lang)
            yield None, "⚠️ " + outcome.text(lang)
            return
        markdown = score_markdown(outcome.report, lang)  # at once; show_graded corrects it
        # Its number, so a second Submit of the same code reads as a new record (the same
        # score twice looked like nothing happened: chromium walk, 2026-12-07).
        markdown += "\n\n" + tr("ex.recorded_as", lang, id=outcome.submission_id)
        yield (ex_id, results_frame(outcome.report, lang), outcome.report.score,
               outcome.report.max_score), markdown

    @staticmethod
    def show_graded(result, on_screen, request: gr.Request):
        """The submission just graded, under its own exercise; None: nothing new."""
        if result is None:
            return gr.skip(), gr.skip()
        ex_id, frame, score, most = result
        if ex_id == on_screen:
            return frame, gr.skip()  # the score is already shown
        lang = lang_of(request)
        return gr.skip(), tr("ex.graded_elsewhere", lang, title=exercise_title(ex_id, lang),
                             score=f"{score:g}", max=f"{most:g}")


@dataclass
class ExercisePage:
    """The page's components (built by :func:`_layout`, wired by :func:`_wire`)."""

    exercise: Any
    lang: Any
    statement: Any
    slots: list
    code: Any
    upload: Any
    examples: Any
    submit: Any
    reset: Any
    score: Any
    shown: Any
    drafts: Any
    place: Any
    tests: Any
    graded: Any


def build(lab: Lab, learner: sign_in.Identity) -> Editor:
    """Lay out the page inside the current gr.Tab and wire its events."""
    p = _layout(learner)
    _wire(p, ExerciseEvents(lab), learner)
    gr.api(grade_api(lab), api_name="grade", concurrency_id="submit")
    gr.api(your_numbers_api(lab), api_name="your_numbers")
    return Editor(p.exercise, p.code, p.shown, p.drafts, p.score, p.tests)  # for Progress's "load"


def _layout(learner: sign_in.Identity) -> ExercisePage:
    """The components, top to bottom: the exercise and its language, the statement, quick
    checks, the editor, upload and buttons, the score and the tests' table."""
    choices = exercise_choices()
    first = choices[0][1] if choices else None
    gr.Markdown(t("ex.intro"))
    with gr.Row():  # a phone puts the language below the title list, which keeps a whole line
        exercise = gr.Dropdown(choices, value=first, label=t("ex.choose"), elem_id="ex-choose",
                               scale=3, min_width=300)
        lang = gr.Radio(list(LANGUAGES), value="en", label=t("ex.statement"), elem_id="ex-lang",
                        min_width=160)
    statement = gr.Markdown(statement_text(first, "en") if first else t("ex.unavailable"),
                            elem_id="ex-statement")
    slots = quick_slots(first)
    code = gr.Code(starter_text(first) if first else "", language="python", lines=18,
                   label=t("ex.code"), elem_id="ex-code")
    with gr.Row():
        upload = gr.File(label=t("ex.upload"), file_types=[".py", ".ipynb"], type="filepath",
                         height=140)
        with gr.Column():
            examples = gr.Button(t("ex.examples"), elem_id="ex-examples")
            submit = gr.Button(t("ex.submit"), variant="primary", elem_id="ex-submit")
            reset = gr.Button(t("ex.reset"))
    score = gr.Markdown(elem_id="ex-score")
    shown = gr.State(first)
    drafts = learner.drafts if learner.drafts is not None else gr.State({})
    place = learner.place if learner.place is not None else gr.State({})
    # Headed from the start (an empty Dataframe is headed "1 2 3"); the page's language on load.
    tests = gr.Dataframe(empty_results("en"), label=t("ex.tests"), interactive=False, wrap=True,
                         elem_id="ex-tests",
                         # app.py's phone CSS gives the body cells these widths of 720 px
                         column_widths=["25%", "11%", "9%", "9%", "46%"],
                         datatype=["str", "str", "number", "number", "markdown"])
    # The result is shown after the stream ends (`graded` then `show_graded`): each gr.skip()
    # of a component in a stream makes Gradio build a new component instance, and a class of
    # 300 in line sent one per position change (7% of the app's CPU, py-spy, issue 17); a
    # skipped State costs nothing. It is shown only while its exercise is still the one on
    # screen; a learner who moved on is told where it went (chromium pass: exercise 1's result
    # appeared under exercise 4). The score line itself comes with the stream's last message.
    graded = gr.State(None)
    return ExercisePage(exercise, lang, statement, slots, code, upload, examples, submit, reset,
                        score, shown, drafts, place, tests, graded)


def _wire(p: ExercisePage, ev: ExerciseEvents, learner: sign_in.Identity) -> None:
    """Connect the components to the events."""
    who = learner.inputs()  # [label box, browser key]
    ui = dict(api_visibility="private")
    # Gradio's progress ("queue: 1/1 | 0.1s", English) goes to the app's hidden sink, not over
    # the score box a submission is still writing into (chromium pass)
    quiet = dict(ui, show_progress="hidden")
    quick_outputs = [c for slot in p.slots for c in slot]
    p.exercise.change(quick_update, [p.exercise, p.lang], quick_outputs, **quiet)
    p.lang.change(quick_update, [p.exercise, p.lang], quick_outputs, **quiet)
    for i, (_q, pick, text, go, out) in enumerate(p.slots):
        go.click(quick_answer(i), [p.exercise, p.lang, pick, text], [out], **ui)
    p.exercise.change(ev.on_statement, [p.exercise, p.lang, learner.key], [p.statement], **quiet)
    # Any change of exercise keeps the code on screen as the draft of the exercise it belongs
    # to (`shown`); the Progress page sets dropdown, code and `shown` together, so its change
    # finds the exercise already shown and leaves the loaded code alone.
    p.exercise.change(ev.on_choose, [p.exercise, p.code, p.shown, p.drafts, learner.key],
                      [p.code, p.shown, p.drafts, p.tests, p.score], **quiet)
    p.lang.change(ev.on_statement, [p.exercise, p.lang, learner.key], [p.statement], **quiet)
    p.reset.click(ev.on_reset, [p.exercise, p.drafts, learner.key],
                  [p.code, p.shown, p.drafts, p.score, p.tests], **ui)
    p.code.blur(ev.on_leave, [p.shown, p.code, p.drafts], [p.drafts], **ui)  # kept across reloads too
    p.exercise.change(lambda ex: {"exercise": ex} if isinstance(ex, str) else gr.skip(),
                      [p.exercise], [p.place], **quiet)  # a reload comes back to this exercise
    p.upload.upload(ev.on_upload, [p.upload], [p.code, p.score], **ui)
    # "submit": a wide pool, so admission answers at once; the fair queue orders the gradings.
    # The page's own status line says where a submission is ("position 3 in the queue", then
    # "grading"): Gradio's English "queue: 1/1 | 0.3s" goes to the app's hidden sink instead.
    # trigger_mode "multiple": a second click while the first is graded is a second
    # submission of the code on screen, waiting behind the first (Gradio dropped it silently).
    # Submit and Run send `shown`, the exercise whose code is on screen, not the dropdown: under
    # load the dropdown moved to exercise 5 while exercise 1's code was still shown, and that
    # code was graded and stored as a 0/13 attempt at exercise 5 (chromium walk, 2026-12-07).
    p.submit.click(ev.on_submit, [p.shown, p.code, *who], [p.graded, p.score],
                   concurrency_id="submit", show_progress="hidden", trigger_mode="multiple",
                   **ui).success(
        # in Submit's wide pool: the table follows the score at once, even when the
        # playground's narrow pool is busy; only after a stream that ended well (one that
        # raised before its first message would leave the previous result in `graded`)
        ev.show_graded, [p.graded, p.shown], [p.tests, p.score], concurrency_id="submit",
        show_progress="hidden", **ui)
    p.examples.click(ev.run(examples_report), [p.shown, p.code, *who], [p.tests, p.score],
                     concurrency_id="submit", show_progress="minimal", **ui)
    root = gr.context.Context.root_block
    if root is not None:  # setting the toggle fires lang.change: statement and quick checks
        # One load event sets exercise, code and `shown` together: the exercise's own change
        # then finds it already shown and keeps the restored code (two events raced before).
        root.load(ev.on_open, [p.exercise, p.drafts, p.place, learner.key],
                  [p.exercise, p.lang, p.code, p.shown, p.tests, p.score, p.statement], **ui)
