"""`python -m grader gradebook --csv` reaches the gradebook's CLI through the grader's."""

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_grader_cli_dispatches_gradebook_csv(tmp_path):
    from gradebook import Submission, open_gradebook

    env = {**os.environ, "LAB_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    book = open_gradebook(f"sqlite:///{tmp_path / 'gradebook.sqlite3'}")
    book.record(Submission(learner="ada", exercise="manual-attention", code="x = 1\n",
                           score=3.0, max_score=5.0, tests=[], grader_version="test"))
    out = subprocess.run([sys.executable, "-m", "grader", "gradebook", "--csv"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert {"learner", "exercise", "score", "max_score", "submitted_at"} <= set(rows[0])
    assert rows[0]["learner"] == "ada" and float(rows[0]["score"]) == 3.0


def test_the_gradebook_is_its_own_package_with_its_own_cli(tmp_path):
    """`python -m gradebook --csv` reads the same rows as `python -m grader gradebook --csv`."""
    env = {**os.environ, "LAB_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    from gradebook import Submission, open_gradebook

    open_gradebook(f"sqlite:///{tmp_path / 'gradebook.sqlite3'}").record(Submission(
        learner="bo", exercise="causal-mask", code="x = 1\n", score=1.0, max_score=2.0, tests=[],
        grader_version="test"))
    own = subprocess.run([sys.executable, "-m", "gradebook", "--csv"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    via = subprocess.run([sys.executable, "-m", "grader", "gradebook", "--csv"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert own.returncode == via.returncode == 0, own.stderr + via.stderr
    assert own.stdout == via.stdout and "bo" in own.stdout
