"""Shared warm grader and soundness check for every exercise (see grader/FORMAT.md)."""

import pytest
from soundness import assert_exercise_sound


@pytest.fixture(scope="session")
def grader():
    from grader.api import Grader

    g = Grader().start()
    yield g
    g.close()


@pytest.fixture
def exercise_sound(grader):
    """Call with an exercise id: asserts reference full, starter less, each mistake named."""
    return lambda exercise_id: assert_exercise_sound(grader, exercise_id)
