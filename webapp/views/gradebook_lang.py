"""Gradebook text as a page shows it: labels and the instructor's tables.

The gradebook stores English keys (labels such as "alice (guest)", sources, access actions,
exercise ids); they stay its keys and the CSV's. Only what a page shows is translated here.
A learner's results need nothing here: their messages are stored in both languages and where
their code raised as data (grader.report.TestResult.frame).
"""

from __future__ import annotations

import pandas as pd

from webapp.i18n import tr

# Suffixes the gradebook appends to typed labels (gradebook/identity.py).
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
               "class list": "gb.action.class_list", "comment": "gb.action.comment",
               "score": "gb.action.score", "regrade": "gb.action.regrade"}
DETAIL_KEYS = {"best scores": "gb.detail.best_scores", "csv": "gb.detail.csv",
               "csv with code": "gb.detail.csv_code", "wrong password": "gb.detail.wrong_password",
               "not on LAB_INSTRUCTORS": "gb.detail.not_listed",
               "class view": "gb.detail.class_view",
               "class view (refreshed)": "gb.detail.class_view_refresh",
               "csv per learner": "gb.detail.csv_learners", "class list": "gb.detail.class_list"}
# Entries written as a catalogue sentence with one field (access_text); a page shows the same
# sentence in its language with the same field. Key -> the field's name.
WHO_KEYS = {"gb.who.password": "address"}
DETAIL_FIELD_KEYS = {"gb.detail.learner_page": "learner", "gb.detail.roster_names": "learner"}


def access_text(key: str, value: str) -> str:
    """What the access log stores for a catalogue sentence with one field: its English text
    (the stored words stay English, like every key of the log)."""
    field = {**WHO_KEYS, **DETAIL_FIELD_KEYS}[key]
    return tr(key, "en", **{field: value})


def _in_lang(text: str, keys: dict[str, str], lang: str) -> str:
    """A stored sentence from ``keys`` in ``lang``: matched against the catalogue's own English
    sentence (before and after its field), so the words are written in one place."""
    if not isinstance(text, str):
        return text
    for key, field in keys.items():
        before, _, after = tr(key, "en", **{field: "\x00"}).partition("\x00")
        if text.startswith(before) and text.endswith(after) and len(text) >= len(before) + len(after):
            value = text[len(before):len(text) - len(after)]
            return tr(key, lang, **{field: value})
    return text


def shown(keys: dict[str, str], lang: str) -> dict[str, str]:
    """A stored word -> key table as one language shows it."""
    return {stored: tr(key, lang) for stored, key in keys.items()}


COLUMNS_ZH = shown(COLUMN_KEYS, "zh")


def show_label(label: str, lang: str) -> str:
    """A stored label as the page shows it: "alice (guest)" ends in the Chinese guest suffix
    (gb.suffix.guest) on a Chinese page."""
    if lang != "zh" or not isinstance(label, str):
        return label
    for suffix, key in _SUFFIX_KEYS.items():
        if label.endswith(suffix):
            return label[: -len(suffix)] + tr(key, lang)
    return tr("gb.anonymous", lang) if label == "anonymous" else label


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
        out["who"] = [_in_lang(x, WHO_KEYS, lang) for x in out["who"]]
    for column, keys in (("action", ACTION_KEYS), ("detail", DETAIL_KEYS)):
        if column in out:
            words = shown(keys, lang)
            out[column] = [words.get(x, x) for x in out[column]]
    if "detail" in out:
        out["detail"] = [_in_lang(x, DETAIL_FIELD_KEYS, lang) for x in out["detail"]]
    return out.rename(columns=shown(COLUMN_KEYS, lang))
