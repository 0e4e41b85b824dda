"""The gradebook's tables, written once, with the words SQLite and PostgreSQL spell differently
side by side in :data:`TYPES` (the stores: gradebook.sqlite_store, gradebook.postgres_store)."""

from __future__ import annotations

TYPES = {
    #            a row id                                         a number            a time         per-test results
    "sqlite":     {"id": "INTEGER PRIMARY KEY AUTOINCREMENT",        "real": "REAL",             "time": "TEXT",        "json": "TEXT"},
    "postgresql": {"id": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY", "real": "DOUBLE PRECISION", "time": "TIMESTAMPTZ", "json": "JSONB"},
}  # fmt: skip

TABLES = """
CREATE TABLE IF NOT EXISTS submissions (
    id             {id},
    learner        TEXT    NOT NULL,
    exercise       TEXT    NOT NULL,
    code           TEXT    NOT NULL,
    score          {real}  NOT NULL,
    max_score      {real}  NOT NULL,
    tests          {json}  NOT NULL,
    status         TEXT    NOT NULL,
    submitted_at   {time}  NOT NULL,
    grader_version TEXT    NOT NULL,
    learner_id     TEXT,
    mistakes       TEXT    NOT NULL DEFAULT '',
    stage          TEXT    NOT NULL DEFAULT '',
    stage_zh       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS submissions_learner ON submissions (learner, exercise);
CREATE TABLE IF NOT EXISTS browser_keys (
    key_hash   TEXT PRIMARY KEY,
    learner_id TEXT NOT NULL,
    linked_at  {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS recovery_codes (
    learner_id TEXT PRIMARY KEY,
    code_hash  TEXT NOT NULL UNIQUE,
    created_at {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS instructor_trust (
    client_hash TEXT PRIMARY KEY,
    last_at     {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS comments (
    id         {id},
    learner_id TEXT NOT NULL,
    exercise   TEXT NOT NULL,
    text       TEXT NOT NULL,
    by_whom    TEXT NOT NULL,
    at         {time} NOT NULL
);
CREATE INDEX IF NOT EXISTS comments_learner ON comments (learner_id, id);
CREATE TABLE IF NOT EXISTS score_overrides (
    learner_id TEXT NOT NULL,
    exercise   TEXT NOT NULL,
    score      {real} NOT NULL,
    max_score  {real} NOT NULL,
    note       TEXT NOT NULL,
    by_whom    TEXT NOT NULL,
    at         {time} NOT NULL,
    PRIMARY KEY (learner_id, exercise)
);
CREATE TABLE IF NOT EXISTS regrades (
    id            {id},
    submission_id BIGINT NOT NULL,
    exercise      TEXT NOT NULL,
    learner_id    TEXT,
    old_score     {real} NOT NULL,
    old_max       {real} NOT NULL,
    old_version   TEXT NOT NULL,
    new_score     {real} NOT NULL,
    new_max       {real} NOT NULL,
    new_version   TEXT NOT NULL,
    by_whom       TEXT NOT NULL,
    at            {time} NOT NULL
);
CREATE INDEX IF NOT EXISTS regrades_learner ON regrades (learner_id, id);
CREATE TABLE IF NOT EXISTS server_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS roster (
    learner_id TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    folded     TEXT NOT NULL UNIQUE,
    join_code  TEXT NOT NULL,
    added_at   {time} NOT NULL
);
CREATE TABLE IF NOT EXISTS access_log (
    id     {id},
    at     {time} NOT NULL,
    who    TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL
);
"""
# After the columns exist (a gradebook made before learner ids gets them in a migration).
INDEXES = ("CREATE INDEX IF NOT EXISTS submissions_learner_id ON submissions (learner_id, exercise);\n"
           "CREATE INDEX IF NOT EXISTS submissions_at ON submissions (submitted_at);")
# Added after learner ids (the class view): a gradebook made before gets them in a migration.
DIAGNOSIS_COLUMNS = ("mistakes", "stage", "stage_zh")


def schema(dialect: str) -> str:
    """Every table and index of the gradebook in ``dialect`` ("sqlite" or "postgresql")."""
    return TABLES.format(**TYPES[dialect])
