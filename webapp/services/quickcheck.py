"""Short checked questions of an exercise (exercises/<id>/quickcheck.json): answer, then reveal.

No torch and no gradio: the page calls these and shows Markdown. A "text" question has an
answer box and a reveal (not graded: the point is to commit to an answer first); a "choice"
question says whether the pick is right, then reveals the explanation either way.
"""

from __future__ import annotations

import json

from grader.api import all_exercises
from webapp.i18n import input_error, tr

SLOTS = 3  # the page lays out this many question slots; an exercise uses the first ones


def load(exercise_id: str) -> list[dict]:
    """The exercise's quick checks (an empty list when it has none)."""
    exercises = all_exercises()
    if exercise_id not in exercises:
        raise input_error("unknown_value", what="exercise", value=exercise_id)
    path = exercises[exercise_id].public_dir / "quickcheck.json"
    if not path.is_file():
        return []
    items = json.loads(path.read_text(encoding="utf-8"))
    return items[:SLOTS]


def question_markdown(item: dict, number: int, lang: str) -> str:
    """The question as Markdown, numbered."""
    lang = "zh" if lang == "zh" else "en"
    return f"**{tr('quick.head', lang)} {number}.** {item['question'][lang]}"


def choices(item: dict, lang: str) -> list[tuple[str, int]]:
    """(label, index) pairs for a choice question; [] for a text question."""
    if item.get("kind") != "choice":
        return []
    return [(label, i) for i, label in enumerate(item["choices"]["zh" if lang == "zh" else "en"])]


def answer(item: dict, given: str | int | None, lang: str) -> str:
    """Markdown feedback: asks for an answer first, then judges (choice) and reveals."""
    zh = lang == "zh"
    reveal = item["reveal"]["zh" if zh else "en"]
    if item.get("kind") == "choice":
        if given is None or given == "":
            return tr("quick.pick_first", lang)
        right = int(given) == int(item["answer"])
        return f"{tr('quick.right' if right else 'quick.wrong', lang)}\n\n{reveal}"
    if not str(given or "").strip():
        return tr("quick.write_first", lang)
    return reveal
