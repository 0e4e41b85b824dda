"""Instructor CSV exports (every learner's code) do not outlive their download (red-team F9)."""

from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path

import pytest

from gradebook import Submission, open_gradebook
from webapp.pages import instructor
from webapp.services import exports

EXPORTS = exports.Exports()  # one app's exports, as webapp.lab.Lab makes them
SECRET_CODE = "def attention(q, k, v):  # alice's secret solution\n    return v\n"


@pytest.fixture
def book(tmp_path):
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as gb:
        gb.record(Submission(learner="alice (guest)", learner_id="g:" + "a" * 20,
                             exercise="causal-mask", code=SECRET_CODE, score=2, max_score=2))
        yield gb


@pytest.fixture
def gradio_cache(tmp_path, monkeypatch):
    cache = tmp_path / "gradio-cache"
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(cache))
    instructor.clean_gradio_copies(EXPORTS)  # what the instructor page does when it is built
    return cache


def _leftovers(cache: Path, since: float) -> list[Path]:
    """CSV files made since ``since`` directly in a folder of the temp dir (where exports went
    before) or anywhere in Gradio's cache that still hold the secret code."""
    found = []
    tmp = Path(tempfile.gettempdir())
    for path in [*tmp.glob("*/*.csv"), *cache.glob("**/*.csv")]:
        try:
            if path.stat().st_mtime < since:
                continue
            if SECRET_CODE.splitlines()[0] in path.read_text(encoding="utf-8", errors="replace"):
                found.append(path)
        except OSError:
            continue
    return found


def test_exports_are_private_reuse_one_folder_and_expire(book, gradio_cache, monkeypatch):
    monkeypatch.setattr(EXPORTS, "ttl_s", 1.0)
    start = time.time() - 1
    first = Path(EXPORTS.csv_file(book, include_code=True))
    assert SECRET_CODE.splitlines()[0] in first.read_text(encoding="utf-8")
    assert stat.S_IMODE(first.stat().st_mode) == 0o600
    assert stat.S_IMODE(first.parent.stat().st_mode) == 0o700
    # Gradio copies what an event returns into its cache: the same name under a hash folder.
    from gradio import processing_utils

    copy = Path(processing_utils.save_file_to_cache(first, str(gradio_cache)))
    assert copy.exists() and copy.name == first.name
    second = Path(EXPORTS.csv_file(book, include_code=True))
    assert second.parent == first.parent and second != first  # one folder, fresh names
    time.sleep(2.5)  # past the time-to-live: the timers have removed both exports
    assert not first.exists() and not second.exists() and not copy.exists()
    assert not copy.parent.exists()  # Gradio's per-file folder too
    assert _leftovers(gradio_cache, start) == []


def test_an_old_export_is_removed_by_the_next_one(book, gradio_cache, monkeypatch):
    old = Path(EXPORTS.csv_file(book, include_code=True))
    past = time.time() - EXPORTS.ttl_s - 5
    os.utime(old, (past, past))
    new = Path(EXPORTS.csv_file(book, include_code=True))
    assert not old.exists() and new.exists()
    assert EXPORTS.remove(0.0) >= 1 and not new.exists()  # what exit does
