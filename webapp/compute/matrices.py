"""Read and write small matrices typed by a learner ("1 0 1; 0 1 0" or "[[1, 0], [0, 1]]")."""

from __future__ import annotations

import math
import re

from transformer_lab.message import LabError
from webapp.i18n import message

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

    Brackets are ignored, so the Python form "[[1, 0], [0, 1]]" works too. Raises ValueError
    with a sentence naming the matrix when the text is empty, not numeric, ragged or too big.
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
                raise ValueError(
                    f"{name}, row {i + 1}: {cell!r} is not a number. Write numbers separated "
                    "by spaces, one row per line."
                ) from None
            if not math.isfinite(value):
                raise ValueError(f"{name}, row {i + 1}: {cell!r} is not a finite number.")
            if abs(value) > MAX_ABS:  # 1e20 overflowed float32 scores; 1e200 crashed the steps
                raise LabError(message("input.too_large", name=name, row=i + 1, cell=cell[:24],
                                       limit=f"{MAX_ABS:g}"))
            row.append(value)
        rows.append(row)
    if not rows:
        raise ValueError(f"{name} is empty: type at least one row of numbers.")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"{name}: row 1 has {width} numbers but row {i + 1} has {len(row)}; "
                "every row needs the same number of columns."
            )
    if len(rows) > max_side or width > max_side:
        raise ValueError(
            f"{name} is {len(rows)} × {width}; at most {max_side} × {max_side} fits on the page."
        )
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
    """Return ``value`` as an int in [low, high], or raise a ValueError saying the range."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ValueError(f"{name} is empty: enter a whole number from {low} to {high}.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a whole number, got {value!r}.") from None
    if not number.is_integer():
        raise ValueError(f"{name} must be a whole number, got {value!r}.")
    if not low <= number <= high:
        raise ValueError(f"{name} must lie between {low} and {high}, got {int(number)}.")
    return int(number)


def check_float(value, name: str, low: float, high: float) -> float:
    """Return ``value`` as a float in [low, high], or raise a ValueError saying the range."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}.") from None
    if not (math.isfinite(number) and low <= number <= high):
        raise ValueError(f"{name} must lie between {low} and {high}, got {value!r}.")
    return number
