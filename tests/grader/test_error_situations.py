"""What a learner's exception means, read from their own failing line (issue 23, blind set 5):
each hint is shown only where its premise holds, and says nothing the line and the shown
message did not already say."""

from grader.feedback.raised import _situation

SIZES = frozenset({2, 3, 4, 5, 6, 8})
BROADCAST = "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 0"


def _en(found):
    return "" if found is None else found["en"]


def test_dot_t_is_named_only_on_a_line_that_uses_it():
    said = _en(_situation(BROADCAST, SIZES, line_text="    s = Q @ K.T / d ** 0.5"))
    assert "`.transpose(-2, -1)`" in said
    # the public examples may be 2-D, where .T is right: no "print the shapes there" (blind set 5)
    assert "public examples" not in said
    assert "`.T`" not in _en(_situation(BROADCAST, SIZES, line_text="    s = Q @ K.transpose(1, 2)"))
    assert "`.T`" not in _en(_situation(BROADCAST, SIZES, line_text="    s = Q @ K.Transposed"))
    assert "`.T`" not in _en(_situation(BROADCAST, SIZES, line_text="    s = Q @ K.T2"))


def test_a_weight_the_wrong_way_round_is_said_only_when_its_transpose_fits():
    said = _en(_situation("mat1 and mat2 shapes cannot be multiplied (6x5 and 6x5)", SIZES,
                          line_text="    q = queries @ W_q"))
    assert "wrong way round" in said and "5×6" in said and "`x @ W.T`" in said
    other = _en(_situation("mat1 and mat2 shapes cannot be multiplied (6x5 and 4x3)", SIZES,
                           line_text="    q = queries @ W_q"))
    assert "wrong way round" not in other and "inner sizes differ" in other
    hidden = _en(_situation("mat1 and mat2 shapes cannot be multiplied (6x5 and 6x…)", SIZES,
                            line_text="    q = queries @ W_q"))
    assert "wrong way round" not in hidden  # a size that may not be shown is not guessed


def test_if_on_a_tensor_is_said_only_for_an_if_on_a_name():
    msg = "Boolean value of Tensor with more than one value is ambiguous"
    said = _en(_situation(msg, SIZES, line_text="    if valid_lens:"))
    assert "`if valid_lens is not None:`" in said
    assert "`if not mask is not None:`" not in _en(_situation(msg, SIZES, line_text="    if not mask:"))
    assert "is not None" in _en(_situation(msg, SIZES, line_text="    if not mask:"))
    assert _situation(msg, SIZES, line_text="    keep = bool(mask)") is None


def test_indexing_the_batch_is_said_only_for_axis_0_and_a_plain_subscript():
    msg = "index 4 is out of bounds for dimension 0 with size 3"
    said = _en(_situation(msg, SIZES, line_text="    y = f(x[perm])"))
    assert "`x[perm]` indexes the first axis" in said and "`x[:, perm]`" in said
    assert _situation("index 4 is out of bounds for dimension 1 with size 3", SIZES,
                      line_text="    y = f(x[perm])") is None
    assert _situation(msg, SIZES, line_text="    y = f(x[:, perm])") is None


def test_view_after_transpose_names_reshape_in_both_languages():
    msg = ("view size is not compatible with input tensor's size and stride (at least one dimension "
           "spans across two contiguous subspaces). Use .reshape(...) instead.")
    found = _situation(msg, SIZES, line_text="    out = out.transpose(1, 2).view(B, T, E)")
    assert "`.reshape(...)`" in found["en"] and "`.reshape(...)`" in found["zh"] and "不再连续" in found["zh"]


def test_nothing_computed_at_run_time_is_echoed():
    """Names come from the learner's own line, sizes only when they are the case's own."""
    said = _en(_situation("index 4 is out of bounds for dimension 0 with size 3", SIZES,
                          line_text="    y = secret_" + "a" * 80 + "[perm]"))
    assert "a" * 60 not in said  # an identifier longer than the pattern's cap is not echoed whole


def test_a_weight_transposed_once_too_often_is_said_on_a_line_with_dot_t():
    """Blind set 6: W1 given as (d_model, d_ff), used as `X @ W1.T` (an nn.Linear habit)."""
    said = _en(_situation("mat1 and mat2 shapes cannot be multiplied (6x4 and 8x4)", SIZES,
                          line_text="    h = X @ W1.T + b1"))
    assert "transposes it with `.T`" in said and "`x @ W`" in said and "every* axis" not in said
    plain = _en(_situation("mat1 and mat2 shapes cannot be multiplied (6x4 and 8x4)", SIZES,
                           line_text="    h = X @ W1 + b1"))
    assert "`x @ W.T`" in plain and "transposes it" not in plain


def test_mixed_dtypes_are_said_only_for_a_dtype_message():
    said = _en(_situation("expected m1 and m2 to have the same dtype, but got: float != double", SIZES,
                          line_text="    h = X @ W1"))
    assert "float32 and float64 do not mix" in said and "`.float()`" in said
    assert _situation("division by zero", SIZES, line_text="    x = X.float() / 0") is None
    # an index of the wrong dtype is no product of two float dtypes
    assert _situation("expected scalar type Long but found Float", SIZES, line_text="    x.gather(1, idx)") is None
