"""The app launched once in this process on a free loopback port, shared by the app tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from browser_support import free_port

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "app"




@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    """Launch app.demo in-process (as Gradio's own tests do); yield its URL; close it."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    # The app records every graded submission: keep the tests' gradebook out of ./data.
    os.environ.setdefault("LAB_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    import app

    app.warm_up()  # torch + the grader's worker, as `python app.py` does in the background
    app.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=free_port(),
               quiet=True)
    yield app.demo.local_url
    app.demo.close()
    from grader import api

    if api._DEFAULT is not None:
        api._DEFAULT.close()


@pytest.fixture(scope="module")
def app_gradebook(tmp_path_factory, app_url):
    """A fresh SQLite gradebook swapped into the running app for one test module, then restored
    (with generous limits counted in this process, so tests are not refused by each other)."""
    import app
    from gradebook import open_gradebook
    from webapp.serving.limits import Limits
    from webapp.serving.settings import ServingSettings
    submitter = app.LAB.submitter
    fresh = open_gradebook(f"sqlite:///{tmp_path_factory.mktemp('gradebook') / 'gb.sqlite3'}")
    saved = (submitter.use_gradebook(fresh), submitter.serving.limits)
    submitter.serving.limits = Limits.in_memory(ServingSettings(rate_limit=100))
    yield fresh
    submitter.use_gradebook(saved[0])
    submitter.serving.limits = saved[1]
    fresh.close()


@pytest.fixture(scope="session")
def client(app_url):
    from gradio_client import Client

    return Client(app_url, verbose=False)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """pytest-playwright has no option for a browser path: point it at the system chromium."""
    os.environ.setdefault("XDG_CONFIG_HOME", tempfile.mkdtemp(prefix="chromium-config-"))
    from browser_support import CHROMIUM

    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "en-US", "viewport": {"width": 1280, "height": 900}}
