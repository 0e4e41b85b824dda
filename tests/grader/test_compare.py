"""compare.py: one output value against the expected one, with hand-built values and numpy's own
isclose as the reference for what "close" means."""

import numpy as np
import pytest

from grader.feedback.compare import as_float_array, compare, select
from grader.sandbox.codec import Opaque
from grader.typed import Check

W = Check(kind="allclose", label="weights")


@pytest.mark.parametrize("delta", [0.0, 5e-7, 9e-6, 2e-5, 1e-3])
def test_allclose_agrees_with_numpy_isclose(delta):
    want = np.array([[1.0, 2.0], [0.0, -3.0]])
    got = want + delta
    ok = np.isclose(got, want, rtol=1e-5, atol=1e-6).all()  # the independent reference
    assert (compare(W, got, want) is None) == bool(ok)


def test_public_values_name_the_largest_difference_and_how_many_entries_are_off():
    want = np.zeros((2, 3))
    got = want.copy()
    got[0, 1], got[1, 2] = 0.25, -0.5  # two of six entries off, the largest by 0.5
    msg = compare(W, got, want)
    assert msg["en"] == ("`weights` has the right shape but wrong values (largest difference 0.5, "
                         "2 of 6 entries off).")
    assert "0.5" in msg["zh"] and "6 个元素中有 2 个不符" in msg["zh"]


def test_hidden_values_say_how_much_is_wrong_only_in_words():
    want = np.array([[0.2, 0.3, 0.5]])
    every = compare(W, want + 1.0, want, hidden=True)["en"]
    some = compare(W, want + np.array([[0.0, 0.0, 7.25]]), want, hidden=True)["en"]
    assert "every entry" in every and "some entries" in some
    assert "7.25" not in some and "0.5" not in every


def test_shape_messages_echo_a_plausible_shape_and_hide_an_implausible_one():
    want = np.zeros((2, 3))
    assert compare(W, np.zeros((3, 2)), want)["en"] == "`weights` has shape (3, 2), expected (2, 3)."
    huge = compare(W, np.zeros((1, 9999)), want, hidden=True)["en"]
    assert huge == "`weights` has the wrong shape: expected (2, 3)." and "9999" not in huge


def test_nan_where_the_expected_has_none_is_said_without_a_guessed_cause():
    """compare.py sees no inputs, so it cannot tell a row of -inf from an overflow: it says
    what it sees; the cause, where the case's inputs single it out, is grader/feedback/observe.py's."""
    want = np.array([[0.5, 0.5]])
    msg = compare(W, np.array([[np.nan, np.nan]]), want)["en"]
    assert msg == "`weights` contains NaN where the right values are all finite numbers."
    assert compare(W, np.array([[np.nan, 1.0]]), np.array([[np.nan, 1.0]])) is None  # NaN where due


def test_missing_or_non_numeric_values():
    want = np.ones(2)
    assert compare(W, None, want)["en"] == "`weights` is None: nothing was returned."
    assert "should be numbers" in compare(W, "text", want)["en"]
    assert "a Secret object" in compare(W, Opaque("Secret"), want)["en"]
    # On hidden cases a learner-chosen class name is never repeated (it could spell data).
    assert "Secret" not in compare(W, Opaque("Secret"), want, hidden=True)["en"]


def test_bool_answers_say_what_the_wrong_answer_claims():
    spec = Check(kind="equal", label="is_equivariant",
                 true_means={"en": "the layer is equivariant", "zh": "该层等变"},
                 false_means={"en": "the layer is not equivariant", "zh": "该层不等变"})
    assert compare(spec, True, True) is None
    assert compare(spec, np.array([True]), True) is None  # a one-element tensor counts as its value
    msg = compare(spec, False, True, hidden=True)
    assert msg["en"] == "`is_equivariant` returns False where the layer is equivariant."


def test_equal_on_public_cases_shows_both_values():
    spec = Check(kind="equal", label="names")
    assert compare(spec, ["a", "b"], ["a", "b"]) is None
    assert compare(spec, ["a"], ["a", "b"])["en"] == "`names` is ['a'], expected ['a', 'b']."


def test_described_attributes_name_what_differs():
    spec = Check(kind="equal", label="SimpleMHA")
    want = {"query": "Linear(8, 8, bias=True)", "out_proj": "Linear(8, 8, bias=True)"}
    got = {"query": "Linear(8, 8, bias=True)", "out_proj": "missing"}
    msg = compare(spec, got, want, hidden=True)["en"]
    assert "`out_proj`" in msg and "`query`" not in msg


def test_type_dtype_and_shape_checks():
    assert compare(Check(kind="type"), True, False) is None
    msg = compare(Check(kind="type", label="ok"), np.array([True]), False)["en"]
    assert msg.startswith("`ok` should be a Python bool") and "bool(...)" in msg
    f32 = np.zeros(2, dtype=np.float32)
    assert compare(Check(kind="dtype"), f32, np.zeros(3, dtype=np.float32)) is None
    assert "float64, expected float32" in compare(Check(kind="dtype"), f32.astype(np.float64), f32)["en"]
    assert compare(Check(kind="shape"), np.zeros((4, 2)), [4, 2]) is None  # expected as a list
    assert "expected (4, 2)" in compare(Check(kind="shape"), np.zeros((2, 4)), [4, 2])["en"]


def test_a_checks_own_failure_message_replaces_the_generic_one():
    fail = {"en": "Use the scale 1/sqrt(d).", "zh": "请使用 1/sqrt(d) 缩放。", "mistake": "no-scale"}
    spec = Check(kind="allclose", label="weights", fail=fail)
    assert compare(spec, np.ones(2) * 3, np.ones(2)) == fail


def test_select_picks_tuple_items_and_explains_a_missing_one():
    assert select((1, (2, 3)), (1, 0), "out") == (2, None)
    value, problem = select(np.zeros(3), (1,), "weights")
    assert value is None and "expected a tuple with at least 2 items" in problem["en"]


def test_as_float_array_accepts_numbers_and_refuses_text_and_bools():
    assert as_float_array([[1, 2], [3, 4]]).dtype == np.float64
    assert as_float_array(True) is None and as_float_array("1.0") is None
    assert as_float_array({"a": 1}) is None


def test_equal_compares_arrays_as_arrays_and_stays_bounded_by_the_expected():
    import time

    from grader.feedback.compare import same

    e = np.array([[True, False], [True, True]])
    assert same(e.copy(), e) and not same(e.astype(np.int64), e) and not same(e.T[:1], e)
    assert not same(e.tolist(), e) and not same(["array", "bool", e.tolist()], e)
    assert same([1, (2, "a")], (1, [2, "a"])) and not same([1, 2], [1, 2, 3])
    assert same({"a": [1]}, {"a": (1,)}) and not same({"a": 1}, {"b": 1})
    nan = np.array([np.nan])
    assert not same(nan, nan.copy())  # as before: NaN equals nothing
    spec = Check(kind="equal", label="causal_mask(2)")
    t0 = time.process_time()
    for hidden in (False, True):
        for got in (np.zeros((4096, 0), bool), np.ones(4_000_000, bool), [[]] * 20_000):
            assert compare(spec, got, e, hidden=hidden)
    assert time.process_time() - t0 < 0.2


def test_public_values_are_shown_in_a_bounded_preview():
    spec = Check(kind="equal", label="x")
    msg = compare(spec, np.arange(10**6), [1, 2])["en"]
    assert msg.startswith("`x` is array of shape (1000000,), int64: [0, 1, 2") and len(msg) < 300
    assert compare(spec, [[1, 2]] * 10**5, [1])["en"].count("...") == 1
