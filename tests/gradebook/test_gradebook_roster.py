"""The teacher's class list (issue 29's remaining breaks, issue 25 item 2): a member's id is
made only by the teacher, a browser becomes a member only through the member's join code, the
links can be shown again, and a renewal shuts out the browsers of a leaked link. SQLite and
PostgreSQL."""

from __future__ import annotations

import threading

import pytest

from gradebook import identity as ids
from gradebook.roster import MAX_MEMBERS, is_member_id


def _join(book, code: str) -> tuple[str, str | None]:
    key = ids.new_browser_key()
    return key, book.link_browser_by_code(ids.key_hash(key), ids.recovery_hash(code))


def test_a_name_becomes_a_member_once_and_its_link_can_be_shown_again(book):
    code = ids.new_recovery_code()
    ada, what = book.add_member("Ada Lovelace", code)
    assert what == "added" and is_member_id(ada.learner_id) and ada.code == code
    again, what = book.add_member("ada  LOVELACE", ids.new_recovery_code())  # folds the same
    assert what == "kept" and again.learner_id == ada.learner_id and again.code == code
    assert [m.name for m in book.members()] == ["Ada Lovelace"]
    assert book.member_name(ada.learner_id) == "Ada Lovelace"
    assert book.member_name("g:" + "0" * 20) is None and book.member_name(None) is None


def test_only_the_join_code_makes_a_browser_a_member(book):
    ada, _ = book.add_member("Ada", ids.new_recovery_code())
    key, linked = _join(book, ada.code)
    assert linked == ada.learner_id
    assert book.members()[0].browsers == 1
    member = ids.resolve(ids.Claim("anything I type", key), linked,
                         member=book.member_name(linked))
    assert (member.id, member.label, member.kind, member.owns_history) == (
        ada.learner_id, "Ada", "member", True)
    # A guest cannot become a member by its own means: its id is its key's, its label guest.
    other = ids.new_browser_key()
    guest = ids.resolve(ids.Claim("Ada", other), book.linked_learner(ids.key_hash(other)))
    assert guest.kind == "guest" and not is_member_id(guest.id) and guest.label == "Ada (guest)"


def test_renewing_a_leaked_link_shuts_out_every_browser_that_used_it(book):
    ada, _ = book.add_member("Ada", ids.new_recovery_code())
    mine, _ = _join(book, ada.code)
    leaked, _ = _join(book, ada.code)
    fresh = ids.new_recovery_code()
    renewed, what = book.add_member("Ada", fresh, renew=True)
    assert what == "renewed" and renewed.code == fresh and renewed.learner_id == ada.learner_id
    assert [book.linked_learner(ids.key_hash(k)) for k in (mine, leaked)] == [None, None]
    assert _join(book, ada.code)[1] is None  # the old link joins nobody
    assert _join(book, fresh)[1] == ada.learner_id


def test_the_list_is_bounded(book, monkeypatch):
    from gradebook import roster

    monkeypatch.setattr(roster, "MAX_MEMBERS", 3)
    for i in range(3):
        book.add_member(f"learner {i}", ids.new_recovery_code())
    with pytest.raises(ValueError):
        book.add_member("one too many", ids.new_recovery_code())
    assert book.add_member("learner 0", ids.new_recovery_code())[1] == "kept"  # no new row
    assert MAX_MEMBERS >= 300  # a large course fits


def test_two_teachers_adding_one_name_at_once_make_one_member(book):
    results: list = []

    def add() -> None:
        results.append(book.add_member("Grace Hopper", ids.new_recovery_code()))

    threads = [threading.Thread(target=add) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len({m.learner_id for m, _ in results}) == 1 and len(book.members()) == 1
    code = book.members()[0].code
    assert _join(book, code)[1] == results[0][0].learner_id  # the code kept is the one that works
