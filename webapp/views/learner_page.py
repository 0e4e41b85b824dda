"""A learner's page for the instructor as HTML (webapp.services.learner_page's data): each
attempt, newest first, with its score, named mistakes, the feedback the learner was shown, the
code, and what changed since the previous attempt at that exercise. Everything a learner wrote
is escaped: their code and labels are text, never markup."""

from __future__ import annotations

from html import escape

from gradebook.csv_export import number
from webapp.i18n import tr
from webapp.services.class_summary import local_clock
from webapp.services.learner_page import LearnerPage
from webapp.views.class_grid import mistake_text
from webapp.views.exercise_list import exercise_title
from webapp.views.gradebook_lang import show_label

CSS = """
.lp-attempt { border-top: 1px solid #d1d5db; padding: 0.4em 0; }
.lp-attempt pre { max-height: 22em; overflow: auto; font-size: 0.85em; background: #f8fafc;
  padding: 0.4em; white-space: pre; }
.lp-attempt .lp-add { color: #166534; } .lp-attempt .lp-del { color: #991b1b; }
.lp-attempt details { margin: 0.2em 0; }
.lp-comments li { white-space: pre-wrap; margin-bottom: 0.3em; }
"""


def _feedback(tests: list, lang: str) -> str:
    """The failed cases with the message the learner read (their language when stored)."""
    items = []
    for t in tests or []:
        if not isinstance(t, dict) or t.get("passed"):
            continue
        name = t.get("name_zh") if lang == "zh" and t.get("name_zh") else t.get("name", "")
        message = t.get("message") or {}
        text = message.get(lang) or message.get("en", "") if isinstance(message, dict) else str(message)
        items.append(f"<li>{tr('lp.case', lang, name=f'<b>{escape(str(name))}</b>', message=escape(str(text)))}</li>")
    return f'<ul class="lp-feedback">{"".join(items)}</ul>' if items else ""


def _diff(lines: list[str]) -> str:
    out = []
    for line in lines:
        kind = "lp-add" if line.startswith("+") else "lp-del" if line.startswith("-") else ""
        out.append(f'<span class="{kind}">{escape(line)}</span>' if kind else escape(line))
    return "\n".join(out)


def page_html(page: LearnerPage | None, lang: str = "en", tz: float | None = None) -> str:
    """The learner's page, or a sentence when there is nobody to show. ``tz``: the teacher's
    offset from UTC in minutes (JavaScript's getTimezoneOffset), as the rest of the view."""
    if page is None:
        return f'<p id="lp-none">{escape(tr("lp.none", lang))}</p>'
    title = "lp.title_one" if page.total == 1 else "lp.title"
    head = tr(title, lang, learner=show_label(page.label, lang), n=page.total)
    parts = [f'<div id="lp-page" data-learner="{escape(page.key)}"><p><b>{escape(head)}</b>'
             f' <small>{escape(page.learner_id or "")}</small></p>']
    if page.comments:  # what the teacher said to them, newest first
        items = "".join(
            f'<li><small>{escape(local_clock(c.at, tz))} · '
            f'{escape(exercise_title(c.exercise, lang) if c.exercise else tr("lp.general", lang))}'
            f'</small><br>{escape(c.text)}</li>' for c in page.comments)
        parts.append(f'<details open><summary>{escape(tr("lp.comments", lang))}</summary>'
                     f'<ul class="lp-comments">{items}</ul></details>')
    if page.scores:  # the scores the teacher set in place of the graded best
        items = "".join(
            f'<li>{escape(exercise_title(o.exercise, lang))}: <b>{number(o.score)}/{number(o.max_score)}</b>'
            f'{escape(" · " + o.note) if o.note else ""}</li>' for o in page.scores)
        parts.append(f'<details open><summary>{escape(tr("lp.scores", lang))}</summary>'
                     f'<ul class="lp-scores">{items}</ul></details>')
    if page.total > len(page.attempts):
        parts.append(f"<p>{escape(tr('lp.newest', lang, shown=len(page.attempts), n=page.total))}</p>")
    for a in page.attempts:
        s = a.sub
        mistakes = "; ".join(mistake_text(s.exercise, m, lang) for m in s.mistakes or [])
        status = "" if s.status == "graded" else f" · {tr(f'status.{s.status}', lang)}"
        if s.id in page.regraded:  # graded again after the tests changed: the first score too
            old, top = page.regraded[s.id]
            status += " · " + tr("lp.regraded", lang, score=number(old), max=number(top))
        line = tr("lp.attempt", lang, exercise=exercise_title(s.exercise, lang), n=a.number,
                  score=number(s.score), max=number(s.max_score),
                  at=local_clock(s.submitted_at, tz))
        parts.append(f'<div class="lp-attempt" data-id="{s.id}"><p>{escape(line + status)}</p>')
        if mistakes:
            parts.append(f"<p>{escape(tr('lp.mistakes', lang, mistakes=mistakes))}</p>")
        parts.append(_feedback(s.tests, lang))
        if a.same:
            parts.append(f"<p><small>{escape(tr('lp.same_code', lang))}</small></p>")
        if a.diff:
            parts.append(f"<details open><summary>{escape(tr('lp.changed', lang))}</summary>"
                         f'<pre class="lp-diff">{_diff(a.diff)}</pre></details>')
        code = s.code[:20_000] if s.code else ""
        body = escape(code) if code else escape(tr("lp.code_not_kept", lang))
        parts.append(f"<details><summary>{escape(tr('lp.code', lang))}</summary>"
                     f'<pre class="lp-code">{body}</pre></details>')
        if a.cut:
            parts.append(f"<p><small>{escape(tr('lp.cut', lang))}</small></p>")
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)
