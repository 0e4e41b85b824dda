"""Gradebook text as a page shows it: labels, the instructor's tables, starter errors.

The gradebook stores English keys (labels such as "alice (guest)", sources, access actions,
exercise ids); they stay its keys and the CSV's. Only what a page shows is translated here.
"""

from __future__ import annotations

import re

import pandas as pd

from webapp.i18n import tr

# Suffixes the gradebook appends to typed labels (grader/gradebook/identity.py).
_SUFFIX_KEYS = {" (guest)": "gb.suffix.guest", " (api)": "gb.suffix.api"}
# The instructor's best-scores table and access log (webapp/views/gradebook_tables.py): the
# stored English word -> its catalogue key (whose English text is that word).
COLUMN_KEYS = {"learner": "gb.col.learner", "learner id": "gb.col.learner_id",
               "source": "gb.col.source", "exercise": "table.exercise", "best": "table.best",
               "max": "table.max", "attempts": "table.attempts", "best #": "gb.col.best_id",
               "first best at": "gb.col.first_best_at", "last at": "gb.col.last_at",
               "when": "gb.col.when", "who": "gb.col.who", "action": "gb.col.action",
               "detail": "gb.col.detail"}
SOURCE_KEYS = {"before ids (unverified)": "gb.source.before_ids",
               "signed in (verified)": "gb.source.signed_in", "guest (one browser)": "gb.source.guest",
               "API (unverified label)": "gb.source.api", "unknown": "gb.source.unknown",
               "class list (joined by link)": "gb.source.member"}
ACTION_KEYS = {"view": "gb.action.view", "export": "gb.action.export", "refused": "gb.action.refused",
               "class list": "gb.action.class_list", "comment": "gb.action.comment"}
DETAIL_KEYS = {"best scores": "gb.detail.best_scores", "csv": "gb.detail.csv",
               "csv with code": "gb.detail.csv_code", "wrong password": "gb.detail.wrong_password",
               "not on LAB_INSTRUCTORS": "gb.detail.not_listed",
               "class view": "gb.detail.class_view",
               "class view (refreshed)": "gb.detail.class_view_refresh",
               "csv per learner": "gb.detail.csv_learners", "class list": "gb.detail.class_list"}
# Details stored as a fixed English head and a value (the head is the key's English text).
DETAIL_HEADS = {"learner page ": "gb.detail.learner_page", "names ": "gb.detail.roster_names"}


def shown(keys: dict[str, str], lang: str) -> dict[str, str]:
    """A stored word -> key table as one language shows it."""
    return {stored: tr(key, lang) for stored, key in keys.items()}


COLUMNS_ZH = shown(COLUMN_KEYS, "zh")
_PASSWORD_FROM = re.compile(r"^password from (.+)$")
# What the exercises' starters raise before a function is written (exercises/*/starter.py), and
# where the traceback says it happened: as the Chinese results table shows them.
_NOT_WRITTEN = re.compile(r"([A-Za-z_]\w*)( with valid_lens)? is not written yet"
                          r"(?: \(d_k = ([^,]+), scale ([^)]+)\))?")
_TRACE_LINE = re.compile(r'File "([^"]+)", line (\d+), in (\S+)')


def show_label(label: str, lang: str) -> str:
    """A stored label as the page shows it: "alice (guest)" ends in the Chinese guest suffix
    (gb.suffix.guest) on a Chinese page."""
    if lang != "zh" or not isinstance(label, str):
        return label
    for suffix, key in _SUFFIX_KEYS.items():
        if label.endswith(suffix):
            return label[: -len(suffix)] + tr(key, lang)
    return tr("gb.anonymous", lang) if label == "anonymous" else label


def _who(who: str, lang: str) -> str:
    m = _PASSWORD_FROM.match(who or "")
    return tr("gb.who.password", lang, address=m[1]) if m else who


def instructor_frame(frame: pd.DataFrame | None, lang: str) -> pd.DataFrame | None:
    """The best-scores table in the page's language: headers, sources, labels and exercise
    titles (the learner id stays: it is the CSV's key). English shows the stored words, with
    exercise titles instead of ids as in Chinese."""
    if frame is None:
        return frame
    from webapp.views.exercise_list import exercise_title

    out = frame.copy()
    if "learner" in out:
        out["learner"] = [show_label(x, lang) for x in out["learner"]]
    if "source" in out:
        sources = shown(SOURCE_KEYS, lang)
        out["source"] = [sources.get(x, x) for x in out["source"]]
    if "exercise" in out:
        out["exercise"] = [exercise_title(x, lang) for x in out["exercise"]]
    return out.rename(columns=shown(COLUMN_KEYS, lang))


def access_frame(frame: pd.DataFrame | None, lang: str) -> pd.DataFrame | None:
    """The instructor access log in the page's language (English: the stored words)."""
    if frame is None or lang != "zh":
        return frame
    out = frame.copy()
    if "who" in out:
        out["who"] = [_who(x, lang) for x in out["who"]]
    for column, keys in (("action", ACTION_KEYS), ("detail", DETAIL_KEYS)):
        if column in out:
            words = shown(keys, lang)
            out[column] = [words.get(x, x) for x in out[column]]
    if "detail" in out:
        out["detail"] = [_detail(x, lang) for x in out["detail"]]
    return out.rename(columns=shown(COLUMN_KEYS, lang))


def _detail(detail: str, lang: str) -> str:
    for head, key in DETAIL_HEADS.items():
        if isinstance(detail, str) and detail.startswith(head):
            return tr(key, lang, learner=detail[len(head):])
    return detail


def starter_text_zh(text: str) -> str:
    """A result message on a Chinese page: the starter's "f is not written yet" and the
    traceback's 'File "submission.py", line 20, in f' in Chinese (names stay as code)."""
    def not_written(m: re.Match) -> str:
        extra = tr("gb.starter.valid_lens", "zh") if m[2] else ""
        numbers = tr("gb.starter.numbers", "zh", d_k=m[3], scale=m[4]) if m[3] else ""
        return tr("gb.starter.not_written", "zh", name=m[1], extra=extra, numbers=numbers)

    text = _NOT_WRITTEN.sub(not_written, text)
    return _TRACE_LINE.sub(lambda m: tr("gb.trace.line", "zh", file=m[1], line=m[2], fn=m[3]), text)
