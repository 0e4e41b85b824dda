"""One warm grader per test session (fork per job is cheap; starting a worker is not)."""

import os

import pytest

SECRET = "lab-test-secret-7f3a9c"


@pytest.fixture(scope="session")
def grader():
    os.environ["LAB_TEST_SECRET_TOKEN"] = SECRET  # must never reach the worker or its children
    from grader.api import Grader

    g = Grader(max_wall_s=2.0).start()
    yield g
    g.close()


@pytest.fixture(scope="session")
def secret(grader) -> str:
    """A value in the trusted process's environment that no submission may see."""
    return SECRET
