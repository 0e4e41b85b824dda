"""`python -m grader gradebook ...`: print the gradebook as CSV or as a short summary."""

from __future__ import annotations

import argparse
import getpass
import socket
import sys

from gradebook.backends import open_gradebook
from gradebook.csv_export import number
from gradebook.model import GradebookError


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m grader gradebook",
        description="Read the gradebook ($DATABASE_URL, else SQLite in $LAB_DATA_DIR or ./data).")
    p.add_argument("--csv", action="store_true",
                   help="print every submission as CSV (header: id, learner, exercise, score, "
                        "max_score, ..., submitted_at, grader_version, learner_id)")
    p.add_argument("--code", action="store_true", help="with --csv: add a column with the code")
    p.add_argument("--access-log", action="store_true",
                   help="print the instructor access log (views and exports: who, when)")
    p.add_argument("--url", default=None,
                   help="database URL (postgresql://... or sqlite:///file.db); default $DATABASE_URL")
    p.add_argument("-o", "--output", default=None, help="write to this file instead of stdout")
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point; ``argv`` excludes the word ``gradebook``. Returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        with open_gradebook(args.url) as book:
            if args.csv:
                text = book.to_csv(include_code=args.code)
                _log_export(book, args.code)
            elif args.access_log:
                text = "".join(f"{e.at}\t{e.who}\t{e.action}\t{e.detail}\n"
                               for e in book.access_log(limit=1000))
            else:
                lines = [f"{book.count()} submissions from {len(book.learners())} learners "
                         f"({book!r})",
                         "best scores (learner, exercise, score/max, attempts, learner id):"]
                for b in book.best_scores():
                    lines.append(f"  {b.learner}\t{b.exercise}\t{number(b.score)}/"
                                 f"{number(b.max_score)}\t{b.attempts}\t{b.learner_id or '-'}")
                text = "\n".join(lines) + "\n"
    except (GradebookError, ValueError) as exc:
        print(f"gradebook: {exc}", file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _log_export(book, with_code: bool) -> None:
    """An export from the command line is an instructor export too: log who and when."""
    try:
        who = f"cli:{getpass.getuser()}@{socket.gethostname()}"
    except Exception:  # noqa: BLE001 - no user name in a bare container
        who = "cli"
    try:
        book.log_access(who, "export", "csv with code (command line)" if with_code
                        else "csv (command line)")
    except (GradebookError, ValueError) as exc:  # a read-only copy: export, but say so
        print(f"gradebook: the export was not logged: {exc}", file=sys.stderr)
