"""Every ``LAB_*`` variable the gradebook reads, declared once (the form: transformer_lab/settings.py).

``data_dir`` is the app's one data folder: the SQLite gradebook, the serving wing's limits and
the run cache all live under it, so its one default is here, in the lowest package that uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from transformer_lab.settings import PATH, Settings, number, setting, text

DEFAULT_CHARS = 2_000_000_000


def _whole(raw: str) -> int:
    return int(float(raw))  # "5e6" is a fine way to write five million


@dataclass(frozen=True)
class GradebookSettings(Settings):
    """The gradebook's: where the app's data lives, how much code it keeps, which grader it
    records."""

    data_dir: Path = setting("LAB_DATA_DIR", Path("data"),
                             "where the SQLite gradebook, limits and run cache live (0700/0600)",
                             PATH, shown="`./data`")
    # 0 means no bound (gradebook.budget)
    storage_chars: int = setting(
        "LAB_GRADEBOOK_CHARS", DEFAULT_CHARS,
        "code and per-test characters the gradebook keeps before the oldest rows give theirs up "
        "(0: no bound)", number(_whole, minimum=0))
    # None: the project version and a hash of the grader and hidden tests (gradebook.model)
    grader_version: str | None = setting(
        "LAB_GRADER_VERSION", None, "the grader version stored with each row (default: project "
        "version and a hash of the grader and hidden tests)", text(), shown="version + hash")
