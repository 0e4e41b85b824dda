"""A learner's page (webapp.services.learner_page): attempts newest first, numbered per
exercise, each diffed with the one before; bounded whatever the learner sent."""

from __future__ import annotations

import time

from gradebook import Submission, open_gradebook
from webapp.services import learner_page as lp


def test_attempts_are_numbered_per_exercise_and_diffed_with_the_one_before(tmp_path):
    with open_gradebook(f"sqlite:///{tmp_path / 'g.sqlite3'}") as book:
        for i, ex in enumerate(["causal-mask", "manual-attention", "causal-mask"]):
            book.record(Submission("ada (guest)", ex, f"x = {i}\ny = 1\n", i, 4, [],
                                   learner_id="g:ada"))
        book.record(Submission("ada (guest)", "causal-mask", "old\n", 0, 4, []))  # no id: apart
        page = lp.load(book, "id:g:ada")
        assert page.total == 3 and [(a.sub.exercise, a.number) for a in page.attempts] == [
            ("causal-mask", 2), ("manual-attention", 1), ("causal-mask", 1)]
        assert page.attempts[0].diff == ["@@ -1,2 +1,2 @@", "-x = 0", "+x = 2", " y = 1"]
        assert page.attempts[1].diff == [] and page.attempts[2].diff == []
        old = lp.load(book, "label:ada (guest)")  # the row stored without an id only
        assert old.total == 1 and old.attempts[0].sub.code == "old\n"
        assert lp.load(book, "id:nobody") is None and lp.load(book, "nonsense") is None
        assert lp.parse_key(None) == (None, None)


def test_a_flood_of_huge_attempts_costs_the_page_a_bounded_amount(tmp_path):
    with open_gradebook(f"sqlite:///{tmp_path / 'g.sqlite3'}") as book:
        for i in range(lp.MAX_ATTEMPTS + 15):
            code = "\n".join(f"v{(i + k) % 7} = {k}" for k in range(30_000))  # ~300 kB
            book.record(Submission("bot (guest)", "causal-mask", code, 0, 4, [],
                                   learner_id="g:bot"))
        read = []
        history = book.history
        book.history = lambda *a, **kw: read.extend(out := history(*a, **kw)) or out
        t0 = time.process_time()
        page = lp.load(book, "id:g:bot")
        spent = time.process_time() - t0
    # Never every attempt's code (third red team: 1,500 attempts of 100 kB, 0.85 s, 152 MB):
    # the newest 40, and once more those of each exercise shown plus the one before.
    assert len(read) <= 2 * lp.MAX_ATTEMPTS + 1, len(read)
    assert page.total == lp.MAX_ATTEMPTS + 15 and len(page.attempts) == lp.MAX_ATTEMPTS
    assert all(len(a.diff) <= lp.MAX_DIFF and a.cut for a in page.attempts)
    n = lp.MAX_ATTEMPTS + 15  # numbered from the counts; the oldest shown diffed with the one before
    assert [a.number for a in page.attempts] == list(range(n, n - lp.MAX_ATTEMPTS, -1))
    assert page.attempts[-1].diff
    assert spent < 20  # bounded work: 40 diffs of at most 400 lines each
