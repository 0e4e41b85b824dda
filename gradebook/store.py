"""The Gradebook interface shared by both backends, and open_gradebook() that picks one."""

from __future__ import annotations

import json
import logging
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from gradebook.budget import StorageBudget, budget_from_env
from gradebook.comments import Comments
from gradebook.csv_export import rows_to_csv
from gradebook.identity import legacy_signed_in, signed_in_id
from gradebook.model import (
    Attempt,
    BestScore,
    GradebookError,
    Submission,
    best_of,
    diagnosis_of,
    normalise_timestamp,
    surrogate_safe,
    utc_now_iso,
)
from gradebook.overrides import Overrides
from gradebook.regrades import Regrades
from gradebook.roster import Roster

# Column order of every SELECT; _row() relies on it.
COLUMNS = ("id", "learner", "exercise", "code", "score", "max_score", "tests", "status",
           "submitted_at", "grader_version", "learner_id", "mistakes", "stage", "stage_zh")
# The same columns without the big code, for score tables and CSV.
LIGHT_COLUMNS = tuple("'' AS code" if c == "code" else c for c in COLUMNS)
DEFAULT_FILENAME = "gradebook.sqlite3"
log = logging.getLogger("gradebook")


class Gradebook(Roster, Comments, Overrides, Regrades, ABC):
    """Every graded submission, stored durably. Safe to share between threads.

    Backends implement four primitives: ``_insert`` (commit one row, return its id),
    ``_query`` (rows as tuples), ``_execute`` (one committed write) and ``close``. ``?`` marks
    parameters. Besides ``submissions``, three small tables hold identity and audit data:
    ``browser_keys`` (hashes of browser keys linked to a learner id by a recovery code),
    ``recovery_codes`` (one code hash per learner), ``access_log`` (instructor views),
    ``instructor_trust`` (keyed hashes of addresses and browsers that logged in as instructor),
    ``roster`` (the teacher's class list: gradebook.roster), ``comments`` (a
    teacher's to a learner: gradebook.comments), ``score_overrides`` (a teacher's score in
    place of the graded best: gradebook.overrides), ``regrades`` (old and new scores of rows graded again:
    gradebook.regrades) and ``server_secrets``.
    """

    backend: str = "?"
    # Appended to the SELECT of a conditional write, so a concurrent UPDATE of the row it
    # read makes it wait and read again (PostgreSQL: " FOR SHARE"). SQLite runs one writer at
    # a time, so a single statement there cannot interleave with another.
    ROW_LOCK: str = ""
    TESTS_TEXT: str = "tests"  # the per-test results as text in SQL (PostgreSQL: JSONB cast)
    TESTS_PARAM: str = "?"  # a parameter written into ``tests`` (PostgreSQL: cast to JSONB)
    _budget: StorageBudget | None = None

    @abstractmethod
    def _insert(self, sub: Submission) -> int: ...

    @abstractmethod
    def _query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    @abstractmethod
    def _execute(self, sql: str, params: tuple = ()) -> None: ...

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Gradebook:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -----------------------------------------------------------------------------

    def record(self, sub: Submission) -> int:
        """Store one submission; returns its id only once the row is durable (committed)."""
        if not isinstance(sub, Submission):
            raise TypeError(f"record() takes a Submission, not {type(sub).__name__}")
        if sub.id is not None:
            raise ValueError(f"this submission is already stored (id {sub.id})")
        sub.__post_init__()  # re-check: fields may have been changed since construction
        row_id = self._insert(sub)
        try:  # the row is committed: a failed prune only leaves the budget for the next one
            self.storage_budget.recorded(self, sub)
        except GradebookError:
            log.exception("pruning the gradebook to its storage budget failed")
        return row_id

    @property
    def storage_budget(self) -> StorageBudget:
        """What rows keep beyond their scores, bounded (gradebook.budget)."""
        if self._budget is None:
            self._budget = StorageBudget(budget_from_env())
        return self._budget

    # -- reading -----------------------------------------------------------------------------

    def _select(self, where: str = "", params: tuple = (), order: str = "id",
                limit: int | None = None, light: bool = False) -> list[Submission]:
        cols = ", ".join(LIGHT_COLUMNS if light else COLUMNS)
        sql = f"SELECT {cols} FROM submissions"
        if where:
            sql += f" WHERE {where}"
        sql += f" ORDER BY {order}"
        if limit is not None:
            if not isinstance(limit, int) or limit < 0:
                raise ValueError(f"limit must be a non-negative integer, got {limit!r}")
            sql += f" LIMIT {limit}"
        return [_row(r) for r in self._query(sql, params)]

    def get(self, submission_id: int) -> Submission | None:
        """One stored submission with its code and per-test results, or None."""
        if isinstance(submission_id, bool) or not isinstance(submission_id, int):
            raise TypeError(f"a submission id is an integer, not {type(submission_id).__name__}")
        rows = self._select("id = ?", (submission_id,))
        return rows[0] if rows else None

    @staticmethod
    def _who(learner: str | None, learner_id: str | None) -> tuple[str, tuple]:
        """A WHERE clause for one learner: by opaque id when given, else by label."""
        if learner_id is not None:
            return "learner_id = ?", (learner_id,)
        if learner is not None:
            return "learner = ?", (learner,)
        return "", ()

    def history(self, learner: str | None = None, exercise: str | None = None,
                limit: int | None = None, *, learner_id: str | None = None) -> list[Submission]:
        """A learner's submissions (by ``learner_id``, else by label), newest first, with code."""
        where, params = self._who(learner, learner_id)
        if not where:
            raise ValueError("history() needs a learner label or a learner_id")
        if exercise is not None:
            where, params = f"{where} AND exercise = ?", (*params, exercise)
        return self._select(where, params, order="id DESC", limit=limit)

    def best_scores(self, learner: str | None = None, *,
                    learner_id: str | None = None) -> list[BestScore]:
        """Best score per exercise for one learner (by id, else label), or for everyone; where
        the teacher set a score (gradebook.overrides), it replaces the graded best, which
        stays in ``graded``."""
        where, params = self._who(learner, learner_id)
        best = best_of(self._select(where, params, light=True))
        if not any(b.learner_id for b in best):
            return best
        overrides = self.score_overrides(learner_id)
        return [b if (o := overrides.get((b.learner_id, b.exercise))) is None else
                replace(b, score=o.score, max_score=o.max_score, graded=b.score, note=o.note)
                for b in best]

    def all_rows(self, include_code: bool = True) -> list[Submission]:
        """Every submission, oldest first."""
        return self._select(light=not include_code)

    def class_rows(self, since: str | datetime | None = None) -> list[Attempt]:
        """Every submission since ``since`` (all when None), oldest first, without code or
        per-test results: the class view's one query."""
        sql = ("SELECT id, learner, learner_id, exercise, score, max_score, status, submitted_at, "
               "mistakes, stage, stage_zh FROM submissions")
        params: tuple = ()
        if since is not None:
            sql, params = sql + " WHERE submitted_at >= ?", (normalise_timestamp(since),)
        out = []
        for (i, learner, learner_id, exercise, score, max_score, status, at, mistakes, stage,
             stage_zh) in self._query(sql + " ORDER BY id", params):
            out.append(Attempt(int(i), learner, learner_id, exercise, float(score),
                               float(max_score), status,
                               at.isoformat() if isinstance(at, datetime) else str(at),
                               tuple(m for m in (mistakes or "").split(",") if m),
                               stage or "", stage_zh or ""))
        return out

    def count(self, learner: str | None = None, *, learner_id: str | None = None) -> int:
        """How many submissions are stored (for one learner by label or id, or in all)."""
        where, params = self._who(learner, learner_id)
        sql = "SELECT COUNT(*) FROM submissions" + (f" WHERE {where}" if where else "")
        return int(self._query(sql, params)[0][0])

    def learners(self) -> list[str]:
        """Every learner who has submitted, sorted."""
        return [r[0] for r in self._query("SELECT DISTINCT learner FROM submissions ORDER BY learner")]

    def to_csv(self, include_code: bool = False) -> str:
        """Every submission as CSV text (header: id, learner, exercise, score, max_score, ...,
        mistakes, mistake names, stage)."""
        return rows_to_csv(self.all_rows(include_code=include_code), include_code=include_code)

    # -- identity ----------------------------------------------------------------------------

    def signed_in_names(self) -> list[str]:
        """Labels of every signed-in learner who has submitted (their HF usernames)."""
        rows = self._query("SELECT DISTINCT learner FROM submissions WHERE learner_id LIKE ?",
                           ("hf:%",))
        return sorted(r[0] for r in rows)

    def link_browser(self, key_hash: str, learner_id: str) -> None:
        """From now on the browser whose key hashes to ``key_hash`` is ``learner_id``."""
        self._execute("INSERT INTO browser_keys (key_hash, learner_id, linked_at) VALUES (?, ?, ?) "
                      "ON CONFLICT (key_hash) DO UPDATE SET learner_id = excluded.learner_id, "
                      "linked_at = excluded.linked_at", (key_hash, learner_id, utc_now_iso()))

    def link_browser_by_code(self, key_hash: str, code_hash: str) -> str | None:
        """Link the browser whose key hashes to ``key_hash`` to the learner whose *current*
        recovery code hashes to ``code_hash``; that learner's id, or None (no such code). One
        statement: a code replaced while it runs links nothing, so a browser cannot slip in
        between :meth:`renew_recovery`'s new code and its sign-out."""
        rows = self._query(
            "INSERT INTO browser_keys (key_hash, learner_id, linked_at) "
            f"SELECT ?, learner_id, ? FROM recovery_codes WHERE code_hash = ?{self.ROW_LOCK} "
            "ON CONFLICT (key_hash) DO UPDATE SET learner_id = excluded.learner_id, "
            "linked_at = excluded.linked_at RETURNING learner_id",
            (key_hash, utc_now_iso(), code_hash))
        return rows[0][0] if rows else None

    def unlink_browsers(self, learner_id: str, keep: str | None = None) -> int:
        """End every browser's link to ``learner_id`` except the one whose key hashes to
        ``keep`` (the browser that asked); how many ended. Those browsers are their own keys'
        guests again from their next request on (submissions look the link up every time).
        The browser whose key made ``learner_id`` is that id and has no link to end."""
        rows = self._query("DELETE FROM browser_keys WHERE learner_id = ? AND key_hash <> ? "
                           "RETURNING key_hash", (learner_id, keep or ""))
        return len(rows)

    def renew_recovery(self, learner_id: str, code_hash: str, keep: str | None = None) -> int:
        """A new recovery code for ``learner_id`` (the earlier one stops working), and every
        other browser's link ended (:meth:`unlink_browsers`): revoking a leaked code also
        shuts out the browsers that used it. The code first, so nobody links with the old
        one after the sign-out. How many links ended."""
        self.set_recovery(learner_id, code_hash)
        return self.unlink_browsers(learner_id, keep)

    def linked_learner(self, key_hash: str) -> str | None:
        """The learner id a browser key was linked to, or None (then the key's own id holds)."""
        rows = self._query("SELECT learner_id FROM browser_keys WHERE key_hash = ?", (key_hash,))
        return rows[0][0] if rows else None

    def set_recovery(self, learner_id: str, code_hash: str) -> None:
        """Store the hash of ``learner_id``'s recovery code; an earlier code stops working."""
        self._execute("INSERT INTO recovery_codes (learner_id, code_hash, created_at) "
                      "VALUES (?, ?, ?) ON CONFLICT (learner_id) DO UPDATE SET "
                      "code_hash = excluded.code_hash, created_at = excluded.created_at",
                      (learner_id, code_hash, utc_now_iso()))

    def recovered_learner(self, code_hash: str) -> str | None:
        """The learner id whose current recovery code hashes to ``code_hash``, or None."""
        rows = self._query("SELECT learner_id FROM recovery_codes WHERE code_hash = ?",
                           (code_hash,))
        return rows[0][0] if rows else None

    # -- instructor clients that logged in before ---------------------------------------------

    def trust_client(self, client_hash: str) -> None:
        """Remember that the client (an address or a browser, as a keyed hash) logged in now.

        Kept in the gradebook, so every replica sees it: the brute-force cap never throttles a
        client that has proved it knows the password (see FailureLimiter).
        """
        self._execute("INSERT INTO instructor_trust (client_hash, last_at) VALUES (?, ?) "
                      "ON CONFLICT (client_hash) DO UPDATE SET last_at = excluded.last_at",
                      (client_hash, utc_now_iso()))

    def trusted_client(self, client_hash: str, max_age_days: float = 90.0) -> bool:
        """Whether the client logged in successfully within the last ``max_age_days``."""
        rows = self._query("SELECT last_at FROM instructor_trust WHERE client_hash = ?",
                           (client_hash,))
        if not rows:
            return False
        at = rows[0][0]
        at = at if isinstance(at, datetime) else datetime.fromisoformat(str(at))
        return (datetime.now(timezone.utc) - at).total_seconds() <= max_age_days * 86400

    def server_secret(self, name: str) -> bytes:
        """A random secret of this deployment (32 bytes, made on first use, the same for every
        replica), never sent to any client: what the app signs with must not be derivable from
        anything a visitor is given (red team: stamps keyed by the password alone let a visitor
        test password guesses offline). Read once per process."""
        known = self.__dict__.setdefault("_secrets", {})
        if name not in known:
            self._execute("INSERT INTO server_secrets (name, value) VALUES (?, ?) "
                          "ON CONFLICT (name) DO NOTHING", (name, secrets.token_hex(32)))
            known[name] = bytes.fromhex(self._query(
                "SELECT value FROM server_secrets WHERE name = ?", (name,))[0][0])
        return known[name]

    # -- instructor audit log ----------------------------------------------------------------

    def log_access(self, who: str, action: str, detail: str = "") -> None:
        """Record that ``who`` did ``action`` (view, export, refused...) now."""
        for name, value in (("who", who), ("action", action), ("detail", detail)):
            if not isinstance(value, str) or "\x00" in value or len(value) > 500:
                raise ValueError(f"{name} must be text without NUL, at most 500 characters")
        self._execute("INSERT INTO access_log (at, who, action, detail) VALUES (?, ?, ?, ?)",
                      (utc_now_iso(), surrogate_safe(who), surrogate_safe(action),
                       surrogate_safe(detail)))

    def access_log(self, limit: int = 50) -> list[AccessEntry]:
        """The newest ``limit`` entries of the instructor access log, newest first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise ValueError(f"limit must be a non-negative integer, got {limit!r}")
        rows = self._query("SELECT id, at, who, action, detail FROM access_log "
                           f"ORDER BY id DESC LIMIT {limit}")
        return [AccessEntry(int(i), at.isoformat() if isinstance(at, datetime) else str(at),
                            who, action, detail) for i, at, who, action, detail in rows]


@dataclass(frozen=True)
class AccessEntry:
    """One instructor view, export or refusal: who and when (UTC ISO text)."""

    id: int
    at: str
    who: str
    action: str
    detail: str


def diagnosis_updates(rows: list[tuple[Any, Any, Any]]) -> list[tuple[str, str, str, int]]:
    """(mistakes, stage, stage_zh, id) for rows stored before those columns, from each row's
    (id, tests, status): the migration fills them from the per-test results already kept."""
    out = []
    for row_id, tests, _status in rows:
        try:
            tests = json.loads(tests) if isinstance(tests, str) else tests
        except ValueError:
            continue
        if not isinstance(tests, list):
            continue
        mistakes, stage, stage_zh = diagnosis_of(tests)
        if mistakes or stage:
            out.append((",".join(mistakes), surrogate_safe(stage), surrogate_safe(stage_zh),
                        int(row_id)))
    return out


def legacy_ids(labels: list[str]) -> list[tuple[str, str]]:
    """(learner id, label) for rows stored before ids whose label can only be a signed-in
    learner's: the migration gives them ``hf:<label>`` so their owners keep their history."""
    return [(signed_in_id(label), label) for label in labels if legacy_signed_in(label)]


def _row(r: tuple) -> Submission:
    """A stored row as a Submission (tests may arrive as JSON text or, from Postgres, parsed)."""
    values: dict[str, Any] = dict(zip(COLUMNS, r, strict=True))
    if isinstance(values["tests"], str):
        values["tests"] = json.loads(values["tests"])
    if isinstance(values["submitted_at"], datetime):
        values["submitted_at"] = values["submitted_at"].isoformat()
    return Submission(**values)
