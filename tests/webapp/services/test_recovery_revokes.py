"""Issue 19, F4, through the My progress page's own functions: a new recovery code signs out
every browser that used the old one (before, a browser that had linked kept reading the
victim's new submissions), and "Sign out other browsers" does so without a new code."""

from __future__ import annotations

import pytest
from lab_support import LAB

from gradebook import Submission, open_gradebook
from gradebook import identity as idm
from webapp.i18n import tr


@pytest.fixture
def book(tmp_path):
    """A fresh gradebook in the tests' Lab (lab_support), put back afterwards (the tests share it)."""
    submitter = LAB.submitter
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as b:
        saved = submitter.use_gradebook(b)
        try:
            yield b
        finally:
            submitter.use_gradebook(saved)


def _submit(book, learner_id: str, code: str) -> int:
    return book.record(Submission(learner="Ada (guest)", learner_id=learner_id, exercise="causal-mask",
                                  code=code, score=1.0, max_score=4.0, tests=[]))


def _sees(key: str) -> list[int]:
    from webapp.pages import progress

    return progress.tables(LAB, key, None)[1]["#"].tolist() if not progress.tables(LAB, key, None)[1].empty else []


def test_a_new_code_signs_out_the_browser_that_used_the_old_one(book):
    from webapp.pages import progress

    a, b, c = (idm.new_browser_key() for _ in range(3))
    me = idm.guest_id(a)
    first = _submit(book, me, "print('before')\n")
    old = progress.new_recovery_code(LAB, a, None)
    progress.use_recovery_code(LAB, old, b, "10.0.0.6")
    assert _sees(b) == [first]
    progress.new_recovery_code(LAB, a, None)  # the victim revokes the leaked code
    later = _submit(book, me, "print('after')\n")
    assert _sees(a) == [later, first]
    assert _sees(b) == []  # it kept reading both before
    with pytest.raises(ValueError, match="not in your history"):
        progress.own_code(LAB, b, None, later)
    with pytest.raises(ValueError, match="not valid"):
        progress.use_recovery_code(LAB, old, c, "10.0.0.7")


def test_a_linked_browser_that_shows_a_new_code_stays(book):
    from webapp.pages import progress

    a, b, c = (idm.new_browser_key() for _ in range(3))
    me = idm.guest_id(a)
    first = _submit(book, me, "x = 1\n")
    code = progress.new_recovery_code(LAB, a, None)
    for key, address in ((b, "10.0.0.6"), (c, "10.0.0.7")):
        progress.use_recovery_code(LAB, code, key, address)
    progress.new_recovery_code(LAB, b, None)  # b asks: b stays, c is out, a is a's own key
    assert (_sees(a), _sees(b), _sees(c)) == ([first], [first], [])


def test_sign_out_other_browsers_keeps_this_one_and_the_code(book):
    from webapp.pages import progress

    a, b, c = (idm.new_browser_key() for _ in range(3))
    me = idm.guest_id(a)
    first = _submit(book, me, "x = 1\n")
    code = progress.new_recovery_code(LAB, a, None)
    progress.use_recovery_code(LAB, code, b, "10.0.0.6")
    assert progress.sign_out_others(LAB, a, None) == tr("recovery.signed_out", "en", n=1)
    assert (_sees(a), _sees(b)) == ([first], [])
    assert progress.sign_out_others(LAB, a, None, "zh") == tr("recovery.none_out", "zh")
    progress.use_recovery_code(LAB, code, c, "10.0.0.7")  # the code itself still works
    assert _sees(c) == [first]
    with pytest.raises(ValueError, match="signed in"):
        import gradio as gr

        progress.sign_out_others(LAB, a, gr.OAuthProfile({"preferred_username": "ada", "name": "Ada",
                                                     "picture": "", "profile": ""}))


def test_a_recovered_browser_carries_the_learners_name(book):
    """Issue 20, item 1: after a recovery code, the second browser's label box got nothing, and
    the instructor saw the learner's next rows as "anonymous" beside their named ones."""
    from webapp.pages import progress

    a, b = idm.new_browser_key(), idm.new_browser_key()
    _submit(book, idm.guest_id(a), "x = 1\n")  # stored as "Ada (guest)"
    code = progress.new_recovery_code(LAB, a, None)
    assert progress.recovered_name(LAB, b) is None  # not linked yet: nobody's name
    progress.use_recovery_code(LAB, code, b, "10.0.0.6")
    assert progress.recovered_name(LAB, b) == "Ada"
    label = LAB.submitter.resolve_learner(idm_claim("Ada", b)).label
    assert label == "Ada (guest)"


def idm_claim(typed: str, key: str):
    from gradebook import Claim

    return Claim(typed=typed, browser_key=key)


def test_one_browser_guessing_codes_does_not_lock_its_classmates_out(book):
    """Issue 29: wrong recovery codes were counted per address, so one learner guessing from the
    school's address locked every classmate there out of recovery for 10 minutes. They are
    counted per browser now."""
    from webapp.pages import progress
    from webapp.serving.ratelimit import FailureLimiter

    serving = LAB.serving
    saved = serving.recovery_tries
    serving.recovery_tries = FailureLimiter(per_client=10, client_window_s=600, overall=None)
    try:
        owner, guesser, mate = (idm.new_browser_key() for _ in range(3))
        _submit(book, idm.guest_id(owner), "print('mine')\n")
        code = progress.new_recovery_code(LAB, owner, None)
        for _ in range(10):
            with pytest.raises(ValueError, match="not valid"):
                progress.use_recovery_code(LAB, "0" * 20, guesser, "203.0.113.5")
        with pytest.raises(ValueError, match="Too many wrong tries"):
            progress.use_recovery_code(LAB, code, guesser, "203.0.113.5")  # the guesser waits
        assert "Ada" in progress.use_recovery_code(LAB, code, mate, "203.0.113.5")  # a classmate: in
    finally:
        serving.recovery_tries = saved
