"""Read and write small matrices typed by a learner ("1 0 1; 0 1 0" or "[[1, 0], [0, 1]]")."""

from __future__ import annotations

import math
import re

from transformer_lab.message import LabError
from webapp.i18n import Term, input_error, message

# The lesson's exercise 1: Q = K, three tokens of dimension 4, V = 1..12 (kept here, free of torch,
# so the page can show it before torch is imported).
LESSON_Q = "1 0 1 0\n0 1 0 1\n1 1 1 1"
LESSON_K = LESSON_Q
LESSON_V = "1 2 3 4\n5 6 7 8\n9 10 11 12"

MAX_SIDE = 16  # rows and columns a learner may type: bigger matrices are unreadable as heatmaps
# The largest number a learner may type: scores of up to 16 products of such numbers stay far
# inside float32 (1e20 overflowed its scores to inf; 1e200 crashed the step view).
MAX_ABS = 1e4

_SPLIT_ROWS = re.compile(r"[;\n]+")
_SPLIT_NUMBERS = re.compile(r"[,\s]+")


def parse_matrix(text: str, name: str = "matrix", max_side: int = MAX_SIDE) -> list[list[float]]:
    """Parse rows separated by newlines or ';' and numbers by spaces or commas.

    Brackets are ignored, so the Python form "[[1, 0], [0, 1]]" works too. Raises a keyed
    LabError (a ValueError) naming the matrix when the text is empty, not numeric, ragged or
    too big. ``name`` is the matrix's symbol (Q, K, V), the same in every language.
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be text, got {type(text).__name__}")
    # "[[1, 2], [3, 4]]" → "1, 2; 3, 4": a closing-then-opening bracket separates rows.
    cleaned = re.sub(r"\]\s*,?\s*\[", ";", text).replace("[", " ").replace("]", " ")
    rows = []
    for i, line in enumerate(r for r in _SPLIT_ROWS.split(cleaned) if r.strip()):
        cells = [c for c in _SPLIT_NUMBERS.split(line.strip()) if c]
        row = []
        for cell in cells:
            try:
                value = float(cell)
            except ValueError:
                raise input_error("matrix_not_number", name=name, row=i + 1, cell=cell) from None
            if not math.isfinite(value):
                raise input_error("matrix_not_finite", name=name, row=i + 1, cell=cell)
            if abs(value) > MAX_ABS:  # 1e20 overflowed float32 scores; 1e200 crashed the steps
                raise LabError(message("input.too_large", name=name, row=i + 1, cell=cell[:24],
                                       limit=f"{MAX_ABS:g}"))
            row.append(value)
        rows.append(row)
    if not rows:
        raise input_error("matrix_empty", name=name)
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise input_error("matrix_ragged", name=name, width=width, row=i + 1, count=len(row))
    if len(rows) > max_side or width > max_side:
        raise input_error("matrix_too_big", name=name, rows=len(rows), cols=width, side=max_side)
    return rows


def format_matrix(rows, decimals: int = 4) -> str:
    """Write a matrix (nested lists or a 2-D tensor/array) back as text parse_matrix reads."""
    if hasattr(rows, "tolist"):
        rows = rows.tolist()
    lines = []
    for row in rows:
        cells = []
        for x in row:
            x = round(float(x), decimals)
            cells.append(str(int(x)) if x == int(x) else f"{x:g}")
        lines.append(" ".join(cells))
    return "\n".join(lines)


def check_int(value, name: str, low: int, high: int) -> int:
    """Return ``value`` as an int in [low, high], or raise a keyed LabError (a ValueError)
    saying the range. ``name`` names the box: a ``term.<name>`` key of the catalogue."""
    box = Term(name)
    if value is None or (isinstance(value, str) and not value.strip()):
        raise input_error("int_empty", name=box, low=low, high=high)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise input_error("int_not_whole", name=box, value=value) from None
    if not number.is_integer():
        raise input_error("int_not_whole", name=box, value=value)
    if not low <= number <= high:
        raise input_error("between", name=box, low=low, high=high, got=int(number))
    return int(number)


def check_float(value, name: str, low: float, high: float) -> float:
    """Return ``value`` as a float in [low, high], or raise a keyed LabError (a ValueError)
    saying the range. ``name`` names the box: a ``term.<name>`` key of the catalogue."""
    box = Term(name)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise input_error("not_number", name=box, value=value) from None
    if not (math.isfinite(number) and low <= number <= high):
        raise input_error("between", name=box, low=low, high=high, got=repr(value))
    return number
