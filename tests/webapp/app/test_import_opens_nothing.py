"""Issue 28: ``import app`` builds the Blocks and nothing else: no database is opened and no
file written until the app serves (the wing's limits and the gradebook open on first use)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def test_import_app_writes_no_file_and_opens_no_database(tmp_path):
    data = tmp_path / "data"
    # A PostgreSQL URL nobody listens on: opening it at import would raise or hang.
    env = {**os.environ, "LAB_DATA_DIR": str(data), "DATABASE_URL": "postgresql://lab@127.0.0.1:9/none"}
    code = ("import app, sys\n"
            "assert app.POOLS['submit'] > 0 and app.demo is not None\n"
            "assert app.LAB._serving is None, 'the serving wing was built at import'\n"
            "assert app.LAB._submitter is None or app.LAB._submitter._book is None\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not data.exists(), sorted(p.name for p in data.rglob("*"))
