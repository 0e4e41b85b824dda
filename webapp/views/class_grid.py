"""The class view as a page shows it: the class × exercise grid (HTML), the stuck learners, the
common mistakes and who made one, and two plotly figures, in the page's language (no gradio).

The grid is a plain HTML table with a CSS class per cell state (``cv-none``, ``cv-trying``,
``cv-full``; ``cv-stuck`` marks a stuck cell): it scrolls sideways in its own box on a phone,
its learner column stays in view, and no cell is narrower than a score and a mistake's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from html import escape

import pandas as pd
import plotly.graph_objects as go

from gradebook.csv_export import mistake_name, name_tag, number
from webapp.i18n import tr
from webapp.services.class_summary import (
    FULL,
    SAME_MISTAKE,
    SILENT,
    ClassSummary,
    Learner,
    MistakeCount,
)
from webapp.views.gradebook_lang import show_label
from webapp.views.markdown import md_literal

# With the component (gr.HTML css_template): the grid is readable at 390 px, in its own scroll box.
GRID_CSS = """
.cv-scroll { max-width: 100%; overflow-x: auto; max-height: 70vh; overflow-y: auto; }
.cv-grid { border-collapse: separate; border-spacing: 0; font-size: 0.9em; }
.cv-grid th, .cv-grid td { padding: 4px 6px; border-bottom: 1px solid var(--border-color-primary);
  vertical-align: top; text-align: left; }
.cv-grid thead th { position: sticky; top: 0; background: var(--background-fill-secondary);
  z-index: 2; min-width: 8.5em; max-width: 12em; white-space: normal; word-break: keep-all; }
.cv-grid .cv-learner { position: sticky; left: 0; background: var(--background-fill-primary);
  z-index: 1; min-width: 8em; max-width: 11em; overflow-wrap: anywhere; }
.cv-grid thead .cv-learner { z-index: 3; }
.cv-grid tbody tr[data-learner] { cursor: pointer; }  /* a click opens the learner's page */
.cv-grid tbody tr[data-learner]:hover > * { background: var(--background-fill-secondary); }
/* The totals stay at the foot of the scroll box: at 300 learners they were 300 rows down. */
.cv-grid tfoot { position: sticky; bottom: 0; z-index: 2; }
.cv-grid tfoot th, .cv-grid tfoot td { background: var(--background-fill-secondary);
  border-top: 1px solid var(--border-color-primary); }
.cv-grid td { min-width: 8.5em; max-width: 12em; }
.cv-grid td small { display: block; font-size: 0.85em; overflow: hidden;
  text-overflow: ellipsis; white-space: nowrap; max-width: 11.5em; }
.cv-none { background: rgba(148, 163, 184, 0.12); color: var(--body-text-color-subdued); }
.cv-trying { background: rgba(245, 158, 11, 0.22); }
.cv-full { background: rgba(34, 197, 94, 0.25); }
.cv-stuck { box-shadow: inset 3px 0 0 #dc2626; }
.cv-fixed::after { content: " " attr(data-note); color: #15803d; }
.cv-grid tfoot th, .cv-grid tfoot td { font-weight: 600; background: var(--background-fill-secondary); }
.cv-legend span, .cv-legend b { display: inline-block; padding: 0 0.5em; margin-right: 0.4em; border-radius: 3px; }
.cv-list { margin: 0.3em 0; padding-left: 1.2em; }
@media (max-width: 600px) { .cv-grid .cv-learner { min-width: 6.5em; } }
"""


def _exercise(ex: str, lang: str) -> str:
    from webapp.views.exercise_list import exercise_title

    return exercise_title(ex, lang)


def exercise_name(ex: str, lang: str) -> str:
    """An exercise's title in ``lang`` (the class view's column heads and its chooser)."""
    return _exercise(ex, lang)


def clash_tags(learners: Iterable[Learner]) -> dict[str, str]:
    """A short tag for every learner whose label another learner also has (two "Alice (guest)",
    every "anonymous"): 4 hex digits of a hash of their key, the same wherever they are shown."""
    keys: dict[str, list[str]] = {}
    for learner in learners:
        keys.setdefault(learner.label, []).append(learner.key)
    return {key: name_tag(key) for same in keys.values() if len(set(same)) > 1 for key in same}


def _who(learner: Learner, lang: str, tags: dict[str, str] | None = None) -> str:
    name = show_label(learner.label, lang)
    tag = (tags or {}).get(learner.key)
    return f"{name} · {tag}" if tag else name


def who_label(learner: Learner, lang: str, tags: dict[str, str] | None = None) -> str:
    """A learner as every list of the class view names them (a tag tells same names apart)."""
    return _who(learner, lang, tags)


def mistake_text(exercise: str, mistake: str, lang: str) -> str:
    """A mistake id as the page names it (the grader's own words for it)."""
    return mistake_name(exercise, mistake, "zh" if lang == "zh" else "en")


def _trouble(exercise: str, cell, lang: str) -> str:
    """What to show under a score: the last named mistake, else the first failing stage, else
    a status that is not "graded" (a syntax error, a time limit)."""
    if cell.state == FULL:
        return ""
    if cell.last_mistake:
        return mistake_text(exercise, cell.last_mistake, lang)
    stage = cell.last_stage_zh if lang == "zh" and cell.last_stage_zh else cell.last_stage
    if stage:
        return tr("cv.stage", lang, stage=stage)
    if cell.last_status and cell.last_status != "graded":
        return tr(f"status.{cell.last_status}", lang)
    return ""


def grid_html(summary: ClassSummary, lang: str = "en", drawn: str = "") -> str:
    """The class × exercise grid with per-exercise totals in its footer, and a legend.
    ``drawn`` (when it was drawn) marks the table, so every redraw reaches the page."""
    stuck = {(s.learner.key, s.exercise) for s in summary.stuck if s.reason != SILENT}
    legend = (f'<p class="cv-legend">{escape(tr("cv.legend", lang))} '
              f'<span class="cv-none">{escape(tr("cv.none", lang))}</span>'
              f'<span class="cv-trying">{escape(tr("cv.trying", lang))}</span>'
              f'<span class="cv-full">{escape(tr("cv.full", lang))}</span>'
              f'<span class="cv-trying cv-stuck">{escape(tr("cv.stuck_mark", lang))}</span></p>')
    if not summary.learners:
        return legend + f'<p id="cv-empty">{escape(tr("cv.empty", lang))}</p>'
    head = "".join(f'<th data-exercise="{escape(ex)}">{escape(_exercise(ex, lang))}</th>'
                   for ex in summary.exercises)
    out = [legend, '<div class="cv-scroll"><table class="cv-grid" id="cv-grid" '
           f'data-drawn="{escape(drawn)}"><thead><tr>',
           f'<th class="cv-learner">{escape(tr("cv.learner", lang))}</th>{head}</tr></thead><tbody>']
    tags = clash_tags(summary.learners)
    # Compact cells (300 learners × 8 exercises is 2,400 of them): the class is the state.
    for learner in summary.learners:
        out.append(f'<tr data-learner="{escape(learner.key)}"><th class="cv-learner" '
                   f'title="{escape(learner.learner_id or "")}">{escape(_who(learner, lang, tags))}</th>')
        for ex in summary.exercises:
            cell = summary.cell(learner, ex)
            if cell is None:
                out.append('<td class="cv-none">–</td>')
                continue
            extra = " cv-stuck" if (learner.key, ex) in stuck else ""
            trouble = _trouble(ex, cell, lang)
            note = f'<small title="{escape(trouble)}">{escape(trouble)}</small>' if trouble else ""
            mark = "" if cell.graded is None else (  # the teacher's score, the graded one kept
                f'<span class="cv-set" title="{escape(tr("cv.set_by_teacher", lang, graded=number(cell.graded)))}">'
                "✎</span>")
            out.append(f'<td class="cv-{cell.state}{extra}"><b>{number(cell.best)}/'
                       f'{number(cell.max_score)}</b>{mark} ×{cell.attempts}{note}</td>')
        out.append("</tr>")
    out.append("</tbody><tfoot>")
    for key, values in (("cv.tried", [t.tried for t in summary.totals]),
                        ("cv.full", [t.full for t in summary.totals]),
                        ("cv.median", ["–" if t.median_to_full is None else number(t.median_to_full)
                                       for t in summary.totals])):
        cells = "".join(f"<td>{v}</td>" for v in values)
        out.append(f'<tr data-total="{key[3:]}"><th class="cv-learner">{escape(tr(key, lang))}'
                   f"</th>{cells}</tr>")
    out.append("</tfoot></table></div>")
    return "".join(out)


STUCK_SHOWN = 60  # rows of the needs-help table; the rest are counted (a room has ~30)
STUCK_COLUMNS = ("cv.learner", "cv.col.exercise", "cv.col.why", "cv.col.since", "cv.col.recent",
                 "cv.col.best", "cv.col.last")


def _minutes_ago(iso: str, now: datetime | None) -> int:
    if now is None or not iso:
        return 0
    return max(0, int((now - datetime.fromisoformat(iso.replace("Z", "+00:00"))).total_seconds()
                      // 60))


def _why(s, lang: str, now: datetime | None) -> str:
    if s.reason == SAME_MISTAKE:
        return tr("cv.why.same_mistake", lang, mistake=mistake_text(s.exercise, s.mistake, lang))
    if s.reason == SILENT:
        return tr("cv.why.silent", lang, minutes=_minutes_ago(s.since, now))
    return tr("cv.why.no_gain", lang, n=s.attempts)


def stuck_html(summary: ClassSummary, lang: str = "en") -> str:
    """Who needs help, whom to walk to first on top: why, since when, attempts since the best
    score, the best, the last mistake or stage (a sentence when nobody does)."""
    if not summary.stuck:
        return f'<p id="cv-stuck-none">{escape(tr("cv.stuck_none", lang))}</p>'
    sticky = ' class="cv-learner"'  # the name column stays in view while the table scrolls
    heads = "".join(f"<th{sticky if k == 'cv.learner' else ''}>{escape(tr(k, lang))}</th>"
                    for k in STUCK_COLUMNS)
    rows, tags = [], clash_tags(summary.learners)
    for s in summary.stuck[:STUCK_SHOWN]:
        c = s.cell
        ago = tr("cv.since_ago", lang, minutes=_minutes_ago(s.since, summary.now))
        rows.append(f'<tr data-learner="{escape(s.learner.key)}" data-reason="{s.reason}">'
                    f'<td class="cv-learner">{escape(_who(s.learner, lang, tags))}</td>'
                    f"<td>{escape(_exercise(s.exercise, lang))}</td>"
                    f"<td>{escape(_why(s, lang, summary.now))}</td>"
                    f'<td title="{escape(s.since)}">{escape(ago)}</td><td>{s.attempts}</td>'
                    f"<td>{number(c.best)}/{number(c.max_score)}</td>"
                    f"<td>{escape(_trouble(s.exercise, c, lang))}</td></tr>")
    title = escape(tr("cv.stuck", lang, n=len(summary.stuck)))
    more = len(summary.stuck) - STUCK_SHOWN
    tail = f'<p id="cv-stuck-more">{escape(tr("cv.stuck_more", lang, n=more))}</p>' if more > 0 else ""
    how = escape(tr("cv.stuck_how", lang))
    return (f'<p><b>{title}</b><br><small>{how}</small></p>'
            '<div class="cv-scroll"><table class="cv-grid" id="cv-stuck-table">'
            f'<thead><tr>{heads}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>{tail}')


# The counts first: a narrow column still shows them beside the mistake's name.
MISTAKE_COLUMNS = ("cv.col.learners", "cv.col.attempts", "cv.col.mistake", "cv.col.exercise")


def mistakes_frame(summary: ClassSummary, lang: str = "en", top: int = 20) -> pd.DataFrame:
    """The most common named mistakes: learners, attempts, the mistake's name, exercise."""
    rows = [(len(m.learners), m.attempts, mistake_text(m.exercise, m.mistake, lang),
             _exercise(m.exercise, lang)) for m in summary.mistakes[:top]]
    return pd.DataFrame(rows, columns=[tr(c, lang) for c in MISTAKE_COLUMNS])


def who_made(mistake: MistakeCount | None, lang: str = "en",
             tags: dict[str, str] | None = None, fixed: frozenset[str] = frozenset()) -> str:
    """The learners who made one mistake, as a short HTML list, those still trying first
    (``fixed``: keys of learners now at full marks on that exercise, marked as such; ``tags``:
    clash_tags of the whole class, so a name reads as it does in the grid)."""
    if mistake is None:
        return f'<p>{escape(tr("cv.pick_mistake", lang))}</p>'
    head = tr("cv.who_made", lang, mistake=mistake_text(mistake.exercise, mistake.mistake, lang),
              exercise=_exercise(mistake.exercise, lang), n=len(mistake.learners))
    done = [x for x in mistake.learners if x.key in fixed]
    still = [x for x in mistake.learners if x.key not in fixed]
    if done:
        head += " · " + tr("cv.who_split", lang, still=len(still), fixed=len(done))
    items = "".join(f'<li title="{escape(x.learner_id or "")}">{escape(_who(x, lang, tags))}</li>'
                    for x in still)
    # The mark is drawn from data-note (CSS): the item's own text stays the learner's name.
    note = escape(tr("cv.who_fixed", lang))
    items += "".join(f'<li class="cv-fixed" data-note="{note}" title="{escape(x.learner_id or "")}">'
                     f'{escape(_who(x, lang, tags))}</li>' for x in done)
    return f'<p><b>{escape(head)}</b></p><ul class="cv-list" id="cv-who-list">{items}</ul>'


def status_line(summary: ClassSummary, lang: str, clock: str = "", updated: str = "") -> str:
    """Which period the view shows, how much is in it, and when it was drawn."""
    learners, rows = len(summary.learners) - len(summary.not_started), summary.rows
    one = "_one" if learners == 1 else ""  # "1 learner", not "1 learners"
    if summary.since:
        text = tr("cv.showing_since" + one, lang, time=clock, rows=rows, learners=learners)
    else:
        text = tr("cv.showing_all" + one, lang, rows=rows, learners=learners)
    joiner = "" if lang == "zh" else " "  # no space after a full-width full stop
    text += joiner + tr("cv.updated", lang, time=updated) if updated else ""
    if summary.listed:  # the class list: who is in the room but has not sent anything
        started = summary.listed - len(summary.not_started)
        text += joiner + tr("cv.roster_status", lang, started=started, listed=summary.listed)
        if summary.not_started:
            text += joiner + tr("cv.roster_waiting", lang, names=_some_names(summary.not_started,
                                                                               lang))
    return text


def _some_names(learners: list[Learner], lang: str, shown: int = 12) -> str:
    """The first ``shown`` names, then how many more (a class of 300 is not one sentence)."""
    sep = "、" if lang == "zh" else ", "
    names = sep.join(md_literal(x.label) for x in learners[:shown])
    more = len(learners) - shown
    return tr("cv.roster_more", lang, names=names, n=more) if more > 0 else names


# -- figures: data first (the summary), then the picture ------------------------------------
# Height only, no width: plotly and gr.Plot fill the column (a fixed width overflows a phone).
# The legend and long labels go below or inside, never beside the panel.
_MARGIN = dict(l=10, r=10, t=40, b=10)


def _short(text: str, limit: int = 28) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def score_distribution(summary: ClassSummary, lang: str = "en") -> go.Figure:
    """One box per exercise of the learners' best scores (% of the maximum), every learner a dot."""
    from webapp.views.exercise_list import exercise_title

    fig = go.Figure()
    for ex in summary.exercises:
        values = [round(100 * f, 1) for f in summary.fractions.get(ex, [])]
        if not values:
            continue
        name = exercise_title(ex, lang)
        fig.add_trace(go.Box(y=values, name=_short(name, 18), boxpoints="all", jitter=0.4,
                             pointpos=0, marker=dict(size=4, opacity=0.6), line=dict(width=1),
                             hovertemplate=f"{name}<br>%{{y}}%<extra></extra>",
                             showlegend=False))
    fig.update_layout(title=tr("cv.fig.scores", lang), height=360, margin=_MARGIN,
                      yaxis=dict(title=tr("cv.fig.score_axis", lang), range=[-5, 105]),
                      xaxis=dict(tickangle=-30, automargin=True))
    return fig


def mistakes_bars(summary: ClassSummary, lang: str = "en", top: int = 10) -> go.Figure:
    """The ``top`` most common named mistakes: one horizontal bar per mistake, learners who made
    it, the commonest on top; the names sit inside the plot so a phone keeps the bars."""
    from webapp.views.exercise_list import exercise_title

    chosen = summary.mistakes[:top][::-1]  # plotly draws the first bar at the bottom
    names = [_short(mistake_text(m.exercise, m.mistake, lang), 40) for m in chosen]
    hover = [f"{mistake_text(m.exercise, m.mistake, lang)}<br>{exercise_title(m.exercise, lang)}"
             for m in chosen]
    fig = go.Figure(go.Bar(x=[len(m.learners) for m in chosen], y=list(range(len(chosen))),
                           orientation="h", text=names, textposition="inside",
                           insidetextanchor="start", customdata=hover,
                           hovertemplate="%{customdata}<br>%{x}<extra></extra>",
                           marker=dict(color="#f59e0b")))
    fig.update_layout(title=tr("cv.fig.mistakes", lang), height=max(220, 60 + 34 * len(chosen)),
                      margin=_MARGIN, uniformtext=dict(minsize=9, mode="show"),
                      xaxis=dict(title=tr("cv.fig.learners_axis", lang), rangemode="tozero",
                                 dtick=1 if chosen and len(chosen[-1].learners) <= 10 else None),
                      yaxis=dict(showticklabels=False))
    return fig
