"""The one admission desk (issue 28: webapp.serving.wing.Serving.admit) against the red team's
attacks on it: what one learner does to their own tab, to a full line, to Train and to a teacher's
regrade. Each test is the attack's smallest form, in process."""

from __future__ import annotations

import pytest

from transformer_lab.message import Refusal, Refused
from webapp.serving.settings import ServingSettings
from webapp.serving.turns import Ticket
from webapp.serving.who import ClientKey
from webapp.serving.wing import Serving


def test_every_door_has_a_kind_and_an_unknown_one_is_refused_loudly():
    serving = Serving.local()
    for kind in ("submit", "practice", "train", "regrade"):
        ticket = serving.admit(kind, ClientKey(f"s-{kind}", "192.0.2.1", f"bk:{kind}"))
        assert isinstance(ticket, Ticket), (kind, ticket)
        ticket.release()
    with pytest.raises(ValueError, match="unknown admission kind"):
        serving.admit("sneak", ClientKey("s", "192.0.2.1", "bk:x"))


def test_stopped_submits_do_not_lock_their_own_tab():
    """B1: each Submit stopped while it waited (refunded) kept the tab's own new-learner count;
    after four the tab was refused for 10 minutes with a sentence about the network address."""
    serving = Serving.local()
    bob = ClientKey("tab-1", "10.0.0.1", "bk:bob")
    for _ in range(8):
        ticket = serving.admit("submit", bob)
        assert isinstance(ticket, Ticket), ticket
        ticket.refund()  # what Ticket.wait() does when the learner pressed Stop
        ticket.release()
    assert isinstance(serving.admit("submit", bob), Ticket)


def test_refusals_by_a_full_line_do_not_lock_the_tab():
    """B1's second form: four refusals by a full address, then the line empties."""
    serving = Serving.local(ServingSettings(per_address_waiting=2))
    held = [serving.admit("submit", ClientKey(f"h{i}", "10.0.0.2", f"bk:h{i}")) for i in range(2)]
    bob = ClientKey("tab-2", "10.0.0.2", "bk:bob")
    for _ in range(5):
        refused = serving.admit("submit", bob)
        assert isinstance(refused, Refusal) and refused.reason != "new_learners", refused
    for ticket in held:
        ticket.release()
    assert isinstance(serving.admit("submit", bob), Ticket)


def test_a_tab_minting_keys_is_told_it_is_the_tab_not_the_network():
    """B1: the tab's own allowance (4 new learners) refused with the address's numbers (300,
    "your network address"); it now names the tab, in both languages."""
    serving = Serving.local()
    for i in range(4):
        assert isinstance(serving.admit("submit", ClientKey("tab", "10.0.0.3", f"bk:k{i}")), Ticket)
    refused = serving.admit("submit", ClientKey("tab", "10.0.0.3", "bk:k4"))
    assert isinstance(refused, Refusal) and refused.reason == "new_learners"
    assert "browser tab" in refused.message["en"] and "network address" not in refused.message["en"]
    assert "标签页" in refused.message["zh"] and "(4)" not in refused.message["en"]


def test_a_place_made_in_a_full_address_is_not_refused_by_a_stale_count():
    """B3: a signed-in classmate of a full address in a full line had a minted key pushed out
    for them, then was refused queue_full by the count taken before."""
    serving = Serving.local(ServingSettings(per_address_waiting=3, max_waiting=9, grading_slots=1))
    assert isinstance(serving.admit("submit", ClientKey("busy", "9.9.9.9", "bk:busy")), Ticket)
    minted = [serving.admit("submit", ClientKey(f"{a}-{i}", a, f"bk:{a}-{i}"))
              for a in ("10.0.0.4", "10.0.0.5", "10.0.0.6") for i in range(3)]
    assert all(isinstance(t, Ticket) for t in minted)
    dave = serving.admit("submit", ClientKey("d", "10.0.0.4", "id:hf:dave"))
    assert isinstance(dave, Ticket), dave
    assert sum(t.state == "pushed" for t in minted) == 1
    assert serving.grading.snapshot()["waiting"] == 9  # the line's bound holds


def test_a_regrade_never_takes_the_turn_of_a_learner_who_came_after_it():
    """B4: admitted while nobody waited, the regrade then took the next free slot from a learner
    who arrived after it."""
    serving = Serving.local()
    running = [serving.admit("submit", ClientKey(f"r{i}", "10.0.0.7", f"bk:r{i}")) for i in range(2)]
    regrade = serving.admit("regrade", ClientKey("regrade", "regrade", "regrade"))
    assert isinstance(regrade, Ticket) and regrade.state == "waiting"
    carol = serving.admit("submit", ClientKey("c", "10.0.0.7", "bk:carol"))
    running[0].release()
    assert carol.state == "running" and regrade.state == "waiting"
    running[1].release()  # nobody else waits: now the regrade runs
    assert regrade.state == "running"
    late = serving.admit("submit", ClientKey("d", "10.0.0.8", "bk:dan"))
    assert isinstance(late, Ticket)
    refused = serving.admit("regrade", ClientKey("regrade2", "regrade", "regrade2"))
    assert isinstance(refused, Refusal) and refused.reason == "line_busy"  # someone waits


def test_twins_of_three_addresses_cannot_shut_a_fourth_out_of_train():
    """B2: 3 addresses x 50 twins waiting for one run filled the training line's 150 places; a
    stranger's own run and its twin wait were refused queue_full, with the grader's words."""
    serving = Serving.local()
    twins = serving.twins
    with twins.lock:
        trained = twins.training("run-key")
    waits = {}
    for a in ("10.1.0.1", "10.1.0.2", "10.1.0.3"):
        for i in range(50):
            client = ClientKey(f"{a}-{i}", a)
            wait = twins.wait_for("run-key", client, lambda: False)
            next(wait)
            waits[client] = wait
    assert twins.by_group.total() == 150
    stranger = serving.admit("train", ClientKey("stranger", "10.2.0.1"))
    assert isinstance(stranger, Ticket), stranger
    assert twins.by_group.total() == 149  # the heaviest address's newest twin gave way
    still = {c for c, _ in twins.waits.values()}
    pushed = [w for c, w in waits.items() if c not in still]
    assert len(pushed) == 1
    with pytest.raises(Refused) as told:
        next(pushed[0])
    assert "another network" in told.value.message["en"] and "其他网络" in told.value.message["zh"]
    other = twins.wait_for("run-key", ClientKey("stranger-2", "10.2.0.2"), lambda: False)
    next(other)  # a stranger's twin gets a place too
    for wait in [*waits.values(), other]:
        wait.close()
    twins.done("run-key", trained)
    assert not twins.by_group and not twins.waits and not twins.why


def test_train_refusals_speak_of_training_not_of_submissions():
    serving = Serving.local(ServingSettings(train_per_address=2, train_max_waiting=4))
    first = serving.admit("train", ClientKey("a", "10.3.0.1"))
    waiting = serving.admit("train", ClientKey("b", "10.3.0.1"))
    full = serving.admit("train", ClientKey("c", "10.3.0.1"))
    assert isinstance(first, Ticket) and isinstance(waiting, Ticket)
    assert isinstance(full, Refusal) and full.reason == "address_full"
    assert "training runs" in full.message["en"] and "submission" not in full.message["en"]
    assert "训练" in full.message["zh"]


@pytest.mark.parametrize("settings", [ServingSettings(), ServingSettings(
    max_waiting=5, grading_slots=1, train_max_waiting=3, train_slots=2)])
def test_one_scheduler_orders_grading_and_training(settings):
    """Gradio's queue never holds a grading or training event back: their pools have a thread
    for every place the lines (and the twins beside the training line) can hold, plus those
    refused, so the order is turns.py's alone; gradio_patch's fair order sorts only the narrow
    playground pools."""
    pools = settings.pools()
    assert pools["submit"] > settings.max_waiting + settings.grading_slots
    assert pools["train"] > settings.train_max_waiting + settings.train_slots
    assert pools["play"] < settings.max_waiting and pools["measure"] == 1


def test_practice_runs_past_their_limit_are_told_so_not_of_submissions():
    """The chromium walk: twelve "Run public examples" clicks answered "You have sent 10
    submissions", on a page that says practice runs are not recorded (they are counted apart)."""
    serving = Serving.local()
    ana = ClientKey("tab", "10.4.0.1", "bk:ana")
    for _ in range(serving.settings.rate_limit):
        ticket = serving.admit("practice", ana)
        assert isinstance(ticket, Ticket)
        ticket.release()
    refused = serving.admit("practice", ana)
    assert isinstance(refused, Refusal) and refused.reason == "rate_limited"
    assert "public examples" in refused.message["en"] and "submission" not in refused.message["en"].split(";")[0]
    assert "公开示例" in refused.message["zh"]
    assert isinstance(serving.admit("submit", ana), Ticket)  # her submissions are untouched
