"""Suite-wide settings: one torch thread, so runs on a shared 2-core machine stay steady; and
the fast lane's marker (issue 28): ``python -m pytest -q -m "not slow"`` leaves out what needs a
browser, a running app, PostgreSQL, sandboxes started per test or a long training run. The
README's command runs it all."""

import pytest
import torch

# Measured here: a 150-step fit took 62 s with 2 threads while other jobs ran, 3.2 s with 1.
torch.set_num_threads(1)

# Fixtures that start something outside the test's own process or wait on one: a browser
# (pytest-playwright's), the app on a port (tests/webapp/conftest.py), a gradio_client to it,
# a PostgreSQL schema (tests/gradebook/conftest.py).
SLOW_FIXTURES = frozenset({"app_url", "browser", "page", "client", "pg_url"})
SLOW_FOLDERS = ("tests/webapp/browser/", "tests/webapp/app/")
# Files whose tests start sandboxes of their own (a pool per case, probe processes as another
# user, the grader's command line in a fresh interpreter): the suite's slowest non-browser
# tests (~60 s together here), and the definition of what the fast lane leaves out.
SLOW_FILES = ("tests/grader/test_nonroot.py", "tests/grader/test_signals.py",
              "tests/grader/test_pool.py", "tests/grader/test_sandbox_levels.py",
              "tests/grader/test_check_cli.py", "tests/grader/test_soak.py")


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.path.as_posix()
        if (any(folder in path for folder in SLOW_FOLDERS) or path.endswith(SLOW_FILES)
                or SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))
                or "[postgresql]" in item.nodeid):
            item.add_marker(pytest.mark.slow)
