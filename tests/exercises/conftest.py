"""Shared warm grader and soundness check for every exercise (see grader/FORMAT.md)."""

import pytest


@pytest.fixture(scope="session")
def grader():
    from grader.api import Grader

    g = Grader().start()
    yield g
    g.close()


@pytest.fixture
def exercise_sound(grader):
    """Call with an exercise id: asserts reference full, starter less, each mistake named
    (grader/selfcheck.py, the same check as `python -m grader check`)."""
    from grader.selfcheck import check_exercise

    def assert_sound(exercise_id: str) -> None:
        problems = check_exercise(grader, exercise_id)
        assert problems == [], problems

    return assert_sound
