"""The exercises as a page lists them: labels in the page's language and their public files,
read from the grader's one registry (its public part needs no torch)."""

from __future__ import annotations

from grader.api import all_exercises
from transformer_lab.errors import lab_error
from webapp.i18n import tr
from webapp.views.markdown import joined_cjk_lines


def exercise_choices(lang: str = "en") -> list[tuple[str, str]]:
    """(label, id) for every exercise, in lesson order, from the grader's one registry (its
    public files only: no torch). The label is "<number>. <title>" in ``lang``."""
    return [(f"{ex.number}. {ex.title.get(lang) or ex.title.get('en') or ex.id}", ex.id)
            for ex in all_exercises().values()]


def exercise_title(exercise_id: str, lang: str = "en") -> str:
    """"<number>. <title>" of an exercise in ``lang``; the id itself when it is unknown."""
    return dict((i, label) for label, i in exercise_choices(lang)).get(exercise_id, exercise_id)


def public_text(exercise_id: str, name: str) -> str:
    """One public file of an exercise (statement.en.md, statement.zh.md, starter.py)."""
    exercises = all_exercises()
    if exercise_id not in exercises:
        raise lab_error("unknown_choice", what="exercise", value=exercise_id,
                        choices=", ".join(sorted(exercises)))
    path = exercises[exercise_id].public_dir / name
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def statement_text(exercise_id: str, lang: str = "en", learner_id: str | None = None) -> str:
    """The statement in ``lang``; where it shows the learner's own numbers (an exercise with
    variants, grader/variants.py), theirs, drawn from ``learner_id`` (without one: a line
    saying they come once the page knows the learner)."""
    from grader import api

    text = public_text(exercise_id, f"statement.{lang}.md")
    if lang == "zh":
        text = joined_cjk_lines(text)
    if api.YOUR_NUMBERS not in text:
        return text
    numbers = api.your_numbers(exercise_id, learner_id)
    shown = f"```\n{numbers}\n```" if numbers is not None else tr("ex.numbers_pending", lang)
    return text.replace(api.YOUR_NUMBERS, shown)


def starter_text(exercise_id: str, lang: str = "en", learner_id: str | None = None) -> str:
    """The starter code, its comments and docstrings in ``lang``: on a Chinese page each
    English comment that the exercise's ``starter.zh.json`` translates is replaced (the code
    itself is the same, so it behaves and is graded the same). An exercise with variants
    holds the learner's own numbers (those of ``learner_id``)."""
    import json

    from grader import api

    code = api.with_your_numbers(exercise_id, public_text(exercise_id, "starter.py"), learner_id)
    if lang != "zh":
        return code
    raw = public_text(exercise_id, "starter.zh.json")
    for en, zh in (json.loads(raw).get("comments", {}) if raw else {}).items():
        code = code.replace(en, zh)
    return code
