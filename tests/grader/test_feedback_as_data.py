"""Issue 23: mistakes registered once, the learner's own exception shown as raised (with nothing
hidden in it), and hints shown only where their premise holds."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from gradebook.csv_export import rows_to_csv
from grader import bundle, mistakes
from grader.exercises import all_exercises, get
from grader.feedback.learner_error import shown_message
from grader.feedback.premises import Premises
from grader.paths import deployment_seed

EXERCISES = sorted(all_exercises())


# --- one registry of mistakes ------------------------------------------------------------------

@pytest.mark.parametrize("exercise_id", EXERCISES)
def test_every_mistake_a_test_mutant_or_diagnoser_names_is_registered_with_both_titles(exercise_id):
    assert mistakes.problems(get(exercise_id)) == []


def test_the_contract_mistakes_have_titles_in_both_languages_that_are_not_their_ids():
    for entry in mistakes.contract().values():
        assert entry.title["en"] and entry.title["zh"], entry
        assert entry.id.replace("-", " ") not in (entry.title["en"].lower(), entry.title["zh"])
        assert re.search(r"[\u4e00-\u9fff]", entry.title["zh"]), entry


def _hidden_copy(tmp_path: Path, monkeypatch, exercise_id: str) -> Path:
    """A copy of one exercise's hidden folder under LAB_HIDDEN_DIR, to edit in a test."""
    import shutil

    src = get(exercise_id).hidden_dir
    dst = tmp_path / "hidden" / exercise_id
    shutil.copytree(src, dst)
    monkeypatch.setenv("LAB_HIDDEN_DIR", str(tmp_path / "hidden"))
    monkeypatch.setattr(get(exercise_id), "_cache", {})
    return dst


def test_loading_refuses_a_test_that_names_an_unregistered_mistake(tmp_path, monkeypatch):
    hidden = _hidden_copy(tmp_path, monkeypatch, "causal-mask")
    tests = hidden / "tests.py"
    tests.write_text(tests.read_text().replace('"mistake": "changes-input"',
                                               '"mistake": "changes-the-input"', 1))
    with pytest.raises(ValueError, match="changes-the-input"):
        get("causal-mask").hidden_cases(1)


def test_loading_refuses_a_mutant_or_a_diagnoser_that_names_an_unregistered_mistake(tmp_path, monkeypatch):
    hidden = _hidden_copy(tmp_path, monkeypatch, "masked-softmax")
    (hidden / "mistakes").mkdir(exist_ok=True)  # mutants are edits now; a file still may be one
    (hidden / "mistakes" / "not-in-the-table.py").write_text("def masked_softmax(X, valid_lens=None):\n    return X\n")
    with pytest.raises(ValueError, match="not-in-the-table"):
        get("masked-softmax").mistakes()
    (hidden / "mistakes" / "not-in-the-table.py").unlink()
    diagnose = hidden / "diagnose.py"
    diagnose.write_text(diagnose.read_text() + '\n\ndef _other(case, records):\n    return "a-guess"\n')
    with pytest.raises(ValueError, match="a-guess"):
        get("masked-softmax").diagnoser()
    assert any("a-guess" in p for p in mistakes.problems(get("masked-softmax")))


def test_a_mutant_is_the_reference_with_its_named_edit(tmp_path, monkeypatch):
    hidden = _hidden_copy(tmp_path, monkeypatch, "causal-mask")
    reference = (hidden / "reference.py").read_text()
    table = json.loads((hidden / "mistakes.json").read_text())
    mutant = next(m for m in get("causal-mask").mistakes() if m.name == "upper-triangle")
    edit = table["upper-triangle"]["edit"]
    assert mutant.source == reference.replace(edit["replace"], edit["with"]) != reference


def test_a_stale_or_ambiguous_edit_is_refused_and_listed(tmp_path, monkeypatch):
    hidden = _hidden_copy(tmp_path, monkeypatch, "causal-mask")
    table = json.loads((hidden / "mistakes.json").read_text())
    table["upper-triangle"]["edit"] = {"replace": "no such line\n", "with": "x = 1\n"}
    table["no-scale"]["edit"] = {"replace": "\n", "with": "\n\n"}  # everywhere: ambiguous
    (hidden / "mistakes.json").write_text(json.dumps(table, ensure_ascii=False))
    found = mistakes.problems(get("causal-mask"))
    assert any("'upper-triangle'" in p and "0 times" in p for p in found), found
    assert any("'no-scale'" in p and "exactly once" in p for p in found), found
    with pytest.raises(ValueError, match="exactly once"):
        get("causal-mask").mistakes()


def test_a_title_without_chinese_is_a_problem(tmp_path, monkeypatch):
    hidden = _hidden_copy(tmp_path, monkeypatch, "causal-mask")
    table = json.loads((hidden / "mistakes.json").read_text())
    table["no-scale"]["title"].pop("zh")
    (hidden / "mistakes.json").write_text(json.dumps(table, ensure_ascii=False))
    assert any("no-scale" in p and "zh title" in p for p in mistakes.problems(get("causal-mask")))


class _Row:
    """A stored submission as rows_to_csv reads it."""

    def __init__(self, exercise: str, named: list[str]):
        self.id, self.learner, self.exercise, self.score, self.max_score = 1, "Ana", exercise, 3, 12
        self.tests, self.status, self.submitted_at, self.grader_version = [], "ok", "t", "v"
        self.learner_id, self.mistakes, self.stage, self.stage_zh, self.code = "k", named, "", "", ""

    def passed_count(self) -> int:
        return 0


def test_the_chinese_csv_shows_titles_never_an_english_slug():
    """The contract mistakes were registered nowhere: the zh columns showed 'wrong return type'."""
    named = ["wrong-return-type", "changes-input", "no-scale"]
    text = rows_to_csv([_Row("causal-mask", named), _Row("permutation-invariance", ["tensor-bool"])])
    for row in csv.DictReader(io.StringIO(text)):
        zh = row["mistake_names_zh"]
        assert zh and re.search(r"[\u4e00-\u9fff]", zh), zh
        for slug in ("wrong return type", "changes input", "tensor bool", "no scale", "-"):
            assert slug not in zh, zh


# --- the learner's own exception, as raised ------------------------------------------------------

MHA_VIEW = '''import math
import torch
from torch import nn


class SimpleMultiHeadAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        if embed_dim % num_heads:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.h, self.d_k = num_heads, embed_dim // num_heads
        self.query = nn.Linear(embed_dim, embed_dim)
        self.key = nn.Linear(embed_dim, embed_dim)
        self.value = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        B, T, E = x.shape
        q = self.query(x).reshape(B, T, self.h, self.d_k).transpose(1, 2)
        k = self.key(x).reshape(B, T, self.h, self.d_k).transpose(1, 2)
        v = self.value(x).reshape(B, T, self.h, self.d_k).transpose(1, 2)
        s = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        w = torch.softmax(s, dim=-1)
        out = (w @ v).transpose(1, 2).view(B, T, E)
        return self.out_proj(out), w
'''

PART_A = '''import math
import torch

Q = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
K = Q.clone()
V = torch.tensor([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]])
scores = Q @ K.T / 2
weights = torch.softmax(scores, dim=-1)
context = weights[0] @ V

'''

BMM = PART_A + '''def attention(Q, K, V, mask=None):
    s = torch.bmm(Q, K.transpose(1, 2)) / math.sqrt(Q.shape[-1])
    if mask is not None:
        s = s.masked_fill(~mask, -1e9)
    w = torch.softmax(s, dim=-1)
    return torch.bmm(w, V), w
'''


def _failed(report) -> list:
    return [t for t in report.tests if not t.passed]


def test_a_view_after_transpose_is_told_in_torchs_own_words_with_the_learners_line(grader):
    report = grader.grade("multi-head-attention", MHA_VIEW)
    texts = [t.message["en"] for t in _failed(report)]
    assert any("view size is not compatible with input tensor's size and stride" in t
               and "Use .reshape(...) instead" in t and "at line 26 of your code" in t for t in texts), texts
    assert not any("shape mismatch" in t for t in texts)
    zh = [t.message["zh"] for t in _failed(report)]
    assert any("第 26 行" in t and "view size is not compatible" in t for t in zh), zh


def test_a_3d_only_bmm_on_4d_input_is_told_as_torch_says_it(grader):
    texts = [t.message["en"] for t in _failed(grader.grade("manual-attention", BMM))]
    assert any("batch1 must be a 3D tensor" in t for t in texts), texts
    assert not any("wrong type or an argument" in t for t in texts), texts


# Library exceptions whose text is built from hidden values: an index, an attribute name, a
# literal, a reshape size. None of those values may come back.
LEAKS = PART_A + '''def attention(Q, K, V, mask=None):
    total = abs(float(Q.double().sum()))
    which = int(total * 1e4) % 4
    if which == 0:
        return torch.zeros(3)[int(total * 1e4) + 17], None
    if which == 1:
        return getattr(Q, "v%d" % int(total * 1e6)), None
    if which == 2:
        return int("q" + repr(float(Q.flatten()[0]))), None
    return Q.reshape(int(total * 1e3) + 17, -1), None
'''


def _hidden_values(exercise_id: str) -> set[str]:
    found: set[str] = set()
    for case in bundle.load(get(exercise_id), deployment_seed()).cases:
        for step in case.steps:
            for a in list(step.get("args", ())) + list(step.get("kwargs", {}).values()):
                if hasattr(a, "flatten") and getattr(a, "dtype", None) is not None:
                    for x in np.asarray(a, dtype=np.float64).reshape(-1)[:200]:
                        if abs(x) > 1e-3 and x not in (0.0, 1.0):
                            found.update({f"{x:.3f}", f"{x:.4f}", repr(float(x))[:8]})
    return found


def test_a_library_exception_never_carries_hidden_values(grader):
    report = grader.grade("manual-attention", LEAKS)
    hidden = [t for t in _failed(report) if not t.visible]
    assert hidden
    values = _hidden_values("manual-attention")
    for t in hidden:
        text = json.dumps(t.message, ensure_ascii=False)
        assert not [v for v in values if v in text], (t.name, text[:400])
        numbers = [int(n) for n in re.findall(r"(?<![\w.])\d+(?![\w.])", text)]
        assert all(n <= 64 for n in numbers), (t.name, text[:400])  # sizes and lines, no index
        assert not re.search(r"\bv\d{3,}|'q-?\d", text), text[:400]  # the values after v, q: gone


def test_only_known_messages_are_shown_and_their_slots_only_where_they_say_nothing_hidden():
    sizes = frozenset({2, 3, 4})
    view = ("view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    assert shown_message(view, sizes) == view
    assert shown_message("mat1 and mat2 shapes cannot be multiplied (7x4 and 3x4)", sizes) == \
        "mat1 and mat2 shapes cannot be multiplied (…x4 and 3x4)"  # 7: no size of the inputs
    assert shown_message("shape '[4, -1]' is invalid for input of size 3", sizes) == \
        "shape '[…]' is invalid for input of size 3"  # a shape list never: which sizes is bits
    assert shown_message("name 'total_len' is not defined", sizes) == "name '…' is not defined"
    assert shown_message("Tensors must have same number of dimensions: got 3 and 0002", sizes) \
        == "Tensors must have same number of dimensions: got 3 and 2"  # re-rendered, not echoed
    for chosen in ("invalid literal for int() with base 10: '!!&#;$=%/'",  # red team A2
                   "module 'torch' has no attribute 'minus one point two'",  # A1
                   "一!一&丞;仳/", "x = [0.1234, 0.5678]", "batch1 must be a 3D tensor.",
                   "shape '[ , ,  , ,, ]' is invalid for input of size 4",  # B1: a list of spaces
                   "a Tensor with 0\u0be60\U0001d7ce16 elements cannot be converted to Scalar"):  # B2
        assert shown_message(chosen, sizes) is None, chosen


# The red team's attacks on the first, token-filtering version (2026-12-07): each encoded the
# hidden Q[0, 0] into text the filter let through. Each must now leak nothing of it.
ATTACKS = {
    "punctuation": PART_A + '''def attention(Q, K, V, mask=None):
    P = "!#$%&()*+,-/:;<=>"
    b = Q.detach().double().numpy().tobytes()
    int("".join(P[c >> 4] + P[c & 15] for c in b[:64]))
''',
    "source words": PART_A + '''NAMES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
SIGN = {"-": "minus", "+": "plus", ".": "point", "e": "exp"}
def attention(Q, K, V, mask=None):
    getattr(torch, " ".join(NAMES[int(c)] if c.isdigit() else SIGN[c] for c in "%+.8e" % float(Q.flatten()[0])))
''',
    "reshape digits": PART_A + '''def attention(Q, K, V, mask=None):
    s = "%.9e" % float(Q.flatten()[0])
    torch.empty(7).view(2 + s.startswith("-"), *[int(c) for c in s if c.isdigit()])
''',
    "inline raise": PART_A + '''def attention(Q, K, V, mask=None):
    if True: raise ValueError("%+.8e" % float(Q.flatten()[0]))
''',
    "frames compiled at run time": PART_A + '''def attention(Q, K, V, mask=None):
    b = Q.detach().double().numpy().tobytes()[:8]
    out = [""] * 2400
    for i, c in enumerate(b):
        out[200 + i * 260 + c - 1] = "def attention_f%d(): %s" % (i, "attention_f%d()" % (i + 1) if i < 7 else "getattr(torch, 'x')")
    out.append("attention_f0()")
    exec(compile("\\n".join(out), "submission.py", "exec"), {"torch": torch})
''' + "\n" * 2400 + "# attention_f0 attention_f1 attention_f2 attention_f3 attention_f4 attention_f5 attention_f6 attention_f7\n",
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_the_red_teams_encodings_leak_nothing(grader, attack):
    source = ATTACKS[attack]
    hidden = [t for t in _failed(grader.grade("manual-attention", source)) if not t.visible]
    assert hidden
    values = _hidden_values("manual-attention")
    for t in hidden:
        text = json.dumps([t.message, t.details], ensure_ascii=False)
        assert not [v for v in values if v in text], (t.name, text[:400])
        assert not re.search(r"[!#$%&()*+,/:;<=>]{4,}|minus|point|exp plus|\d\.\d{3}e", text), text[:400]
        quoted = re.findall(r'"([^"]*)"', t.message["en"])
        assert all(shown_message(q, frozenset(range(1, 65))) == q or "…" in q for q in quoted), quoted
        lines = [int(n) for n in re.findall(r"line (\d+)", text)]
        assert all(n <= source.count("\n") + 1 and n < 200 for n in lines), (lines, text[:300])


# --- hints only where their premise holds --------------------------------------------------------

def test_premises_are_read_from_the_code():
    assert Premises("w = torch.softmax(s, dim=-1)").calls_softmax
    assert Premises("w = F.softmax(s, -1)").calls_softmax and Premises("s.softmax(-1)").calls_softmax
    assert not Premises("e = s.exp(); w = e / e.sum(-1, keepdim=True)  # not softmax(").calls_softmax
    for fill in ("-1e6", "- 1e9", "float('-inf')", "-torch.inf", "torch.finfo(s.dtype).min", "-math.inf"):
        assert Premises(f"s = s.masked_fill(~m, {fill})").writes_large_fill, fill
    assert not Premises("s = s.masked_fill(~m, 0.0)").writes_large_fill
    assert Premises("s.masked_fill(~m, float('-inf'))").writes_minus_inf
    assert not Premises("s.masked_fill(~m, -1e9)").writes_minus_inf
    starter = get("manual-attention").starter
    assert Premises(starter, starter).keeps_placeholder
    assert not Premises(PART_A + "def attention(Q, K, V, mask=None):\n    return Q, K\n", starter).keeps_placeholder
    assert Premises().keeps_placeholder and not Premises().calls_softmax  # no source: as before


MASK_AFTER = '''import torch


def masked_softmax(X, valid_lens=None):
    if X.dim() != 3:
        raise ValueError("X must be 3-D")
    if valid_lens is None:
        return torch.softmax(X, dim=-1)
    B, n, m = X.shape
    if valid_lens.dim() == 1:
        lens = valid_lens[:, None].expand(B, n)
    elif valid_lens.dim() == 2 and valid_lens.shape == (B, n):
        lens = valid_lens
    else:
        raise ValueError("valid_lens must be (B,) or (B, n)")
    keep = torch.arange(m)[None, None, :] < lens[:, :, None]
    w = torch.softmax(X, dim=-1) * keep
    return w / w.sum(dim=-1, keepdim=True)
'''

GLOBAL_MAX = MASK_AFTER.replace('''    w = torch.softmax(X, dim=-1) * keep
    return w / w.sum(dim=-1, keepdim=True)''', '''    s = X.masked_fill(~keep, -1e6)
    e = torch.exp(s - s.max())
    return e / e.sum(dim=-1, keepdim=True)''').replace('''    if valid_lens is None:
        return torch.softmax(X, dim=-1)
''', '''    if valid_lens is None:
        valid_lens = torch.full((X.shape[0],), X.shape[-1])
''')


def test_code_that_calls_softmax_is_not_told_to_use_it_and_masking_after_it_is_named(grader):
    texts = [t.message["en"] for t in _failed(grader.grade("masked-softmax", MASK_AFTER))]
    assert texts
    assert not any("use torch.softmax" in t or "(torch.softmax does)" in t for t in texts), texts
    assert any("set to 0 after the softmax" in t or "hidden after the softmax" in t
               or "mistake" in t.lower() for t in texts), texts


def test_rows_that_underflow_are_not_called_an_overflow(grader):
    texts = [t.message["en"] for t in _failed(grader.grade("masked-softmax", GLOBAL_MAX))]
    assert any("underflows" in t and "each row's own maximum" in t for t in texts), texts
    assert not any("overflow" in t.replace("underflow", "") for t in texts), texts


def test_a_large_fill_already_written_is_not_prescribed_again():
    from grader.feedback.observe import _how_to_hide

    assert "large negative fill." in _how_to_hide(Premises("s = s + 0"))[0]
    told = _how_to_hide(Premises("s = s.masked_fill(~m, -1e9)"))[0]
    assert "Your code writes a large negative fill" in told and "is hidden in the scores" not in told


def test_the_placeholder_is_named_only_while_the_starters_placeholder_is_there():
    from grader.feedback.observe_values import constant_finding

    mine, want = np.zeros((3, 3)), np.arange(9.0).reshape(3, 3)
    starter = get("manual-attention").starter
    kept = constant_finding("scores", mine, want, Premises(starter, starter))
    gone = constant_finding("scores", mine, want, Premises(PART_A + "def attention(Q, K, V):\n    return 0\n", starter))
    assert "starter's placeholder" in kept[0] and "占位" in kept[1]
    assert "starter's placeholder" not in gone[0] and "占位" not in gone[1]


def test_a_mask_hint_needs_a_case_that_hides_keys():
    from grader.feedback.raised import error_text
    from grader.typed import ErrorInfo

    err = ErrorInfo("RuntimeError", ("RuntimeError",), "The size of tensor a (5) must match the size "
                    "of tensor b (3) at non-singleton dimension 1", "")
    plain = error_text(err, "add_positions", frozenset({5, 3}), "x = 1\n", masks=False)
    masked = error_text(err, "masked_softmax", frozenset({5, 3}), "x = 1\n", masks=True)
    assert "mask" not in plain["en"] and "掩码" not in plain["zh"]
    assert "a mask or a length may need an axis of size 1" in masked["en"]


def test_rounded_answers_are_called_rounded():
    from grader.feedback.observe_values import rounded_finding

    want = np.array([[0.4223, 0.1554, 0.4223], [0.1554, 0.4223, 0.4223]])
    said = rounded_finding("weights", np.round(want, 2), want)
    assert said and "within 0.005" in said[0] and "2 decimals" in said[0]
    assert rounded_finding("weights", want * 1.01, want) is None


# --- the gradebook keeps fields, not words --------------------------------------------------------

def test_rewording_every_feedback_sentence_changes_no_gradebook_column(grader):
    """The stage was parsed from 'The first output that differs is `x`': rewording the
    sentence emptied the column. Now the output is a field of the test's result."""
    from gradebook.model import Submission, diagnosis_of

    source = PART_A + (
        "def attention(Q, K, V, mask=None):\n"
        "    s = Q @ K.transpose(-2, -1) / 3.0\n"
        "    if mask is not None:\n"
        "        s = s.masked_fill(~mask, -1e9)\n"
        "    w = torch.softmax(s, dim=-1)\n"
        "    return w @ V, w\n")
    report = grader.grade("manual-attention", source)
    row = Submission.from_report(report, source, learner="Ana")
    first = next(t for t in row.tests if not t["passed"])
    assert first["differs_at"] and row.stage.endswith(f"· `{first['differs_at']}`"), row.stage
    reworded = [{**t, "message": {"en": "Reworded.", "zh": "改写。"}} for t in row.tests]
    assert diagnosis_of(reworded) == (row.mistakes, row.stage, row.stage_zh)


def test_a_softmax_premise_reads_the_function_under_test_and_only_library_softmaxes():
    source = ("import torch\nweights = torch.softmax(torch.zeros(3), dim=-1)\n\n"
              "def softmax(s):\n    e = (s - s.max()).exp()\n    return e / e.sum(-1, keepdim=True)\n\n"
              "def attention(Q, K, V, mask=None):\n    w = softmax(Q @ K.T)\n    return w @ V, w\n")
    whole = Premises(source)
    assert whole.calls_softmax  # Part A's module-level torch.softmax
    assert not whole.within("attention").calls_softmax  # its own softmax is hand-written
    assert Premises("from torch.nn.functional import softmax\ny = softmax(x, -1)").calls_softmax
    assert whole.within("not_there") is whole


def test_a_maximum_over_the_whole_tensor_is_named_as_such(grader):
    """Blind set 2026-12-07 (manual-attention__09, masked-softmax__07): exp(s - s.max()) was
    named 'exp() … overflows' although the code subtracts a maximum; its rows underflow."""
    texts = [t.message["en"] for t in _failed(grader.grade("masked-softmax", GLOBAL_MAX))]
    assert texts and all("overflows" not in t for t in texts), texts
    assert any("whole tensor" in t for t in texts), texts


def test_code_that_does_not_define_the_function_is_named_no_mistake(grader):
    """Chromium walk 2026-12-07: `import torch` alone was told 'does not define …' but the
    class view listed it under 'An odd d_model must raise ValueError' (a raises-check mutant
    matched any run that did not raise ValueError)."""
    report = grader.grade("permutation-invariance", "import torch\n")
    failed = _failed(report)
    assert failed and not [t.mistake for t in failed if t.mistake], [(t.name, t.mistake) for t in failed]
    assert any("does not define" in t.message["en"] for t in failed)


def test_a_broadcast_error_on_a_line_without_a_mask_speaks_of_no_mask():
    """Blind set 4: `Q @ K.T` on batched input (K.T reverses every axis) raised a broadcast
    error and was told "a mask or a length may need an axis of size 1"; the line has neither."""
    from grader.feedback.raised import error_text
    from grader.typed import ErrorInfo

    source = "import torch\n\ndef attention(Q, K, V, mask=None):\n    s = Q @ K.T\n    return s\n"
    trace = 'Traceback (most recent call last):\n  File "submission.py", line 4, in attention\n'
    err = ErrorInfo("RuntimeError", ("RuntimeError",), "The size of tensor a (5) must match the "
                    "size of tensor b (3) at non-singleton dimension 1", trace)
    said = error_text(err, "attention", frozenset({5, 3}), source, masks=True)
    assert "line 4" in said["en"] and "mask" not in said["en"] and "掩码" not in said["zh"]
    masked = source.replace("s = Q @ K.T", "s = s.masked_fill(mask, 0)")
    assert "a mask or a length" in error_text(err, "attention", frozenset({5, 3}), masked,
                                              masks=True)["en"]


def test_nan_columns_of_a_softmax_over_the_queries_are_told_as_the_wrong_axis():
    """Blind set 4: a softmax over the queries met a padded key (its whole column -inf, so NaN)
    and was told "your mask hides every key there", of a mask that hides no row."""
    from grader.feedback.observe import _nan_columns_over_queries

    s = np.random.default_rng(0).normal(size=(2, 3, 4))
    s[..., 3] = -np.inf
    e = np.exp(s - s.max(axis=-2, keepdims=True))
    with np.errstate(invalid="ignore"):
        w = e / e.sum(axis=-2, keepdims=True)
    assert _nan_columns_over_queries(w)
    rows = np.full((3, 4), 0.25)
    rows[1] = np.nan  # a query that sees no key: a row, not a column
    assert not _nan_columns_over_queries(rows)
