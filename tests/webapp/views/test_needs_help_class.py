"""Issue 25, item 1: a scripted class of 30 over 30 minutes of class time (a fake clock) with a
known "needs help" truth, worked out from the script, against the class view's list at every
minute: who is on it, why, and in which order of urgency."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from gradebook.model import Attempt
from webapp.services.class_summary import summarise

START = datetime(2026, 9, 1, 9, 0, tzinfo=timezone.utc)
EX = "causal-mask"
KINDS = {"repeats": range(0, 5), "fixes": range(5, 10), "quiet": range(10, 15),
         "steady": range(15, 20), "wanders": range(20, 25), "absent": range(25, 30)}


def plan() -> list[tuple[int, int, float, tuple[str, ...]]]:
    """(minute, learner, score out of 12, mistakes) of every submission in the lesson."""
    out = []
    for n in KINDS["repeats"]:  # the same mistake every 3 minutes from minute 2, never fixed
        out += [(m, n, 3.0, ("mask-after-softmax",)) for m in range(2, 31, 3)]
    for n in KINDS["fixes"]:  # the same, then full marks at minute 15
        out += [(m, n, 3.0, ("mask-after-softmax",)) for m in range(2, 15, 3)] + [(15, n, 12.0, ())]
    for n in KINDS["quiet"]:  # one failing try at minute 3, then nothing
        out.append((3, n, 3.0, ("no-scale",)))
    for n in KINDS["steady"]:  # a better score every 4 minutes until full marks
        out += [(m, n, min(12.0, 2.0 * (k + 1)), ()) for k, m in enumerate(range(1, 31, 4))]
    for n in KINDS["wanders"]:  # a different mistake each time, never a better score
        out += [(m, n, 3.0, (("no-scale", "mask-after-softmax")[k % 2],))
                for k, m in enumerate(range(2, 31, 3))]
    return sorted(out)


def rows_until(minute: int) -> list[Attempt]:
    return [Attempt(i + 1, f"learner{n:02d} (guest)", f"g:{n:02d}", EX, score, 12.0, "graded",
                    (START + timedelta(minutes=m)).isoformat(), mistakes, "", "")
            for i, (m, n, score, mistakes) in enumerate(plan()) if m <= minute]


def truth(minute: int) -> list[tuple[str, set[int]]]:
    """The expected list at ``minute`` in blocks of equal urgency, from the script alone."""
    same = {n for n in KINDS["repeats"] if minute >= 8}  # attempts at 2, 5, 8: three
    same |= {n for n in KINDS["fixes"] if 8 <= minute < 15}
    no_gain = {n for n in KINDS["wanders"] if minute >= 8}
    quiet = {n for n in KINDS["quiet"] if minute >= 13}  # silent 10 minutes after minute 3
    blocks = [("same_mistake", same), ("no_gain", no_gain), ("silent", quiet)]
    return [(reason, who) for reason, who in blocks if who]


def test_the_list_matches_the_scripted_truth_at_every_minute_of_the_lesson():
    for minute in range(0, 31):
        s = summarise(rows_until(minute), [EX], now=START + timedelta(minutes=minute, seconds=30))
        got = [(x.reason, int(x.learner.key[-2:])) for x in s.stuck]
        blocks, i = [], 0
        for reason, who in truth(minute):  # in order of urgency, each block complete
            block = got[i:i + len(who)]
            assert {r for r, _ in block} == {reason} and {n for _, n in block} == who, (
                minute, reason, got)
            i += len(who)
            blocks.append(block)
        assert i == len(got), (minute, got)  # nobody else: not steady, fixed or absent learners
