"""The Instructor page's class view: who is stuck on which mistake, in a grid, lists and two
figures, redrawn every 30 s while the tab is open. Layout and drawing only: the page that
builds it (instructor.py) checks who may see it before every draw."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

import gradio as gr

from gradebook import Gradebook
from webapp.pages.common import t, tr
from webapp.services import class_summary as data
from webapp.services import submissions
from webapp.views import class_grid as view
from webapp.views import learner_page as page

REFRESH_S = 30.0
# A click on a learner's row (the grid, needs help) opens their page: one listener on the
# component, so every redraw's rows answer too (issue 25: only the picker below opened it).
ROW_CLICK_JS = ("element.addEventListener('click', (e) => { const row = e.target.closest("
                "'tr[data-learner]'); if (row && element.contains(row)) "
                "trigger('click', {learner: row.dataset.learner}); });")
SHOW_PAGE_JS = ("() => { const el = document.getElementById('class-learner-page'); "
                "if (el) el.scrollIntoView({block: 'start'}); }")


def client_js(since: str | None = None, seen: str | None = None) -> str:
    """The browser's part of a class-view event, whose inputs end [since, key, tz, seen,
    signed, exercises]: it fills in the teacher's time zone and whether the view is on screen
    (its tab selected and the browser tab visible; a hidden view is not queried and its timer
    stops until the tab is opened again). ``since``/``seen``: JavaScript that replaces those."""
    return ("(...args) => { const n = args.length, d = new Date(), two = (x) => String(x)"
            ".padStart(2, '0'); const el = document.getElementById('class-view'); "
            f"args[n - 6] = {since or 'args[n - 6]'}; args[n - 4] = d.getTimezoneOffset(); "
            f"args[n - 3] = {seen or 'true'}; return args; }}")


# A timer tick asks the page whether the view is on screen; a click or the tab's opening is.
TICK_JS = client_js(seen="!!el && el.offsetParent !== null && document.visibilityState === 'visible'")
NOW_JS = client_js(since="two(d.getHours()) + ':' + two(d.getMinutes())")  # the teacher's clock
ALL_JS = client_js(since="''")
OPEN_JS = client_js()


@dataclass
class ClassViewUI:
    """The class view's components; ``outputs`` is the order :func:`draw` fills."""

    box: gr.Column
    since: gr.Textbox
    now: gr.Button
    everything: gr.Button
    refresh: gr.Button
    status: gr.Markdown
    grid: gr.HTML
    stuck: gr.HTML
    mistakes: gr.Dataframe
    who: gr.HTML
    scores_plot: gr.Plot
    mistakes_plot: gr.Plot
    timer: gr.Timer
    tz: gr.Number
    seen: gr.Checkbox
    picks: gr.State  # the mistakes in table order, for a click on a row
    learner_pick: gr.Dropdown  # whose page to show (the learners of the last draw)
    learner_page: gr.HTML
    exercises: gr.Dropdown  # the lesson's exercises (none chosen: every exercise)
    comment_exercise: gr.Dropdown  # a comment to the learner shown: about which exercise
    comment: gr.Textbox
    comment_send: gr.Button
    score: gr.Number  # the teacher's score on the exercise above (gradebook.overrides)
    score_set: gr.Button
    score_clear: gr.Button
    regrade_exercise: gr.Dropdown  # grade an exercise's stored submissions again
    regrade: gr.Button
    regrade_stop: gr.Button
    regrade_status: gr.Markdown

    @property
    def outputs(self) -> list:
        return [self.box, self.since, self.status, self.grid, self.stuck, self.mistakes,
                self.who, self.scores_plot, self.mistakes_plot, self.picks, self.timer,
                self.learner_pick]


def build() -> ClassViewUI:
    """Lay out the class view (hidden until an instructor opens it)."""
    with gr.Column(visible=False, elem_id="class-view") as box:
        gr.Markdown("### " + t("cv.title"))
        with gr.Row(equal_height=True):
            since = gr.Textbox(label=t("cv.since"), max_length=40, scale=3, elem_id="class-since")
            now = gr.Button(t("cv.since_now"), scale=1, elem_id="class-since-now")
            everything = gr.Button(t("cv.since_all"), scale=1, elem_id="class-since-all")
            refresh = gr.Button(t("cv.refresh"), scale=1, elem_id="class-refresh")
        # A lesson on exercises 1-3 shows those three (issue 25, item 8): the grid, totals,
        # mistakes and needs help read only them. Titled in the page's language on sign-in.
        exercises = gr.Dropdown(label=t("cv.exercises"), info=t("cv.exercises_info"), choices=[],
                                value=[], multiselect=True, elem_id="class-exercises")
        status = gr.Markdown(elem_id="class-status")
        gr.Markdown("#### " + t("cv.grid"))
        grid = gr.HTML(css_template=view.GRID_CSS, apply_default_css=False, elem_id="class-grid",
                       js_on_load=ROW_CLICK_JS)
        stuck = gr.HTML(css_template=view.GRID_CSS, apply_default_css=False, elem_id="class-stuck",
                        js_on_load=ROW_CLICK_JS)
        # The hint is the picker's info (translated by gr.I18n on any page); the page itself
        # is drawn per request, in the page's language (it was built once, in English).
        learner_pick = gr.Dropdown(label=t("lp.pick"), info=t("lp.none"), choices=[], value=None,
                                   elem_id="class-learner-pick")
        learner_page = gr.HTML("", css_template=page.CSS, apply_default_css=False,
                               elem_id="class-learner-page")
        # A comment to the learner shown above (issue 25, item 8): they read it on My progress.
        with gr.Row(equal_height=True):
            comment_exercise = gr.Dropdown(label=t("lp.comment_about"), choices=[], value=None,
                                           scale=1, elem_id="class-comment-exercise")
            comment = gr.Textbox(label=t("lp.comment"), lines=2, max_length=2000, scale=3,
                                 elem_id="class-comment")
            comment_send = gr.Button(t("lp.comment_send"), scale=1, elem_id="class-comment-send")
        # A score in place of the graded best (the comment box, when filled, is its note).
        with gr.Row(equal_height=True):
            # no minimum: Gradio's own bound says it in English; set_score refuses in both
            score = gr.Number(label=t("lp.score"), value=None, scale=1, elem_id="class-score")
            score_set = gr.Button(t("lp.score_set"), scale=1, elem_id="class-score-set")
            score_clear = gr.Button(t("lp.score_clear"), scale=1, variant="secondary",
                                    elem_id="class-score-clear")
        # After an exercise's hidden tests changed: its stored submissions graded again.
        with gr.Row(equal_height=True):
            regrade_exercise = gr.Dropdown(label=t("rg.exercise"), choices=[], value=None,
                                           scale=2, elem_id="class-regrade-exercise")
            regrade = gr.Button(t("rg.button"), scale=1, variant="secondary",
                                elem_id="class-regrade")
            regrade_stop = gr.Button(t("rg.stop"), scale=1, variant="secondary", size="sm",
                                     elem_id="class-regrade-stop")
        regrade_status = gr.Markdown("", elem_id="class-regrade-status")
        # Full width, the figure below it: beside the figure the counts' headers wrapped one
        # letter per line and the exercise column fell off (chromium pass, 2026-12-02).
        mistakes = gr.Dataframe(label=t("cv.mistakes"), interactive=False, visible=False,
                                elem_id="class-mistakes", wrap=True,
                                column_widths=["12%", "12%", "52%", "24%"])
        who = gr.HTML(css_template=view.GRID_CSS, apply_default_css=False, elem_id="class-who")
        mistakes_plot = gr.Plot(show_label=False, elem_id="class-mistakes-plot")
        scores_plot = gr.Plot(show_label=False, elem_id="class-scores-plot")
        tz = gr.Number(visible=False)
        seen = gr.Checkbox(visible=False)
        picks = gr.State([])
    timer = gr.Timer(REFRESH_S, active=False)
    return ClassViewUI(box, since, now, everything, refresh, status, grid, stuck, mistakes, who,
                       scores_plot, mistakes_plot, timer, tz, seen, picks, learner_pick,
                       learner_page, exercises, comment_exercise, comment, comment_send, score,
                       score_set, score_clear, regrade_exercise, regrade, regrade_stop,
                       regrade_status)


def hidden() -> tuple:
    """Everything hidden and the timer stopped (a refusal, or nobody signed in)."""
    return (gr.update(visible=False), gr.skip(), "", "", "", gr.update(value=None, visible=False),
            "", None, None, [], gr.Timer(active=False), gr.update(choices=[], value=None))


def draw(book: Gradebook, since_text: str | None, tz: float | None, lang: str,
         echo: bool = False, only: list | None = None) -> tuple:
    """The class view's outputs for rows of ``book`` since the teacher's start time (one query).
    ``echo``: write the start time back into its box (a button set it; a timer tick must not
    overwrite what the teacher is typing). ``only``: the exercises chosen (none: all)."""
    everything = submissions.exercise_ids()
    try:
        since = data.lesson_start(since_text, tz)
    except ValueError:
        warning = tr("cv.bad_since", lang, text=str(since_text)[:40])
        return (gr.update(visible=True), gr.skip(), "⚠️ " + warning, *(gr.skip(),) * 7,
                gr.Timer(active=True), gr.skip())
    chosen = [ex for ex in everything if ex in set(only or ())] or None
    summary = data.load(book, everything, since, only=chosen)
    clock = data.local_clock(since, tz)
    drawn = datetime.now(timezone.utc).isoformat()
    updated = data.local_clock(drawn, tz)
    frame = view.mistakes_frame(summary, lang)
    tags = view.clash_tags(summary.learners)  # same-name learners read as in the grid
    picks = [(m.exercise, m.mistake, [(x.key, x.label, x.learner_id, tags.get(x.key, ""),
                                       _fixed(summary, x, m.exercise)) for x in m.learners])
             for m in summary.mistakes[: len(frame)]]
    return (gr.update(visible=True), (clock if since else "") if echo else gr.skip(),
            view.status_line(summary, lang, clock, updated), view.grid_html(summary, lang, drawn),
            view.stuck_html(summary, lang), gr.update(value=frame, visible=len(frame) > 0),
            view.who_made(None, lang), view.score_distribution(summary, lang),
            view.mistakes_bars(summary, lang), picks, gr.Timer(active=True),
            gr.update(choices=[(view.who_label(x, lang, tags), x.key) for x in summary.learners]))


def exercise_choices(lang: str) -> tuple[dict, dict, dict]:
    """The lesson chooser's choices, the comment's (no exercise first) and the regrade's:
    every exercise, titled in ``lang``."""
    titled = [(view.exercise_name(ex, lang), ex) for ex in submissions.exercise_ids()]
    return (gr.update(choices=titled), gr.update(choices=[(tr("lp.general", lang), ""), *titled]),
            gr.update(choices=titled))


def who_made(picks: list, index: int | None, lang: str) -> str:
    """The learners behind one row of the mistakes table (from the last draw's own data)."""
    if not isinstance(index, int) or not 0 <= index < len(picks or []):
        return view.who_made(None, lang)
    exercise, mistake, people = picks[index]
    learners = tuple(data.Learner(k, label, lid) for k, label, lid, *_ in people)
    tags = {p[0]: p[3] for p in people if len(p) > 3 and p[3]}
    fixed = frozenset(p[0] for p in people if len(p) > 4 and p[4])
    return view.who_made(data.MistakeCount(exercise, mistake, learners, 0), lang, tags, fixed)


def _fixed(summary, learner, exercise: str) -> bool:
    """Whether ``learner`` has since reached full marks on ``exercise`` (who made a mistake
    then fixed it reads apart from who still has it)."""
    cell = summary.cell(learner, exercise)
    return cell is not None and cell.state == data.FULL
