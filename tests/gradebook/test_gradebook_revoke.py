"""Issue 19, F4: revocation revokes. A new recovery code ends every other browser's link to the
learner (the browser that asked stays), "sign out other browsers" ends them without a new code,
and a code links only while it is the learner's current one. SQLite and PostgreSQL."""

from __future__ import annotations

import threading

from gradebook import identity as ids


def _linked(book, *keys: str) -> list[str | None]:
    return [book.linked_learner(ids.key_hash(k)) for k in keys]


def _owner_with_code(book) -> tuple[str, str, str]:
    """(the original browser's key, its learner id, its current recovery code)."""
    home = ids.new_browser_key()
    me, code = ids.guest_id(home), ids.new_recovery_code()
    book.set_recovery(me, ids.recovery_hash(code))
    return home, me, code


def test_a_code_links_only_while_it_is_current(book):
    home, me, code = _owner_with_code(book)
    other = ids.new_browser_key()
    assert book.link_browser_by_code(ids.key_hash(other), ids.recovery_hash(ids.new_recovery_code())) is None
    assert _linked(book, other) == [None]
    assert book.link_browser_by_code(ids.key_hash(other), ids.recovery_hash(code)) == me
    assert book.link_browser_by_code(ids.key_hash(other), ids.recovery_hash(code)) == me  # again: one row
    assert _linked(book, other) == [me]
    book.set_recovery(me, ids.recovery_hash(ids.new_recovery_code()))
    late = ids.new_browser_key()
    assert book.link_browser_by_code(ids.key_hash(late), ids.recovery_hash(code)) is None
    assert _linked(book, late) == [None]


def test_a_new_code_ends_every_other_browsers_link_but_the_askers(book):
    """A made the work; B and C linked with its code; B shows a new code: C is out, B stays, A
    is A's own key (no link to end), and the old code links nobody."""
    home, me, code = _owner_with_code(book)
    b, c = ids.new_browser_key(), ids.new_browser_key()
    for key in (b, c):
        assert book.link_browser_by_code(ids.key_hash(key), ids.recovery_hash(code)) == me
    fresh = ids.new_recovery_code()
    assert book.renew_recovery(me, ids.recovery_hash(fresh), keep=ids.key_hash(b)) == 1
    assert _linked(book, b, c) == [me, None]
    assert ids.resolve(ids.Claim("x", c), book.linked_learner(ids.key_hash(c))).id == ids.guest_id(c)
    assert book.recovered_learner(ids.recovery_hash(code)) is None
    assert book.recovered_learner(ids.recovery_hash(fresh)) == me
    # The original browser renews: every link ends (it keeps its work through its own key).
    assert book.renew_recovery(me, ids.recovery_hash(ids.new_recovery_code()),
                               keep=ids.key_hash(home)) == 1
    assert _linked(book, b, c) == [None, None]


def test_signing_out_other_browsers_keeps_the_code(book):
    home, me, code = _owner_with_code(book)
    b, c = ids.new_browser_key(), ids.new_browser_key()
    for key in (b, c):
        book.link_browser_by_code(ids.key_hash(key), ids.recovery_hash(code))
    assert book.unlink_browsers(me, keep=ids.key_hash(home)) == 2
    assert _linked(book, b, c) == [None, None]
    assert book.unlink_browsers(me, keep=ids.key_hash(home)) == 0
    assert book.recovered_learner(ids.recovery_hash(code)) == me  # still good: not revoked


def test_other_learners_links_are_left_alone(book):
    _, me, code = _owner_with_code(book)
    _, you, yours = _owner_with_code(book)
    mine, theirs = ids.new_browser_key(), ids.new_browser_key()
    book.link_browser_by_code(ids.key_hash(mine), ids.recovery_hash(code))
    book.link_browser_by_code(ids.key_hash(theirs), ids.recovery_hash(yours))
    book.renew_recovery(me, ids.recovery_hash(ids.new_recovery_code()))
    assert _linked(book, mine, theirs) == [None, you]


def _retry_until(stop: threading.Event, book, thief: str, code: str) -> None:
    while not stop.is_set():
        book.link_browser_by_code(ids.key_hash(thief), ids.recovery_hash(code))


def test_a_browser_racing_the_new_code_with_the_old_one_ends_unlinked(book):
    """A thief retries the old code while its owner shows a new one: whichever statement runs
    first, the thief is not linked once the new code is out (it would be if the code were read
    in one statement and the link written in another: on PostgreSQL it then stayed linked in
    16 of 30 tries)."""
    for _ in range(5):
        _, me, code = _owner_with_code(book)
        thief, stop = ids.new_browser_key(), threading.Event()
        worker = threading.Thread(target=_retry_until, args=(stop, book, thief, code))
        worker.start()
        try:
            book.renew_recovery(me, ids.recovery_hash(ids.new_recovery_code()))
        finally:
            stop.set()
            worker.join()
        assert _linked(book, thief) == [None]
