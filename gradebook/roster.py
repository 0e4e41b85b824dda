"""A teacher's class list: members with the name the teacher typed and a join link each.

Behind a school's one address every browser key, API label and page session is free to mint,
so one student can stand for hundreds of learners (red team, issue 29). A **member** costs
something a flood cannot make: its learner id (``c:`` + 20 hex digits) is created only by the
teacher, and a browser becomes that member only through the member's join code, whose hash is
the member's recovery code (the same table, the same 100 bits, the same one-statement link of
:meth:`Gradebook.link_browser_by_code`). The serving wing (webapp.serving) gives a member what
it gives a signed-in learner: no new-learner allowance to spend, and a place before every
learner it cannot tell from a minted key.

The join code itself is kept beside the name, so the teacher can show the links again at any
time (pasting the list again changes nothing). Only a renewal (:meth:`Roster.add_member` with
``renew``) makes a new code: the old link stops working and every browser that joined with it
leaves (a leaked link). Plain Python; the table is ``roster`` in both backends.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from gradebook.identity import fold, recovery_hash
from gradebook.model import utc_now_iso

MEMBER_PREFIX = "c:"
MAX_MEMBERS = 1000  # a class list, not a directory: adding beyond it is refused


@dataclass(frozen=True)
class Member:
    """One name on the class list: its learner id, the name as the teacher wrote it, its join
    code, when it was added, and how many browsers have joined with it."""

    learner_id: str
    name: str
    code: str
    added_at: str
    browsers: int = 0


def is_member_id(learner_id: object) -> bool:
    """Whether ``learner_id`` has the form only :meth:`Roster.add_member` makes."""
    return isinstance(learner_id, str) and learner_id.startswith(MEMBER_PREFIX)


class _Book(Protocol):
    ROW_LOCK: str

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    def _execute(self, sql: str, params: tuple = ()) -> None: ...

    def set_recovery(self, learner_id: str, code_hash: str) -> None: ...

    def renew_recovery(self, learner_id: str, code_hash: str, keep: str | None = None) -> int: ...


_COLUMNS = "learner_id, name, join_code, added_at"


class Roster:
    """The class-list methods of a Gradebook (mixed in: they use its ``_query``/``_execute``)."""

    def add_member(self: _Book, name: str, code: str, renew: bool = False) -> tuple[Member, str]:
        """Put ``name`` (already cleaned: limits.clean_learner) on the class list with the join
        code ``code`` (identity.new_recovery_code); ``(member, what)``, ``what`` being "added",
        "kept" (the name was there: its code stays, ``code`` unused) or "renewed" (``renew``:
        the name was there and now has ``code``; the browsers that joined with the old one
        left). Raises ValueError past MAX_MEMBERS or for a name without letters or digits."""
        folded = fold(name)
        if not folded:
            raise ValueError("a class-list name needs a letter or a digit")
        found = self._query(f"SELECT {_COLUMNS} FROM roster WHERE folded = ?", (folded,))
        if found and not renew:
            return _member(found[0]), "kept"
        if found:
            learner_id = found[0][0]
            self._execute("UPDATE roster SET join_code = ? WHERE learner_id = ?", (code, learner_id))
            self.renew_recovery(learner_id, recovery_hash(code))  # the old link: nobody joined
            rows = self._query(f"SELECT {_COLUMNS} FROM roster WHERE learner_id = ?", (learner_id,))
            return _member(rows[0]), "renewed"
        if int(self._query("SELECT COUNT(*) FROM roster")[0][0]) >= MAX_MEMBERS:
            raise ValueError(f"the class list holds at most {MAX_MEMBERS} names")
        learner_id = MEMBER_PREFIX + secrets.token_hex(10)
        # The code's hash first: a member row is never without a working code.
        self.set_recovery(learner_id, recovery_hash(code))
        self._execute("INSERT INTO roster (learner_id, name, folded, join_code, added_at) "
                      "VALUES (?, ?, ?, ?, ?) ON CONFLICT (folded) DO NOTHING",
                      (learner_id, name, folded, code, utc_now_iso()))
        rows = self._query(f"SELECT {_COLUMNS} FROM roster WHERE folded = ?", (folded,))
        if rows[0][0] != learner_id:  # a concurrent add of the same name won: one member
            self._execute("DELETE FROM recovery_codes WHERE learner_id = ?", (learner_id,))
            return _member(rows[0]), "kept"
        return _member(rows[0]), "added"

    def members(self: _Book) -> list[Member]:
        """Everyone on the class list in the order they were added, with how many browsers
        joined with each one's link."""
        rows = self._query(
            "SELECT r.learner_id, r.name, r.join_code, r.added_at, "
            "(SELECT COUNT(*) FROM browser_keys b WHERE b.learner_id = r.learner_id) "
            "FROM roster r ORDER BY r.added_at, r.name")
        return [_member(r[:4], int(r[4])) for r in rows]

    def member_name(self: _Book, learner_id: str | None) -> str | None:
        """The class-list name of ``learner_id``, or None (not a member)."""
        if not is_member_id(learner_id):
            return None
        rows = self._query("SELECT name FROM roster WHERE learner_id = ?", (learner_id,))
        return rows[0][0] if rows else None


def _member(row: tuple, browsers: int = 0) -> Member:
    learner_id, name, code, at = row
    return Member(learner_id, name, code,
                  at.isoformat() if isinstance(at, datetime) else str(at), browsers)
