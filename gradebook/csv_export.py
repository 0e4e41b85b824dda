"""Gradebook rows as CSV text for an instructor's spreadsheet."""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from grader import mistakes

# learner is the label a learner chose; learner_id tells two learners with one label apart
# (empty on rows stored before ids). Newer columns come after it so the older ones keep their
# places: the named mistakes (ids, then their names in English) and the first failing stage,
# then the same names and stage as a Chinese page shows them (a class taught in Chinese).
HEADER = ["id", "learner", "exercise", "score", "max_score", "passed", "tests", "status",
          "submitted_at", "grader_version", "learner_id", "mistakes", "mistake_names", "stage",
          "mistake_names_zh", "stage_zh"]
@lru_cache(maxsize=512)
def mistake_name(exercise: str, mistake: str, lang: str = "en") -> str:
    """A mistake id as a person reads it: its registered title (grader/mistakes.py) in English
    or Chinese ("zh"), never cut from a message; without the hidden tests (a public copy) the
    contract mistakes still have theirs, any other id reads as words ("no-scale" -> "no scale")."""
    from grader.exercises import UnknownExercise, get

    try:
        entries = mistakes.registry(get(exercise))
    except (UnknownExercise, OSError, ValueError):
        entries = mistakes.contract()
    return mistakes.title_of(entries, mistake, lang)

# A spreadsheet runs a cell starting with one of these as a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """Text a spreadsheet will show, never run: a leading formula character gets a quote mark."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def number(x: float) -> str:
    """A score as short text: 3.0 -> "3", 2.5 -> "2.5"."""
    x = round(float(x), 6)
    return str(int(x)) if x.is_integer() else repr(x)


def rows_to_csv(rows: Iterable[Any], include_code: bool = False) -> str:
    """CSV with one line per submission (``rows`` are Submissions), oldest first as given."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER + (["code"] if include_code else []))
    for r in rows:
        line = [r.id, safe_cell(r.learner), safe_cell(r.exercise), number(r.score),
                number(r.max_score), r.passed_count(), len(r.tests), safe_cell(r.status),
                r.submitted_at, safe_cell(r.grader_version), safe_cell(r.learner_id or ""),
                safe_cell(",".join(r.mistakes or [])),
                safe_cell("; ".join(mistake_name(r.exercise, m) for m in r.mistakes or [])),
                safe_cell(r.stage or ""),
                safe_cell("；".join(mistake_name(r.exercise, m, "zh") for m in r.mistakes or [])),
                safe_cell(r.stage_zh or r.stage or "")]
        if include_code:
            line.append(safe_cell(r.code))
        writer.writerow(line)
    return out.getvalue()


LEARNER_HEADER = ["learner", "learner_id", "same_name_tag"]  # then one column per exercise
BOM = "\ufeff"  # a spreadsheet opened by double-click reads UTF-8 (Chinese names) only with it


def name_tag(key: str) -> str:
    """The short tag that tells two learners with one label apart, the same in the class view
    (webapp.views.class_grid.clash_tags) and the spreadsheet: 4 hex digits of a hash of the
    learner's key ("id:<learner id>", or "label:<label>" for rows stored before ids)."""
    return hashlib.sha256(key.encode()).hexdigest()[:4]


def learners_to_csv(best: Iterable[Any], exercises: Iterable[str] = (),
                    listed: Iterable[tuple[str, str]] = ()) -> str:
    """CSV with one line per learner and one column per exercise (a teacher's spreadsheet):
    the best score, empty where the learner never tried it; then the total, the total
    possible over the exercises tried by anyone, and the time of the learner's last
    submission. ``best`` are BestScores; ``exercises`` orders the columns (exercises found
    only in ``best`` follow). Each exercise's header says its points: ``causal-mask (/12)``;
    ``out_of_tried`` sums them over the exercises anyone tried. Learners are told apart by id
    (two "Alice (guest)" are two lines, with the class view's tag in ``same_name_tag``),
    sorted by label. The text starts with a byte-order mark, so a spreadsheet opened by
    double-click reads Chinese names right. ``listed``: (learner id, name) of the teacher's
    class list; a name that never submitted is a line too, its scores empty and total 0."""
    best = list(best)
    order = list(dict.fromkeys([*exercises, *(b.exercise for b in best)]))
    tried = {b.exercise for b in best}
    order = [ex for ex in order if ex in tried]
    points = {ex: max(b.max_score for b in best if b.exercise == ex) for ex in order}
    people: dict[str, dict[str, Any]] = {}
    for b in best:
        key = f"id:{b.learner_id}" if b.learner_id else f"label:{b.learner}"
        row = people.setdefault(key, {"label": b.learner, "id": b.learner_id or "", "key": key,
                                      "scores": {}, "last": ""})
        row["scores"][b.exercise] = b.score
        if b.last_at >= row["last"]:
            row["last"], row["label"] = b.last_at, b.learner  # the newest label wins
    for learner_id, name in listed:  # on the class list, nothing sent yet
        people.setdefault(f"id:{learner_id}", {"label": name, "id": learner_id,
                                               "key": f"id:{learner_id}", "scores": {},
                                               "last": ""})
    labels: dict[str, int] = {}
    for row in people.values():
        labels[row["label"]] = labels.get(row["label"], 0) + 1
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LEARNER_HEADER + [f"{ex} (/{number(points[ex])})" for ex in order]
                    + ["total", "out_of_tried", "last_submitted_at"])
    for row in sorted(people.values(), key=lambda r: (r["label"].casefold(), r["id"])):
        scores = row["scores"]
        tag = name_tag(row["key"]) if labels[row["label"]] > 1 else ""
        writer.writerow([safe_cell(row["label"]), safe_cell(row["id"]), tag,
                         *(number(scores[ex]) if ex in scores else "" for ex in order),
                         number(sum(scores.values())), number(sum(points.values())),
                         row["last"]])
    return out.getvalue()
