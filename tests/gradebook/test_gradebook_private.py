"""Issue 19, F8 / property 6: data at rest is private. The gradebook holds every learner's code
and the hashes: its folder is created 0700, the database and its WAL and SHM files are 0600
(they were 0644 in a 0755 folder, and another local account read them), and a file an older
version left 0644 is made 0600 when opened."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from gradebook import Submission, open_gradebook


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _write_one(url: str) -> None:
    book = open_gradebook(url)
    try:
        book.record(Submission(learner="ada", exercise="manual-attention", code="secret = 1\n",
                            score=1.0, max_score=2.0, tests=[]))
        files = {p.name for p in Path(url[len("sqlite:///"):]).parent.iterdir()}
        assert {"gradebook.sqlite3-wal", "gradebook.sqlite3-shm"} <= files, files
    finally:
        book.close()


def test_the_folder_is_0700_and_every_file_0600(tmp_path):
    old = os.umask(0o022)  # the usual default, under which the files were 0644
    try:
        folder = tmp_path / "data"
        _write_one(f"sqlite:///{folder / 'gradebook.sqlite3'}")
        book = open_gradebook(f"sqlite:///{folder / 'gradebook.sqlite3'}")  # WAL and SHM exist now
        try:
            assert _mode(folder) == 0o700
            for name in ("gradebook.sqlite3", "gradebook.sqlite3-wal", "gradebook.sqlite3-shm"):
                assert _mode(folder / name) == 0o600, name
        finally:
            book.close()
    finally:
        os.umask(old)


def test_a_file_left_world_readable_is_made_private(tmp_path):
    path = tmp_path / "gradebook.sqlite3"
    _write_one(f"sqlite:///{path}")
    for p in tmp_path.iterdir():
        p.chmod(0o644)
    tmp_path.chmod(0o755)  # an existing folder keeps its mode (it may be shared): files are private
    open_gradebook(f"sqlite:///{path}").close()
    assert all(_mode(p) == 0o600 for p in tmp_path.iterdir() if p.name.startswith(path.name))


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None,
                    reason="needs root and setpriv to read as another account")
def test_another_local_account_reads_nothing():
    base = Path(tempfile.mkdtemp(prefix="lab-f8-"))  # under /tmp: uid 1000 may walk up to it
    base.chmod(0o755)
    try:
        _read_as_uid_1000(base / "data")
    finally:
        shutil.rmtree(base)


def _read_as_uid_1000(folder: Path) -> None:
    _write_one(f"sqlite:///{folder / 'gradebook.sqlite3'}")
    for name in ("gradebook.sqlite3", "gradebook.sqlite3-wal"):
        done = subprocess.run(["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups", "cat",
                               str(folder / name)], capture_output=True, timeout=30)
        assert done.returncode != 0 and b"secret" not in done.stdout, name
    folder.chmod(0o755)  # even with the folder opened up, the files themselves refuse
    done = subprocess.run(["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups", "cat",
                           str(folder / "gradebook.sqlite3-wal")], capture_output=True, timeout=30)
    assert done.returncode != 0 and b"secret" not in done.stdout
