"""typed.py: typed steps, checks and cases built from the dicts spec.py writes, labelled in the
learner's own names, and sent to the sandbox without anything the judge keeps."""

import torch

from grader.spec import Case, call, check, describe, fixture, get, new, probe, ref, set_params
from grader.typed import Check, Step, TestCase


def _mha_case() -> Case:
    x = torch.zeros(1, 2, 4)
    return Case("layer", 1.0, [
        new("SimpleMHA", 4, 2, save="m"),
        set_params("m", {"query.weight": torch.eye(4)}),
        describe("m", ["query"], check=check("equal", label="attributes", expected={"query": "Linear"})),
        call(ref("m"), x, check=[check("shape", label="out", select=0), check("allclose", select=0)]),
        fixture("self_attention", save="layer", d=4),
        call(ref("layer"), x, check=check("allclose")),
        get("scores", check=check("allclose")),
        probe("returns", fn=ref("m"), args=[x], check=check("equal", label="return kinds")),
        call("attention", x, x, x, raises="ValueError"),
    ], zh="层")


def test_steps_take_typed_fields_from_the_authored_dicts():
    steps = TestCase.of(_mha_case()).steps
    assert [s.op for s in steps] == ["new", "set_params", "describe", "call", "fixture", "call",
                                     "get", "fixture", "call"]
    assert [s.name for s in steps[:3]] == ["SimpleMHA", "m", "m"] and steps[3].name == ref("m")
    assert steps[0].args == (4, 2) and steps[0].save == "m" and steps[0].checks == ()
    assert [c.kind for c in steps[3].checks] == ["shape", "allclose"] and steps[3].checks[0].select == (0,)
    literal = steps[2].checks[0]
    assert literal.literal and literal.expected == {"query": "Linear"} and literal.label == "attributes"
    assert not steps[5].checks[0].literal  # no expected value: the reference's output is used
    raises = steps[8]
    assert raises.raises == "ValueError" and raises.checks == (Check(kind="raises", label="attention"),)


def test_labels_are_the_learners_names_never_the_graders_save_names():
    case = TestCase.of(_mha_case())
    assert case.labels == ("SimpleMHA", "SimpleMHA", "SimpleMHA", "SimpleMHA.forward",
                           "the grader's check of your code", "the layer you were given", "scores",
                           "return kinds", "attention")
    assert case.zh == "层" and case.steps[0].name == "SimpleMHA"
    assert case.steps[1].params.keys() == _mha_case().steps[1]["params"].keys()


def test_the_wire_form_is_the_authored_step_without_its_checks():
    case = _mha_case()
    sent = TestCase.of(case).to_wire()
    for authored, wire in zip(case.steps, sent, strict=True):
        assert wire.keys() == authored.keys()
        assert wire.get("check", {}) == {}  # the runner only needs to know a value is wanted
        assert {k: v for k, v in wire.items() if k != "check"}.keys() == \
            {k for k in authored if k != "check"}
    assert "check" not in sent[0] and sent[3]["check"] == {}
    assert case.steps[3]["check"][0]["kind"] == "shape"  # the authored case is left alone


def test_only_fixtures_get_the_submissions_nonce():
    sent = TestCase.of(_mha_case()).to_wire(nonce="n0nce")
    with_nonce = [s["op"] for s in sent if s.get("kwargs", {}).get("nonce") == "n0nce"]
    assert with_nonce == ["fixture", "fixture"]
    assert Step.from_dict(fixture("self_attention", save="l", d=4)).to_wire()["kwargs"] == {"d": 4}
