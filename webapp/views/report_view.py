"""A grader report as Markdown and a table, and a stored status in the learner's language."""

from __future__ import annotations

import pandas as pd

from gradebook.model import surrogate_safe, surrogate_safe_data
from grader.api import Report, TestResult, render
from webapp.i18n import EN, tr


# A stored submission's status (grader/report.py's Report.status), as a learner reads it.
def status_name(status: str, lang: str = "en") -> str:
    """A submission status in the learner's language (an unknown one as it is)."""
    key = f"status.{status}"
    return tr(key, lang) if key in EN else status


def score_markdown(report: Report, lang: str = "en", practice: bool = False) -> str:
    """Headline of a report: score and summary. ``practice``: a run of the public examples,
    headed as such (it is neither graded nor recorded, and must not read like a score).

    The internal mistake ids (for instructors and the gradebook) are not shown: each failed
    test's own message already explains the mistake in words."""
    if practice:
        passed = sum(t.passed for t in report.tests)
        lines = ["## " + tr("report.practice_line", lang, passed=passed, n=len(report.tests)),
                 tr("report.practice_note", lang)]
        first = first_to_fix(report, lang)
        return surrogate_safe("\n\n".join(lines + ([first] if first else [])))
    lines = ["## " + tr("report.score_line", lang, score=report.score, max=report.max_score)]
    if report.summary:
        lines.append(render(report.summary, lang))
    first = first_to_fix(report, lang)
    if first:
        lines.append(first)
    return surrogate_safe("\n\n".join(lines))


def first_to_fix(report: Report, lang: str = "en") -> str:
    """The first failed test's message under the score, where every width shows it (on a phone
    the results table's message column lies past the screen's edge; chromium pass, issue 20).
    The table lists the failed tests first, in the same order."""
    failed = next((t for t in report.tests if not t.passed), None)
    if failed is None:
        return ""
    message = render(failed.message, lang)
    return tr("report.first_fix", lang, test=test_name(failed, lang), message=message)


def test_name(test: TestResult, lang: str = "en") -> str:
    """A test's name in ``lang``: on a Chinese page its Chinese name when the case has one; the
    English name is the stored key."""
    return (test.name_zh if lang == "zh" else "") or test.name


def result_columns(lang: str = "en") -> list[str]:
    """The results table's headers in ``lang``."""
    return [tr(f"report.col.{c}", lang) for c in ("test", "result", "score", "max", "message")]


def empty_results(lang: str = "en") -> pd.DataFrame:
    """No results yet (another exercise was chosen): the headers, no rows."""
    return pd.DataFrame([], columns=result_columns(lang))


def results_frame(report: Report, lang: str = "en") -> pd.DataFrame:
    """One row per test, failed ones first: name, pass/fail, points and the message."""
    cols = result_columns(lang)
    tests = [t for t in report.tests if not t.passed] + [t for t in report.tests if t.passed]
    rows = []
    for t in tests:
        where = t.where(lang)  # the learner's frame in the page's language, or Python's text
        text = render(t.message, lang) + ("\n\n" + where if where else "")
        rows.append([test_name(t, lang), tr("report.passed" if t.passed else "report.failed", lang), t.score, t.max_score, text])
    # the child's text may hold lone surrogates, which the page's JSON cannot carry
    return pd.DataFrame(surrogate_safe_data(rows), columns=cols)  # failed first; message is Markdown


def stored_report(exercise_id: str, tests: list, status: str = "graded") -> Report:
    """A stored submission's per-test results as a report again (the gradebook keeps each test
    as TestResult's fields; the summary is rebuilt from them). A row it cannot read is left
    out."""
    rows = [r for r in map(TestResult.from_dict, tests if isinstance(tests, list) else []) if r]
    report = Report(exercise_id, tests=rows, status=status if isinstance(status, str) else "")
    if rows:
        from grader.api import summarise

        summarise(report)  # the same count line a fresh grade shows
    return report


def last_result_markdown(report: Report, submitted_at: str, lang: str = "en") -> str:
    """The headline of a stored submission shown again after a reload: when, then its score."""
    when = str(submitted_at or "")[:16].replace("T", " ")
    return tr("report.last_submission", lang, when=when) + "\n\n" + score_markdown(report, lang)
