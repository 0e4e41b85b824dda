"""Quick checks (exercises/<id>/quickcheck.json): bilingual, well-formed, judged and revealed;
exercise 2's reveal covers what issue 9 asks; the two lesson points are asked."""

import json

import pytest

from grader.paths import EXERCISES_DIR
from webapp.services import quickcheck


def _all():
    for path in sorted(EXERCISES_DIR.glob("*/quickcheck.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            yield path.parent.name, item


@pytest.mark.parametrize("exercise_id,item", list(_all()), ids=lambda v: v if isinstance(v, str) else v["id"])
def test_item_is_well_formed_and_bilingual(exercise_id, item):
    assert item["kind"] in ("text", "choice")
    for key in ("question", "reveal"):
        assert item[key]["en"].strip() and item[key]["zh"].strip()
        assert any("\u4e00" <= ch <= "\u9fff" for ch in item[key]["zh"])
    if item["kind"] == "choice":
        assert len(item["choices"]["en"]) == len(item["choices"]["zh"]) >= 3
        assert 0 <= item["answer"] < len(item["choices"]["en"])


def test_choice_is_judged_then_revealed():
    (item,) = quickcheck.load("multi-head-attention")
    wrong = (item["answer"] + 1) % len(item["choices"]["en"])
    assert quickcheck.answer(item, None, "en") == "Pick an answer first."
    assert quickcheck.answer(item, item["answer"], "en").startswith("✓")
    assert quickcheck.answer(item, wrong, "zh").startswith("✗")
    assert item["reveal"]["en"] in quickcheck.answer(item, wrong, "en")


def test_exercise_2_answer_box_then_reveal_covers_the_three_points():
    (item,) = quickcheck.load("permutation-invariance")
    assert item["kind"] == "text" and quickcheck.choices(item, "en") == []
    assert "first" in quickcheck.answer(item, "  ", "en")  # commit to an answer first
    text = quickcheck.answer(item, "the same rows, reordered", "en")
    assert "unordered set" in text  # weighted sum over an unordered set of keys
    assert "invariant" in text and "equivariant" in text
    assert "causal" in text.lower()
    assert "Positional encoding" in text and "Train" in text  # the two experiments
    assert "位置编码" in quickcheck.answer(item, "x", "zh")


def test_the_two_lesson_points_are_asked():
    texts = {ex: json.dumps(quickcheck.load(ex), ensure_ascii=False)
             for ex in ("manual-attention", "multi-head-attention")}
    assert "importance" in texts["manual-attention"] and "重要" in texts["manual-attention"]
    assert "cross" in texts["multi-head-attention"] and "交叉" in texts["multi-head-attention"]


def test_unknown_exercise_is_refused():
    with pytest.raises(ValueError):
        quickcheck.load("no-such-exercise")


def test_manual_attention_quick_check_gives_away_no_part_a_answer():
    """Walk-through issue 7: the check sits above the editor, so no value Part A asks for (the
    weights of the statement's Q, K, V, nor which query wins its own key) may appear in it, in either language."""
    import re

    import torch

    q = torch.tensor([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]])
    scores = q @ q.T / 2  # (3, 3)
    weights = scores.softmax(-1)  # (3, 3)
    answers = {f"{x:.3f}" for x in weights.flatten().tolist()} | {
        f"{x:.2f}" for x in weights.flatten().tolist()} | {
        f"{x:.3f}".rstrip("0") for x in weights.flatten().tolist()}
    assert "0.576" in answers  # the value the walk-through found revealed
    text = json.dumps(quickcheck.load("manual-attention"), ensure_ascii=False)
    shown = set(re.findall(r"\d+\.\d+", text))
    assert not shown & answers, shown & answers
    assert "[1,1,1,1]" not in text.replace(" ", "")  # nor which query wins its own key
    assert "importance" in text and "重要" in text  # still teaches the point
