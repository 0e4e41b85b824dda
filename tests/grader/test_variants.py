"""Per-learner numbers (issue 24): exercise 1's Part A is graded on each learner's own Q and V.

The properties: one learner gets the same numbers every time (another process, a reload);
two learners get different ones; the learner's starter and statement hold theirs; the
lesson's worked example, or a classmate's answers, copied into Part A earn none of its points;
without a learner (the CLI, the blind sets) the exercise keeps the lesson's numbers.
"""

import dataclasses
import subprocess
import sys

import pytest

from grader import api, variants
from grader.exercises import get
from grader.paths import REPO_ROOT
from grader.selfcheck import _variant_problems

EX = "manual-attention"
PART_A = ("Part A: scores", "Part A: weights", "Part A: first context vector")
LESSON_Q = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]]

# Part A written as a learner who copied the lesson's worked answers (no computation).
COPIED = '''
import torch

scores = [[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 2.0]]
weights = [[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223], [0.2119, 0.2119, 0.5761]]
context = [5.0, 6.0, 7.0, 8.0]


def attention(Q, K, V, mask=None):
    s = Q @ K.transpose(-2, -1) / Q.shape[-1] ** 0.5
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf"))
    w = torch.softmax(s, dim=-1)
    return w @ V, w
'''


def _part_a(report) -> float:
    return sum(t.score for t in report.tests if t.name in PART_A)


def _solution_for(learner_id: str) -> str:
    """The reference as a learner with this id would write it: their own numbers."""
    ex = get(EX)
    return variants.render(ex.reference_source(), ex.variant_values(learner_id))


def test_one_learner_gets_the_same_numbers_in_any_process_and_two_learners_differ():
    ex = get(EX)
    mine = ex.variant_values("g:ada")
    assert mine == ex.variant_values("g:ada")
    code = (f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r}); from grader.exercises import get; "
            "print(repr(get('manual-attention').variant_values('g:ada')))")
    other_process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                   check=True).stdout.strip()
    assert other_process == repr(mine)
    drawn = {repr(ex.variant_values(f"g:{i}")) for i in range(200)}
    assert len(drawn) >= 190  # 200 learners: their numbers (almost) never coincide
    assert all(ex.variant_values(f"g:{i}")["Q"] != LESSON_Q for i in range(200))
    assert ex.variant_values(None) is None  # no learner: the lesson's numbers


def test_the_numbers_tell_an_unscaled_answer_apart():
    """The lesson's q0 context is the same with or without √d_k (issue 26, item 5); a drawn one is not."""
    import math

    ex = get(EX)
    for i in range(50):
        v = ex.variant_values(f"g:{i}")
        Q, V = v["Q"], v["V"]

        def ctx(scale, Q=Q, V=V):
            row = [sum(a * b for a, b in zip(Q[0], k, strict=True)) / scale for k in Q]
            e = [math.exp(s - max(row)) for s in row]
            return [sum(e[j] / sum(e) * V[j][c] for j in range(3)) for c in range(4)]

        assert max(abs(a - b) for a, b in zip(ctx(2.0), ctx(1.0), strict=True)) > 0.05


def test_the_starter_and_the_statement_hold_the_learners_numbers():
    from webapp.views.exercise_list import starter_text, statement_text

    values = get(EX).variant_values("g:ada")
    starter = starter_text(EX, "en", "g:ada")
    import torch

    ns: dict = {}
    exec(compile(starter, "starter.py", "exec"), ns)  # the starter runs; its Q and V are theirs
    assert torch.equal(ns["Q"], torch.tensor(values["Q"])) and torch.equal(ns["V"], torch.tensor(values["V"]))
    lines = starter.splitlines()  # one row of a matrix per line (a phone shows ~40 characters)
    first = lines.index(next(line for line in lines if line.startswith("Q = ")))
    assert all(len(line) <= 45 for line in lines[first:first + 3])
    assert "TODO" in starter and starter_text(EX, "zh", "g:ada").count("torch.tensor(") == starter.count("torch.tensor(")
    for lang in ("en", "zh"):
        text = statement_text(EX, lang, "g:ada")
        assert api.YOUR_NUMBERS not in text
        assert variants.show(get(EX).public_dir, values) in text
        assert api.YOUR_NUMBERS not in statement_text(EX, lang, None)  # a line, not the marker
    assert statement_text(EX, "en", "g:ada") != statement_text(EX, "en", "g:bob")
    assert statement_text("causal-mask", "en", "g:ada") == statement_text("causal-mask", "en", None)


def test_the_lessons_numbers_copied_earn_no_part_a_points_and_are_named(grader):
    for source in (COPIED, get(EX).reference_source()):  # literals, or computed on the lesson's Q
        report = grader.grade(EX, source, learner_id="g:ada")
        assert _part_a(report) == 0, [(t.name, t.score) for t in report.tests]
        assert report.score == 6  # Part B still counts
        first = next(t for t in report.tests if t.name == "Part A: scores")
        assert first.mistake == "lesson-numbers" and "your own" in first.message["en"]
        assert "你自己的" in first.message["zh"]


def test_own_numbers_score_full_and_a_classmates_answers_do_not(grader):
    mine = grader.grade(EX, _solution_for("g:ada"), learner_id="g:ada")
    again = grader.grade(EX, _solution_for("g:ada"), learner_id="g:ada")
    assert mine.full_marks and again.full_marks
    theirs = grader.grade(EX, _solution_for("g:bob"), learner_id="g:ada")
    assert _part_a(theirs) == 0 and theirs.score == 6
    assert "lesson-numbers" not in theirs.mistakes()  # a classmate's are not the lesson's


def test_without_a_learner_the_lessons_numbers_stay(grader):
    """The CLI, the blind sets and every older test grade the lesson's example as before."""
    assert grader.grade(EX, get(EX).reference_source()).full_marks
    assert _part_a(grader.grade(EX, COPIED)) == 6


def test_the_app_grades_each_learner_on_their_own_numbers(tmp_path):
    """Submitter passes the stored learner's id: the grade is drawn for who.id."""
    from gradebook import open_gradebook
    from grader.report import Report, TestResult
    from webapp.services import submissions
    from webapp.services.submissions import Claim
    from webapp.serving.settings import ServingSettings
    from webapp.serving.wing import Serving

    seen = []

    def graded(exercise_id, code, label, learner_id=None):
        seen.append(learner_id)
        return Report(exercise_id, [TestResult("t", 1.0, 1.0, True, {"en": "", "zh": ""})])

    book = open_gradebook(f"sqlite:///{tmp_path / 'gb.sqlite'}")
    sub = submissions.Submitter(Serving.local(ServingSettings(rate_limit=100)), book, graded)
    key = "k" * 43
    out = sub.submit(EX, "scores = 1", Claim(typed="Ada", browser_key=key), "s1")
    assert isinstance(out, submissions.Stored) and seen == [sub.numbers_key(out.learner.id)]
    # the id signed with this deployment's secret: not computable, or searchable, offline
    assert seen[0].startswith("n:") and out.learner.id not in seen[0]
    other = open_gradebook(f"sqlite:///{tmp_path / 'other.sqlite'}")
    elsewhere = submissions.Submitter(Serving.local(ServingSettings(rate_limit=100)), other, graded)
    assert elsewhere.numbers_key(out.learner.id) != seen[0]  # another deployment, other numbers
    assert sub.numbers_key(out.learner.id) == seen[0]  # the same learner: the same, every time
    book.close()
    other.close()


def test_no_draw_shares_the_lessons_scores_and_two_learners_rarely_share_theirs():
    """Part A's scores and weights depend on Q only through Q·Qᵀ (red team, 2026-12-07: with 0/1
    entries 155 such matrices, one in 600 draws the lesson's, a class of 30 sharing one 96% of
    the time)."""
    import collections

    ex = get(EX)

    def gram(Q):
        return tuple(tuple(sum(a * b for a, b in zip(r, s, strict=True)) for s in Q) for r in Q)

    grams = collections.Counter(gram(ex.variant_values(f"n:{i}")["Q"]) for i in range(3000))
    assert gram(LESSON_Q) not in grams
    shared = sum((n / 3000) ** 2 for n in grams.values())  # two learners drawing one matrix
    assert shared < 1e-3, shared


def test_grader_check_finds_a_variant_that_is_not_stable(tmp_path):
    ex = get(EX)
    folder = tmp_path / EX
    folder.mkdir()
    source = (ex.public_dir / "variant.py").read_text()
    (folder / "variant.py").write_text(source.replace("def draw(rng: random.Random) -> dict:\n",
                                                      "def draw(rng: random.Random) -> dict:\n"
                                                      "    rng = random.Random()\n"))
    shaky = dataclasses.replace(ex, public_dir=folder, _cache={})
    found = _variant_problems(shaky)
    assert any("same learner" in p for p in found), found
    assert any("{{your-numbers}}" not in p for p in found)
    assert _variant_problems(ex) == []


def test_render_refuses_a_name_set_twice_or_never():
    with pytest.raises(ValueError, match="once"):
        variants.render("Q = 1\nQ = 2\nV = 3\n", {"Q": [1.0], "V": [2.0]})
    with pytest.raises(ValueError, match="once"):
        variants.render("V = 3\n", {"Q": [1.0], "V": [2.0]})
    assert variants.render("Q = 1\n", None) == "Q = 1\n"
