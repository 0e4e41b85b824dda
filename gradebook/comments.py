"""A teacher's comments to one learner (issue 25, item 8): a line about an exercise, or about
the learner's work in general, that the learner reads on My progress and the teacher sees on
the learner's page. Plain Python; the table is ``comments`` in both backends.

Only the instructor writes them (the page checks the sign-in before every write and logs it);
each is at most MAX_CHARS characters, and a learner keeps the newest MAX_KEPT.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gradebook.model import surrogate_safe, utc_now_iso

MAX_CHARS = 2000
MAX_KEPT = 200  # per learner; older ones go when a new one comes


@dataclass(frozen=True)
class Comment:
    """One comment: to whom, about which exercise ("" for none), the text, who, when (UTC)."""

    id: int
    learner_id: str
    exercise: str
    text: str
    by: str
    at: str


class _Book(Protocol):
    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    def _execute(self, sql: str, params: tuple = ()) -> None: ...


def clean_comment(text: object) -> str:
    """The comment as stored: stripped, without NUL or other control characters but newlines
    and tabs, without invisible format characters (U+202E and the like); ValueError when
    empty or longer than MAX_CHARS."""
    if not isinstance(text, str):
        raise ValueError("a comment is text")
    # no control characters but newline and tab, and no invisible format characters (a
    # right-to-left override or a zero-width space would make the text read otherwise)
    kept = "".join(ch for ch in text.replace("\r\n", "\n")
                   if ch in "\n\t" or (ord(ch) >= 32 and ord(ch) != 127
                                        and unicodedata.category(ch) != "Cf")).strip()
    if not kept:
        raise ValueError("the comment is empty")
    if len(kept) > MAX_CHARS:
        raise ValueError(f"a comment holds at most {MAX_CHARS} characters")
    return surrogate_safe(kept)


class Comments:
    """The comment methods of a Gradebook (mixed in: they use its ``_query``/``_execute``)."""

    def add_comment(self: _Book, learner_id: str, exercise: str, text: str, by: str) -> None:
        """Store a comment to ``learner_id`` (cleaned by :func:`clean_comment`); the learner's
        oldest go past MAX_KEPT."""
        if not isinstance(learner_id, str) or not learner_id:
            raise ValueError("a comment goes to a learner id")
        self._execute("INSERT INTO comments (learner_id, exercise, text, by_whom, at) "
                      "VALUES (?, ?, ?, ?, ?)", (learner_id, str(exercise or "")[:100],
                                                 clean_comment(text), str(by)[:200], utc_now_iso()))
        self._execute("DELETE FROM comments WHERE learner_id = ? AND id NOT IN (SELECT id FROM "
                      f"comments WHERE learner_id = ? ORDER BY id DESC LIMIT {MAX_KEPT})",
                      (learner_id, learner_id))

    def comments(self: _Book, learner_id: str | None, limit: int = 50) -> list[Comment]:
        """The newest ``limit`` comments to ``learner_id``, newest first."""
        if not learner_id:
            return []
        rows = self._query("SELECT id, learner_id, exercise, text, by_whom, at FROM comments "
                           f"WHERE learner_id = ? ORDER BY id DESC LIMIT {int(limit)}",
                           (learner_id,))
        return [Comment(int(i), lid, ex, text, by, at.isoformat() if isinstance(at, datetime)
                        else str(at)) for i, lid, ex, text, by, at in rows]
