"""The gradebook: durable storage of graded submissions, CSV export, rate and input limits.

Plain Python plus sqlite3 (and psycopg for PostgreSQL); never imports gradio or torch.
See README.md in this folder for the API the app uses.
"""

from grader.gradebook.backends import default_sqlite_path, open_gradebook, shared_rate_limiter
from grader.gradebook.csv_export import HEADER as CSV_HEADER
from grader.gradebook.csv_export import rows_to_csv
from grader.gradebook.identity import Claim, Learner
from grader.gradebook.limits import (
    ANONYMOUS,
    DEFAULT_LIMITS,
    CleanSubmission,
    InputLimits,
    SubmissionRejected,
    check_exercise,
    clean_code,
    clean_learner,
    validate_submission,
)
from grader.gradebook.model import BestScore, GradebookError, Submission, grader_version
from grader.gradebook.ratelimit import (
    FailureLimiter,
    RateLimiter,
    busy_message,
    locked_message,
    wait_message,
)
from grader.gradebook.store import AccessEntry, Gradebook

__all__ = [
    "ANONYMOUS", "CSV_HEADER", "DEFAULT_LIMITS", "AccessEntry", "BestScore",
    "Claim", "CleanSubmission", "FailureLimiter", "Gradebook", "GradebookError", "InputLimits",
    "Learner", "RateLimiter", "Submission", "SubmissionRejected", "busy_message",
    "check_exercise", "clean_code", "clean_learner", "default_sqlite_path", "grader_version",
    "locked_message", "open_gradebook", "rows_to_csv", "shared_rate_limiter", "validate_submission",
    "wait_message",
]
