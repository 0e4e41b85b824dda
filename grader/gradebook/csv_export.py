"""Gradebook rows as CSV text for an instructor's spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

# learner is the label a learner chose; learner_id tells two learners with one label apart
# (empty on rows stored before ids). It comes last so the older columns keep their places.
HEADER = ["id", "learner", "exercise", "score", "max_score", "passed", "tests", "status",
          "submitted_at", "grader_version", "learner_id"]

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
                r.submitted_at, safe_cell(r.grader_version), safe_cell(r.learner_id or "")]
        if include_code:
            line.append(safe_cell(r.code))
        writer.writerow(line)
    return out.getvalue()
