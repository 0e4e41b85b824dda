"""The gradebook: durable storage of graded submissions, learner ids, CSV export, input limits.

Rate limits, turns and who is asking belong to the web app's serving wing (webapp.serving).

Plain Python plus sqlite3 (and psycopg for PostgreSQL); never imports gradio or torch.
See README.md in this folder for the API the app uses.
"""

from gradebook.backends import default_sqlite_path, open_gradebook
from gradebook.csv_export import HEADER as CSV_HEADER
from gradebook.csv_export import rows_to_csv
from gradebook.identity import Claim, Learner
from gradebook.input_checks import (
    ANONYMOUS,
    DEFAULT_LIMITS,
    CleanSubmission,
    InputLimits,
    check_exercise,
    clean_code,
    clean_learner,
    validate_submission,
)
from gradebook.model import BestScore, GradebookError, Submission, grader_version
from gradebook.store import AccessEntry, Gradebook
from transformer_lab.message import Refused

__all__ = [
    "ANONYMOUS", "CSV_HEADER", "DEFAULT_LIMITS", "AccessEntry", "BestScore",
    "Claim", "CleanSubmission", "Gradebook", "GradebookError", "InputLimits",
    "Learner", "Refused", "Submission",
    "check_exercise", "clean_code", "clean_learner", "default_sqlite_path", "grader_version",
    "open_gradebook", "rows_to_csv", "validate_submission",
]
