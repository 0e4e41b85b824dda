"""The breaks issue 29's fourth pass left open, closed by the teacher's class list: a classmate
who arrives *after* a student started minting keys, and a new-learner allowance spent by minted
page sessions. A learner who joined by their class link is a member (gradebook.roster):
no flood can mint one, so members spend no allowance and come before every minted key."""

from __future__ import annotations

import pytest

from gradebook import Claim, open_gradebook
from gradebook import identity as idm
from grader.report import Report
from grader.report import TestResult as Result
from transformer_lab.message import Refusal
from webapp.services import class_list
from webapp.services import submissions as glue
from webapp.serving.limits import Limits, origin_of
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket, TurnQueue
from webapp.serving.who import ClientKey, vouched_for
from webapp.serving.wing import Serving

CLASS = "198.51.100.7"


def test_member_units_are_vouched_for_and_spend_no_allowance():
    assert origin_of("id:c:0123456789abcdef0123") == "member"
    assert vouched_for("id:c:0123") and vouched_for("id:hf:ada")
    assert not any(vouched_for(u) for u in ("id:g:c:x", "anon:c:", "id:api:c:1@x", "name:c:x"))
    limits = Limits.in_memory(ServingSettings(rate_limit=100, new_learners_per_address=10))
    # A student's minted page sessions spend the address's allowance (10 of them, 4 keys each)
    for s in range(10):
        for k in range(4):
            limits.admit(ClientKey(f"tab{s}", CLASS, f"id:g:minted{s}-{k}"))
    late_guest = limits.admit(ClientKey("late", CLASS, "id:g:late-classmate"))
    assert late_guest is not None and late_guest.reason == "new_learners"  # still the case
    members = [limits.admit(ClientKey(f"m{i}", CLASS, f"id:c:member{i:02d}")) for i in range(30)]
    assert members == [None] * 30  # every member of the class, allowance or not


def test_a_member_who_arrives_after_the_flood_takes_a_minted_place():
    """The red team's break: 200 keys minted *before* a classmate was ever seen held every
    place of the class address, and nothing told the classmate from them."""
    q = TurnQueue(slots=2, per_address=200, clock=lambda: 0.0)
    bots = [q.admit(ClientKey(f"bot{b}", CLASS, f"anon:bot{b}")) for b in range(205)]
    assert sum(isinstance(t, Ticket) for t in bots) == 200
    guest = q.admit(ClientKey("g", CLASS, "id:g:new-classmate"))
    assert isinstance(guest, Refusal)  # a guest seen after the keys still cannot be told apart
    members = [q.admit(ClientKey(f"m{i}", CLASS, f"id:c:m{i:02d}")) for i in range(30)]
    assert all(isinstance(t, Ticket) for t in members)
    assert sum(isinstance(t, Ticket) and t.state == "pushed" for t in bots) == 30
    # Members never push one another out, and a bot back at the door takes no member's place.
    assert isinstance(q.admit(ClientKey("bot0", CLASS, "anon:bot0")), Refusal)
    assert isinstance(q.admit(ClientKey("m99", CLASS, "id:c:m99")), Ticket)  # a bot's, again
    assert all(t.state in ("waiting", "running") for t in members)


@pytest.fixture
def book(tmp_path):
    with open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite3'}") as gb:
        yield gb


def _graded(exercise_id: str, code: str, label: str, learner_id: str | None = None) -> Report:
    return Report(exercise_id, [Result("t", 1.0, 1.0, True, {"en": "", "zh": ""})])


def test_a_member_is_graded_and_stored_under_the_teachers_name_during_a_flood(book):
    """End to end through the submit path: the allowance is spent by a student's minted
    sessions; a classmate who opened their class link is graded, stored under the name the
    teacher wrote (whatever they typed), and a classmate without one is refused."""
    settings = ServingSettings(rate_limit=100, new_learners_per_address=8, grading_slots=1)
    sub = glue.Submitter(Serving.local(settings), book, _graded)
    for s in range(4):  # the flood: 4 sessions x 2 keys = the address's 8 new learners
        for _k in range(2):
            out = sub.submit("causal-mask", "x = 1\n", Claim("", idm.new_browser_key()),
                             f"flood{s}", client=ClientKey(f"flood{s}", CLASS))
            assert isinstance(out, glue.Stored)
    late = sub.submit("causal-mask", "x = 1\n", Claim("Mei", idm.new_browser_key()), "mei",
                      client=ClientKey("mei", CLASS))
    assert isinstance(late, Refusal) and late.reason == "new_learners"
    issued, _ = class_list.add(book, ["Mei Chen"])
    key = idm.new_browser_key()
    assert class_list.join(book, key, issued[0].member.code).name == "Mei Chen"
    out = sub.submit("causal-mask", "x = 1\n", Claim("typed anything", key), "mei",
                     client=ClientKey("mei", CLASS))
    assert isinstance(out, glue.Stored), out
    assert (out.learner.kind, out.submission.learner, out.submission.learner_id) == (
        "member", "Mei Chen", issued[0].member.learner_id)
    # A learner's own recovery code is no class link: it joins nobody to the class list.
    guest_code = idm.new_recovery_code()
    book.set_recovery(idm.guest_id(idm.new_browser_key()), idm.recovery_hash(guest_code))
    assert class_list.join(book, idm.new_browser_key(), guest_code) is None
